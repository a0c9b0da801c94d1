package github_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// runOn is an answer that runs on: n bytes of x, counting what the
// server got to send of them.
type runOn struct {
	left int64
	sent atomic.Int64
}

func (r *runOn) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, io.EOF
	}
	p = p[:min(int64(len(p)), r.left)]
	for i := range p {
		p[i] = 'x'
	}
	r.left -= int64(len(p))
	r.sent.Add(int64(len(p)))
	return len(p), nil
}

// TestAnswersAreBounded: no answer of GitHub's is read past the limit,
// whether it says a length over it (refused before reading) or runs on
// without one (refused at the first byte too many, and the rest never
// taken), on the comments and the issues alike, with an error naming the
// request and the limit, and saying what to check. An answer under the
// limit is read.
func TestAnswersAreBounded(t *testing.T) {
	const (
		limit = 4096
		// runs is far more than the limit and than what loopback's
		// buffers hold: an unbounded client would read it all.
		runs = 64 << 20
	)
	ctx := context.Background()
	calls := []struct {
		name, path string
		call       func(c *github.Client) error
	}{
		{"comments", "/repos/acme/skills/issues/1/comments", func(c *github.Client) error {
			_, _, err := upsert(c, ctx, 1, markerAB, "plan")
			return err
		}},
		{"issues", "/repos/acme/skills/issues", func(c *github.Client) error {
			_, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift")
			return err
		}},
	}
	for _, call := range calls {
		for _, tc := range []struct {
			name    string
			fault   func() (*githubtest.Fault, *runOn)
			wantErr string
		}{
			{"under the limit, running on", func() (*githubtest.Fault, *runOn) {
				r := &runOn{left: limit / 2}
				return &githubtest.Fault{Status: 200, Body: `[{"id":1,"body":"`, Stream: io.MultiReader(r, strings.NewReader(`"}]`))}, r
			}, ""},
			{"a length over the limit", func() (*githubtest.Fault, *runOn) {
				return &githubtest.Fault{Status: 200, Header: http.Header{"Content-Length": {fmt.Sprint(1 << 30)}}, Body: `[]`}, nil
			}, fmt.Sprintf("GitHub's answer to GET %s is over 4096 bytes; check GITHUB_API_URL", call.path)},
			{"running on past the limit", func() (*githubtest.Fault, *runOn) {
				r := &runOn{left: runs}
				return &githubtest.Fault{Status: 200, Body: `[{"id":1,"body":"`, Stream: io.MultiReader(r, strings.NewReader(`"}]`))}, r
			}, fmt.Sprintf("GitHub's answer to GET %s is over 4096 bytes; check GITHUB_API_URL", call.path)},
			// go-github drops an error body it cannot read whole: the
			// status is all that is left. (go-github reads only a part of
			// an error body anyway: this case holds that, not the bound.)
			{"an error running on past the limit", func() (*githubtest.Fault, *runOn) {
				r := &runOn{left: runs}
				return &githubtest.Fault{Status: 400, Body: `{"message":"`, Stream: io.MultiReader(r, strings.NewReader(`"}`))}, r
			}, "GitHub answered 400 Bad Request"},
		} {
			t.Run(call.name+"/"+tc.name, func(t *testing.T) {
				f := githubtest.New(t)
				f.AddIssue(githubtest.Issue{State: "open", PR: true})
				var mu sync.Mutex
				var streams []*runOn
				f.Inject(func(r *http.Request) *githubtest.Fault {
					if r.Method != http.MethodGet || r.URL.Path != call.path {
						return nil
					}
					fault, s := tc.fault()
					mu.Lock()
					streams = append(streams, s)
					mu.Unlock()
					return fault
				})
				env := github.Env{Token: githubtest.Token, Repository: githubtest.Repository, APIURL: f.URL}
				c, err := github.NewClientWithLimits(ctx, env, f.Client(), limit, github.MaxPages)
				if err != nil {
					t.Fatal(err)
				}
				err = call.call(c)
				switch {
				case tc.wantErr == "" && err != nil:
					t.Errorf("error %v, want the answer read", err)
				case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
					t.Errorf("error %v, want one containing %q", err, tc.wantErr)
				case err != nil && strings.Contains(err.Error(), "xxxx"):
					t.Errorf("the answer over the limit was read: %.200s", err)
				case err != nil && strings.Contains(err.Error(), githubtest.Token):
					t.Errorf("the error shows the token: %v", err)
				}
				f.Close() // waits for the server to stop sending
				mu.Lock()
				defer mu.Unlock()
				for _, s := range streams {
					if s != nil && s.sent.Load() > runs/2 {
						t.Errorf("the server sent %d bytes of an answer over the limit of %d: the client read on", s.sent.Load(), limit)
					}
				}
			})
		}
	}
}

// TestListsHaveAPageBudget: a GitHub (or a proxy) that announces a next
// page for ever gets the page budget read of the comments or the issues,
// then a clear error naming the request, the budget and what to check,
// rather than a job that never ends.
func TestListsHaveAPageBudget(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, path, op string
		maxPages       int // 0 for NewClient's, MaxPages
		call           func(c *github.Client) error
	}{
		{"comments", "/repos/acme/skills/issues/1/comments", "listing the comments of pull request #1", 5, func(c *github.Client) error {
			_, _, err := upsert(c, ctx, 1, markerAB, "plan")
			return err
		}},
		{"issues", "/repos/acme/skills/issues", "listing the open issues of acme/skills", 5, func(c *github.Client) error {
			_, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift")
			return err
		}},
		{"comments, by default", "/repos/acme/skills/issues/1/comments", "listing the comments of pull request #1", 0, func(c *github.Client) error {
			_, _, err := upsert(c, ctx, 1, markerAB, "plan")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := githubtest.New(t)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			want := tc.maxPages
			if want == 0 {
				want = github.MaxPages
			}
			var gets atomic.Int64
			f.Inject(func(r *http.Request) *githubtest.Fault {
				if r.Method != http.MethodGet || r.URL.Path != tc.path {
					return nil
				}
				n := gets.Add(1)
				if n >= int64(4*want) {
					// "For ever", as far as a client without a budget
					// fails this test rather than hangs.
					return &githubtest.Fault{Status: 200, Body: `[]`}
				}
				q := r.URL.Query()
				q.Set("page", fmt.Sprint(n+1))
				next := fmt.Sprintf(`<%s%s?%s>; rel="next"`, f.URL, r.URL.Path, q.Encode())
				return &githubtest.Fault{Status: 200, Header: http.Header{"Link": {next}}, Body: `[]`}
			})
			env := github.Env{Token: githubtest.Token, Repository: githubtest.Repository, APIURL: f.URL}
			var c *github.Client
			var err error
			if tc.maxPages == 0 {
				c, err = github.NewClient(ctx, env, f.Client())
			} else {
				c, err = github.NewClientWithLimits(ctx, env, f.Client(), github.MaxResponseBytes, tc.maxPages)
			}
			if err != nil {
				t.Fatal(err)
			}
			err = tc.call(c)
			wantErr := fmt.Sprintf("%s: GitHub announced a next page after %d pages of 100, and no more are read; check GITHUB_API_URL", tc.op, want)
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Errorf("error %v, want one containing %q", err, wantErr)
			}
			if err != nil && strings.Contains(err.Error(), githubtest.Token) {
				t.Errorf("the error shows the token: %v", err)
			}
			if n := gets.Load(); n != int64(want) {
				t.Errorf("%d pages read, want %d", n, want)
			}
		})
	}
}
