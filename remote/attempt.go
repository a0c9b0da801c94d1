package remote

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/origin"
)

// maxErrorBody bounds what is read of a failure's body: only its message
// is kept.
const maxErrorBody = 64 << 10

type attemptResult struct {
	status     int
	err        error
	retry      bool
	retryAfter time.Duration
}

func (c *Client) attempt(ctx context.Context, r call, display string, body []byte, maxBody int64) attemptResult {
	method, decode := r.method, r.decode
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
		now := c.now()
		if d, ok := retryAfterOf(resp.Header, now); ok && d > 0 {
			e.RetryAfter, e.RetryAt = d, now.Add(d)
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
	if r.written != nil && (resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent) {
		_, _ = io.CopyN(io.Discard, resp.Body, maxBody)
		r.written(resp.StatusCode)
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
	data, err := bounded.ReadAll(resp.Body, maxBody)
	if _, ok := errors.AsType[*bounded.TooLargeError](err); ok {
		res.err = tooLarge("%s %s: response body exceeds the limit of %d bytes", method, display, maxBody)
		return res
	}
	if err != nil {
		res2 := c.transportFailure(ctx, actx, method, display, err)
		res2.status = res.status
		return res2
	}
	if r.written != nil && carriesNoObject(data) {
		r.written(resp.StatusCode)
		return res
	}
	// The token is looked for in the forms an honest echo gives it (JSON
	// escapes included); one under 12 bytes (a test's) is not.
	if c.redactor.Holds(string(data)) {
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
	if re, ok := errors.AsType[*origin.RedirectError](err); ok {
		return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, re)}
	}
	if actx.Err() != nil {
		return attemptResult{err: fmt.Errorf("%s %s: %w within %s", method, display, ErrNoResponse, c.timeout), retry: true}
	}
	if ue, ok := errors.AsType[*url.Error](err); ok {
		err = ue.Err // its message repeats the URL
	}
	return attemptResult{err: fmt.Errorf("%s %s: %w", method, display, err), retry: retryableNetError(err)}
}
