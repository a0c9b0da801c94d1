package notify

import (
	"bytes"
	"cmp"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/internal/visible"
)

// Defaults of [Options]. With them a Send returns within 13 seconds
// (an attempt, the longest wait, another attempt), however many
// destinations it has: they are sent to at once.
const (
	DefaultTimeout      = 5 * time.Second
	DefaultMaxRetryWait = 3 * time.Second
	// retryWait is the wait before the retry when the answer says none.
	retryWait = time.Second
	// parallelism is the most deliveries under way at once.
	parallelism = 8
	// maxErrorBody is the most bytes of a failed answer read, of which
	// a line goes into the warning.
	maxErrorBody = 1024
)

// Options tune a [Sender]. The zero value is what commands use.
type Options struct {
	// Client sends the requests; nil for a client of the sender's own.
	// Redirects are never followed, whatever its policy.
	Client *http.Client
	// Timeout bounds each attempt; DefaultTimeout when 0.
	Timeout time.Duration
	// MaxRetryWait is the longest wait before the one retry that a 429 or
	// a 5xx gets; DefaultMaxRetryWait when 0. A Retry-After over it means
	// no retry.
	MaxRetryWait time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// A Sender delivers events to the destinations of one target. It is safe
// for concurrent use.
type Sender struct {
	endpoints []endpoint
	secrets   *redact.Set
	client    *http.Client
	timeout   time.Duration
	maxWait   time.Duration
	now       func() time.Time
}

// An endpoint is a destination as the environment resolved it.
type endpoint struct {
	name   string
	kind   string
	events map[Kind]bool
	url    *url.URL
	key    []byte // of a generic webhook
	// problem says why nothing can be sent here (an unset variable, a URL
	// that is not https), told when an event would have been.
	problem string
}

// New returns the sender of the destinations of c, whose URLs and secrets
// it reads with getenv (os.Getenv in production) and adds to secrets, so
// that no output of the process shows them. Its error is c's
// [Config.Validate]'s; a variable unset or malformed is told by
// [Sender.Send], as a warning, only when an event would go there.
func New(c Config, getenv func(string) string, secrets *redact.Set, opts Options) (*Sender, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if secrets == nil {
		secrets = &redact.Set{}
	}
	s := &Sender{
		secrets: secrets,
		timeout: cmp.Or(opts.Timeout, DefaultTimeout),
		maxWait: cmp.Or(opts.MaxRetryWait, DefaultMaxRetryWait),
		now:     opts.Now,
	}
	if s.now == nil {
		s.now = time.Now
	}
	hc := &http.Client{}
	if opts.Client != nil {
		copied := *opts.Client
		hc = &copied
	}
	// A redirect is a failure: the URL is the credential, and the body
	// would go where it was not configured to.
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	s.client = hc
	for _, name := range slices.Sorted(maps.Keys(c)) {
		d := c[name]
		s.endpoints = append(s.endpoints, resolve(name, d, getenv, secrets))
	}
	return s, nil
}

// resolve reads d's variables, adding what they hold to secrets.
func resolve(name string, d Destination, getenv func(string) string, secrets *redact.Set) endpoint {
	e := endpoint{name: name, kind: d.Kind, events: d.events()}
	raw := strings.TrimSpace(getenv(d.URLEnv))
	secrets.Add(d.URLEnv, raw)
	if raw == "" {
		e.problem = d.URLEnv + " is not set: set it to the webhook's URL, or leave " + name + " out of this target's notify: section"
		return e
	}
	u, err := webhookURL(raw)
	if err != nil {
		e.problem = d.URLEnv + " " + err.Error()
		return e
	}
	// The path and query are the credential of a chat webhook; a server
	// may echo them without the host.
	if len(u.RequestURI()) >= redact.ShortSecret {
		secrets.Add(d.URLEnv, u.RequestURI())
	}
	e.url = u
	if d.Kind == Webhook {
		secret := getenv(d.SecretEnv)
		secrets.Add(d.SecretEnv, secret)
		if secret == "" {
			e.problem = d.SecretEnv + " is not set: set it to the webhook's signing secret"
			return e
		}
		if e.key, err = signingKey(secret); err != nil {
			e.problem = d.SecretEnv + " " + err.Error()
		}
	}
	return e
}

// webhookURL parses raw, which must be an absolute https URL, or http to a
// loopback address. Its errors never quote raw: it is a credential.
func webhookURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return nil, errors.New("does not hold an absolute URL")
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && origin.IsLoopbackHost(u.Hostname()):
	default:
		return nil, errors.New("does not hold an https URL (plain http is allowed only to a loopback address)")
	}
	return u, nil
}

// A Warning is a notification that was not delivered. It never fails the
// command that sent it: the caller prints it.
type Warning struct {
	Destination string // the destination's name under notify:
	Kind        Kind
	// Message says why, redacted and on one line.
	Message string
}

func (w Warning) String() string {
	return fmt.Sprintf("notification %s to %s not sent: %s", w.Kind, w.Destination, w.Message)
}

// Send delivers ev to each destination that wants its kind, all at once,
// and returns a Warning for each delivery that failed, in the order of
// the destinations' names. Everything sent is redacted first.
func (s *Sender) Send(ctx context.Context, ev Event) []Warning {
	if ev.Time.IsZero() {
		ev.Time = s.now()
	}
	ev = ev.redacted(s.secrets)
	var (
		mu       sync.Mutex
		warnings []Warning
	)
	var g errgroup.Group
	g.SetLimit(parallelism)
	for _, e := range s.endpoints {
		if !e.events[ev.Kind] {
			continue
		}
		g.Go(func() error {
			if err := s.deliver(ctx, e, ev); err != nil {
				msg := visible.Line(s.secrets.Redact(err.Error()))
				mu.Lock()
				warnings = append(warnings, Warning{Destination: e.name, Kind: ev.Kind, Message: msg})
				mu.Unlock()
			}
			return nil
		})
	}
	g.Wait()
	slices.SortFunc(warnings, func(a, b Warning) int { return strings.Compare(a.Destination, b.Destination) })
	return warnings
}

// deliver sends ev to e, retrying once after a 429, a 5xx or a connection
// that could not be made.
func (s *Sender) deliver(ctx context.Context, e endpoint, ev Event) error {
	if e.problem != "" {
		return errors.New(e.problem)
	}
	// Validate let through no other kind.
	render := map[string]func(Event) ([]byte, error){Slack: slackBody, Teams: teamsBody, Webhook: webhookBody}[e.kind]
	body, err := render(ev)
	if err != nil {
		return fmt.Errorf("rendering the message: %w", err)
	}
	// One id for every attempt: a receiver drops a delivery it has seen.
	id := "msg_" + rand.Text()
	retry, after, err := s.attempt(ctx, e, id, body)
	if !retry {
		return err
	}
	wait := min(retryWait, s.maxWait)
	if after >= 0 {
		if after > s.maxWait {
			return fmt.Errorf("%w; it asked to retry after %s, longer than the %s waited", err, after, s.maxWait)
		}
		wait = after
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return err
	case <-t.C:
	}
	_, _, err = s.attempt(ctx, e, id, body)
	return err
}

// attempt posts body to e once. A failure may be worth a retry; after is
// the wait its Retry-After asked for, or -1.
func (s *Sender) attempt(ctx context.Context, e endpoint, id string, body []byte) (retry bool, after time.Duration, err error) {
	actx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, http.MethodPost, e.url.String(), bytes.NewReader(body))
	if err != nil {
		return false, -1, fmt.Errorf("making the request to %s: %w", e.url.Host, unwrapURL(err))
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "skillsync")
	if e.key != nil {
		ts := s.now().Unix()
		req.Header.Set(HeaderID, id)
		req.Header.Set(HeaderTimestamp, strconv.FormatInt(ts, 10))
		req.Header.Set(HeaderSignature, sign(e.key, id, ts, body))
	}
	resp, err := s.client.Do(req)
	if err != nil {
		err = unwrapURL(err)
		if errors.Is(actx.Err(), context.DeadlineExceeded) && ctx.Err() == nil {
			// The request may have landed: no retry.
			return false, -1, fmt.Errorf("%s did not answer within %s", e.url.Host, s.timeout)
		}
		// Nothing was sent when the connection could not be made.
		if op := (*net.OpError)(nil); errors.As(err, &op) && op.Op == "dial" {
			return true, -1, fmt.Errorf("could not connect to %s: %w", e.url.Host, err)
		}
		return false, -1, fmt.Errorf("posting to %s: %w", e.url.Host, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 200 && resp.StatusCode <= 299 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return false, -1, nil
	}
	err = fmt.Errorf("%s answered %s%s", e.url.Host, resp.Status, excerpt(resp.Body))
	switch {
	case resp.StatusCode >= 300 && resp.StatusCode <= 399:
		return false, -1, fmt.Errorf("%w (a redirect, not followed: set the variable to the URL it points to)", err)
	case resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode >= 500:
		if d, ok := parseRetryAfter(resp.Header.Get("Retry-After"), s.now()); ok {
			return true, d, err
		}
		return true, -1, err
	}
	return false, -1, err
}

// unwrapURL returns the error a *url.Error wraps: its message quotes the
// URL, which is a credential.
func unwrapURL(err error) error {
	if ue := (*url.Error)(nil); errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// excerpt returns ": " and the first line of what body holds (up to
// maxErrorBody bytes, cut to 200 characters), or "" when it is empty.
func excerpt(body io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	if line == "" {
		return ""
	}
	return ": " + cut(strings.ToValidUTF8(line, "\uFFFD"), 200)
}

// parseRetryAfter reads a Retry-After header: delta seconds or an HTTP
// date, which may be past.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
		return time.Duration(min(n, int64(time.Hour/time.Second))) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
