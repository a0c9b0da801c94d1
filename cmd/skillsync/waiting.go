package main

import (
	"errors"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/skillsync/skillsync/remote"
)

// waitReport tells the user, on stderr, that skillsync waits for a service
// that does not answer, and that it retries: a server that accepts
// connections and never answers would otherwise keep a command silent for
// minutes.
type waitReport struct {
	ui      *ui
	host    string
	timeout time.Duration // each attempt's
	after   time.Duration // the silence that is worth a word
	mu      sync.Mutex
	said    bool         // that it waits, said once
	retried map[int]bool // attempts whose retry was said, said once each
}

// newWaitReport reports on the requests to baseURL, each attempt of which
// waits up to timeout (0 for the client's default).
func newWaitReport(ui *ui, baseURL string, timeout time.Duration) *waitReport {
	if timeout <= 0 {
		timeout = remote.DefaultTimeout
	}
	host := baseURL
	if u, err := url.Parse(baseURL); err == nil && u.Host != "" {
		host = u.Host
	}
	return &waitReport{ui: ui, host: host, timeout: timeout, after: min(5*time.Second, timeout/2), retried: map[int]bool{}}
}

// transport is the client's transport, based on net/http's default,
// saying once that it waits when an answer is late.
func (w *waitReport) transport() http.RoundTripper {
	next := http.DefaultTransport
	if t, ok := next.(*http.Transport); ok {
		t = t.Clone()
		// As remote's own: more idle connections than --parallelism uses.
		t.MaxIdleConnsPerHost = 64
		next = t
	}
	return waitingTransport{next, w}
}

type waitingTransport struct {
	next http.RoundTripper
	w    *waitReport
}

func (t waitingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	timer := time.AfterFunc(t.w.after, t.w.waiting)
	defer timer.Stop()
	return t.next.RoundTrip(r)
}

func (w *waitReport) waiting() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.said {
		return
	}
	w.said = true
	w.ui.infof("waiting for %s to answer (nothing for %s); each request waits up to %s and is tried %d times: --%s or %s shortens the wait",
		w.host, w.after, w.timeout, remote.DefaultMaxAttempts, flagTimeout, envTimeout)
}

// attempted says, once per attempt number, that a request that got no
// answer in time is tried again.
func (w *waitReport) attempted(r remote.RequestInfo) {
	if !errors.Is(r.Err, remote.ErrNoResponse) || r.Attempt >= remote.DefaultMaxAttempts {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.retried[r.Attempt] {
		return
	}
	w.retried[r.Attempt] = true
	w.ui.infof("no answer from %s within %s (attempt %d of %d): retrying", w.host, w.timeout, r.Attempt, remote.DefaultMaxAttempts)
}
