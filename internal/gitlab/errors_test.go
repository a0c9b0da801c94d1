package gitlab_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

func TestErrorsSayWhatToDo(t *testing.T) {
	ctx := context.Background()
	note := func(c *gitlab.Client) error {
		_, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
		return err
	}
	drift := func(c *gitlab.Client) error {
		_, _, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", true, "drift"))
		return err
	}
	onWrite := func(status int, body string) func(f *gitlabtest.Server) {
		return func(f *gitlabtest.Server) {
			f.Inject(func(r *http.Request) *gitlabtest.Fault {
				if r.Method != http.MethodGet {
					return &gitlabtest.Fault{Status: status, Body: body}
				}
				return nil
			})
		}
	}
	tests := []struct {
		name       string
		setup      func(f *gitlabtest.Server)
		env        func(e *gitlab.Env)
		call       func(c *gitlab.Client) error
		wantStatus int
		want       []string
	}{
		{
			name:       "bad token",
			env:        func(e *gitlab.Env) { e.Token = "glpat-expired" },
			call:       note,
			wantStatus: 401,
			want:       []string{"listing the notes of merge request !7: GitLab answered 401 Unauthorized", "invalid, expired or revoked", "GITLAB_TOKEN"},
		},
		{
			name:       "read_api token, note",
			setup:      func(f *gitlabtest.Server) { f.ReadOnly() },
			call:       note,
			wantStatus: 403,
			want:       []string{"commenting the plan on merge request !7: GitLab answered 403 Forbidden: insufficient_scope: The request requires higher privileges", "lacks the api scope"},
		},
		{
			name:       "read_api token, issue",
			setup:      func(f *gitlabtest.Server) { f.ReadOnly() },
			call:       drift,
			wantStatus: 403,
			want:       []string{"opening a drift issue in project 4242", "lacks the api scope"},
		},
		{
			name:       "role too low, note",
			setup:      onWrite(403, `{"message":"403 Forbidden"}`),
			call:       note,
			wantStatus: 403,
			want:       []string{"GitLab answered 403 Forbidden; the GitLab token may not comment on merge requests in project 4242: give the access token the Reporter role or higher (a locked merge request takes no notes)"},
		},
		{
			name:       "role too low, issue",
			setup:      onWrite(403, `{"message":"403 Forbidden"}`),
			call:       drift,
			wantStatus: 403,
			want:       []string{"may not open, edit and close issues in project 4242"},
		},
		{
			name: "a token that may not read its user",
			setup: func(f *gitlabtest.Server) {
				f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, Body: markerAB + "\nold plan"})
				f.Inject(func(r *http.Request) *gitlabtest.Fault {
					if r.URL.Path == "/api/v4/user" {
						return &gitlabtest.Fault{Status: 403, Body: `{"message":"403 Forbidden"}`}
					}
					return nil
				})
			},
			call:       note,
			wantStatus: 403,
			want:       []string{"finding whom the GitLab token belongs to: GitLab answered 403 Forbidden; the GitLab token may not read whom it belongs to", "CI_JOB_TOKEN cannot post"},
		},
		{
			name: "no such merge request",
			call: func(c *gitlab.Client) error {
				_, _, err := c.SyncPlanNote(ctx, 8, gitlab.PlanNote{Marker: markerAB, Markdown: "p"})
				return err
			},
			wantStatus: 404,
			want:       []string{"listing the notes of merge request !8: GitLab answered 404 Not Found; check the project (4242, from CI_PROJECT_ID) and that merge request !8 exists in it"},
		},
		{
			name:       "no such project",
			env:        func(e *gitlab.Env) { e.Project = "999" },
			call:       drift,
			wantStatus: 404,
			want:       []string{"listing the open issues of project 999: GitLab answered 404 Not Found; check the project (999, from CI_PROJECT_ID) and that the token can see it, with issues turned on"},
		},
		{
			name:       "note too long for GitLab",
			setup:      onWrite(400, `{"message":{"note":["is too long (maximum is 1000000 characters)"]}}`),
			call:       note,
			wantStatus: 400,
			want:       []string{"GitLab answered 400 Bad Request: note is too long (maximum is 1000000 characters)"},
		},
		{
			name:       "rate limited",
			setup:      func(f *gitlabtest.Server) { f.FailAll(429, `{"message":"Retry later"}`) },
			call:       note,
			wantStatus: 429,
			want:       []string{"GitLab answered 429 Too Many Requests: Retry later; GitLab's rate limit is used up"},
		},
		{
			name:       "server error on a write",
			setup:      onWrite(502, `<html>Bad Gateway</html>`),
			call:       note,
			wantStatus: 502,
			want:       []string{"GitLab answered 502 Bad Gateway: <html>Bad Gateway</html>; GitLab failed to answer; run the job again later"},
		},
		{
			name: "an address that is not the API",
			setup: func(f *gitlabtest.Server) {
				f.Inject(func(r *http.Request) *gitlabtest.Fault {
					return &gitlabtest.Fault{Status: 200, Body: "<html>Sign in</html>"}
				})
			},
			call: note,
			want: []string{"listing the notes of merge request !7: GitLab answered", "with a web page", `"<html>Sign in</html>"`, "check CI_API_V4_URL", "https://HOST/api/v4"},
		},
		{
			name: "a sign-in page, with its title",
			setup: func(f *gitlabtest.Server) {
				f.Inject(func(r *http.Request) *gitlabtest.Fault {
					return &gitlabtest.Fault{Status: 200, Header: http.Header{"Content-Type": {"text/html"}},
						Body: "<!DOCTYPE html><html><head><title>Sign in · GitLab</title></head></html>"}
				})
			},
			call: note,
			want: []string{"GitLab answered", "with a web page (text/html)", "Sign in · GitLab", "check CI_API_V4_URL"},
		},
		{
			name:  "GitLab down",
			setup: func(f *gitlabtest.Server) { f.Close() },
			call:  note,
			want:  []string{"did not answer: check the network, and CI_API_V4_URL"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := gitlabtest.New(t)
			f.AddMergeRequest(7)
			if tt.setup != nil {
				tt.setup(f)
			}
			env := testEnv(f)
			if tt.env != nil {
				tt.env(&env)
			}
			err := tt.call(clientFor(t, f, env))
			var ge *gitlab.Error
			if !errors.As(err, &ge) {
				t.Fatalf("error %v (%T), want a *gitlab.Error", err, err)
			}
			if ge.Status != tt.wantStatus {
				t.Errorf("status %d, want %d", ge.Status, tt.wantStatus)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestRetries: a read GitLab answers 502 once is sent again; a write is
// not (the note may have been posted, and two would show), and a 429 is,
// as GitLab did nothing.
func TestRetries(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		method     string
		status     int
		wantErr    bool
		wantPOSTs  int
		wantLists  int
		wantCalled int
	}{
		{"read after a 502", http.MethodGet, 502, false, 1, 2, 1},
		{"write after a 502", http.MethodPost, 502, true, 1, 1, 1},
		{"write after a 429", http.MethodPost, 429, false, 2, 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := gitlabtest.New(t)
			f.AddMergeRequest(7)
			var once sync.Once
			f.Inject(func(r *http.Request) *gitlabtest.Fault {
				var fault *gitlabtest.Fault
				if r.Method == tc.method && strings.HasSuffix(r.URL.Path, "/notes") {
					once.Do(func() { fault = &gitlabtest.Fault{Status: tc.status, Body: `{"message":"try again"}`} })
				}
				return fault
			})
			_, _, err := newClient(t, f).SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
			if (err != nil) != tc.wantErr {
				t.Errorf("error %v, want error: %t", err, tc.wantErr)
			}
			reqs := f.Requests()
			if n := countRequests(reqs, "POST "); n != tc.wantPOSTs {
				t.Errorf("%d POST, want %d: %q", n, tc.wantPOSTs, reqs)
			}
			if n := countRequests(reqs, "GET /api/v4/projects/4242/merge_requests/7/notes"); n != tc.wantLists {
				t.Errorf("%d listings, want %d: %q", n, tc.wantLists, reqs)
			}
			if len(f.Notes()) > 1 {
				t.Errorf("%d notes posted", len(f.Notes()))
			}
		})
	}
}

// TestErrorsNeverShowTheToken: GitLab's error message that echoes the
// token, as it is or escaped, never gets it into the error.
func TestErrorsNeverShowTheToken(t *testing.T) {
	const tok = gitlabtest.Token // spelt out below
	for _, spelt := range []string{
		tok,
		"glpat-fake%5Ftoken%5F0123456789",
		"glpat-fake&#95;token&#x5f;0123456789",
		`glpat-fake\\_token\\_0123456789`,
	} {
		for _, body := range []string{
			`{"message":"Validation failed for ` + spelt + `"}`,
			`{"message":{"note":["token ` + spelt + ` seen"]}}`,
			`{"error":"invalid_token","error_description":"Token ` + spelt + ` was revoked"}`,
			`not JSON: ` + strings.ReplaceAll(spelt, `\\`, `\`), // escaped once, as in the JSON above
		} {
			f := gitlabtest.New(t)
			f.AddMergeRequest(7)
			f.FailAll(http.StatusBadRequest, body)
			_, _, err := newClient(t, f).SyncPlanNote(context.Background(), 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
			if err == nil || !strings.Contains(err.Error(), "[REDACTED]") {
				t.Errorf("%s: error = %v, want GitLab's message with the token redacted", body, err)
			}
			if l := redacttest.Leak(fmt.Sprint(err), tok); l != "" {
				t.Errorf("%s: the error shows %s: %v", body, l, err)
			}
		}
	}
}

// TestRedirectToAnotherOriginRefused: net/http keeps the PRIVATE-TOKEN
// header on a redirect to any host; a GitLab API that answers with a
// redirect to another scheme, host or port never gets the token sent
// there.
func TestRedirectToAnotherOriginRefused(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	var seen []string // what the other origin received
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.Path+" PRIVATE-TOKEN: "+r.Header.Get("Private-Token"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":77}`)
	}))
	t.Cleanup(other.Close)
	for _, tc := range []struct {
		name, method, path string
		call               func(c *gitlab.Client) error
	}{
		{"GET /user", http.MethodGet, "/user", func(c *gitlab.Client) error {
			_, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
			return err
		}},
		{"GET notes", http.MethodGet, "/notes", func(c *gitlab.Client) error {
			_, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
			return err
		}},
		{"POST note", http.MethodPost, "/notes", func(c *gitlab.Client) error {
			_, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
			return err
		}},
		{"GET issues", http.MethodGet, "/issues", func(c *gitlab.Client) error {
			_, _, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", true, "drift"))
			return err
		}},
	} {
		for _, status := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
			f := gitlabtest.New(t)
			f.AddMergeRequest(7)
			// A note with the marker, whose author is asked for (GET /user).
			f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, AuthorID: 5, Body: markerAB})
			f.Inject(func(r *http.Request) *gitlabtest.Fault {
				if r.Method == tc.method && strings.HasSuffix(r.URL.Path, tc.path) {
					return &gitlabtest.Fault{Status: status, Header: http.Header{"Location": {other.URL + "/elsewhere"}}}
				}
				return nil
			})
			err := tc.call(newClient(t, f))
			if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect to "+other.URL) || !strings.Contains(err.Error(), "CI_API_V4_URL") {
				t.Errorf("%s, %d: error = %v, want a refused redirect to %s", tc.name, status, err, other.URL)
			}
			if err != nil && strings.Contains(err.Error(), gitlabtest.Token) {
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

// TestRedirectOnTheSameOriginFollowed: GitLab redirects the API calls of
// a moved project on its own origin; those are followed, with the token.
func TestRedirectOnTheSameOriginFollowed(t *testing.T) {
	f := gitlabtest.New(t)
	f.AddMergeRequest(7)
	f.Inject(func(r *http.Request) *gitlabtest.Fault {
		if strings.HasPrefix(r.URL.Path, "/api/v4/projects/old%2Fname/") || strings.HasPrefix(r.URL.Path, "/api/v4/projects/old/name/") {
			to := strings.Replace(r.URL.RequestURI(), "old%2Fname", gitlabtest.ProjectID, 1)
			return &gitlabtest.Fault{Status: http.StatusMovedPermanently, Header: http.Header{"Location": {to}}}
		}
		return nil
	})
	env := testEnv(f)
	env.Project = "old/name"
	if _, _, err := clientFor(t, f, env).SyncDriftIssue(context.Background(), gitlab.SpaceDrift("ab12", false, "")); err != nil {
		t.Fatal(err)
	}
	if n := countRequests(f.Requests(), "GET /api/v4/projects/4242/issues?"); n != 2 {
		t.Errorf("the redirects were not followed: %q", f.Requests())
	}
}

// redirectingTransport answers every request with a redirect to target,
// and records the requests.
type redirectingTransport struct {
	target string
	seen   []*http.Request
}

func (rt *redirectingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.seen = append(rt.seen, r)
	return &http.Response{StatusCode: http.StatusTemporaryRedirect, Header: http.Header{"Location": {rt.target}},
		Body: io.NopCloser(strings.NewReader("")), Request: r}, nil
}

// TestRedirectOffLoopback: from an https API, a redirect to plain http,
// to another port or to another host is refused before anything is sent
// there, as is plain http from a loopback API to another host; the
// caller's http.Client is left as it was.
func TestRedirectOffLoopback(t *testing.T) {
	for _, tc := range []struct{ api, target string }{
		{"https://gitlab.example.com/api/v4", "http://gitlab.example.com/api/v4/user"},
		{"https://gitlab.example.com/api/v4", "https://gitlab.example.com:8443/api/v4/user"},
		{"https://gitlab.com/api/v4", "https://gitlab.com.evil.example/api/v4/user"},
		{"https://gitlab.com/api/v4", "http://127.0.0.1/api/v4/user"},
		{"http://127.0.0.1:8080/api/v4", "http://example.com:8080/api/v4/user"},
		{"http://localhost:8080/api/v4", "http://127.0.0.1:8080/api/v4/user"},
	} {
		rt := &redirectingTransport{target: tc.target}
		hc := &http.Client{Transport: rt}
		c, err := gitlab.NewClient(context.Background(), gitlab.Env{Token: "glpat-secret-token-123", APIURL: tc.api, Project: "1"}, gitlab.Options{HTTPClient: hc, RetryWait: noWait})
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = c.SyncDriftIssue(context.Background(), gitlab.SpaceDrift("ab12", true, "drift"))
		if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") {
			t.Errorf("%s -> %s: error = %v, want a refused redirect", tc.api, tc.target, err)
		}
		if len(rt.seen) != 1 {
			t.Errorf("%s -> %s: %d requests sent, want 1 (none to the redirect)", tc.api, tc.target, len(rt.seen))
		}
		if hc.CheckRedirect != nil || hc.Transport != rt {
			t.Error("NewClient changed the caller's http.Client")
		}
	}
}

// TestListsHaveAPageBudget: a server (or a proxy) that announces a next
// page for ever gets MaxPages pages read, then a clear error, rather than
// a job that never ends.
func TestListsHaveAPageBudget(t *testing.T) {
	var mu sync.Mutex
	gets := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		gets++
		n := gets
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Next-Page", fmt.Sprint(n+1))
		io.WriteString(w, `[]`)
	}))
	t.Cleanup(srv.Close)
	c, err := gitlab.NewClient(context.Background(), gitlab.Env{Token: "glpat-t", APIURL: srv.URL + "/api/v4", Project: "1"},
		gitlab.Options{HTTPClient: srv.Client(), RetryWait: noWait})
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = c.SyncPlanNote(context.Background(), 7, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"})
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("after %d pages of 100", gitlab.MaxPages)) || !strings.Contains(err.Error(), "CI_API_V4_URL") {
		t.Errorf("error %v, want the page budget named, with a hint", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if gets != gitlab.MaxPages {
		t.Errorf("%d pages read, want %d", gets, gitlab.MaxPages)
	}
}

// TestAPIURLCredentialsNeverShown: a user and password in CI_API_V4_URL
// are refused, parsed or not, and never printed.
func TestAPIURLCredentialsNeverShown(t *testing.T) {
	const pw = "PASSWORDxyz123"
	for _, api := range []string{
		"https://bot:" + pw + "@127.0.0.1:1/api/v4",
		"htps://user:" + pw + "@x/api/v4",
		"https://user:" + pw + "@gitlab.example.com/api/v4?x=1",
		"https://user:" + pw + "%zz@gitlab.example.com/api/v4",
	} {
		f := gitlabtest.New(t)
		env := testEnv(f)
		env.APIURL = api
		_, err := gitlab.NewClient(context.Background(), env, gitlab.Options{})
		if err == nil {
			t.Errorf("%s: no error", api)
			continue
		}
		var ge *gitlab.Error
		if !errors.As(err, &ge) {
			t.Fatalf("%s: %v (%T), want a *gitlab.Error", api, err, err)
		}
		if strings.Contains(err.Error()+ge.Hint, pw) {
			t.Errorf("%s: the password is shown: %v (hint %q)", api, err, ge.Hint)
		}
	}
}
