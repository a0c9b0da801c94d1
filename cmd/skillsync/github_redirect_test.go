package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// TestGitHubRedirectRefused: a GitHub API that redirects to another origin
// (here another port of loopback) never gets GITHUB_TOKEN, nor the plan,
// sent there: plan --comment and drift --issue fail, naming the redirect.
func TestGitHubRedirectRefused(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" Authorization: "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "[]")
	}))
	t.Cleanup(other.Close)
	t.Cleanup(func() { // after the subtests, which run in parallel
		mu.Lock()
		defer mu.Unlock()
		if len(seen) > 0 {
			t.Errorf("the other origin got %d requests: %q", len(seen), seen)
		}
	})
	for _, tc := range []struct {
		name, method, path string
		args               []string
	}{
		{"GET comments", http.MethodGet, "/comments", []string{"plan", "--comment", "--pr", "1"}},
		{"POST comment", http.MethodPost, "/comments", []string{"plan", "--comment", "--pr", "1"}},
		{"GET issues", http.MethodGet, "/issues", []string{"drift", "--issue"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			f := newFakeGitHub(t, env)
			f.Inject(func(r *http.Request) *githubtest.Fault {
				if r.Method == tc.method && strings.HasSuffix(r.URL.Path, tc.path) {
					return &githubtest.Fault{Status: http.StatusTemporaryRedirect, Header: http.Header{"Location": {other.URL + r.URL.Path}}}
				}
				return nil
			})
			code, stdout, stderr := runCLI(t, env, append(tc.args, "--dir", dir)...)
			if code != exitError || !strings.Contains(stderr, "skillsync: error: ") ||
				!strings.Contains(stderr, "refusing to follow a redirect to "+other.URL) {
				t.Errorf("%s: exit %d, want %d naming the refused redirect; stderr:\n%s", strings.Join(tc.args, " "), code, exitError, stderr)
			}
			if strings.Contains(stdout+stderr, fakeGitHubToken) {
				t.Errorf("the output shows GITHUB_TOKEN:\n%s%s", stdout, stderr)
			}
		})
	}
}
