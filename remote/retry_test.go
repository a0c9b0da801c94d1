package remote

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// fakeSleep records the waits of c instead of sleeping, and fixes its clock.
func fakeSleep(c *Client, now time.Time) *[]time.Duration {
	var waits []time.Duration
	c.now = func() time.Time { return now }
	c.sleep = func(ctx context.Context, d time.Duration) error {
		waits = append(waits, d)
		return ctx.Err()
	}
	return &waits
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
			c := newClient(t, srv.URL, func(o *Options) { o.MaxAttempts = tt.maxAttempts })
			waits := fakeSleep(c, now)
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
			if len(*waits) != tt.wantRequests-1 {
				t.Errorf("waited %d times, want %d", len(*waits), tt.wantRequests-1)
			}
			if tt.wantWaits != nil && !equalDurations(*waits, tt.wantWaits) {
				t.Errorf("waits = %v, want %v", *waits, tt.wantWaits)
			}
			for _, w := range *waits {
				if tt.wantWaits == nil && (w < 0 || w > 5*time.Millisecond) {
					t.Errorf("backoff %s outside [0, MaxBackoff]", w)
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
		c := newClient(t, url, func(o *Options) {
			o.MaxAttempts = 3
			o.OnRequest = func(ri RequestInfo) { attempts = append(attempts, ri) }
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

func TestContextCancellation(t *testing.T) {
	tests := []struct {
		name   string
		handle http.HandlerFunc
		opts   func(*Options)
	}{
		{
			name: "during a hanging request",
			handle: func(w http.ResponseWriter, r *http.Request) {
				select {
				case <-r.Context().Done():
				case <-time.After(10 * time.Second):
				}
			},
		},
		{
			name:   "during backoff",
			handle: func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusServiceUnavailable) },
			opts: func(o *Options) {
				o.MinBackoff = 10 * time.Second
				o.MaxBackoff = 10 * time.Second
			},
		},
		{
			name: "during a Retry-After wait",
			handle: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Retry-After", "20")
				w.WriteHeader(http.StatusTooManyRequests)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.handle)
			c := newClient(t, srv.URL, func(o *Options) {
				o.Timeout = 20 * time.Second
				if tt.opts != nil {
					tt.opts(o)
				}
			})
			ctx, cancel := context.WithCancel(t.Context())
			time.AfterFunc(50*time.Millisecond, cancel)
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
