package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote"
)

// TestHintForConflict: only a refused enable is about the 40-active limit;
// a 409 elsewhere must not send the user disabling skills.
func TestHintForConflict(t *testing.T) {
	enable := &remote.Error{StatusCode: 409, Method: "POST", Path: "/api/v1/spaces/ab12/skills/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/enable"}
	if h := hintFor(enable); !strings.Contains(h, "40 active skills") {
		t.Errorf("hint for a refused enable = %q, want the 40-active limit", h)
	}
	publish := &remote.Error{StatusCode: 409, Method: "POST", Path: "/api/v1/spaces/ab12/agents/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/publish"}
	if h := hintFor(publish); h == "" || strings.Contains(h, "40") {
		t.Errorf("hint for a 409 on publish = %q, want one that is not about the skill limit", h)
	}
}

// TestHintForNetwork: each way of not reaching the service, produced by a
// real client over loopback, gets advice that names its likely cause.
func TestHintForNetwork(t *testing.T) {
	t.Parallel()
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake
	untrusted.StartTLS()
	t.Cleanup(untrusted.Close)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hang.Close)
	refused := "http://" + refusingAddr(t)

	for _, tc := range []struct {
		name, url, want string
		timeout         time.Duration // 0: the client's default, which a busy machine never reaches
	}{
		{"refused", refused, "nothing accepts connections at the service's address", 0},
		{"http answers https", strings.Replace(plain.URL, "http:", "https:", 1), "answered an https request in plain HTTP", 0},
		{"untrusted certificate", untrusted.URL, "TLS certificate is not trusted here", 0},
		{"no answer", hang.URL, "did not answer in time", 50 * time.Millisecond},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cl, err := remote.New(remote.Options{BaseURL: tc.url, Token: "sentinel-token-value", MaxAttempts: 1, Timeout: tc.timeout})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cl.ListAgents(context.Background(), "ab12", 1, 0)
			if err == nil {
				t.Fatal("no error")
			}
			if h := hintFor(fmt.Errorf("listing agents: %w", err)); !strings.Contains(h, tc.want) {
				t.Errorf("error %v: hint %q, want one containing %q", err, h, tc.want)
			}
		})
	}
	dns := &net.DNSError{Err: "no such host", Name: "nosuchhost.invalid", IsNotFound: true}
	if h := hintFor(fmt.Errorf("GET /x: %w", dns)); !strings.Contains(h, "does not resolve") {
		t.Errorf("hint for an unknown host = %q", h)
	}
}

// TestHintForRevision: a --ref that names nothing gets the likely fixes,
// the shallow CI checkout among them.
func TestHintForRevision(t *testing.T) {
	err := fmt.Errorf("revision %q: %w", "main", fsrepo.ErrUnknownRevision)
	if h := hintFor(err); !strings.Contains(h, "git log --oneline") || !strings.Contains(h, "fetch-depth: 0") {
		t.Errorf("hint = %q", h)
	}
}

// TestNoNetworkHintForFiles: an EOF from reading a file is not a network
// failure, and gets no advice about the network.
func TestNoNetworkHintForFiles(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("reading journal: %w", io.ErrUnexpectedEOF),
		fmt.Errorf("reading plan: %w", io.EOF),
	} {
		if h := hintFor(err); h != "" {
			t.Errorf("hint for %v = %q, want none", err, h)
		}
	}
}

// TestHintPerCall: a status gets the advice of what it can mean for the
// call it answered.
func TestHintPerCall(t *testing.T) {
	const skill = "/api/v1/spaces/ab12/skills/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b"
	for _, tc := range []struct {
		name, method, path string
		status             int
		want, not          string
	}{
		{"403 on a read may be a bad token", "GET", "/api/v1/spaces/ab12/skills?limit=100&offset=0", 403, "some services answer 403, not 401, to a bad token", ""},
		{"403 on an update may be a built-in skill", "PATCH", skill, 403, "built-in", "bad token"},
		{"403 on a publish is about agents", "POST", "/api/v1/spaces/ab12/agents/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/publish", 403, "change agents", ""},
		{"409 on an update may be a name another skill holds", "PATCH", skill, 409, "another skill may hold this name", "40 active"},
		{"404 on an update is a skill deleted since the plan", "PATCH", skill, 404, "no longer in the space", "--base-url"},
		{"422 on a publish is the embed whitelist", "POST", "/api/v1/spaces/ab12/agents/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/publish", 422, "domainWhitelist", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := hintFor(&remote.Error{StatusCode: tc.status, Method: tc.method, Path: tc.path})
			if !strings.Contains(h, tc.want) || (tc.not != "" && strings.Contains(h, tc.not)) {
				t.Errorf("hint = %q, want one containing %q and not %q", h, tc.want, tc.not)
			}
		})
	}
}

// TestHintSaysWhenRateLimitEnds: a Retry-After longer than the client
// waits is given up at once, and the hint says when to come back, not
// "wait a minute".
func TestHintSaysWhenRateLimitEnds(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "3600")
		w.WriteHeader(http.StatusTooManyRequests)
	}))
	t.Cleanup(srv.Close)
	cl, err := remote.New(remote.Options{BaseURL: srv.URL, Token: "sentinel-token-value"})
	if err != nil {
		t.Fatal(err)
	}
	before := time.Now()
	_, err = cl.ListAgents(context.Background(), "ab12", 1, 0)
	h := hintFor(err)
	// The answer came between before and now: its minute is one of theirs.
	ok := false
	for _, at := range []time.Time{before, time.Now()} {
		ok = ok || strings.Contains(h, "rate limiting this token until "+at.Add(time.Hour).UTC().Format("2006-01-02 15:04"))
	}
	if !ok || strings.Contains(h, "wait a minute") {
		t.Errorf("error %v: hint %q, want the time an hour from now", err, h)
	}
}
