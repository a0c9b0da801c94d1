package gitlab

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestAnswersAreBounded: no answer of GitLab's is read past the limit,
// whether it says its length (refused before reading) or not (refused
// at the first byte too many), on success and on error alike: client-go
// reads both whole. An answer of exactly the limit is read.
func TestAnswersAreBounded(t *testing.T) {
	const limit = 4096
	notes := func(n int) string { // a JSON page of notes of n bytes
		s := `[{"id":1,"body":"` + strings.Repeat("x", n-len(`[{"id":1,"body":""}]`)) + `"}]`
		return s
	}
	for _, tc := range []struct {
		name    string
		status  int
		body    string
		chunked bool
		wantErr string
	}{
		{"a page at the limit", 200, notes(limit), false, ""},
		{"a page over the limit, with its length", 200, notes(limit + 1), false, "GitLab's answer to GET /api/v4/projects/1/merge_requests/7/notes is over 4096 bytes"},
		{"a page over the limit, chunked", 200, notes(limit + 1), true, "is over 4096 bytes"},
		// client-go drops an error body it cannot read whole: the status
		// is all that is left.
		{"an error over the limit", 400, `{"message":"` + strings.Repeat("x", limit) + `"}`, true, "GitLab answered 400 Bad Request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if !tc.chunked {
					w.Header().Set("Content-Length", fmt.Sprint(len(tc.body)))
				}
				w.WriteHeader(tc.status)
				if tc.chunked {
					// Flushing first makes the length unknown to the client.
					w.(http.Flusher).Flush()
				}
				io.WriteString(w, tc.body)
			}))
			t.Cleanup(srv.Close)
			c, err := newClient(context.Background(), Env{Token: "glpat-t", APIURL: srv.URL + "/api/v4", Project: "1"},
				Options{HTTPClient: srv.Client(), RetryWait: func(int, *http.Response) time.Duration { return 0 }}, limit)
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.findNote(context.Background(), 7, "<!-- m -->")
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want the page read", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			case err != nil && strings.Contains(err.Error(), "xxxx"):
				t.Errorf("the answer over the limit was read: %.200s", err)
			}
		})
	}
}

// TestDefaultRetryWait: without Options.RetryWait a retry waits a few
// seconds, or after a 429 what GitLab says, but never past MaxRetryWait:
// a Retry-After or RateLimit-Reset an hour off does not hold the job for
// an hour.
func TestDefaultRetryWait(t *testing.T) {
	limited := func(h http.Header) *http.Response {
		return &http.Response{StatusCode: http.StatusTooManyRequests, Header: h}
	}
	hourOff := fmt.Sprint(time.Now().Add(time.Hour).Unix())
	for _, tc := range []struct {
		name string
		n    int
		resp *http.Response
		want time.Duration
	}{
		{"no answer, first retry", 0, nil, time.Second},
		{"a 502, third retry", 2, &http.Response{StatusCode: 502, Header: http.Header{"Retry-After": {"3600"}}}, 4 * time.Second},
		{"Retry-After 5", 0, limited(http.Header{"Retry-After": {"5"}}), 5 * time.Second},
		{"Retry-After an hour", 0, limited(http.Header{"Retry-After": {"3600"}}), MaxRetryWait},
		{"Retry-After past int64", 0, limited(http.Header{"Retry-After": {"99999999999999999999"}}), MaxRetryWait},
		{"RateLimit-Reset an hour off", 0, limited(http.Header{"Ratelimit-Reset": {hourOff}}), MaxRetryWait},
		{"RateLimit-Reset past", 1, limited(http.Header{"Ratelimit-Reset": {"1"}}), 2 * time.Second},
		{"many retries", 40, nil, MaxRetryWait},
	} {
		if got := defaultRetryWait(tc.n, tc.resp); got != tc.want {
			t.Errorf("%s: waits %v, want %v", tc.name, got, tc.want)
		}
	}
}
