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
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := "http://" + closed.Addr().String()
	closed.Close()

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
