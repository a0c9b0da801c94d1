package forge

import (
	"fmt"
	"io"
	"net/http"
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
	resp.Body = &boundedBody{rc: resp.Body, left: t.max, err: tooLarge}
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

type boundedBody struct {
	rc   io.ReadCloser
	left int64
	err  error
}

func (b *boundedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		// At the limit: one more byte is one too many, EOF is fine.
		var one [1]byte
		n, err := b.rc.Read(one[:])
		if n > 0 {
			return 0, b.err
		}
		return 0, err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *boundedBody) Close() error { return b.rc.Close() }

// A TooManyPagesError is a list whose host kept announcing a next page
// past the most pages (of 100 items) a client reads.
type TooManyPagesError struct {
	Host string // "GitHub", "GitLab"
	Max  int    // the pages read
}

func (e *TooManyPagesError) Error() string {
	return fmt.Sprintf("%s announced a next page after %d pages of 100, and no more are read", e.Host, e.Max)
}
