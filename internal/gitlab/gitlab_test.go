package gitlab_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
)

// The markers of the plan notes of spaces ab12 and cd34, as the markdown
// plan starts with them (render.MarkdownMarker).
const (
	markerAB = "<!-- skillsync:plan space=ab12 -->"
	markerCD = "<!-- skillsync:plan space=cd34 -->"
)

// noWait retries at once: no test waits on the clock.
func noWait(int, *http.Response) time.Duration { return 0 }

func testEnv(f *gitlabtest.Server) gitlab.Env {
	return gitlab.Env{Token: gitlabtest.Token, APIURL: f.URL, Project: gitlabtest.ProjectID, ProjectURL: gitlabtest.WebURL}
}

func newClient(t *testing.T, f *gitlabtest.Server) *gitlab.Client {
	t.Helper()
	return clientFor(t, f, testEnv(f))
}

func clientFor(t *testing.T, f *gitlabtest.Server, env gitlab.Env) *gitlab.Client {
	t.Helper()
	c, err := gitlab.NewClient(context.Background(), env, gitlab.Options{HTTPClient: f.Client(), RetryWait: noWait})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

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
	base := map[string]string{
		"GITLAB_CI":            "true",
		"GITLAB_TOKEN":         "glpat-x",
		"CI_JOB_TOKEN":         "job-token-never-read",
		"CI_SERVER_URL":        "https://gitlab.example.com",
		"CI_API_V4_URL":        "https://gitlab.example.com/api/v4",
		"CI_PROJECT_ID":        "4242",
		"CI_PROJECT_PATH":      "acme/skills",
		"CI_PROJECT_URL":       "https://gitlab.example.com/acme/skills",
		"CI_MERGE_REQUEST_IID": "7",
		"CI_JOB_URL":           "https://gitlab.example.com/acme/skills/-/jobs/99",
		"CI_PIPELINE_URL":      "https://gitlab.example.com/acme/skills/-/pipelines/12",
	}
	full := gitlab.Env{Token: "glpat-x", APIURL: "https://gitlab.example.com/api/v4", Project: "4242",
		ProjectURL: "https://gitlab.example.com/acme/skills", MergeRequestIID: "7",
		RunURL: "https://gitlab.example.com/acme/skills/-/jobs/99", CI: true}
	with := func(f func(*gitlab.Env)) gitlab.Env {
		e := full
		f(&e)
		return e
	}
	tests := []struct {
		name    string
		vars    map[string]string
		want    gitlab.Env
		wantMR  int64
		wantErr string // of CheckProject, then of MergeRequest
	}{
		{name: "merge request pipeline", want: full, wantMR: 7},
		{
			name: "API from the server's address, project by path, no job URL",
			vars: map[string]string{"CI_API_V4_URL": "", "CI_SERVER_URL": "https://git.corp.example/", "CI_PROJECT_ID": "", "CI_JOB_URL": ""},
			want: with(func(e *gitlab.Env) {
				e.APIURL, e.Project, e.RunURL = "https://git.corp.example/api/v4", "acme/skills", "https://gitlab.example.com/acme/skills/-/pipelines/12"
			}),
			wantMR: 7,
		},
		{
			name: "branch pipeline outside GitLab's variables",
			vars: map[string]string{"GITLAB_CI": "", "CI_API_V4_URL": "", "CI_SERVER_URL": "", "CI_MERGE_REQUEST_IID": ""},
			want: with(func(e *gitlab.Env) { e.APIURL, e.MergeRequestIID, e.CI = gitlab.DefaultAPIURL, "", false }),
		},
		{
			name: "a job URL that would break out of a markdown link is dropped",
			vars: map[string]string{"CI_JOB_URL": "https://gitlab.example.com/x)<img src=x>", "CI_PIPELINE_URL": "javascript:alert(1)"},
			want: with(func(e *gitlab.Env) { e.RunURL = "" }), wantMR: 7,
		},
		{name: "malformed project", vars: map[string]string{"CI_PROJECT_ID": "acme"}, wantErr: `GitLab project "acme" is neither a numeric id nor a path`},
		{name: "project path climbing", vars: map[string]string{"CI_PROJECT_ID": "acme/../admin"}, wantErr: "is neither a numeric id"},
		{name: "malformed merge request", vars: map[string]string{"CI_MERGE_REQUEST_IID": "7; rm"}, wantErr: `CI_MERGE_REQUEST_IID "7; rm" is not the number of a merge request`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			read := map[string]int{}
			got := gitlab.ReadEnv(func(k string) string {
				read[k]++
				if v, ok := tt.vars[k]; ok {
					return v
				}
				return base[k]
			})
			if read["CI_JOB_TOKEN"] > 0 {
				t.Error("CI_JOB_TOKEN was read")
			}
			err := got.CheckProject()
			var mr int64
			if err == nil {
				mr, err = got.MergeRequest()
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
			if got != tt.want || mr != tt.wantMR {
				t.Errorf("got  %+v, merge request %d\nwant %+v, merge request %d", got, mr, tt.want, tt.wantMR)
			}
		})
	}
}

func TestNewClientRefuses(t *testing.T) {
	ok := gitlab.Env{Token: "glpat-x", APIURL: "https://gitlab.example.com/api/v4", Project: "4242"}
	for _, tc := range []struct {
		name string
		edit func(*gitlab.Env)
		want string
	}{
		{"no token", func(e *gitlab.Env) { e.Token = "" }, "no GitLab token; set GITLAB_TOKEN"},
		{"no project", func(e *gitlab.Env) { e.Project = "" }, "no GitLab project"},
		{"bad project", func(e *gitlab.Env) { e.Project = "a b" }, "is neither a numeric id nor a path"},
		{"plain http off loopback", func(e *gitlab.Env) { e.APIURL = "http://gitlab.example.com/api/v4" }, "plain http to a host that is not loopback"},
		{"not a URL", func(e *gitlab.Env) { e.APIURL = "gitlab.example.com" }, "is not an http(s) URL"},
	} {
		env := ok
		tc.edit(&env)
		_, err := gitlab.NewClient(context.Background(), env, gitlab.Options{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	_, err := gitlab.NewClient(context.Background(), gitlab.Env{Project: "1"}, gitlab.Options{})
	if err == nil || !strings.Contains(err.Error(), "CI_JOB_TOKEN cannot write notes or issues") || !strings.Contains(err.Error(), "api scope") {
		t.Errorf("no token: %v, want a hint naming the scope and why not CI_JOB_TOKEN", err)
	}
}

func TestSyncPlanNote(t *testing.T) {
	ctx := context.Background()
	f := gitlabtest.New(t)
	f.AddMergeRequest(7)
	f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, AuthorID: 5, Body: "LGTM"})
	c := newClient(t, f)

	first := markerAB + "\nPlan: 1 to update, 0 to enable, 0 to disable.\n"
	action, url, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: first})
	if err != nil {
		t.Fatal(err)
	}
	if action != gitlab.NoteCreated || !strings.HasPrefix(url, gitlabtest.WebURL+"/-/merge_requests/7#note_") {
		t.Errorf("first call: %q %q, want a new note", action, url)
	}

	second := markerAB + "\nPlan: 2 to update, 0 to enable, 0 to disable.\n"
	action, url2, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: second})
	if err != nil {
		t.Fatal(err)
	}
	if action != gitlab.NoteUpdated || url2 != url {
		t.Errorf("second call: %q %q, want the first note (%q) updated", action, url2, url)
	}

	// Another space gets its own note; markdown without the marker gets it.
	if action, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerCD, Markdown: "No changes.\n"}); err != nil || action != gitlab.NoteCreated {
		t.Fatalf("other space: %q %v, want a new note", action, err)
	}
	notes := f.Notes()
	if len(notes) != 3 || notes[0].Body != "LGTM" || notes[1].Body != second || notes[2].Body != markerCD+"\nNo changes.\n" {
		t.Errorf("notes = %+v; want LGTM untouched, the ab12 plan updated in place, the cd34 plan new", notes)
	}

	// The same plan again changes nothing.
	before := len(f.Requests())
	if action, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: second}); err != nil || action != gitlab.NoteUnchanged {
		t.Fatalf("same plan: %q %v", action, err)
	}
	if n := countRequests(f.Requests()[before:], "PUT "); n != 0 {
		t.Errorf("unchanged plan sent %d PUT requests, want 0", n)
	}
	// GET /user once, however many notes were looked at.
	if n := countRequests(f.Requests(), "GET /api/v4/user"); n != 1 {
		t.Errorf("GET /user %d times, want once", n)
	}
}

// TestSyncPlanNoteByPath: a project named by its path (CI_PROJECT_PATH)
// reaches the same project, its slash escaped in the API's paths.
func TestSyncPlanNoteByPath(t *testing.T) {
	f := gitlabtest.New(t)
	f.AddMergeRequest(3)
	env := testEnv(f)
	env.Project = gitlabtest.ProjectPath
	if _, _, err := clientFor(t, f, env).SyncPlanNote(context.Background(), 3, gitlab.PlanNote{Marker: markerAB, Markdown: "plan"}); err != nil {
		t.Fatal(err)
	}
	if n := countRequests(f.Requests(), "POST /api/v4/projects/acme%2Fskills/merge_requests/3/notes"); n != 1 {
		t.Errorf("requests %q, want one POST to the escaped path", f.Requests())
	}
}

// TestSyncPlanNoteSkipsNoChanges: a plan with no changes adds no note
// (tfcmt's skip-no-changes); once a plan was posted, a plan with no
// changes replaces it with the short report, so no stale plan stays up.
func TestSyncPlanNoteSkipsNoChanges(t *testing.T) {
	ctx := context.Background()
	noChanges := markerAB + "\n### skillsync plan for space `ab12`\n\n**No changes.** Commit `0123456789ab`.\n"
	f := gitlabtest.New(t)
	f.AddMergeRequest(7)
	f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, AuthorID: 5, Body: markerAB + "\nquoted by a reviewer"})
	c := newClient(t, f)

	action, url, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: noChanges, NoChanges: true})
	if err != nil {
		t.Fatal(err)
	}
	if action != gitlab.NoteSkipped || url != "" || countRequests(f.Requests(), "POST ") != 0 {
		t.Fatalf("no note yet, no changes: %q %q, requests %q; want nothing posted", action, url, f.Requests())
	}
	if _, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: markerAB + "\nPlan: 1 to update.\n"}); err != nil {
		t.Fatal(err)
	}
	action, _, err = c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: markerAB, Markdown: noChanges, NoChanges: true})
	if err != nil || action != gitlab.NoteUpdated {
		t.Fatalf("a plan note, then no changes: %q %v, want updated", action, err)
	}
	notes := f.Notes()
	if len(notes) != 2 || notes[1].Body != noChanges || notes[0].Body != markerAB+"\nquoted by a reviewer" {
		t.Errorf("notes %+v, want the quote untouched and the plan replaced by the short report", notes)
	}
}

// TestPlanNoteIsOurs: a reviewer's note that starts with the marker, a
// quote of it, and GitLab's own system notes are never taken for the plan
// note.
func TestPlanNoteIsOurs(t *testing.T) {
	f := gitlabtest.New(t)
	f.AddMergeRequest(7)
	others := []gitlabtest.Note{
		{Noteable: "MergeRequest", IID: 7, AuthorID: 5, Body: markerAB + "\nthis is how it starts"},
		{Noteable: "MergeRequest", IID: 7, Body: "> " + markerAB + "\nquoted by the bot"},
		{Noteable: "MergeRequest", IID: 7, System: true, Body: markerAB + "\nadded 1 commit"},
		{Noteable: "Issue", IID: 7, Body: markerAB + "\nan issue's note, not the merge request's"},
	}
	for _, n := range others {
		f.AddNote(n)
	}
	ours := f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, Body: markerAB + "\nold plan"})
	action, url, err := newClient(t, f).SyncPlanNote(context.Background(), 7, gitlab.PlanNote{Marker: markerAB, Markdown: markerAB + "\nnew plan"})
	if err != nil {
		t.Fatal(err)
	}
	if action != gitlab.NoteUpdated || !strings.HasSuffix(url, fmt.Sprintf("#note_%d", ours)) {
		t.Errorf("%q %q, want note %d updated", action, url, ours)
	}
	for i, n := range f.Notes()[:len(others)] {
		if n.Body != others[i].Body {
			t.Errorf("note %d changed to %q", i, n.Body)
		}
	}
}

// TestSyncPlanNoteReadsEveryPage: on a busy merge request the plan note is
// on page three of 100; it is found whichever headers announce the next
// page (X-Next-Page, Link, or both as GitLab sends them).
func TestSyncPlanNoteReadsEveryPage(t *testing.T) {
	for name, paging := range map[string]gitlabtest.Paging{"both": gitlabtest.PagingBoth, "X-Next-Page": gitlabtest.PagingHeaders, "Link": gitlabtest.PagingLink} {
		t.Run(name, func(t *testing.T) {
			f := gitlabtest.New(t)
			f.SetPaging(paging)
			f.AddMergeRequest(7)
			var ours int64
			for i := range 250 {
				n := gitlabtest.Note{Noteable: "MergeRequest", IID: 7, AuthorID: 5, Body: fmt.Sprintf("note %d", i)}
				if i == 217 {
					n.AuthorID, n.Body = 0, markerAB+"\nold plan\n"
				}
				if id := f.AddNote(n); i == 217 {
					ours = id
				}
			}
			action, url, err := newClient(t, f).SyncPlanNote(context.Background(), 7, gitlab.PlanNote{Marker: markerAB, Markdown: markerAB + "\nnew plan\n"})
			if err != nil {
				t.Fatal(err)
			}
			if action != gitlab.NoteUpdated || !strings.HasSuffix(url, fmt.Sprintf("#note_%d", ours)) || len(f.Notes()) != 250 {
				t.Errorf("%q %q, %d notes: want note %d on page 3 updated, no new one", action, url, len(f.Notes()), ours)
			}
			if n := countRequests(f.Requests(), "GET /api/v4/projects/4242/merge_requests/7/notes"); n != 3 {
				t.Errorf("%d pages read, want 3: %q", n, f.Requests())
			}
		})
	}
}

// TestSyncPlanNoteSizeLimit: a plan over GitLab's 1,000,000 characters is
// cut to fit, at a line, with its fences and <details> closed and a note
// linking the job whose log holds all of it.
func TestSyncPlanNoteSizeLimit(t *testing.T) {
	var b strings.Builder
	b.WriteString(markerAB + "\n| skill | change |\n|---|---|\n| ü | ~ |\n\n<details><summary>ü</summary>\n\n```diff\n")
	for i, chars := 0, 0; chars < 1_200_000; i++ {
		line := fmt.Sprintf("+ línea número %d: ünïcödé ✓\n", i)
		b.WriteString(line)
		chars += utf8.RuneCountInString(line)
	}
	b.WriteString("```\n\n</details>\n")
	for _, tc := range []struct{ name, runURL, want string }{
		{"job known", "https://gitlab.example.com/acme/skills/-/jobs/99", "1000000 characters. All of it is in the log of [the job that made it](https://gitlab.example.com/acme/skills/-/jobs/99).\n"},
		{"job unknown", "", "1000000 characters. Run skillsync locally or read the job's log for all of it.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := gitlabtest.New(t)
			f.AddMergeRequest(7)
			env := testEnv(f)
			env.RunURL = tc.runURL
			c := clientFor(t, f, env)
			if _, _, err := c.SyncPlanNote(context.Background(), 7, gitlab.PlanNote{Marker: markerAB, Markdown: b.String()}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.SyncDriftIssue(context.Background(), gitlab.SpaceDrift("ab12", true, b.String())); err != nil {
				t.Fatal(err)
			}
			for i, body := range []string{f.Notes()[0].Body, f.Issues()[0].Description} {
				if n := utf8.RuneCountInString(body); n > gitlab.MaxNoteChars || n < gitlab.MaxNoteChars-300 {
					t.Errorf("body %d: %d characters, want just under %d", i, n, gitlab.MaxNoteChars)
				}
				if !strings.HasPrefix(body, markerAB+"\n| skill | change |") && !strings.HasPrefix(body, gitlab.DriftMarker("ab12")) {
					t.Errorf("body %d: the marker and the summary are not at the top any more", i)
				}
				if !strings.HasSuffix(body, tc.want) {
					t.Errorf("body %d ends %q, want %q", i, body[len(body)-200:], tc.want)
				}
				if strings.Count(body, "```")%2 != 0 || strings.Count(body, "<details>") != strings.Count(body, "</details>") {
					t.Errorf("body %d: a fence or <details> left open", i)
				}
			}
		})
	}
}

func TestSyncDriftIssue(t *testing.T) {
	ctx := context.Background()
	f := gitlabtest.New(t)
	// Someone else's issue quoting the marker, and a closed one of ours.
	theirs := f.AddIssue(gitlabtest.Issue{AuthorID: 5, Title: "about drift", Description: gitlab.DriftMarker("ab12") + "\nquoted", Labels: []string{gitlab.DriftLabel}})
	f.AddIssue(gitlabtest.Issue{Title: "old drift", Description: gitlab.DriftMarker("ab12") + "\nold", State: "closed", Labels: []string{gitlab.DriftLabel}})
	c := newClient(t, f)

	if action, _, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", false, "in sync")); err != nil || action != gitlab.DriftNone {
		t.Fatalf("in sync, no issue: %q %v, want none", action, err)
	}
	action, url, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", true, "# drift\n1 to update\n"))
	if err != nil || action != gitlab.DriftOpened {
		t.Fatalf("drift: %q %v, want opened", action, err)
	}
	issues := f.Issues()
	opened := issues[len(issues)-1]
	if opened.Title != "skillsync: drift in space ab12" || opened.Description != gitlab.DriftMarker("ab12")+"\n# drift\n1 to update\n" ||
		len(opened.Labels) != 1 || opened.Labels[0] != gitlab.DriftLabel || url != fmt.Sprintf("%s/-/issues/%d", gitlabtest.WebURL, opened.IID) {
		t.Errorf("opened %+v at %q", opened, url)
	}

	action, url2, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", true, "# drift\n2 to update\n"))
	if err != nil || action != gitlab.DriftUpdated || url2 != url {
		t.Fatalf("drift again: %q %q %v, want %q updated", action, url2, err, url)
	}
	if got := f.Issues()[opened.IID-1].Description; !strings.HasSuffix(got, "2 to update\n") {
		t.Errorf("description %q, want the new report", got)
	}
	// Another space is its own issue.
	if action, _, err := c.SyncDriftIssue(ctx, gitlab.SpaceDrift("cd34", true, "drift")); err != nil || action != gitlab.DriftOpened {
		t.Fatalf("other space: %q %v, want opened", action, err)
	}

	action, _, err = c.SyncDriftIssue(ctx, gitlab.SpaceDrift("ab12", false, "in sync"))
	if err != nil || action != gitlab.DriftClosed {
		t.Fatalf("back in sync: %q %v, want closed", action, err)
	}
	if got := f.Issues()[opened.IID-1]; got.State != "closed" {
		t.Errorf("issue %+v not closed", got)
	}
	var said bool
	for _, n := range f.Notes() {
		said = said || n.Noteable == "Issue" && n.IID == opened.IID && n.Body == "Space ab12 is back in sync with git."
	}
	if !said {
		t.Errorf("no note saying why the issue was closed: %+v", f.Notes())
	}
	if got := f.Issues()[theirs-1]; got.State != "opened" || got.Description != gitlab.DriftMarker("ab12")+"\nquoted" {
		t.Errorf("someone else's issue was touched: %+v", got)
	}
}

// TestSyncDriftIssueWithoutItsLabel: an issue whose label someone removed
// is still found, among the token's open issues; duplicates from two
// pipelines that raced are closed as superseded by the oldest.
func TestSyncDriftIssueWithoutItsLabel(t *testing.T) {
	f := gitlabtest.New(t)
	first := f.AddIssue(gitlabtest.Issue{Title: "skillsync: drift in space ab12", Description: gitlab.DriftMarker("ab12") + "\nold"})
	dup := f.AddIssue(gitlabtest.Issue{Title: "skillsync: drift in space ab12", Description: gitlab.DriftMarker("ab12") + "\nold too"})
	action, _, err := newClient(t, f).SyncDriftIssue(context.Background(), gitlab.SpaceDrift("ab12", true, "new"))
	if err != nil || action != gitlab.DriftUpdated {
		t.Fatalf("%q %v, want updated", action, err)
	}
	issues := f.Issues()
	if len(issues) != 2 || issues[first-1].Description != gitlab.DriftMarker("ab12")+"\nnew" || issues[first-1].State != "opened" || issues[dup-1].State != "closed" {
		t.Errorf("issues %+v: want the oldest updated, the other closed", issues)
	}
	notes := f.Notes()
	if len(notes) != 1 || notes[0].IID != dup || notes[0].Body != fmt.Sprintf("Superseded by #%d.", first) {
		t.Errorf("notes %+v, want one on #%d saying it is superseded", notes, dup)
	}
	if n := countRequests(f.Requests(), "GET /api/v4/projects/4242/issues?"); n != 2 {
		t.Errorf("%d issue listings, want 2 (by label, then all the token's)", n)
	}
}

// TestTargetMarkers: the caller owns the markers, and one that names a
// target of a space too is a note and an issue of its own, beside the
// space's; a first line that only begins with a marker is not it.
func TestTargetMarkers(t *testing.T) {
	ctx := context.Background()
	const (
		planProd  = "<!-- skillsync:plan space=ab12 target=prod -->"
		driftProd = "<!-- skillsync:drift space=ab12 target=prod -->"
	)
	f := gitlabtest.New(t)
	f.AddMergeRequest(7)
	notLine := f.AddNote(gitlabtest.Note{Noteable: "MergeRequest", IID: 7, Body: markerAB + " (not a marker line)\nold"})
	c := newClient(t, f)
	for _, m := range []string{markerAB, planProd} {
		if action, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: m, Markdown: "plan of " + m}); err != nil || action != gitlab.NoteCreated {
			t.Fatalf("%s: %q %v, want a note of its own", m, action, err)
		}
	}
	if action, _, err := c.SyncPlanNote(ctx, 7, gitlab.PlanNote{Marker: planProd, Markdown: "new plan of prod"}); err != nil || action != gitlab.NoteUpdated {
		t.Fatalf("prod again: %q %v, want its note updated", action, err)
	}
	notes := f.Notes()
	if len(notes) != 3 || notes[0].ID != notLine || notes[0].Body != markerAB+" (not a marker line)\nold" ||
		notes[1].Body != markerAB+"\nplan of "+markerAB || notes[2].Body != planProd+"\nnew plan of prod" {
		t.Errorf("notes %+v; want the space's and the target's apart, the other note untouched", notes)
	}

	prod := gitlab.DriftIssue{Marker: driftProd, Title: "skillsync: drift in target prod", Drift: true, Markdown: "prod drifted", InSync: "Target prod is back in sync."}
	for _, di := range []gitlab.DriftIssue{gitlab.SpaceDrift("ab12", true, "space drifted"), prod} {
		if action, _, err := c.SyncDriftIssue(ctx, di); err != nil || action != gitlab.DriftOpened {
			t.Fatalf("%s: %q %v, want an issue of its own", di.Marker, action, err)
		}
	}
	prod.Drift = false
	if action, _, err := c.SyncDriftIssue(ctx, prod); err != nil || action != gitlab.DriftClosed {
		t.Fatalf("prod in sync: %q %v, want its issue closed", action, err)
	}
	issues := f.Issues()
	if len(issues) != 2 || issues[0].State != "opened" || issues[0].Description != gitlab.DriftMarker("ab12")+"\nspace drifted" ||
		issues[1].State != "closed" || issues[1].Title != prod.Title || issues[1].Description != driftProd+"\nprod drifted" {
		t.Errorf("issues %+v; want the space's open, the target's closed", issues)
	}
	if n := f.Notes(); n[len(n)-1].Body != "Target prod is back in sync." {
		t.Errorf("closing note %q, want the caller's", n[len(n)-1].Body)
	}
}
