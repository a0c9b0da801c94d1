package forgetest

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
)

// A Fault is what a fake answers in the host's place: a status (an
// error, or a redirect with a Location header), headers and a body.
type Fault struct {
	Status int
	Header http.Header
	Body   string
	// Stream, when not nil, is sent after Body, as it is read and with
	// no Content-Length (chunked), until it ends or the client hangs up:
	// an answer that runs on.
	Stream io.Reader
}

// Front is what the fakes of GitHub and GitLab do with each request
// before their endpoints see it: the test's hook, the record of the
// request, the check of the token and an injected [Fault]. It is safe for
// concurrent use.
type Front struct {
	mu       sync.Mutex
	requests []string // "METHOD /path?query" of every request, in order
	fault    func(r *http.Request) *Fault
	hook     func(r *http.Request)
	srv      *httptest.Server
}

// Token says how a fake's requests carry the token: the value header
// must have, and the body of the 401 that answers any other.
type Token struct {
	Header, Value, Refusal string
}

// Start serves next behind f on loopback until t ends, and returns the
// server's root URL. Every answer is JSON.
func (f *Front) Start(t testing.TB, tok Token, next http.Handler) string {
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		hook := f.hook
		f.mu.Unlock()
		if hook != nil {
			hook(r)
		}
		f.mu.Lock()
		f.requests = append(f.requests, r.Method+" "+r.URL.RequestURI())
		fault := f.fault
		f.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if r.Header.Get(tok.Header) != tok.Value {
			WriteError(w, http.StatusUnauthorized, tok.Refusal)
			return
		}
		if fault != nil {
			if ft := fault(r); ft != nil {
				for k, v := range ft.Header {
					w.Header()[k] = v
				}
				WriteError(w, ft.Status, ft.Body)
				if ft.Stream != nil {
					// Flushing first leaves the length unsaid.
					w.(http.Flusher).Flush()
					io.Copy(w, ft.Stream)
				}
				return
			}
		}
		next.ServeHTTP(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f.srv.URL
}

// Client is an HTTP client for the server.
func (f *Front) Client() *http.Client { return f.srv.Client() }

// Close stops the server before the test ends, as a host that does not
// answer.
func (f *Front) Close() { f.srv.Close() }

// Inject makes the server answer each request for which fn returns a
// Fault with it, instead of serving it; nil removes the injection.
func (f *Front) Inject(fn func(r *http.Request) *Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fault = fn
}

// FailAll makes the server answer every request with status and body; a
// status of 0 makes it serve them again.
func (f *Front) FailAll(status int, body string) {
	if status == 0 {
		f.Inject(nil)
		return
	}
	f.Inject(func(*http.Request) *Fault { return &Fault{Status: status, Body: body} })
}

// OnRequest makes the server call fn with each request before serving
// it, outside the fake's lock, so that fn may change the fake as someone
// else would between two requests (push to a branch); nil removes it. fn
// must not read the request's body.
func (f *Front) OnRequest(fn func(r *http.Request)) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.hook = fn
}

// Requests returns "METHOD /path?query" of every request so far, in order.
func (f *Front) Requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.requests)
}

// WriteError answers status with body, JSON as it is.
func WriteError(w http.ResponseWriter, status int, body string) {
	w.WriteHeader(status)
	fmt.Fprint(w, body)
}
