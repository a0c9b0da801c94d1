package remote

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// waitLog records the waits a client asks for through [Options.Sleep] and
// returns at once, so that no test sleeps through a backoff.
type waitLog struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (l *waitLog) sleep(ctx context.Context, d time.Duration) error {
	l.mu.Lock()
	l.waits = append(l.waits, d)
	l.mu.Unlock()
	return ctx.Err()
}

func (l *waitLog) all() []time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]time.Duration(nil), l.waits...)
}

// backoffBounds is the range of the jittered backoff after attempt n fails,
// for newClient's MinBackoff of 1ms and MaxBackoff of 5ms: half to all of
// 1ms doubled n-1 times, capped at 5ms.
func backoffBounds(n int) (lo, hi time.Duration) {
	hi = min(time.Millisecond<<(n-1), 5*time.Millisecond)
	return hi / 2, hi
}

func TestRetries(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	type step struct {
		status     int
		retryAfter string
	}
	tests := []struct {
		name         string
		steps        []step // answers in turn; the last one repeats
		maxAttempts  int
		wantRequests int
		wantErr      string // "" for success
		wantWaits    []time.Duration
		check        func(t *testing.T, err error)
	}{
		{
			name:         "503 then success",
			steps:        []step{{503, ""}, {200, ""}},
			wantRequests: 2,
		},
		{
			name:         "429 with Retry-After seconds",
			steps:        []step{{429, "3"}, {200, ""}},
			wantRequests: 2,
			wantWaits:    []time.Duration{3 * time.Second},
		},
		{
			name:         "429 with Retry-After HTTP date",
			steps:        []step{{429, now.Add(7 * time.Second).Format(http.TimeFormat)}, {200, ""}},
			wantRequests: 2,
			wantWaits:    []time.Duration{7 * time.Second},
		},
		{
			name:         "503 with Retry-After date in the past uses backoff",
			steps:        []step{{503, now.Add(-time.Hour).Format(http.TimeFormat)}, {200, ""}},
			wantRequests: 2,
		},
		{
			name:         "502 and 504 are retried",
			steps:        []step{{502, ""}, {504, ""}, {200, ""}},
			wantRequests: 3,
		},
		{
			name:         "500 is retried: every endpoint is idempotent",
			steps:        []step{{500, ""}, {200, ""}},
			wantRequests: 2,
		},
		{
			name:         "501 is not retried",
			steps:        []step{{501, ""}},
			wantRequests: 1,
			wantErr:      "501 Not Implemented",
		},
		{
			name:         "404 is not retried",
			steps:        []step{{404, ""}},
			wantRequests: 1,
			check: func(t *testing.T, err error) {
				if !IsNotFound(err) {
					t.Errorf("IsNotFound(%v) = false", err)
				}
			},
		},
		{
			name:         "attempts are bounded",
			steps:        []step{{503, ""}},
			maxAttempts:  4,
			wantRequests: 4,
			wantErr:      "503 Service Unavailable: busy (gave up after 4 attempts)",
		},
		{
			name:         "one attempt means no retry",
			steps:        []step{{429, "1"}},
			maxAttempts:  1,
			wantRequests: 1,
			check: func(t *testing.T, err error) {
				var e *Error
				if !IsRateLimited(err) || !errors.As(err, &e) || e.RetryAfter != time.Second {
					t.Errorf("error = %#v, want a 429 with RetryAfter 1s", err)
				}
			},
		},
		{
			name:         "Retry-After beyond the cap gives up at once",
			steps:        []step{{429, "3600"}},
			wantRequests: 1,
			wantErr:      "the service asked to retry after 1h0m0s",
			check: func(t *testing.T, err error) {
				if !IsRateLimited(err) {
					t.Errorf("IsRateLimited(%v) = false", err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var n atomic.Int32
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				i := min(int(n.Add(1)), len(tt.steps)) - 1
				s := tt.steps[i]
				if s.retryAfter != "" {
					w.Header().Set("Retry-After", s.retryAfter)
				}
				if s.status == 200 {
					writeJSON(w, 200, fullSkill())
					return
				}
				writeJSON(w, s.status, map[string]string{"message": "busy"})
			})
			var log waitLog
			c := newClient(t, srv.URL, func(o *Options) { o.MaxAttempts, o.Sleep = tt.maxAttempts, log.sleep })
			c.now = func() time.Time { return now }
			// A mutating call: every endpoint is idempotent, so POST is
			// retried like GET.
			_, err := c.EnableSkill(t.Context(), space, skillID)
			switch {
			case tt.wantErr == "" && tt.check == nil && err != nil:
				t.Fatalf("error: %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
			}
			if got := srv.count(); got != tt.wantRequests {
				t.Errorf("%d requests, want %d", got, tt.wantRequests)
			}
			waits := log.all()
			if len(waits) != tt.wantRequests-1 {
				t.Errorf("waited %d times, want %d", len(waits), tt.wantRequests-1)
			}
			if tt.wantWaits != nil && !equalDurations(waits, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", waits, tt.wantWaits)
			}
			for i, w := range waits {
				if lo, hi := backoffBounds(i + 1); tt.wantWaits == nil && (w < lo || w > hi) {
					t.Errorf("backoff after attempt %d = %s, want within [%s, %s]", i+1, w, lo, hi)
				}
			}
			if tt.check != nil {
				tt.check(t, err)
			}
		})
	}
}

func equalDurations(a, b []time.Duration) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestBackoffGrowsWithJitter(t *testing.T) {
	c := newClient(t, "https://example.com", func(o *Options) {
		o.MinBackoff = 100 * time.Millisecond
		o.MaxBackoff = time.Second
	})
	for range 50 {
		for n, want := range []time.Duration{100, 200, 400, 800, 1000, 1000} {
			want *= time.Millisecond
			if d := c.backoff(n + 1); d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %s, want within [%s, %s]", n+1, d, want/2, want)
			}
		}
	}
}

func TestRetryAfterBeyondDeadline(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := newClient(t, srv.URL, nil).GetSkill(ctx, space, skillID)
	if !IsRateLimited(err) || !strings.Contains(err.Error(), "deadline") {
		t.Errorf("error = %v, want a 429 that mentions the deadline", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %s; should give up at once", d)
	}
	if n := srv.count(); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

func TestNetworkErrorsAreRetried(t *testing.T) {
	t.Run("connection refused", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {})
		url := srv.URL
		srv.Close()
		var attempts []RequestInfo
		var log waitLog
		c := newClient(t, url, func(o *Options) {
			o.MaxAttempts = 3
			o.OnRequest = func(ri RequestInfo) { attempts = append(attempts, ri) }
			o.Sleep = log.sleep
		})
		_, err := c.GetSkill(t.Context(), space, skillID)
		if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(err.Error(), "gave up after 3 attempts") {
			t.Errorf("error = %v, want connection refused after 3 attempts", err)
		}
		if len(attempts) != 3 {
			t.Fatalf("%d attempts, want 3", len(attempts))
		}
		for i, a := range attempts {
			if a.Attempt != i+1 || a.Status != 0 || a.Err == nil || a.Method != "GET" || a.Path != "/api/v1/spaces/ab12/skills/"+skillID {
				t.Errorf("attempt %d = %+v", i+1, a)
			}
		}
		waits := log.all()
		if len(waits) != 2 {
			t.Fatalf("waited %v, want twice: between the attempts", waits)
		}
		for i, w := range waits {
			if lo, hi := backoffBounds(i + 1); w < lo || w > hi {
				t.Errorf("backoff after attempt %d = %s, want within [%s, %s]", i+1, w, lo, hi)
			}
		}
	})
	t.Run("connection closed without a response", func(t *testing.T) {
		var n atomic.Int32
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) <= 2 {
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					conn.Close()
				}
				return
			}
			writeJSON(w, 200, fullSkill())
		})
		var infos []RequestInfo
		c := newClient(t, srv.URL, func(o *Options) { o.OnRequest = func(ri RequestInfo) { infos = append(infos, ri) } })
		if _, err := c.DisableSkill(t.Context(), space, skillID); err != nil {
			t.Fatalf("error: %v", err)
		}
		if got := srv.count(); got != 3 {
			t.Errorf("%d requests, want 3", got)
		}
		if last := infos[len(infos)-1]; last.Status != 200 || last.Err != nil {
			t.Errorf("last attempt = %+v", last)
		}
	})
}

func TestPerAttemptTimeout(t *testing.T) {
	hang := func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}
	t.Run("hanging first attempt then success", func(t *testing.T) {
		var n atomic.Int32
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if n.Add(1) == 1 {
				hang(w, r)
				return
			}
			writeJSON(w, 200, fullSkill())
		})
		c := newClient(t, srv.URL, func(o *Options) { o.Timeout = 100 * time.Millisecond })
		if _, err := c.GetSkill(t.Context(), space, skillID); err != nil {
			t.Fatalf("error: %v", err)
		}
		if got := srv.count(); got != 2 {
			t.Errorf("%d requests, want 2", got)
		}
	})
	t.Run("always hanging", func(t *testing.T) {
		srv := serve(t, hang)
		c := newClient(t, srv.URL, func(o *Options) {
			o.Timeout = 100 * time.Millisecond
			o.MaxAttempts = 2
		})
		start := time.Now()
		_, err := c.GetSkill(t.Context(), space, skillID)
		if err == nil || !strings.Contains(err.Error(), "no response within 100ms") {
			t.Errorf("error = %v, want a timeout", err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("took %s", d)
		}
	})
	t.Run("body that stalls", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":`))
			http.NewResponseController(w).Flush()
			hang(w, r)
		})
		c := newClient(t, srv.URL, func(o *Options) {
			o.Timeout = 100 * time.Millisecond
			o.MaxAttempts = 2
		})
		_, err := c.GetSkill(t.Context(), space, skillID)
		if err == nil || !strings.Contains(err.Error(), "no response within 100ms") {
			t.Errorf("error = %v, want a timeout", err)
		}
		if got := srv.count(); got != 2 {
			t.Errorf("%d requests, want 2", got)
		}
	})
}

// TestContextCancellation cancels a call at each place it can wait: on a
// request, or between attempts. Nothing waits on the clock: the server, or
// the wait itself, cancels.
func TestContextCancellation(t *testing.T) {
	tests := []struct {
		name string
		// handle answers the request; cancel ends the call's context.
		handle func(cancel func()) http.HandlerFunc
		opts   func(*Options)
		// wantWait is the wait asked for before the cancellation: the
		// backoff's bounds, or the Retry-After.
		wantWait [2]time.Duration
	}{
		{
			name: "during a hanging request",
			handle: func(cancel func()) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					cancel()
					select {
					case <-r.Context().Done():
					case <-time.After(10 * time.Second):
					}
				}
			},
		},
		{
			name: "during backoff",
			handle: func(func()) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) }
			},
			opts: func(o *Options) {
				o.MinBackoff = 10 * time.Second
				o.MaxBackoff = 10 * time.Second
			},
			wantWait: [2]time.Duration{5 * time.Second, 10 * time.Second},
		},
		{
			name: "during a Retry-After wait",
			handle: func(func()) http.HandlerFunc {
				return func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Retry-After", "20")
					w.WriteHeader(http.StatusTooManyRequests)
				}
			},
			wantWait: [2]time.Duration{20 * time.Second, 20 * time.Second},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			srv := serve(t, tt.handle(cancel))
			var waits []time.Duration
			c := newClient(t, srv.URL, func(o *Options) {
				o.Timeout = 20 * time.Second
				// The wait is cancelled as it starts; the timer of the
				// default wait must end it then.
				o.Sleep = func(ctx context.Context, d time.Duration) error {
					waits = append(waits, d)
					cancel()
					return sleepContext(ctx, d)
				}
				if tt.opts != nil {
					tt.opts(o)
				}
			})
			start := time.Now()
			_, err := c.UpdateSkill(ctx, space, skillID, SkillUpdate{Name: ptr("x")})
			if !errors.Is(err, context.Canceled) {
				t.Errorf("error = %v, want context.Canceled", err)
			}
			if err != nil && !strings.Contains(err.Error(), "PATCH /api/v1/spaces/ab12/skills/"+skillID) {
				t.Errorf("error %q does not name the request", err)
			}
			if d := time.Since(start); d > time.Second {
				t.Errorf("returned after %s, want at once", d)
			}
			if n := srv.count(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
			switch {
			case tt.wantWait[1] == 0 && len(waits) != 0:
				t.Errorf("waited %v, want no wait", waits)
			case tt.wantWait[1] != 0 && (len(waits) != 1 || waits[0] < tt.wantWait[0] || waits[0] > tt.wantWait[1]):
				t.Errorf("waited %v, want one wait within [%s, %s]", waits, tt.wantWait[0], tt.wantWait[1])
			}
		})
	}
	t.Run("already cancelled sends nothing", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, fullSkill()) })
		ctx, cancel := context.WithCancel(t.Context())
		cancel()
		_, err := newClient(t, srv.URL, nil).GetSkill(ctx, space, skillID)
		if !errors.Is(err, context.Canceled) || srv.count() != 0 {
			t.Errorf("error = %v, %d requests; want context.Canceled and none", err, srv.count())
		}
	})
}

// TestSleepContext: the default wait between attempts lasts its delay, and
// ends early, with the context's error, when the context ends.
func TestSleepContext(t *testing.T) {
	start := time.Now()
	if err := sleepContext(t.Context(), time.Millisecond); err != nil || time.Since(start) < time.Millisecond {
		t.Errorf("sleepContext(1ms) = %v after %s, want nil after 1ms", err, time.Since(start))
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- sleepContext(ctx, time.Hour) }()
	time.AfterFunc(time.Millisecond, cancel)
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("sleepContext(1h), cancelled after 1ms = %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Errorf("sleepContext(1h) still sleeping 10s after its context was cancelled")
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"0", 0, true},
		{" 12 ", 12 * time.Second, true},
		{"-1", 0, false},
		{"1.5", 0, false},
		{"soon", 0, false},
		{"99999999999999999999", 0, false},
		{"9999999999999", time.Duration(9223372036) * time.Second, true},
		{now.Add(90 * time.Second).Format(http.TimeFormat), 90 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"Wednesday, 04-Mar-26 05:06:17 GMT", 10 * time.Second, true}, // RFC 850
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := parseRetryAfter(tt.in, now)
			if got != tt.want || ok != tt.ok {
				t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tt.in, got, ok, tt.want, tt.ok)
			}
		})
	}
}

// IsRateLimited reports whether err is, or wraps, an [*Error] with status
// 429, which the client returns only once its retries are spent.
func IsRateLimited(err error) bool { return hasStatus(err, http.StatusTooManyRequests) }
