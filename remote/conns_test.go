package remote

import (
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestParallelRequestsReuseConnections runs 50 rounds of 8 gets: the
// client must keep its 8 connections open between requests, not dial (and,
// against a real tenant, shake hands over TLS) for most of them, as
// net/http's default of 2 idle connections per host would.
func TestParallelRequestsReuseConnections(t *testing.T) {
	var dialed atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(5 * time.Millisecond)
		writeJSON(w, 200, fullSkill())
	}))
	srv.Config.ConnState = func(c net.Conn, s http.ConnState) {
		if s == http.StateNew {
			dialed.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	c := newClient(t, srv.URL, nil)

	// Rounds of 8 at once, as Fetch and Apply send them: each round ends
	// with 8 connections going back to the pool together.
	const par, rounds = 8, 50
	for range rounds {
		var wg sync.WaitGroup
		for range par {
			wg.Go(func() {
				if _, err := c.GetSkill(t.Context(), space, skillID); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
	}
	if got := dialed.Load(); got > par+par/2 {
		t.Errorf("%d connections for %d rounds of %d requests at once", got, rounds, par)
	}
}
