package remote

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
)

// TestDeleteAgentRetryAfterLostAnswer: when the answer to a DELETE is lost
// and the retry finds the agent gone, the agent was deleted, and the
// caller must hear success, not 404.
func TestDeleteAgentRetryAfterLostAnswer(t *testing.T) {
	const agent = "625b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d"
	var n atomic.Int32
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			// Deleted, but the connection drops before the answer.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		w.Write([]byte(`{"error":{"code":"not_found","message":"agent not found"}}`))
	})
	c := newClient(t, srv.URL, nil)
	if err := c.DeleteAgent(context.Background(), "ab12", agent); err != nil {
		t.Fatalf("DeleteAgent after a lost answer: %v", err)
	}
	if got := srv.count(); got != 2 {
		t.Fatalf("%d requests, want 2", got)
	}

	// A 404 on the first attempt is still an error: there was no agent.
	n.Store(1)
	if err := c.DeleteAgent(context.Background(), "ab12", agent); !IsNotFound(err) {
		t.Fatalf("DeleteAgent of an unknown agent: %v, want 404", err)
	}
}
