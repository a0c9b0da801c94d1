package remote

import (
	"cmp"
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// Defaults of [Options].
const (
	DefaultUserAgent   = "skillsync/dev"
	DefaultTimeout     = 30 * time.Second
	DefaultMaxAttempts = 5
	DefaultMinBackoff  = 200 * time.Millisecond
	DefaultMaxBackoff  = 10 * time.Second
)

// maxIdleConnsPerHost is more than any sensible --parallelism.
const maxIdleConnsPerHost = 64

// Options configure a [Client]. Only BaseURL and Token are required.
type Options struct {
	// BaseURL is the tenant's address, such as https://tenant.example.com.
	// Plain http is accepted only for loopback hosts (127.0.0.0/8, ::1,
	// localhost), where the emulator runs.
	BaseURL string
	// Token is the bearer token sent with every request. It never appears
	// in an error, a RequestInfo or the printed form of a Client.
	Token string
	// UserAgent defaults to DefaultUserAgent; callers pass
	// "skillsync/"+version.
	UserAgent string
	// HTTPClient is copied, not modified, with its CheckRedirect replaced by
	// one refusing redirects to another host. Nil means a new client with
	// its own connection pool.
	HTTPClient *http.Client
	// Timeout bounds each attempt, reading the body included
	// (default DefaultTimeout).
	Timeout time.Duration
	// MaxAttempts bounds the attempts of one call, first included
	// (default DefaultMaxAttempts; 1 means no retry).
	MaxAttempts int
	// MinBackoff and MaxBackoff bound the jittered exponential wait between
	// attempts (defaults DefaultMinBackoff and DefaultMaxBackoff).
	MinBackoff, MaxBackoff time.Duration
	// OnRequest, when set, is called after every attempt, for --debug
	// logging. It may be called from several goroutines at once when the
	// Client is shared.
	OnRequest func(RequestInfo)
	// Sleep, when set, makes the wait between attempts in place of a
	// timer: it is called with the backoff or the Retry-After delay and
	// must return ctx.Err() once ctx is done, ending the call. Tests pass
	// one that records the delays and returns at once, so that no test
	// sleeps through a backoff.
	Sleep func(ctx context.Context, d time.Duration) error
}

// RequestInfo describes one attempt of a request, for [Options.OnRequest].
type RequestInfo struct {
	Method   string
	Path     string // path and query, relative to the base URL
	Status   int    // 0 when no response arrived
	Duration time.Duration
	Attempt  int   // 1 for the first attempt
	Err      error // the attempt's error, nil on success
}

// A Client calls the service. It is safe for concurrent use.
//
// Printing a Client with any fmt verb shows its base URL, never its token.
type Client struct {
	base        string // scheme://host[/prefix], no trailing slash
	baseURL     *url.URL
	token       secret
	redactor    *redact.Redactor // of token
	userAgent   string
	hc          *http.Client
	timeout     time.Duration
	maxAttempts int
	minBackoff  time.Duration
	maxBackoff  time.Duration
	maxBody     int64 // caps an answer's body, which past it is not read
	onRequest   func(RequestInfo)
	sleep       func(context.Context, time.Duration) error // Options.Sleep, else a timer

	now func() time.Time // a seam for tests, which read Retry-After dates against it
}

// BaseURL is the service address the client sends to, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.base }

// New checks opts and returns a client. It makes no request.
func New(opts Options) (*Client, error) {
	u, err := checkBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	if err := checkToken(opts.Token); err != nil {
		return nil, err
	}
	// Callers set the options, not users: a zero value means the default.
	c := &Client{
		base:        strings.TrimSuffix(u.String(), "/"),
		baseURL:     u,
		token:       secret(opts.Token),
		redactor:    redact.New(opts.Token),
		userAgent:   cmp.Or(opts.UserAgent, DefaultUserAgent),
		timeout:     cmp.Or(opts.Timeout, DefaultTimeout),
		maxAttempts: cmp.Or(opts.MaxAttempts, DefaultMaxAttempts),
		minBackoff:  cmp.Or(opts.MinBackoff, DefaultMinBackoff),
		maxBackoff:  cmp.Or(opts.MaxBackoff, DefaultMaxBackoff),
		maxBody:     32 << 20, // tests set less
		onRequest:   opts.OnRequest,
		now:         time.Now,
		sleep:       opts.Sleep,
	}
	if c.sleep == nil {
		c.sleep = sleepContext
	}

	var hc http.Client
	if opts.HTTPClient != nil {
		hc = *opts.HTTPClient
	} else if t, ok := http.DefaultTransport.(*http.Transport); ok {
		t = t.Clone()
		// net/http keeps 2 idle connections per host: with more requests in
		// flight than that, every round would close the others and dial
		// (and shake hands over TLS) again.
		t.MaxIdleConnsPerHost = maxIdleConnsPerHost
		hc.Transport = t
	}
	origin.Guard(&hc, c.baseURL, "the space's service", "the token")
	c.hc = &hc
	return c, nil
}
