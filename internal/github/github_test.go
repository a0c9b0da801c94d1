package github_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
)

func newClient(t *testing.T, f *githubtest.Server) *github.Client {
	t.Helper()
	env := github.Env{Token: githubtest.Token, Repository: githubtest.Repository, APIURL: f.URL}
	c, err := github.NewClient(context.Background(), env, f.Client())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The markers of the plan comments of spaces ab12 and cd34, as the
// markdown plan starts with them (render.MarkdownMarker).
const (
	markerAB = "<!-- skillsync:plan space=ab12 -->"
	markerCD = "<!-- skillsync:plan space=cd34 -->"
)

func countRequests(requests []string, prefix string) int {
	n := 0
	for _, r := range requests {
		if strings.HasPrefix(r, prefix) {
			n++
		}
	}
	return n
}

func TestReadEnv(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	prEvent := write("pr.json", `{"action":"synchronize","number":42,"pull_request":{"number":42}}`)
	commentEvent := write("comment.json", `{"issue":{"number":7,"pull_request":{"url":"x"}}}`)
	issueEvent := write("issue.json", `{"issue":{"number":9}}`)
	pushEvent := write("push.json", `{"ref":"refs/heads/main"}`)
	badEvent := write("bad.json", `{"pull_request":`)

	base := map[string]string{
		"GITHUB_TOKEN":        "t0k",
		"GITHUB_REPOSITORY":   "acme/skills",
		"GITHUB_STEP_SUMMARY": "/tmp/summary.md",
		"GITHUB_ACTIONS":      "true",
	}
	tests := []struct {
		name    string
		vars    map[string]string
		want    github.Env
		wantPR  int
		wantErr string // of CheckRepository, then of PullRequest
	}{
		{
			name:   "pull_request event",
			vars:   map[string]string{"GITHUB_EVENT_PATH": prEvent},
			want:   github.Env{Token: "t0k", Repository: "acme/skills", APIURL: github.DefaultAPIURL, EventPath: prEvent, StepSummary: "/tmp/summary.md", Actions: true},
			wantPR: 42,
		},
		{
			name:   "comment on a pull request",
			vars:   map[string]string{"GITHUB_EVENT_PATH": commentEvent},
			want:   github.Env{Token: "t0k", Repository: "acme/skills", APIURL: github.DefaultAPIURL, EventPath: commentEvent, StepSummary: "/tmp/summary.md", Actions: true},
			wantPR: 7,
		},
		{
			name: "comment on an issue is no pull request",
			vars: map[string]string{"GITHUB_EVENT_PATH": issueEvent},
			want: github.Env{Token: "t0k", Repository: "acme/skills", APIURL: github.DefaultAPIURL, EventPath: issueEvent, StepSummary: "/tmp/summary.md", Actions: true},
		},
		{
			name: "push event, enterprise API",
			vars: map[string]string{"GITHUB_EVENT_PATH": pushEvent, "GITHUB_API_URL": "https://ghe.example.com/api/v3/", "GITHUB_REF": "refs/heads/main"},
			want: github.Env{Token: "t0k", Repository: "acme/skills", APIURL: "https://ghe.example.com/api/v3", EventPath: pushEvent, Ref: "refs/heads/main", StepSummary: "/tmp/summary.md", Actions: true},
		},
		{
			name:   "number from GITHUB_REF",
			vars:   map[string]string{"GITHUB_REF": "refs/pull/123/merge"},
			want:   github.Env{Token: "t0k", Repository: "acme/skills", APIURL: github.DefaultAPIURL, Ref: "refs/pull/123/merge", StepSummary: "/tmp/summary.md", Actions: true},
			wantPR: 123,
		},
		{
			name: "GH_TOKEN when GITHUB_TOKEN is unset, outside Actions",
			vars: map[string]string{"GITHUB_TOKEN": "", "GH_TOKEN": "gh", "GITHUB_ACTIONS": "", "GITHUB_STEP_SUMMARY": ""},
			want: github.Env{Token: "gh", Repository: "acme/skills", APIURL: github.DefaultAPIURL},
		},
		{
			name:    "malformed repository",
			vars:    map[string]string{"GITHUB_REPOSITORY": "acme"},
			wantErr: `GITHUB_REPOSITORY "acme" is not of the form owner/name`,
		},
		{
			name:    "malformed event",
			vars:    map[string]string{"GITHUB_EVENT_PATH": badEvent},
			wantErr: "reading the event payload",
		},
		{
			name:    "missing event",
			vars:    map[string]string{"GITHUB_EVENT_PATH": filepath.Join(dir, "nope.json")},
			wantErr: "reading the event payload",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(k string) string {
				if v, ok := tt.vars[k]; ok {
					return v
				}
				return base[k]
			}
			got := github.ReadEnv(getenv)
			err := got.CheckRepository()
			var pr int
			if err == nil {
				pr, err = got.PullRequest()
			}
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || pr != tt.wantPR {
				t.Errorf("got  %+v, pull request %d\nwant %+v, pull request %d", got, pr, tt.want, tt.wantPR)
			}
		})
	}
}

// TestEventPayloadBounded: an event payload larger than GitHub ever sends
// (a wrong GITHUB_EVENT_PATH, a device) is refused with an error naming
// it, rather than read whole into memory; one of exactly the limit is
// read.
func TestEventPayloadBounded(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.json")
	f, err := os.Create(huge)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(github.MaxEventBytes + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	event := `{"pull_request":{"number":5}}`
	atLimit := filepath.Join(dir, "at-limit.json")
	if err := os.WriteFile(atLimit, []byte(event+strings.Repeat(" ", github.MaxEventBytes-len(event))), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{huge}
	if _, err := os.Stat("/dev/zero"); err == nil {
		paths = append(paths, "/dev/zero") // endless, of unknown size
	}
	for _, p := range paths {
		getenv := func(k string) string { return map[string]string{"GITHUB_EVENT_PATH": p}[k] }
		_, err := github.ReadEnv(getenv).PullRequest()
		if err == nil || !strings.Contains(err.Error(), "the event payload "+p+" is over 25 MiB") {
			t.Errorf("%s: error = %v, want one saying the payload is over 25 MiB", p, err)
		}
	}
	getenv := func(k string) string { return map[string]string{"GITHUB_EVENT_PATH": atLimit}[k] }
	if pr, err := github.ReadEnv(getenv).PullRequest(); err != nil || pr != 5 {
		t.Errorf("a payload of exactly 25 MiB: pull request %d, error %v; want 5 and no error", pr, err)
	}
}

func TestNewClientRefuses(t *testing.T) {
	tests := []struct {
		name string
		env  github.Env
		want string
	}{
		{"no token", github.Env{Repository: "a/b"}, "no GitHub token"},
		{"no repository", github.Env{Token: "x"}, "not of the form owner/name"},
		{"bad API URL", github.Env{Token: "x", Repository: "a/b", APIURL: "ftp://x"}, "not an http(s) URL"},
		{"plain http to another host", github.Env{Token: "x", Repository: "a/b", APIURL: "http://github.example.com/api/v3"}, "plain http to a host that is not loopback"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := github.NewClient(context.Background(), tt.env, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error = %v, want one containing %q", err, tt.want)
			}
			// The CLI prints the hint on a line of its own.
			var ge *github.Error
			if !errors.As(err, &ge) || ge.Hint == "" {
				t.Errorf("error %#v is not a *github.Error with a hint", err)
			}
		})
	}
}

func TestNoTokenHint(t *testing.T) {
	_, err := github.NewClient(context.Background(), github.Env{Repository: "a/b"}, nil)
	var ge *github.Error
	if !errors.As(err, &ge) || !strings.Contains(ge.Hint, "GITHUB_TOKEN") || !strings.Contains(ge.Hint, "env:") {
		t.Errorf("error %#v: want a hint to set GITHUB_TOKEN through the step's env:", err)
	}
}

func TestNetworkErrorHint(t *testing.T) {
	f := githubtest.New(t)
	c := newClient(t, f)
	f.Close() // GitHub does not answer
	_, _, err := upsert(c, context.Background(), 1, markerAB, "plan")
	var ge *github.Error
	if !errors.As(err, &ge) || ge.Status != 0 {
		t.Fatalf("error %#v, want a *github.Error with no status", err)
	}
	for _, want := range []string{"GITHUB_API_URL", f.URL} {
		if !strings.Contains(ge.Hint, want) {
			t.Errorf("hint %q does not say %q", ge.Hint, want)
		}
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = upsert(c, ctx, 1, markerAB, "plan")
	if !errors.Is(err, context.Canceled) || errors.As(err, &ge) && ge.Hint != "" {
		t.Errorf("interrupted: error %#v, want context.Canceled and no hint", err)
	}
}

// TestPlanCommentIsOurs: a comment that quotes the marker, or starts with
// it but is by someone else, is left alone; only skillsync's own comment
// is updated.
func TestPlanCommentIsOurs(t *testing.T) {
	ctx := context.Background()
	marker := markerAB
	tests := []struct {
		name     string
		user     string // the token's user; empty for GITHUB_TOKEN
		comments []*githubtest.Comment
		want     int64 // the comment updated; 0 for a new one
	}{
		{
			name: "GITHUB_TOKEN: a reviewer's quote and a bot's quote inside are not ours",
			comments: []*githubtest.Comment{
				{ID: 1, Author: "alice", Body: marker + "\nthis is how the plan comment starts"},
				{ID: 2, Body: "> " + marker + "\nquoted by the bot"},
			},
		},
		{
			name: "GITHUB_TOKEN: the bot's comment is ours",
			comments: []*githubtest.Comment{
				{ID: 1, Author: "alice", Body: marker + "\nfake"},
				{ID: 2, Body: marker + "\nold plan"},
			},
			want: 2,
		},
		{
			name: "GITHUB_TOKEN: another app's comment is not ours",
			comments: []*githubtest.Comment{
				{ID: 1, Author: "other-app[bot]", Body: marker + "\nanother app's comment"},
			},
		},
		{
			name: "a user's token: only that user's comment is ours",
			user: "ci-user",
			comments: []*githubtest.Comment{
				{ID: 1, Author: "github-actions[bot]", Body: marker + "\nanother job's plan"},
				{ID: 2, Author: "alice", Body: marker + "\nfake"},
				{ID: 3, Author: "ci-user", Body: marker + "\nold plan"},
			},
			want: 3,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := githubtest.New(t)
			f.SetUser(tt.user)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			for _, c := range tt.comments {
				c.Issue = 1
				f.AddComment(*c)
			}
			before := map[int64]string{}
			for _, c := range tt.comments {
				before[c.ID] = c.Body
			}
			c := newClient(t, f)
			plan := marker + "\nnew plan\n"
			_, created, err := upsert(c, ctx, 1, markerAB, plan)
			if err != nil {
				t.Fatal(err)
			}
			if created != (tt.want == 0) {
				t.Errorf("created = %v, want %v", created, tt.want == 0)
			}
			// A second plan reuses what the first found or made, asking
			// GitHub who the token is at most once.
			if _, created, err := upsert(c, ctx, 1, markerAB, plan+"again\n"); err != nil || created {
				t.Fatalf("second plan: created=%v err=%v, want the same comment updated", created, err)
			}
			comments, requests := f.Comments(), f.Requests()
			for _, got := range comments {
				old, seeded := before[got.ID]
				switch {
				case got.ID == tt.want || !seeded:
					if got.Body != plan+"again\n" {
						t.Errorf("comment %d = %q, want the plan", got.ID, got.Body)
					}
				case got.Body != old:
					t.Errorf("comment %d by %q was changed to %q", got.ID, got.Author, got.Body)
				}
			}
			if n := countRequests(requests, "GET /user"); n > 1 {
				t.Errorf("asked GET /user %d times, want at most once", n)
			}
		})
	}
}

// TestDriftIssueIsOurs: an issue that quotes the drift marker is never
// updated or closed, whoever filed it.
func TestDriftIssueIsOurs(t *testing.T) {
	ctx := context.Background()
	marker := github.DriftMarker("ab12", "")
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{Author: "alice", Title: "why does skillsync write this?", Body: marker + "\nI found this in an issue", State: "open", Labels: []string{github.DriftLabel}})
	f.AddIssue(githubtest.Issue{Title: "a bot quoting", Body: "see " + marker, State: "open"})
	c := newClient(t, f)
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", false, ""); err != nil || action != github.DriftNone {
		t.Fatalf("in sync: action %q err %v, want %q", action, err, github.DriftNone)
	}
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift"); err != nil || action != github.DriftOpened {
		t.Fatalf("drift: action %q err %v, want %q", action, err, github.DriftOpened)
	}
	issues, comments := f.Issues(), f.Comments()
	if issues[0].State != "open" || issues[0].Body != marker+"\nI found this in an issue" ||
		issues[1].State != "open" || issues[1].Body != "see "+marker {
		t.Errorf("issues = %+v, want the quoting ones untouched", issues)
	}
	if len(comments) != 0 {
		t.Errorf("comments = %+v, want none", comments)
	}
	if len(issues) != 3 || issues[2].Body != marker+"\ndrift" {
		t.Errorf("issues = %+v, want a drift issue of skillsync's own", issues)
	}
}

// TestDriftIssueOfAnotherBot: under GITHUB_TOKEN, whose posts are by
// github-actions[bot], another bot's issue starting with the marker is not
// skillsync's: it is neither updated nor closed.
func TestDriftIssueOfAnotherBot(t *testing.T) {
	ctx := context.Background()
	marker := github.DriftMarker("ab12", "")
	f := githubtest.New(t)
	theirs := marker + "\nanother app's issue"
	f.AddIssue(githubtest.Issue{Author: "other-app[bot]", Title: "other", Body: theirs, State: "open", Labels: []string{github.DriftLabel}})
	c := newClient(t, f)
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift"); err != nil || action != github.DriftOpened {
		t.Fatalf("drift: action %q err %v, want %q", action, err, github.DriftOpened)
	}
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", false, ""); err != nil || action != github.DriftClosed {
		t.Fatalf("in sync: action %q err %v, want %q", action, err, github.DriftClosed)
	}
	issues := f.Issues()
	if issues[0].State != "open" || issues[0].Body != theirs {
		t.Errorf("the other app's issue = %+v, want it untouched", issues[0])
	}
	if len(issues) != 2 || issues[1].State != "closed" || issues[1].Body != marker+"\ndrift" {
		t.Errorf("issues = %+v, want skillsync's own opened, then closed", issues)
	}
}

// TestPlanCommentNotOurs: a token that is another app's, not GITHUB_TOKEN,
// cannot read GET /user either, and github-actions[bot]'s comment is then
// taken for skillsync's; GitHub refusing to edit it is said to be that,
// not a missing permission alone.
func TestPlanCommentNotOurs(t *testing.T) {
	f := githubtest.New(t)
	f.SetApp("my-app[bot]")
	f.AddIssue(githubtest.Issue{State: "open", PR: true})
	f.AddComment(githubtest.Comment{ID: 5, Issue: 1, Author: "github-actions[bot]", Body: markerAB + "\nan older plan"})
	_, _, err := upsert(newClient(t, f), context.Background(), 1, markerAB, "plan")
	if err == nil || !strings.Contains(err.Error(), "comment 5 is not skillsync's") || !strings.Contains(err.Error(), "github-actions[bot]") {
		t.Errorf("error %v, want it to say comment 5 (by github-actions[bot]) is not skillsync's", err)
	}
}

// TestDriftIssueByLabel: the labelled drift issue is found without
// listing every open issue; the full listing is for an issue whose label
// was refused or removed.
func TestDriftIssueByLabel(t *testing.T) {
	ctx := context.Background()
	marker := github.DriftMarker("ab12", "")
	f := githubtest.New(t)
	for i := range 150 {
		f.AddIssue(githubtest.Issue{Title: fmt.Sprintf("issue %d", i), Body: "text", State: "open"})
	}
	f.AddIssue(githubtest.Issue{Title: "skillsync: drift in space ab12", Body: marker + "\nold", State: "open", Labels: []string{github.DriftLabel}})
	c := newClient(t, f)
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "new"); err != nil || action != github.DriftUpdated {
		t.Fatalf("action %q err %v, want %q", action, err, github.DriftUpdated)
	}
	requests := f.Requests()
	for _, r := range requests {
		if strings.HasPrefix(r, "GET /repos/acme/skills/issues?") && !strings.Contains(r, "labels="+github.DriftLabel) {
			t.Errorf("listed the open issues without the label: %q", r)
		}
	}

	// The label removed: found by the full listing all the same.
	f.EditIssue(151, func(is *githubtest.Issue) { is.Labels = nil })
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "", false, ""); err != nil || action != github.DriftClosed {
		t.Fatalf("unlabelled: action %q err %v, want %q", action, err, github.DriftClosed)
	}
	if issues := f.Issues(); issues[150].State != "closed" {
		t.Errorf("the unlabelled drift issue = %+v, want it closed", issues[150])
	}
}

func TestMarker(t *testing.T) {
	if got, want := github.DriftMarker("ab12", ""), "<!-- skillsync:drift space=ab12 -->"; got != want {
		t.Errorf("DriftMarker = %q, want %q", got, want)
	}
}

// upsert is SyncPlanComment of a plan with changes: the comment's address
// and whether it is new.
func upsert(c *github.Client, ctx context.Context, pr int, marker, markdown string) (url string, created bool, err error) {
	action, url, err := c.SyncPlanComment(ctx, pr, github.PlanComment{Marker: marker, Markdown: markdown})
	return url, action == github.CommentCreated, err
}

func TestUpsertPlanComment(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{Title: "Edit skills", State: "open", PR: true})
	f.AddComment(githubtest.Comment{ID: 1, Issue: 1, Body: "LGTM"})
	c := newClient(t, f)

	first := markerAB + "\nPlan: 1 to update, 0 to enable, 0 to disable.\n"
	url, created, err := upsert(c, ctx, 1, markerAB, first)
	if err != nil {
		t.Fatal(err)
	}
	if !created || !strings.Contains(url, "/pull/1#issuecomment-") {
		t.Errorf("first call: created=%v url=%q, want a new comment", created, url)
	}

	second := markerAB + "\nNo changes.\n"
	url2, created, err := upsert(c, ctx, 1, markerAB, second)
	if err != nil {
		t.Fatal(err)
	}
	if created || url2 != url {
		t.Errorf("second call: created=%v url=%q, want the first comment (%q) updated", created, url2, url)
	}

	// Another space gets its own comment; markdown without the marker gets it.
	if _, created, err := upsert(c, ctx, 1, markerCD, "No changes.\n"); err != nil || !created {
		t.Fatalf("other space: created=%v err=%v, want a new comment", created, err)
	}

	comments, requests := f.Comments(), f.Requests()
	if len(comments) != 3 {
		t.Fatalf("%d comments, want 3 (LGTM, ab12, cd34): %+v", len(comments), comments)
	}
	if comments[0].Body != "LGTM" || comments[1].Body != second {
		t.Errorf("comments = %+v; want LGTM untouched and the ab12 plan updated in place", comments)
	}
	if want := markerCD + "\nNo changes.\n"; comments[2].Body != want {
		t.Errorf("cd34 comment = %q, want %q", comments[2].Body, want)
	}
	if n := countRequests(requests, "PATCH "); n != 1 {
		t.Errorf("%d PATCH requests, want 1: %q", n, requests)
	}

	// The same plan again changes nothing.
	before := len(requests)
	if _, created, err := upsert(c, ctx, 1, markerAB, second); err != nil || created {
		t.Fatalf("same plan: created=%v err=%v", created, err)
	}
	requests = f.Requests()
	if n := countRequests(requests[before:], "PATCH "); n != 0 {
		t.Errorf("unchanged plan sent %d PATCH requests, want 0", n)
	}
}

func TestUpsertPlanCommentFindsMarkerOnPageThree(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	marker := markerAB
	f.AddIssue(githubtest.Issue{Title: "Busy pull request", State: "open", PR: true})
	for i := range 250 {
		body := fmt.Sprintf("comment %d", i)
		if i == 217 {
			body = marker + "\nold plan\n"
		}
		f.AddComment(githubtest.Comment{ID: int64(i + 1), Issue: 1, Body: body})
	}
	c := newClient(t, f)
	_, created, err := upsert(c, ctx, 1, markerAB, marker+"\nnew plan\n")
	if err != nil {
		t.Fatal(err)
	}
	if created {
		t.Error("created a second plan comment; want the one on page 3 updated")
	}
	comments, requests := f.Comments(), f.Requests()
	if len(comments) != 250 || comments[217].Body != marker+"\nnew plan\n" {
		t.Errorf("%d comments, #217 = %q; want 250 with #217 updated", len(comments), comments[217].Body)
	}
	lists := 0
	for _, r := range requests {
		if strings.HasPrefix(r, "GET /repos/acme/skills/issues/1/comments") {
			lists++
			if !strings.Contains(r, "per_page=100") {
				t.Errorf("list request %q does not ask for 100 a page", r)
			}
		}
	}
	if lists != 3 {
		t.Errorf("%d list requests, want 3: %q", lists, requests)
	}
}

func TestUpsertPlanCommentSizeLimit(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{State: "open", PR: true})
	c := newClient(t, f)

	// Far over the limit in characters, and more again in bytes, with the
	// cut falling inside a diff block inside <details>.
	var b strings.Builder
	b.WriteString(markerAB + "\n| skill | change |\n|---|---|\n| ü | ~ |\n\n<details><summary>ü</summary>\n\n```diff\n")
	for i := 0; b.Len() < 300000; i++ {
		fmt.Fprintf(&b, "+ línea número %d: ünïcödé ✓\n", i)
	}
	b.WriteString("```\n\n</details>\n")

	if _, _, err := upsert(c, ctx, 1, markerAB, b.String()); err != nil {
		t.Fatal(err)
	}
	comments := f.Comments()
	body := comments[0].Body
	if n := utf8.RuneCountInString(body); n > github.MaxBodyChars || n < github.MaxBodyChars-200 {
		t.Errorf("body is %d characters, want just under %d", n, github.MaxBodyChars)
	}
	if !utf8.ValidString(body) {
		t.Error("body is not valid UTF-8: cut inside a character")
	}
	if !strings.HasPrefix(body, markerAB+"\n| skill | change |") {
		t.Error("the marker and the summary are not at the top any more")
	}
	if !strings.Contains(body, "was cut to fit GitHub's limit of 65536 characters") {
		t.Error("no note saying the plan was cut")
	}
	if n := strings.Count(body, "```"); n%2 != 0 {
		t.Errorf("%d code fences: the cut one was not closed", n)
	}
	if strings.Count(body, "<details>") != strings.Count(body, "</details>") {
		t.Error("<details> left open")
	}
}

func TestErrorsSayWhatToDo(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		method string // fail only this method; all when empty
		header http.Header
		status int
		body   string
		call   func(c *github.Client) error
		want   []string
	}{
		{
			name:   "403 on a comment asks for pull-requests: write",
			status: http.StatusForbidden,
			body:   `{"message":"Resource not accessible by integration"}`,
			call: func(c *github.Client) error {
				_, _, err := upsert(c, ctx, 1, markerAB, "plan")
				return err
			},
			want: []string{"403", "Resource not accessible by integration", `"pull-requests: write"`, "permissions:"},
		},
		{
			name:   "403 on drift asks for issues: write",
			status: http.StatusForbidden,
			body:   `{"message":"Resource not accessible by integration"}`,
			call: func(c *github.Client) error {
				_, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, "drift")
				return err
			},
			want: []string{"listing the open issues of acme/skills", "403", `"issues: write"`, "permissions:"},
		},
		{
			name:   "404 names the repository",
			status: http.StatusNotFound,
			body:   `{"message":"Not Found"}`,
			call: func(c *github.Client) error {
				_, _, err := upsert(c, ctx, 1, markerAB, "plan")
				return err
			},
			want: []string{"404", "acme/skills", "pull request #1 exists"},
		},
		{
			name:   "403 on a locked pull request says so",
			method: http.MethodPost,
			status: http.StatusForbidden,
			body:   `{"message":"Unable to create comment because issue is locked."}`,
			call: func(c *github.Client) error {
				_, _, err := upsert(c, ctx, 1, markerAB, "plan")
				return err
			},
			want: []string{"commenting the plan on pull request #1", "403", "locked"},
		},
		{
			name:   "422 carries GitHub's message",
			method: http.MethodPost,
			status: http.StatusUnprocessableEntity,
			body:   `{"message":"Validation Failed","errors":[{"resource":"IssueComment","code":"custom","field":"body","message":"body is too long (maximum is 65536 characters)"}]}`,
			call: func(c *github.Client) error {
				_, _, err := upsert(c, ctx, 1, markerAB, "plan")
				return err
			},
			want: []string{"commenting the plan on pull request #1", "422", "Validation Failed", "body is too long (maximum is 65536 characters)"},
		},
		{
			name:   "rate limit says when to run again",
			status: http.StatusForbidden,
			header: http.Header{"X-Ratelimit-Limit": {"1000"}, "X-Ratelimit-Remaining": {"0"}, "X-Ratelimit-Reset": {"1900000000"}},
			body:   `{"message":"API rate limit exceeded for installation"}`,
			call: func(c *github.Client) error {
				_, _, err := c.SyncDriftIssue(ctx, "ab12", "", false, "")
				return err
			},
			want: []string{"403", "rate limit", "2030-03-17T17:46:40Z", "run the job again"},
		},
		{
			name:   "401 says the token is bad, without the token",
			status: http.StatusUnauthorized,
			body:   `{"message":"Bad credentials for ` + githubtest.Token + `"}`,
			call: func(c *github.Client) error {
				_, _, err := upsert(c, ctx, 1, markerAB, "plan")
				return err
			},
			want: []string{"401", "invalid or expired"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := githubtest.New(t)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			f.Inject(func(r *http.Request) *githubtest.Fault {
				if tt.method != "" && r.Method != tt.method {
					return nil
				}
				return &githubtest.Fault{Status: tt.status, Header: tt.header, Body: tt.body}
			})
			err := tt.call(newClient(t, f))
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), githubtest.Token) {
				t.Errorf("error %q prints the token", err)
			}
			var ge *github.Error
			if !errors.As(err, &ge) || ge.Status != tt.status {
				t.Errorf("error %#v is not a *github.Error with status %d", err, tt.status)
			}
		})
	}
}

// TestWebPageAnswer: an address that is not the API (a sign-in page, a
// proxy's, the web site) answers a web page: the error says so, with the
// page's title, and points at GITHUB_API_URL, not at the network.
func TestWebPageAnswer(t *testing.T) {
	for _, typ := range []string{"text/html; charset=utf-8", "application/json"} {
		t.Run(typ, func(t *testing.T) {
			f := githubtest.New(t)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			f.Inject(func(*http.Request) *githubtest.Fault {
				return &githubtest.Fault{Status: http.StatusOK, Header: http.Header{"Content-Type": {typ}},
					Body: "\n<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>Sign in to   your account</title></head><body>" + strings.Repeat("x", 5000) + "</body></html>"}
			})
			_, _, err := upsert(newClient(t, f), context.Background(), 1, markerAB, "plan")
			if err == nil {
				t.Fatal("no error")
			}
			for _, want := range []string{"listing the comments of pull request #1", "web page", "Sign in to your account", "GITHUB_API_URL"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not say %q", err, want)
				}
			}
			for _, bad := range []string{"did not answer", "invalid character"} {
				if strings.Contains(err.Error(), bad) {
					t.Errorf("error %q says %q", err, bad)
				}
			}
		})
	}
}

func TestSyncDriftIssue(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	marker := github.DriftMarker("ab12", "")
	f.RejectLabels() // the issue matters, the label does not
	// Enough open issues to need pages, one of them a pull request
	// that quotes the marker, and an unrelated space's drift issue.
	for i := range 130 {
		f.AddIssue(githubtest.Issue{Title: fmt.Sprintf("issue %d", i), Body: "text", State: "open"})
	}
	f.AddIssue(githubtest.Issue{Title: "a PR", Body: "quoting " + marker, State: "open", PR: true})
	f.AddIssue(githubtest.Issue{Title: "skillsync: drift in space cd34", Body: github.DriftMarker("cd34", ""), State: "open"})
	c := newClient(t, f)

	steps := []struct {
		drift      bool
		markdown   string
		wantAction string
	}{
		{false, "", github.DriftNone},
		{true, "skill code-review differs", github.DriftOpened},
		{true, "skills code-review and lint differ", github.DriftUpdated},
		{true, "skills code-review and lint differ", github.DriftUpdated},
		{false, "", github.DriftClosed},
		{false, "", github.DriftNone},
		{true, "again", github.DriftOpened},
	}
	for i, s := range steps {
		action, url, err := c.SyncDriftIssue(ctx, "ab12", "", s.drift, s.markdown)
		if err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
		if action != s.wantAction {
			t.Fatalf("step %d (drift=%v): action %q, want %q", i, s.drift, action, s.wantAction)
		}
		if (action == github.DriftNone) != (url == "") {
			t.Errorf("step %d: action %q with url %q", i, action, url)
		}
		issues := f.Issues()
		open := 0
		for _, is := range issues {
			if is.State == "open" && !is.PR && strings.Contains(is.Body, marker) {
				open++
			}
		}
		if want := map[bool]int{true: 1, false: 0}[s.drift]; open != want {
			t.Fatalf("step %d: %d open drift issues for ab12, want %d", i, open, want)
		}
	}

	issues, comments := f.Issues(), f.Comments()
	first, second := issues[132], issues[133]
	if first.Title != "skillsync: drift in space ab12" || first.State != "closed" || first.StateReason != "completed" {
		t.Errorf("first drift issue = %+v, want closed as completed", first)
	}
	if first.Body != marker+"\nskills code-review and lint differ" {
		t.Errorf("first drift issue body = %q", first.Body)
	}
	if second.State != "open" || second.Body != marker+"\nagain" {
		t.Errorf("second drift issue = %+v", second)
	}
	if len(comments) != 1 || comments[0].Issue != first.Number || comments[0].Body != "Space ab12 is back in sync with git." {
		t.Errorf("comments = %+v, want the one back-in-sync note on #%d", comments, first.Number)
	}
	if issues[131].State != "open" || issues[130].State != "open" {
		t.Error("touched the other space's issue or the pull request")
	}
}

func TestSyncDriftIssueLabels(t *testing.T) {
	f := githubtest.New(t)
	if _, _, err := newClient(t, f).SyncDriftIssue(context.Background(), "ab12", "", true, "x"); err != nil {
		t.Fatal(err)
	}
	issues := f.Issues()
	if len(issues) != 1 || len(issues[0].Labels) != 1 || issues[0].Labels[0] != github.DriftLabel {
		t.Errorf("issues = %+v, want one labelled %s", issues, github.DriftLabel)
	}
}

func TestSyncDriftIssueClosesDuplicates(t *testing.T) {
	f := githubtest.New(t)
	marker := github.DriftMarker("ab12", "")
	f.AddIssue(githubtest.Issue{Title: "older", Body: marker + "\nold", State: "open"})
	f.AddIssue(githubtest.Issue{Title: "newer", Body: marker + "\nraced", State: "open"})
	action, url, err := newClient(t, f).SyncDriftIssue(context.Background(), "ab12", "", true, "now")
	if err != nil {
		t.Fatal(err)
	}
	if action != github.DriftUpdated || !strings.HasSuffix(url, "/issues/1") {
		t.Errorf("action %q url %q, want the older issue updated", action, url)
	}
	issues, comments := f.Issues(), f.Comments()
	if issues[0].State != "open" || issues[0].Body != marker+"\nnow" || issues[1].State != "closed" {
		t.Errorf("issues = %+v, want #1 updated and #2 closed", issues)
	}
	if len(comments) != 1 || comments[0].Body != "Superseded by #1." {
		t.Errorf("comments = %+v", comments)
	}
}

func TestAppendStepSummary(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	if err := github.AppendStepSummary(path, "# ab12\n"); err != nil {
		t.Fatal(err)
	}
	if err := github.AppendStepSummary(path, "No changes."); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if string(got) != "# ab12\nNo changes.\n" {
		t.Errorf("summary = %q", got)
	}

	if err := github.AppendStepSummary("", "x"); err == nil || !strings.Contains(err.Error(), "GITHUB_STEP_SUMMARY") {
		t.Errorf("no path: error = %v", err)
	}
}

func TestAppendStepSummaryCap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "summary.md")
	// An earlier step of the job already wrote most of the megabyte.
	if err := os.WriteFile(path, []byte(strings.Repeat("x\n", (github.MaxStepSummaryBytes-5000)/2)), 0o644); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("## plan\n\n```diff\n")
	for b.Len() < 20000 {
		b.WriteString("+ añadido ✓\n")
	}
	b.WriteString("```\n")
	if err := github.AppendStepSummary(path, b.String()); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if len(got) > github.MaxStepSummaryBytes || len(got) < github.MaxStepSummaryBytes-200 {
		t.Errorf("summary is %d bytes, want just under %d", len(got), github.MaxStepSummaryBytes)
	}
	if !strings.Contains(string(got), "## plan") || !strings.Contains(string(got), "cut to fit GitHub's limit of 1 MiB") {
		t.Error("the summary lost its head or has no note")
	}
	if !utf8.Valid(got) || strings.Count(string(got), "```")%2 != 0 {
		t.Error("cut inside a character or left a fence open")
	}

	// Full: nothing more is written, and the caller is told.
	size := len(got)
	if err := github.AppendStepSummary(path, strings.Repeat("more\n", 100)); !errors.Is(err, github.ErrStepSummaryFull) {
		t.Errorf("full summary: error = %v, want ErrStepSummaryFull", err)
	}
	if got, _ := os.ReadFile(path); len(got) != size {
		t.Errorf("a full summary grew from %d to %d bytes", size, len(got))
	}
}

func TestAnnotation(t *testing.T) {
	tests := []struct {
		a    github.Annotation
		want string
	}{
		{github.Annotation{Level: "error", File: "skills/a/SKILL.md", Line: 3, Col: 7, Message: "name is too long"}, "::error file=skills/a/SKILL.md,line=3,col=7::name is too long"},
		{github.Annotation{Level: "warning", File: "skills/b/SKILL.md", Line: 1, Message: "enabled: not a bool"}, "::warning file=skills/b/SKILL.md,line=1::enabled: not a bool"},
		{github.Annotation{Level: "notice", Message: "50% done\r\nnext"}, "::notice::50%25 done%0D%0Anext"},
		{github.Annotation{Level: "error", File: "dir,with:odd%chars\n.md", Line: 2, Col: 1, Message: "a: b, c"}, "::error file=dir%2Cwith%3Aodd%25chars%0A.md,line=2,col=1::a: b, c"},
		{github.Annotation{Level: "debug", File: "f", Col: 5, Message: "m"}, "::notice file=f::m"},
		{github.Annotation{Level: "warning", File: "skills/x", Title: "skillsync slug-mismatch, a: b", Message: "folder"}, "::warning file=skills/x,title=skillsync slug-mismatch%2C a%3A b::folder"},
		// What no one can see is shown, in the file, the title and the
		// message: the annotation on a pull request is read by reviewers.
		{github.Annotation{Level: "error", File: "skills/a\u200b/SKILL.md", Title: "t\u202e", Message: "Say hello\U000E0048\U000E0069\nhint: \x1b[2J"},
			"::error file=skills/a⟦ZWSP⟧/SKILL.md,title=t⟦RLO⟧::Say hello⟦tags: \"Hi\"⟧%0Ahint: ⟦ESC⟧[2J"},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("%+v\n got %q\nwant %q", tt.a, got, tt.want)
		}
	}
}

func TestWriteAnnotations(t *testing.T) {
	var b strings.Builder
	as := []github.Annotation{{Level: "error", File: "a", Message: "x"}, {Level: "warning", Message: "y"}}
	if err := github.WriteAnnotations(&b, as); err != nil {
		t.Fatal(err)
	}
	if want := "::error file=a::x\n::warning::y\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
}

// TestDriftIssuePerTarget: each target keeps an issue of its own, even
// two targets with spaces of one id, and the issue of the one space of a
// skillsync.yaml without targets is none of theirs.
func TestDriftIssuePerTarget(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	c := newClient(t, f)
	for _, target := range []string{"staging", "prod", ""} {
		if action, _, err := c.SyncDriftIssue(ctx, "ab12", target, true, "drift of "+target); err != nil || action != github.DriftOpened {
			t.Fatalf("target %q: %s, %v", target, action, err)
		}
	}
	titles := map[string]string{}
	for _, is := range f.Issues() {
		titles[is.Title] = is.Body
	}
	for title, marker := range map[string]string{
		"skillsync: drift in target staging (space ab12)": "<!-- skillsync:drift space=ab12 target=staging -->",
		"skillsync: drift in target prod (space ab12)":    "<!-- skillsync:drift space=ab12 target=prod -->",
		"skillsync: drift in space ab12":                  "<!-- skillsync:drift space=ab12 -->",
	} {
		if body, ok := titles[title]; !ok || !strings.HasPrefix(body, marker+"\n") {
			t.Errorf("issue %q: %q, want it to start with %s", title, body, marker)
		}
	}
	// prod back in sync closes prod's issue alone.
	if action, _, err := c.SyncDriftIssue(ctx, "ab12", "prod", false, ""); err != nil || action != github.DriftClosed {
		t.Fatalf("prod in sync: %s, %v", action, err)
	}
	for _, is := range f.Issues() {
		if open := is.State == "open"; open == strings.Contains(is.Title, "prod") {
			t.Errorf("issue %q is %s", is.Title, is.State)
		}
	}
}
