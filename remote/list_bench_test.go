package remote

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
)

// BenchmarkListAllLyingServer lists the skills of services whose envelope
// lies, each answering every request with a page of items never seen
// before and hasMore true, and reports the requests made before the error
// and the process's peak RSS. The target (issue 13) is a clear error within
// 60 s and under 200 MB; run each case alone for its own peak:
//
//	go test ./remote -run '^$' -bench 'ListAllLyingServer/total-1e9' -benchtime 1x
func BenchmarkListAllLyingServer(b *testing.B) {
	for _, tt := range []struct {
		name    string
		perPage int
		total   func(offset int) int
	}{
		// The service: a total of a billion.
		{"total-1e9", 100, func(int) int { return 1_000_000_000 }},
		// New items on every page, the total growing faster than they
		// are read.
		{"growing-total", 100, func(offset int) int { return 300 + offset*offset }},
		// The largest total accepted, never reached: the worst a liar
		// can do with full pages.
		{"total-100000", 100, func(int) int { return maxListTotal }},
		// The same with pages of one item.
		{"total-100000-one-item-pages", 1, func(int) int { return maxListTotal }},
	} {
		b.Run(tt.name, func(b *testing.B) {
			var next, requests atomic.Int64
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				requests.Add(1)
				offset, _ := strconv.Atoi(r.URL.Query().Get("offset"))
				data := make([]any, tt.perPage)
				for i := range data {
					n := int(next.Add(1))
					data[i] = skillObject(itemID(n), n)
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"data": data, "total": tt.total(offset), "limit": 100, "offset": offset, "hasMore": true})
			}))
			defer srv.Close()
			c, err := New(Options{BaseURL: srv.URL, Token: testToken})
			if err != nil {
				b.Fatal(err)
			}
			var last error
			for b.Loop() {
				requests.Store(0)
				_, last = c.StreamSkills(context.Background(), space, ListOptions{})
				if last == nil {
					b.Fatal("a lying service's list was accepted")
				}
			}
			b.Logf("%d requests; %v", requests.Load(), last)
			b.ReportMetric(float64(requests.Load()), "requests/op")
			var ru syscall.Rusage
			if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
				b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Maxrss is in KB on Linux
			}
		})
	}
}
