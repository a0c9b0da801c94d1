package remote

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// Defaults of [Options].
const (
	DefaultUserAgent    = "skillsync/dev"
	DefaultTimeout      = 30 * time.Second
	DefaultMaxAttempts  = 5
	DefaultMinBackoff   = 200 * time.Millisecond
	DefaultMaxBackoff   = 10 * time.Second
	DefaultMaxBodyBytes = 32 << 20
)

const (
	// maxRetryAfter is the longest Retry-After the client waits for (or
	// MaxBackoff when longer); a service asking for more gets its error
	// returned rather than a CI job stalled.
	maxRetryAfter = 60 * time.Second
	// maxErrorBody bounds what is read of a failure's body: only its message
	// is kept.
	maxErrorBody = 64 << 10
	// maxRedirects matches net/http's own limit.
	maxRedirects = 10
	// maxIdleConnsPerHost is more than any sensible --parallelism.
	maxIdleConnsPerHost = 64
)

// Options configure a [Client]. Only BaseURL and Token are required.
//
// Printing an Options with any fmt verb shows the token as [REDACTED].
type Options struct {
	// BaseURL is the tenant's address, such as https://tenant.example.com.
	// Plain http is accepted only for loopback hosts (127.0.0.0/8, ::1,
	// localhost), where the emulator runs.
	BaseURL string
	// Token is the bearer token sent with every request. It never appears
	// in an error, a RequestInfo or the printed form of Options or Client.
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
	// MaxBodyBytes caps a response body (default DefaultMaxBodyBytes);
	// a bigger body fails the call without being read whole.
	MaxBodyBytes int64
	// OnRequest, when set, is called after every attempt, for --debug
	// logging. It may be called from several goroutines at once when the
	// Client is shared.
	OnRequest func(RequestInfo)
}

// String returns a description of o with the token redacted.
func (o Options) String() string {
	tok := ""
	if o.Token != "" {
		tok = "[REDACTED]"
	}
	return fmt.Sprintf("remote.Options{BaseURL:%q, Token:%s, UserAgent:%q, Timeout:%s, MaxAttempts:%d, MinBackoff:%s, MaxBackoff:%s, MaxBodyBytes:%d}",
		o.BaseURL, tok, o.UserAgent, o.Timeout, o.MaxAttempts, o.MinBackoff, o.MaxBackoff, o.MaxBodyBytes)
}

// GoString is String, so that %#v redacts the token too.
func (o Options) GoString() string { return o.String() }

// Format prints [Options.String] for every verb, so that no verb (%d, %x,
// %+v...) can reach the token through reflection.
func (o Options) Format(f fmt.State, verb rune) { io.WriteString(f, o.String()) }

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
	maxBody     int64
	onRequest   func(RequestInfo)

	// Seams for tests.
	now   func() time.Time
	sleep func(context.Context, time.Duration) error
}

// Format prints the client's base URL for every verb, never its token. It
// has a value receiver so that a dereferenced Client is covered too.
func (c Client) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "remote.Client{BaseURL:%q, Token:[REDACTED]}", c.base)
}

// BaseURL is the service address the client sends to, without a trailing
// slash.
func (c *Client) BaseURL() string { return c.base }

// secret is the token as the client keeps it: printed through reflection,
// say inside a caller's struct, it still shows as [REDACTED].
type secret string

func (s secret) Format(f fmt.State, verb rune) { io.WriteString(f, "[REDACTED]") }

// New checks opts and returns a client. It makes no request.
func New(opts Options) (*Client, error) {
	u, err := checkBaseURL(opts.BaseURL)
	if err != nil {
		return nil, err
	}
	if err := checkToken(opts.Token); err != nil {
		return nil, err
	}
	c := &Client{
		base:        strings.TrimSuffix(u.String(), "/"),
		baseURL:     u,
		token:       secret(opts.Token),
		redactor:    redact.New(opts.Token),
		userAgent:   opts.UserAgent,
		timeout:     opts.Timeout,
		maxAttempts: opts.MaxAttempts,
		minBackoff:  opts.MinBackoff,
		maxBackoff:  opts.MaxBackoff,
		maxBody:     opts.MaxBodyBytes,
		onRequest:   opts.OnRequest,
		now:         time.Now,
		sleep:       sleepContext,
	}
	if c.userAgent == "" {
		c.userAgent = DefaultUserAgent
	}
	if strings.ContainsAny(c.userAgent, "\r\n") {
		return nil, errors.New("user agent must be a single line")
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{
		{"timeout", &c.timeout, DefaultTimeout},
		{"minimum backoff", &c.minBackoff, DefaultMinBackoff},
		{"maximum backoff", &c.maxBackoff, DefaultMaxBackoff},
	} {
		switch {
		case *d.v < 0:
			return nil, fmt.Errorf("%s must not be negative (got %s)", d.name, *d.v)
		case *d.v == 0:
			*d.v = d.def
		}
	}
	if c.minBackoff > c.maxBackoff {
		return nil, fmt.Errorf("minimum backoff %s is longer than maximum backoff %s", c.minBackoff, c.maxBackoff)
	}
	switch {
	case c.maxAttempts < 0:
		return nil, fmt.Errorf("max attempts must not be negative (got %d)", c.maxAttempts)
	case c.maxAttempts == 0:
		c.maxAttempts = DefaultMaxAttempts
	}
	switch {
	case c.maxBody < 0:
		return nil, fmt.Errorf("max body bytes must not be negative (got %d)", c.maxBody)
	case c.maxBody == 0:
		c.maxBody = DefaultMaxBodyBytes
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
	callerPolicy := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if err := c.checkRedirect(req, via); err != nil {
			return err
		}
		if callerPolicy != nil {
			return callerPolicy(req, via)
		}
		return nil
	}
	c.hc = &hc
	return c, nil
}

// hideUserinfo is raw with anything before an "@" of its authority (a user
// and password, parsed or not) replaced by "xxxxx", for error messages.
func hideUserinfo(raw string) string {
	// The authority runs from after "scheme://" (or the start) to the
	// first '/', '?' or '#': an '@' after it belongs to the path.
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + 3
	}
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndex(raw[start:end], "@")
	if at < 0 {
		if start > 0 || !strings.Contains(raw, "@") {
			return raw
		}
		// No "://": "user:secret@host" parses as scheme "user"; hide all
		// before the last '@' of what may be the authority.
		at = strings.LastIndex(raw, "@")
		if i := strings.Index(raw, ":"); i >= 0 && i < at && !strings.Contains(raw[:i], "/") {
			j := i + 1
			for j < at && raw[j] == '/' {
				j++
			}
			return raw[:j] + "xxxxx" + raw[at:]
		}
		return "xxxxx" + raw[at:]
	}
	return raw[:start] + "xxxxx" + raw[start+at:]
}

func checkBaseURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("no base URL given")
	}
	if !strings.Contains(raw, "://") && !strings.Contains(raw, "@") {
		lower := strings.ToLower(raw)
		for _, bad := range []string{"https:/", "http:/", "https//", "http//", "https:", "http:"} {
			if rest, ok := strings.CutPrefix(lower, bad); ok {
				scheme, _, _ := strings.Cut(bad, ":")
				scheme = strings.TrimSuffix(scheme, "//")
				return nil, fmt.Errorf("base URL %q: the scheme is misspelt; write %s://%s", raw, scheme, raw[len(raw)-len(rest):])
			}
		}
		return nil, fmt.Errorf("base URL %q has no scheme: write https://%s (http:// only for a loopback host, such as the emulator's)", raw, raw)
	}
	shown := hideUserinfo(raw)
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the whole input; it has no userinfo to leak
		// only if it parsed, so name the problem without it.
		return nil, errors.New("base URL is not a valid URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("base URL %q: scheme must be https (or http for a loopback host)", shown)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("base URL %q: no host", shown)
	case u.User != nil:
		return nil, fmt.Errorf("base URL %q: must not hold credentials; pass the token separately", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("base URL %q: must not have a query or fragment", shown)
	case u.Scheme == "http" && !origin.IsLoopbackHost(u.Hostname()):
		return nil, fmt.Errorf("base URL %q: plain http is allowed only for loopback hosts (127.0.0.1, ::1, localhost); use https", shown)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	for _, suffix := range []string{"/api/v1", "/api"} {
		if strings.HasSuffix(u.Path, suffix) {
			want := *u
			want.Path, want.RawPath = strings.TrimSuffix(u.Path, suffix), ""
			return nil, fmt.Errorf("base URL %q ends in %s, which skillsync adds to every request itself: use %q", shown, suffix, want.Redacted())
		}
	}
	return u, nil
}

func checkToken(tok string) error {
	if tok == "" {
		return errors.New("no token given")
	}
	if strings.HasPrefix(strings.ToLower(tok), "bearer ") {
		return errors.New("token starts with \"Bearer \"; pass the token alone")
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c <= ' ' || c == 0x7f {
			// Never echo the token, not even in part.
			return errors.New("token contains a space or control character")
		}
	}
	return nil
}

// A redirectError refuses a redirect that would carry the token elsewhere.
type redirectError struct {
	target string // scheme://host of the redirect
	n      int
}

func (e *redirectError) Error() string {
	if e.n > 0 {
		return fmt.Sprintf("stopped after %d redirects", e.n)
	}
	return fmt.Sprintf("refusing to follow a redirect to %s: another host would receive the token", e.target)
}

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return &redirectError{n: len(via)}
	}
	if !origin.Same(c.baseURL, req.URL) {
		return &redirectError{target: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}

// call is one request of the interface.
type call struct {
	method string
	path   string // escaped path, relative to the base URL
	query  url.Values
	body   any                // sent as JSON when non-nil
	decode func([]byte) error // given a 2xx JSON body; nil ignores the body
	// goneOnRetry makes a 404 on a retry a success: the earlier attempt,
	// whose answer was lost, did the deletion.
	goneOnRetry bool
	// maxBody, when positive and under the client's limit, caps this
	// call's answer instead.
	maxBody int64
}

// do runs r, retrying as the package doc says.
func (c *Client) do(ctx context.Context, r call) error {
	display := r.path
	if len(r.query) > 0 {
		display += "?" + r.query.Encode()
	}
	var body []byte
	if r.body != nil {
		var err error
		if body, err = json.Marshal(r.body); err != nil {
			return fmt.Errorf("%s %s: encoding request: %w", r.method, display, err)
		}
	}
	for n := 1; ; n++ {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s %s: %w", r.method, display, err)
		}
		start := time.Now()
		maxBody := c.maxBody
		if r.maxBody > 0 {
			maxBody = min(maxBody, r.maxBody)
		}
		res := c.attempt(ctx, r.method, display, body, r.decode, maxBody)
		if c.onRequest != nil {
			c.onRequest(RequestInfo{
				Method:   r.method,
				Path:     display,
				Status:   res.status,
				Duration: time.Since(start),
				Attempt:  n,
				Err:      res.err,
			})
		}
		if res.err == nil {
			return nil
		}
		if r.goneOnRetry && n > 1 && res.status == http.StatusNotFound {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("%s %s: %w", r.method, display, err)
		}
		if !res.retry {
			return res.err
		}
		if n >= c.maxAttempts {
			if n == 1 {
				return res.err
			}
			return fmt.Errorf("%w (gave up after %d attempts)", res.err, n)
		}
		wait := c.backoff(n)
		if res.retryAfter > 0 {
			if limit := max(maxRetryAfter, c.maxBackoff); res.retryAfter > limit {
				return fmt.Errorf("%w (the service asked to retry after %s, longer than the %s this client waits)", res.err, res.retryAfter, limit)
			}
			wait = res.retryAfter
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
			return fmt.Errorf("%w (not retrying: waiting %s would pass the deadline)", res.err, wait.Round(time.Millisecond))
		}
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s %s: %w", r.method, display, err)
		}
	}
}

// backoff is the wait after attempt n fails: exponential from minBackoff,
// capped at maxBackoff, with "equal jitter" (between half and all of it) so
// that parallel clients spread out without waiting next to nothing.
func (c *Client) backoff(n int) time.Duration {
	d := c.minBackoff
	for i := 1; i < n && d < c.maxBackoff; i++ {
		if d > c.maxBackoff/2 {
			d = c.maxBackoff // doubling could overflow
			break
		}
		d *= 2
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

type attemptResult struct {
	status     int
	err        error
	retry      bool
	retryAfter time.Duration
}

func (c *Client) attempt(ctx context.Context, method, display string, body []byte, decode func([]byte) error, maxBody int64) attemptResult {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel() // after the body is read: the timeout covers it too
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(actx, method, c.base+display, rd)
	if err != nil {
		return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, err)}
	}
	req.Header.Set("Authorization", "Bearer "+string(c.token))
	req.Header.Set("User-Agent", c.userAgent)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.transportFailure(ctx, actx, method, display, err)
	}
	defer resp.Body.Close()

	res := attemptResult{status: resp.StatusCode}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		data, _ := io.ReadAll(io.LimitReader(resp.Body, min(maxErrorBody, maxBody)))
		e := &Error{
			StatusCode: resp.StatusCode,
			Method:     method,
			Path:       display,
			Message:    errorMessage(data, c.redactor),
		}
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), c.now()); ok {
			e.RetryAfter = d
		}
		res.err = e
		res.retryAfter = e.RetryAfter
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
			// 500 too: every endpoint is idempotent (DESIGN.md), and a
			// transient 500 must not leave an apply half done.
			res.retry = true
		}
		return res
	}
	if decode == nil {
		// The call succeeded; what follows is of no interest, and a
		// failure reading it must not turn success into an error.
		_, _ = io.CopyN(io.Discard, resp.Body, maxBody)
		return res
	}
	if resp.ContentLength > maxBody {
		res.err = tooLarge("%s %s: response body of %d bytes exceeds the limit of %d bytes", method, display, resp.ContentLength, maxBody)
		return res
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		res2 := c.transportFailure(ctx, actx, method, display, err)
		res2.status = res.status
		return res2
	}
	if int64(len(data)) > maxBody {
		res.err = tooLarge("%s %s: response body exceeds the limit of %d bytes", method, display, maxBody)
		return res
	}
	if c.holdsToken(data) {
		res.err = fmt.Errorf("%s %s: %w", method, display, ErrTokenInAnswer)
		return res
	}
	if err := c.decodeBody(resp.Header.Get("Content-Type"), data, decode); err != nil {
		res.err = fmt.Errorf("%s %s: invalid response: %w", method, display, err)
	}
	return res
}

// transportFailure describes an error of sending a request or reading its
// response, and tells whether another attempt may succeed.
func (c *Client) transportFailure(ctx, actx context.Context, method, display string, err error) attemptResult {
	if ctx.Err() != nil {
		return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, ctx.Err())}
	}
	var re *redirectError
	if errors.As(err, &re) {
		return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, re)}
	}
	if actx.Err() != nil {
		return attemptResult{err: fmt.Errorf("%s %s: %w within %s", method, display, ErrNoResponse, c.timeout), retry: true}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its message repeats the URL
	}
	return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, err), retry: retryableNetError(err)}
}

// A NetFailure is the kind of a failure to get any answer from the
// service, as [NetFailureOf] tells it.
type NetFailure int

// The kinds of NetFailure.
const (
	NetOther       NetFailure = iota // none of the below, or not a network failure
	NetUnknownHost                   // the host name does not resolve
	NetCertificate                   // the service's certificate is not trusted
	NetPlainHTTP                     // an https request answered in plain HTTP
	NetRefused                       // nothing accepts connections at the address
	NetTimeout                       // no answer in time ([ErrNoResponse] included)
	NetBroken                        // the connection broke: reset, closed, unreachable
)

// NetFailureOf tells what kind of network failure err is, or wraps.
func NetFailureOf(err error) NetFailure {
	var (
		dnsErr   *net.DNSError
		certErr  *tls.CertificateVerificationError
		authErr  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalErr x509.CertificateInvalidError
		recErr   tls.RecordHeaderError
		netErr   net.Error
	)
	switch {
	case err == nil:
		return NetOther
	case errors.As(err, &dnsErr):
		return NetUnknownHost
	case errors.As(err, &certErr), errors.As(err, &authErr), errors.As(err, &hostErr), errors.As(err, &invalErr):
		return NetCertificate
	case errors.As(err, &recErr), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"): // net/http's words, not a type
		return NetPlainHTTP
	case errors.Is(err, syscall.ECONNREFUSED):
		return NetRefused
	case errors.Is(err, ErrNoResponse), errors.Is(err, syscall.ETIMEDOUT), errors.As(err, &netErr) && netErr.Timeout():
		return NetTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return NetBroken
	}
	return NetOther
}

// retryableNetError tells network trouble that may pass (refused, reset,
// closed, timed out) from errors that will not (bad certificate, unknown
// host).
func retryableNetError(err error) bool {
	switch NetFailureOf(err) {
	case NetUnknownHost:
		var dnsErr *net.DNSError
		return errors.As(err, &dnsErr) && (dnsErr.IsTemporary || dnsErr.IsTimeout)
	case NetCertificate, NetPlainHTTP:
		return false
	case NetRefused, NetTimeout, NetBroken:
		return true
	}
	// A connection closed mid-answer reads as EOF: of a file that is no
	// network failure, so NetFailureOf does not count it, but here the
	// error is the transport's.
	var opErr *net.OpError
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "read" || opErr.Op == "write") {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "server closed idle connection") ||
		strings.Contains(msg, "GOAWAY") ||
		strings.Contains(msg, "connection reset")
}

// parseRetryAfter reads a Retry-After header: delta seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 {
			return 0, false
		}
		const most = int64(1<<63-1) / int64(time.Second)
		return time.Duration(min(n, most)) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// decodeBody checks that a 2xx body is JSON before decoding it, so that an
// HTML login page or proxy error served with 200 reads as what it is.
func (c *Client) decodeBody(contentType string, data []byte, decode func([]byte) error) error {
	trimmed := bytes.TrimSpace(data)
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			got := mt
			if err != nil {
				got = shorten(contentType, 60)
			}
			return c.notJSON("expected JSON, got "+got, trimmed)
		}
	}
	if len(trimmed) == 0 {
		return errors.New("empty body, expected JSON")
	}
	if trimmed[0] == '<' {
		return c.notJSON("expected JSON, got HTML or XML", trimmed)
	}
	return decode(data)
}

func (c *Client) notJSON(what string, body []byte) error {
	if len(body) == 0 {
		return errors.New(what + " (empty body)")
	}
	// The whole body is redacted before the cut: whitespace collapses in
	// the excerpt, so any byte of it may end up at the cut.
	return fmt.Errorf("%s: %q", what, excerpt(c.redactor, string(body), 80))
}

// holdsToken reports whether a successful answer holds the client's token,
// spelt in any way, before or after JSON decoding. A token under 12 bytes
// (a test's) is not looked for: it may well be part of ordinary text.
func (c *Client) holdsToken(data []byte) bool {
	if c.redactor.Holds(string(data)) {
		return true
	}
	if !bytes.Contains(data, []byte{'\\'}) {
		return false // no escape: decoding shows nothing new
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	return anyStringHolds(v, c.redactor)
}

// anyStringHolds reports whether a string of the decoded JSON value v, a
// key included, holds r's secret.
func anyStringHolds(v any, r *redact.Redactor) bool {
	switch v := v.(type) {
	case string:
		return r.Holds(v)
	case []any:
		for _, x := range v {
			if anyStringHolds(x, r) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if r.Holds(k) || anyStringHolds(x, r) {
				return true
			}
		}
	}
	return false
}

// decodeObject returns a decoder of a JSON object into dst, which check, when
// non-nil, then validates.
func decodeObject[T any](dst *T, check func(*T) error) func([]byte) error {
	return func(data []byte) error {
		if err := expectObject(data); err != nil {
			return err
		}
		if err := json.Unmarshal(data, dst); err != nil {
			return describeJSONError(err)
		}
		if check != nil {
			return check(dst)
		}
		return nil
	}
}

func expectObject(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return nil
	}
	if !json.Valid(trimmed) {
		return describeJSONError(json.Unmarshal(trimmed, new(any)))
	}
	kind := "a JSON value"
	switch trimmed[0] {
	case '[':
		kind = "a JSON array"
	case '"':
		kind = "a JSON string"
	case 'n':
		kind = "JSON null"
	case 't', 'f':
		kind = "a JSON boolean"
	default:
		kind = "a JSON number"
	}
	return fmt.Errorf("got %s, expected a JSON object", kind)
}

func describeJSONError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("malformed JSON at byte %d: %w", syn.Offset, err)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("field %q is a JSON %s, expected %s: %w", typ.Field, typ.Value, typ.Type, err)
	case errors.As(err, &typ):
		return fmt.Errorf("got a JSON %s, expected %s: %w", typ.Value, typ.Type, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON: %w", err)
	}
	return err
}
