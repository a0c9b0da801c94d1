package github_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// TestRedirectToAnotherOriginRefused: a GitHub API that answers with a
// redirect to another scheme, host or port never gets the token sent
// there (go-github sets the Authorization header on every request its
// transport sends, the redirected ones included); a redirect on the same
// origin, as for a renamed repository, is followed.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []string // Authorization headers the other origin received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" Authorization: "+r.Header.Get("Authorization"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, "[]")
	}))
	t.Cleanup(other.Close)
	for _, tc := range []struct {
		name, method, path string
		call               func(c *github.Client) error
	}{
		{"GET comments", http.MethodGet, "/comments", func(c *github.Client) error {
			_, _, err := upsert(c, ctx, 1, markerAB, "plan")
			return err
		}},
		{"POST comment", http.MethodPost, "/comments", func(c *github.Client) error {
			_, _, err := upsert(c, ctx, 1, markerAB, "plan")
			return err
		}},
		{"GET issues", http.MethodGet, "/issues", func(c *github.Client) error {
			_, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift")
			return err
		}},
	} {
		for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			f := githubtest.New(t)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			f.Inject(func(r *http.Request) *githubtest.Fault {
				if r.Method == tc.method && strings.HasSuffix(r.URL.Path, tc.path) {
					return &githubtest.Fault{Status: status, Header: http.Header{"Location": {other.URL + "/elsewhere"}}}
				}
				return nil
			})
			err := tc.call(newClient(t, f))
			if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect to "+other.URL) {
				t.Errorf("%s, %d: error = %v, want a refused redirect to %s", tc.name, status, err, other.URL)
			}
			if err != nil && strings.Contains(err.Error(), githubtest.Token) {
				t.Errorf("%s, %d: the error shows the token: %v", tc.name, status, err)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Errorf("the other origin got %d requests: %q", len(seen), seen)
	}
}

// TestRedirectOnTheSameOriginFollowed: GitHub redirects the API calls of
// a renamed repository on its own origin; those are followed, with the
// token.
func TestRedirectOnTheSameOriginFollowed(t *testing.T) {
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{State: "open", PR: true})
	moved := f.URL + "/repos/acme/skills/issues/1/comments?per_page=100&moved=1"
	f.Inject(func(r *http.Request) *githubtest.Fault {
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/comments") && r.URL.Query().Get("moved") == "" {
			return &githubtest.Fault{Status: http.StatusTemporaryRedirect, Header: http.Header{"Location": {moved}}}
		}
		return nil
	})
	if _, _, err := upsert(newClient(t, f), context.Background(), 1, markerAB, "plan"); err != nil {
		t.Fatal(err)
	}
	if n := countRequests(f.Requests(), "GET /repos/acme/skills/issues/1/comments?per_page=100&moved=1"); n != 1 {
		t.Errorf("the redirect was followed %d times, want once; requests: %q", n, f.Requests())
	}
}

// roundTripper answers every request with a redirect to target, and
// records the requests.
type redirectingTransport struct {
	target string
	seen   []*http.Request
}

func (rt *redirectingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.seen = append(rt.seen, r)
	return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {rt.target}},
		Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// TestRedirectOffLoopback: from an https API, a redirect to plain http, to
// another port or to another host is refused before anything is sent
// there, as is plain http from a loopback API to another host; the caller's
// http.Client is left as it was.
func TestRedirectOffLoopback(t *testing.T) {
	for _, tc := range []struct{ api, target string }{
		{"https://ghe.example.com/api/v3", "http://ghe.example.com/api/v3/repos/acme/skills/issues"},
		{"https://ghe.example.com/api/v3", "https://ghe.example.com:8443/api/v3/repos/acme/skills/issues"},
		{"https://api.github.com", "https://api.github.com.evil.example/repos/acme/skills/issues"},
		{"https://api.github.com", "http://127.0.0.1/repos/acme/skills/issues"},
		{"http://127.0.0.1:8080", "http://example.com:8080/repos/acme/skills/issues"},
		{"http://localhost:8080", "http://127.0.0.1:8080/repos/acme/skills/issues"},
	} {
		rt := &redirectingTransport{target: tc.target}
		hc := &http.Client{Transport: rt}
		c, err := github.NewClient(context.Background(), github.Env{Token: "ghs_secret_token_123", Repository: "acme/skills", APIURL: tc.api}, hc)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.SyncDriftIssue(context.Background(), "ab12", "", true, "drift")
		if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") {
			t.Errorf("%s -> %s: error = %v, want a refused redirect", tc.api, tc.target, err)
		}
		if len(rt.seen) != 1 {
			t.Errorf("%s -> %s: %d requests sent, want 1 (none to the redirect)", tc.api, tc.target, len(rt.seen))
		}
		if hc.CheckRedirect != nil {
			t.Error("NewClient changed the caller's http.Client")
		}
	}
}

// TestAPIURLCredentialsNeverShown: a user and password in GITHUB_API_URL
// are refused, parsed or not, and never printed.
func TestAPIURLCredentialsNeverShown(t *testing.T) {
	const pw = "PASSWORDxyz123"
	for _, api := range []string{
		"https://bot:" + pw + "@127.0.0.1:1/api/v3",
		"htps://user:" + pw + "@x/api/v3",
		"https://user:" + pw + "%zz@github.example.com/api/v3",
	} {
		env := github.Env{Token: githubtest.Token, Repository: githubtest.Repository, APIURL: api}
		_, err := github.NewClient(context.Background(), env, nil)
		var ge *github.Error
		if !errors.As(err, &ge) {
			t.Fatalf("%s: %v (%T), want a *github.Error", api, err, err)
		}
		if strings.Contains(err.Error()+ge.Hint, pw) {
			t.Errorf("%s: the password is shown: %v (hint %q)", api, err, ge.Hint)
		}
	}
}
