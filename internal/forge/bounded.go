package forge

import (
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/skillsync/skillsync/internal/bounded"
)

// Bound returns next (http.DefaultTransport when nil) made to read at
// most max bytes of any answer, so that a server (or what poses as one)
// cannot exhaust memory: the clients of both hosts read bodies whole,
// error bodies included. An answer whose Content-Length is over max is
// refused before its body is read; one that runs past max without saying
// its length fails at the first byte too many, with a
// *[ResponseTooLargeError] naming host. A successful answer that is a web
// page, not JSON, fails with a *[WebPageError].
func Bound(next http.RoundTripper, host string, max int64) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &boundedTransport{next: next, host: host, max: max}
}

type boundedTransport struct {
	next http.RoundTripper
	host string
	max  int64
}

func (t *boundedTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	tooLarge := &ResponseTooLargeError{Host: t.host, Method: r.Method, Path: r.URL.Path, Max: t.max}
	if resp.ContentLength > t.max {
		resp.Body.Close()
		return nil, tooLarge
	}
	resp.Body = &boundedBody{r: bounded.NewReader(resp.Body, t.max), c: resp.Body, err: tooLarge}
	if page := webPage(r, resp, t.host); page != nil {
		resp.Body.Close()
		return nil, page
	}
	return resp, nil
}

// A ResponseTooLargeError is an answer over the limit of a transport of
// [Bound]'s.
type ResponseTooLargeError struct {
	Host         string // "GitHub", "GitLab"
	Method, Path string // of the request answered
	Max          int64  // the limit, in bytes
}

func (e *ResponseTooLargeError) Error() string {
	if e.Max >= 1<<20 {
		return fmt.Sprintf("%s's answer to %s %s is over %d MiB", e.Host, e.Method, e.Path, e.Max>>20)
	}
	return fmt.Sprintf("%s's answer to %s %s is over %d bytes", e.Host, e.Method, e.Path, e.Max)
}

// boundedBody reads an answer's body, failing with err past its limit.
type boundedBody struct {
	r   io.Reader // of bounded.NewReader
	c   io.Closer
	err *ResponseTooLargeError
}

func (b *boundedBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if _, ok := errors.AsType[*bounded.TooLargeError](err); ok {
		return n, b.err
	}
	return n, err
}

func (b *boundedBody) Close() error { return b.c.Close() }

// A TooManyPagesError is a list whose host kept announcing a next page
// past the most pages (of 100 items) a client reads.
type TooManyPagesError struct {
	Host string // "GitHub", "GitLab"
	Max  int    // the pages read
}

func (e *TooManyPagesError) Error() string {
	return fmt.Sprintf("%s announced a next page after %d pages of 100, and no more are read", e.Host, e.Max)
}
