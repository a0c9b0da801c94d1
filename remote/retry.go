package remote

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// maxRetryAfter is the longest Retry-After the client waits for (or
// MaxBackoff when longer); a service asking for more gets its error
// returned rather than a CI job stalled.
const maxRetryAfter = 60 * time.Second

// retryWait is how long to wait after attempt n failed with res, which may
// be retried: the Retry-After the service asked for, else the backoff. It
// returns res's error instead when the wait is too long to make.
func (c *Client) retryWait(ctx context.Context, n int, res attemptResult) (time.Duration, error) {
	wait := c.backoff(n)
	if res.retryAfter > 0 {
		if limit := max(maxRetryAfter, c.maxBackoff); res.retryAfter > limit {
			return 0, fmt.Errorf("%w (the service asked to retry after %s, at %s, longer than the %s this client waits)",
				res.err, res.retryAfter, c.now().Add(res.retryAfter).UTC().Format("15:04:05 UTC"), limit)
		}
		wait = res.retryAfter
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return 0, fmt.Errorf("%w (not retrying: waiting %s would pass the deadline)", res.err, wait.Round(time.Millisecond))
	}
	return wait, nil
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

// retryAfterOf is when a failed answer asks to be retried: its Retry-After,
// else the reset of its rate-limit window (X-RateLimit-Reset, or the IETF
// draft's RateLimit-Reset), which a service may send alone.
func retryAfterOf(h http.Header, now time.Time) (time.Duration, bool) {
	if d, ok := parseRetryAfter(h.Get("Retry-After"), now); ok {
		return d, true
	}
	for _, name := range []string{"X-RateLimit-Reset", "RateLimit-Reset"} {
		if d, ok := parseRateLimitReset(h.Get(name), now); ok {
			return d, true
		}
	}
	return 0, false
}

// epochFloor tells an epoch second from a count of seconds in a rate-limit
// reset: no window lasts the 30 years before it.
const epochFloor = 1_000_000_000

// parseRateLimitReset reads a rate-limit reset: seconds from now, or, as
// GitHub and others send it, the Unix epoch second the window resets at.
func parseRateLimitReset(v string, now time.Time) (time.Duration, bool) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	if n >= epochFloor {
		return max(time.Unix(n, 0).Sub(now), 0), true
	}
	return time.Duration(n) * time.Second, true
}

// parseRetryAfter reads a Retry-After header: delta seconds or an HTTP date.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
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
