package remote

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

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
	// written, when set, takes a 2xx answer that does not carry the
	// object written: a 202 or 204, an empty body, or a JSON object with
	// no "id" ({"success":true}). decode is not called for it.
	written func(status int)
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
		res := c.attempt(ctx, r, display, body, maxBody)
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
		wait, err := c.retryWait(ctx, n, res)
		if err != nil {
			return err
		}
		if err := c.sleep(ctx, wait); err != nil {
			return fmt.Errorf("%s %s: %w", r.method, display, err)
		}
	}
}
