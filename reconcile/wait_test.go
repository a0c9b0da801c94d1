package reconcile

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

// retryLog records, through remote.Options' Sleep and OnRequest, the waits
// a client asks for between attempts and the attempts it makes. Its waits
// return at once, so a test asserts the delays asked for, not wall time.
type retryLog struct {
	mu          sync.Mutex
	waits       []time.Duration
	retries     int // attempts after a call's first
	rateLimited int // attempts answered 429
}

// options is o with its waits and attempts recorded by l.
func (l *retryLog) options(o remote.Options) remote.Options {
	o.Sleep = func(ctx context.Context, d time.Duration) error {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.waits = append(l.waits, d)
		return ctx.Err()
	}
	o.OnRequest = func(ri remote.RequestInfo) {
		l.mu.Lock()
		defer l.mu.Unlock()
		if ri.Attempt > 1 {
			l.retries++
		}
		if ri.Status == http.StatusTooManyRequests {
			l.rateLimited++
		}
	}
	return o
}

// check fails t unless every retry came after one wait, every 429 was
// followed by a wait of retryAfter, and every other wait was a backoff
// of o's bounds (half MinBackoff to MaxBackoff). Every call must have
// succeeded: a 429 ending a call has no wait after it.
func (l *retryLog) check(t *testing.T, o remote.Options, retryAfter time.Duration) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	waitedRetryAfter := 0
	for _, d := range l.waits {
		switch {
		case d == retryAfter:
			waitedRetryAfter++
		case d < o.MinBackoff/2 || d > o.MaxBackoff:
			t.Errorf("waited %s between attempts: neither the Retry-After %s nor a backoff within [%s, %s]", d, retryAfter, o.MinBackoff/2, o.MaxBackoff)
		}
	}
	if len(l.waits) != l.retries {
		t.Errorf("%d waits between attempts for %d retries, want one each", len(l.waits), l.retries)
	}
	if waitedRetryAfter != l.rateLimited {
		t.Errorf("waited the Retry-After %d times for %d answers 429, want one each", waitedRetryAfter, l.rateLimited)
	}
}
