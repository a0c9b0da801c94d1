package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// fakeGitHubToken is the GITHUB_TOKEN of the tests, which GitHub's fake
// accepts.
const fakeGitHubToken = githubtest.Token

func editInstructions(t *testing.T, e *remotetest.Emulator, slug, text string) {
	t.Helper()
	s, ok := e.SkillBySlug(demoSpace, slug)
	if !ok {
		t.Fatalf("no skill %s in the emulator", slug)
	}
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Instructions = text })
}

func TestPlanComment(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)

	// The comment is posted whatever --format prints.
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--format", "json", "--comment", "--pr", "1")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	if !json.Valid([]byte(stdout)) {
		t.Errorf("stdout is not the JSON plan:\n%s", stdout)
	}
	if !strings.Contains(stderr, "commented the plan on pull request #1") {
		t.Errorf("stderr does not say the plan was commented:\n%s", stderr)
	}
	if strings.Contains(stderr, fakeGitHubToken) {
		t.Errorf("stderr shows the GitHub token:\n%s", stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "<!-- skillsync:plan space=demo -->") ||
		!strings.Contains(comments[0].Body, "release-notes") {
		t.Fatalf("after the first plan, comments = %+v, want one plan comment of space demo", comments)
	}
	first := comments[0]

	// A push that changes the plan updates the same comment.
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("second plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments = f.Comments()
	if len(comments) != 1 || comments[0].ID != first.ID || comments[0].Body == first.Body ||
		!strings.Contains(comments[0].Body, "code-review") {
		t.Fatalf("after the second plan, comments = %+v, want comment %d updated with code-review", comments, first.ID)
	}

	// After apply, "no changes" replaces the plan in the same comment.
	if code, _, stderr := runCLI(t, env, "apply", "--dir", dir, "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("third plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments = f.Comments()
	if len(comments) != 1 || comments[0].ID != first.ID || !strings.Contains(comments[0].Body, "**No changes.**") {
		t.Fatalf("after apply, comments = %+v, want comment %d saying no changes", comments, first.ID)
	}
}

func TestPlanCommentFromEvent(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	event := filepath.Join(t.TempDir(), "event.json")
	os.WriteFile(event, []byte(`{"pull_request":{"number":1}}`), 0o644)
	env["GITHUB_EVENT_PATH"] = event
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	if comments := f.Comments(); len(comments) != 1 || comments[0].Issue != 1 {
		t.Fatalf("comments = %+v, want one on pull request #1", comments)
	}
}

// TestPlanCommentEventTooLarge: an event payload larger than GitHub sends
// is refused, naming it and what to do, before anything is posted; with
// --pr the payload is not needed, and not read.
func TestPlanCommentEventTooLarge(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(event, 26<<20); err != nil {
		t.Fatal(err)
	}
	env["GITHUB_EVENT_PATH"] = event
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment")
	if code != 1 || !strings.Contains(stderr, "skillsync: error: the event payload "+event+" is over 25 MiB") ||
		!strings.Contains(stderr, "skillsync: hint: pass the pull request with --pr N") {
		t.Errorf("plan --comment: exit %d, want 1 naming the payload, with a hint; stderr:\n%s", code, stderr)
	}
	if comments := f.Comments(); len(comments) != 0 {
		t.Errorf("comments = %+v, want none", comments)
	}
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Errorf("plan --comment --pr 1: exit %d, want 0; stderr:\n%s", code, stderr)
	}
}

// TestPlanCommentWhenNoPlan: a push that breaks validation replaces the
// plan comment with why there is no plan, rather than leaving the plan of
// the earlier push on show; the job summary says it too.
func TestPlanCommentWhenNoPlan(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	summary := filepath.Join(t.TempDir(), "summary.md")
	env["GITHUB_ACTIONS"] = "true"
	env["GITHUB_STEP_SUMMARY"] = summary
	skill := filepath.Join(dir, "skills", "sql-style", "SKILL.md")
	data, _ := os.ReadFile(skill)
	os.WriteFile(skill, bytes.Replace(data, []byte("name: "), []byte("name: -"), 1), 0o644)

	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
	if code != 1 {
		t.Fatalf("plan of an invalid skill: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "skillsync: error: the repository has 1 validation error") ||
		!strings.Contains(stderr, "now says why there is no plan") {
		t.Errorf("stderr:\n%s", stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 {
		t.Fatalf("comments = %d, want the one plan comment, updated", len(comments))
	}
	body := comments[0].Body
	for _, want := range []string{
		"<!-- skillsync:plan space=demo -->",
		"**No plan could be made:** the repository has 1 validation error",
		"skills/sql-style/SKILL.md:2:7: error: ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("the comment lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "release-notes") {
		t.Errorf("the comment still shows the old plan:\n%s", body)
	}
	sum, _ := os.ReadFile(summary)
	if !strings.Contains(string(sum), "No plan could be made") {
		t.Errorf("the job summary does not say there is no plan:\n%s", sum)
	}

	// drift under Actions says it in the summary too, and opens no issue.
	os.Remove(summary)
	if code, _, _ := runCLI(t, env, "drift", "--dir", dir); code != 1 {
		t.Errorf("drift of an invalid repository: exit %d, want 1", code)
	}
	if sum, _ := os.ReadFile(summary); !strings.Contains(string(sum), "No plan could be made") || !strings.Contains(string(sum), "### skillsync drift for space `demo`") {
		t.Errorf("drift's job summary does not say, under its own title, that there is no plan:\n%s", sum)
	}
	if issues := f.Issues(); len(issues) > 1 {
		t.Errorf("issues = %+v", issues)
	}
}

// TestPlanCommentWhenBaseFails: a --base that cannot be read fails the
// plan, and the comment says so instead of keeping the earlier push's plan.
func TestPlanCommentWhenBaseFails(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	gitCommitAll(t, gitInitMain(t, dir), "skills")
	f := newFakeGitHub(t, env)
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1", "--base", "main"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1", "--base", "mian")
	if code != 1 {
		t.Fatalf("plan --base mian: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "**No plan could be made:** unknown ref mian") {
		t.Errorf("comments = %+v, want the plan comment saying there is no plan", comments)
	}
}

func TestPlanCommentWithErrors(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	// brand-voice has no remote twin: with missing: error the plan has an
	// error, which reviewers must see in the comment.
	cfg := filepath.Join(dir, "skillsync.yaml")
	data, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, bytes.Replace(data, []byte("missing: warn"), []byte("missing: error"), 1), 0o644)
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
	if code != 1 {
		t.Fatalf("plan with errors: exit %d, want 1; stderr:\n%s", code, stderr)
	}
	if comments := f.Comments(); len(comments) != 1 || !strings.Contains(comments[0].Body, "brand-voice") {
		t.Fatalf("comments = %+v, want the plan with its error", comments)
	}
}

func TestPlanCommentErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		status     int
		body       string
		args       []string
		wantStderr []string
	}{
		{"forbidden", 403, `{"message":"Resource not accessible by integration"}`, []string{"--pr", "1"},
			[]string{"403 Forbidden", "hint: ", "pull-requests: write"}},
		{"unauthorized", 401, `{"message":"Bad credentials"}`, []string{"--pr", "1"},
			[]string{"401", "GITHUB_TOKEN"}},
		{"no pull request", 0, "", nil, []string{"no pull request to comment the plan on", "--pr N"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			f := newFakeGitHub(t, env)
			f.FailAll(tc.status, tc.body)
			code, _, stderr := runCLI(t, env, append([]string{"plan", "--dir", dir, "--comment"}, tc.args...)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
		})
	}
}

// TestGitHubErrorHints: what stops the comment before GitHub answers has
// a hint line too.
func TestGitHubErrorHints(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		env        map[string]string
		wantStderr []string
	}{
		{"no token", map[string]string{"GITHUB_TOKEN": ""},
			[]string{"error: connecting to GitHub: no GitHub token\n", "hint: set GITHUB_TOKEN", "env:"}},
		{"no answer", map[string]string{"GITHUB_API_URL": "http://127.0.0.1:1"},
			[]string{"error: listing the comments of pull request #1: ", "hint: ", "http://127.0.0.1:1", "GITHUB_API_URL"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			f := newFakeGitHub(t, env)
			for k, v := range tc.env {
				env[k] = v
			}
			code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if comments := f.Comments(); len(comments) != 0 {
				t.Errorf("comments = %+v, want none", comments)
			}
		})
	}
}

func TestPlanCommentSizeLimit(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	// Long instructions edited in the app on every skill of the space make
	// diffs far over GitHub's limit.
	for _, slug := range []string{"release-notes", "code-review", "incident-postmortem", "sql-style"} {
		var b strings.Builder
		for i := 0; b.Len() < 45000; i++ {
			fmt.Fprintf(&b, "Line %d of %s, edited in the app so the diff is long.\n", i, slug)
		}
		editInstructions(t, e, slug, b.String())
	}
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 {
		t.Fatalf("comments = %d, want 1", len(comments))
	}
	if n := utf8.RuneCountInString(comments[0].Body); n > 65536 {
		t.Errorf("comment has %d characters, over 65,536", n)
	}
}

func TestDriftIssue(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	if code, _, stderr := runCLI(t, env, "apply", "--dir", dir, "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}

	// Drift: an issue is opened.
	editInstructions(t, e, "release-notes", "# Release notes\n\nEdited in the app.\n")
	code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue")
	if code != 2 {
		t.Fatalf("first drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues := f.Issues()
	if len(issues) != 2 || issues[1].State != "open" || !strings.Contains(issues[1].Body, "<!-- skillsync:drift space=demo -->") ||
		!strings.Contains(issues[1].Body, "release-notes") {
		t.Fatalf("after the first drift, issues = %+v, want one open drift issue", issues)
	}

	// Drift again: the same issue is updated.
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app too.\n")
	if code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue"); code != 2 {
		t.Fatalf("second drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues = f.Issues()
	if len(issues) != 2 || issues[1].State != "open" || !strings.Contains(issues[1].Body, "code-review") {
		t.Fatalf("after the second drift, issues = %+v, want issue #2 updated with code-review", issues)
	}

	// Applied, but what the API cannot do still differs (the demo space's
	// checklist.md, its missing brand-voice skill): the issue stays open.
	if code, _, stderr := runCLI(t, env, "apply", "--dir", dir, "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue"); code != 2 {
		t.Fatalf("drift of a file and a missing skill: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues, comments := f.Issues(), f.Comments()
	if len(issues) != 2 || issues[1].State != "open" || !strings.Contains(issues[1].Body, "checklist.md") ||
		!strings.Contains(issues[1].Body, "brand-voice") || len(comments) != 0 {
		t.Fatalf("with only a file and a missing skill differing, issues = %+v, comments = %+v, want issue #2 open naming both", issues, comments)
	}

	// Fixed: the repository matches the space; the issue is closed with a
	// comment.
	fitDemo(t, dir)
	code, _, stderr = runCLI(t, env, "drift", "--dir", dir, "--issue")
	if code != 0 {
		t.Fatalf("drift in sync: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	issues, comments = f.Issues(), f.Comments()
	if len(issues) != 2 || issues[1].State != "closed" {
		t.Fatalf("after sync, issues = %+v, want issue #2 closed", issues)
	}
	if len(comments) != 1 || comments[0].Issue != 2 || !strings.Contains(comments[0].Body, "in sync") {
		t.Errorf("after sync, comments = %+v, want one on issue #2 saying it is in sync", comments)
	}
	if !strings.Contains(stderr, "closed the drift issue") {
		t.Errorf("stderr does not say the issue was closed:\n%s", stderr)
	}
}

// TestPlanCommentRedactsGitHubToken: text of the space that happens to hold
// GITHUB_TOKEN reaches neither the comment nor the job summary.
func TestPlanCommentRedactsGitHubToken(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	summary := filepath.Join(t.TempDir(), "summary.md")
	env["GITHUB_ACTIONS"] = "true"
	env["GITHUB_STEP_SUMMARY"] = summary
	s, _ := e.SkillBySlug(demoSpace, "code-review")
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Description = "Posts with " + fakeGitHubToken + " as the token." })
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d\n%s", code, stderr)
	}
	comments := f.Comments()
	sum, _ := os.ReadFile(summary)
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "summary": string(sum), "comment": comments[0].Body} {
		if strings.Contains(text, fakeGitHubToken) {
			t.Errorf("the GitHub token appears in the %s", what)
		}
	}
	if !strings.Contains(comments[0].Body, "[REDACTED]") {
		t.Errorf("the comment does not show the description, redacted:\n%s", comments[0].Body)
	}
}

// TestDiagnosticAnnotations: a diagnostic is annotated on its file, line
// and column, titled with its code, its hint under the message.
func TestDiagnosticAnnotations(t *testing.T) {
	t.Parallel()
	ds := diag.Diagnostics{
		{Path: "skills/a,b/SKILL.md", Line: 2, Col: 7, Severity: diag.SeverityError, Code: "name-invalid", Message: "name: 100% wrong", Hint: "fix\nit"},
		{Path: "skills/x", Severity: diag.SeverityWarning, Code: "slug-mismatch", Message: "folder"},
	}
	var gh strings.Builder
	github.WriteAnnotations(&gh, diagnosticAnnotations(ds))
	wantGH := "::error file=skills/a%2Cb/SKILL.md,line=2,col=7,title=skillsync name-invalid::name: 100%25 wrong%0Ahint: fix%0Ait\n" +
		"::warning file=skills/x,title=skillsync slug-mismatch::folder\n"
	if gh.String() != wantGH {
		t.Errorf("annotations:\n%s\nwant:\n%s", gh.String(), wantGH)
	}
}

// TestTargetsCommentAndIssue: with several targets, plan --comment keeps
// one comment per target and drift --issue one issue per target, each
// found again by its marker, which names the target.
func TestTargetsCommentAndIssue(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	e.AddSpace(remotetest.Space{ID: "st01"})
	for _, s := range e.Skills(demoSpace) {
		sd := remotetest.SkillSeed{Slug: s.Slug, Name: s.Name, Description: s.Description, Enabled: s.Enabled, Files: e.SkillFiles(demoSpace, s.ID)}
		if s.Instructions != nil {
			sd.Instructions = *s.Instructions
		}
		e.AddSkill("st01", sd)
	}
	cfg := "skillsDir: skills\nunmanaged: ignore\nmissing: warn\ntargets:\n  staging:\n    space: st01\n  production:\n    space: demo\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_SPACE")
	f := newFakeGitHub(t, env)

	for range 2 { // the second run updates the comments it made
		if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
			t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
		}
		comments := f.Comments()
		if len(comments) != 2 {
			t.Fatalf("comments = %+v, want one per target", comments)
		}
		for i, marker := range []string{"<!-- skillsync:plan space=st01 target=staging -->", "<!-- skillsync:plan space=demo target=production -->"} {
			if !strings.HasPrefix(comments[i].Body, marker) || !strings.Contains(comments[i].Body, "release-notes") {
				t.Errorf("comment %d = %q, want the plan of its target, beginning %s", i, comments[i].Body, marker)
			}
		}
	}

	code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue")
	if code != 2 {
		t.Fatalf("drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues := f.Issues() // #1 is the pull request
	if len(issues) != 3 ||
		issues[1].Title != "skillsync: drift in target staging (space st01)" || !strings.HasPrefix(issues[1].Body, "<!-- skillsync:drift space=st01 target=staging -->") ||
		issues[2].Title != "skillsync: drift in target production (space demo)" || !strings.HasPrefix(issues[2].Body, "<!-- skillsync:drift space=demo target=production -->") {
		t.Fatalf("issues = %+v, want one drift issue per target", issues)
	}
}

// inSyncDemo applies the demo repository and makes it match the space in
// what the API cannot do (the missing brand-voice skill, checklist.md), so
// that a plan of it has nothing to review.
func inSyncDemo(t *testing.T, te testEnv, dir string) {
	t.Helper()
	if code, _, stderr := runCLI(t, te, "apply", "--dir", dir, "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}
	if err := os.RemoveAll(filepath.Join(dir, "skills", "brand-voice")); err != nil {
		t.Fatal(err)
	}
	live, err := fs.ReadFile(skillsync.Demo, "testdata/demo/space/demo/skills/code-review/checklist.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skills", "code-review", "checklist.md"), live, 0o644); err != nil {
		t.Fatal(err)
	}
}

// noChangesComment is the whole plan comment of a space with nothing to
// review.
const noChangesComment = "<!-- skillsync:plan space=demo -->\n### skillsync plan for space `demo`\n\n**No changes.**\n"

// TestPlanCommentSkipsNoChanges: a plan with nothing to review posts no
// comment on a pull request that has none (tfcmt's skip-no-changes); one
// that has the plan of an earlier push gets it replaced by a short "No
// changes", so that no stale plan stays up.
func TestPlanCommentSkipsNoChanges(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	inSyncDemo(t, env, dir)

	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	if comments := f.Comments(); len(comments) != 0 {
		t.Fatalf("a plan with no changes posted comments = %+v, want none", comments)
	}
	if !strings.Contains(stderr, "no changes in space demo: no plan comment posted on pull request #1") {
		t.Errorf("stderr does not say why nothing was posted:\n%s", stderr)
	}

	// A change made in the app: the plan is commented.
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "code-review") {
		t.Fatalf("comments = %+v, want the plan of code-review", comments)
	}
	first := comments[0]

	// Back in sync: the same comment now says no changes, in a few lines.
	inSyncDemo(t, env, dir)
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments = f.Comments()
	if len(comments) != 1 || comments[0].ID != first.ID || comments[0].Body != noChangesComment {
		t.Fatalf("comments = %+v, want comment %d to read\n%s", comments, first.ID, noChangesComment)
	}
}

// TestTargetsCommentSkipsNoChanges: the skip is per target: a target with
// nothing to review gets no comment while another gets its plan.
func TestTargetsCommentSkipsNoChanges(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	inSyncDemo(t, env, dir)
	copyDemoSpace(t, e, "st01")
	cfg := "skillsDir: skills\nunmanaged: ignore\nmissing: warn\ntargets:\n  staging:\n    space: st01\n  production:\n    space: demo\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_SPACE")
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n") // production only

	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 || !strings.HasPrefix(comments[0].Body, "<!-- skillsync:plan space=demo target=production -->") ||
		!strings.Contains(comments[0].Body, "code-review") {
		t.Fatalf("comments = %+v, want production's plan only", comments)
	}
	if !strings.Contains(stderr, "no changes in target staging (space st01): no plan comment posted") {
		t.Errorf("stderr does not say staging was skipped:\n%s", stderr)
	}
}

// copyDemoSpace adds space id to the emulator, holding the skills of the
// demo space as they are now.
func copyDemoSpace(t *testing.T, e *remotetest.Emulator, id string) {
	t.Helper()
	e.AddSpace(remotetest.Space{ID: id})
	for _, s := range e.Skills(demoSpace) {
		sd := remotetest.SkillSeed{Slug: s.Slug, Name: s.Name, Description: s.Description, Enabled: s.Enabled, Files: e.SkillFiles(demoSpace, s.ID)}
		if s.Instructions != nil {
			sd.Instructions = *s.Instructions
		}
		e.AddSkill(id, sd)
	}
}

// TestPlanCommentLinksRun: under GitHub Actions, the "No changes" that
// replaces a plan comment links the run that planned it, so that a
// reviewer can tell it is not stale.
func TestPlanCommentLinksRun(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	env["GITHUB_ACTIONS"] = "true"
	env["GITHUB_SERVER_URL"] = "https://github.com"
	env["GITHUB_RUN_ID"] = "4242"
	inSyncDemo(t, env, dir)
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	inSyncDemo(t, env, dir)
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment in sync: exit %d, stderr:\n%s", code, stderr)
	}
	want := strings.TrimSuffix(noChangesComment, "\n") + " Planned by [this run](https://github.com/" + githubtest.Repository + "/actions/runs/4242).\n"
	if comments := f.Comments(); len(comments) != 1 || comments[0].Body != want {
		t.Fatalf("comments = %+v, want one reading\n%s", comments, want)
	}
}
