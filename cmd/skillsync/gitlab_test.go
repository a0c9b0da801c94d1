package main

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// newFakeGitLab starts GitLab's fake holding merge request !1 and points
// the GitLab CI variables of te at it, as a merge request pipeline has
// them.
func newFakeGitLab(t *testing.T, te testEnv) *gitlabtest.Server {
	t.Helper()
	f := gitlabtest.New(t)
	f.AddMergeRequest(1)
	te["GITLAB_CI"] = "true"
	te["GITLAB_TOKEN"] = gitlabtest.Token
	te["CI_API_V4_URL"] = f.URL
	te["CI_PROJECT_ID"] = gitlabtest.ProjectID
	te["CI_PROJECT_URL"] = gitlabtest.WebURL
	te["CI_MERGE_REQUEST_IID"] = "1"
	te["CI_JOB_URL"] = gitlabtest.WebURL + "/-/jobs/99"
	return f
}

// mrNotes are the notes of merge request !1.
func mrNotes(f *gitlabtest.Server) []gitlabtest.Note {
	return slices.DeleteFunc(f.Notes(), func(n gitlabtest.Note) bool { return n.Noteable != "MergeRequest" || n.IID != 1 })
}

// TestGitLabPlanNote: in a GitLab merge request pipeline, plan --comment
// keeps one note on the merge request, edited in place on every push; a
// plan with nothing to review starts none, and turns the one there into a
// short "No changes" that links the job.
func TestGitLabPlanNote(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)

	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	notes := mrNotes(f)
	if len(notes) != 1 || !strings.HasPrefix(notes[0].Body, "<!-- skillsync:plan space=demo -->\n") ||
		!strings.Contains(notes[0].Body, "release-notes") {
		t.Fatalf("notes = %+v, want one plan note of space demo", notes)
	}
	if want := "commented the plan on merge request !1: " + gitlabtest.WebURL + "/-/merge_requests/1#note_"; !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	first := notes[0]

	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment"); code != 0 {
		t.Fatalf("second plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	notes = mrNotes(f)
	if len(notes) != 1 || notes[0].ID != first.ID || !strings.Contains(notes[0].Body, "code-review") {
		t.Fatalf("after the second plan, notes = %+v, want note %d updated with code-review", notes, first.ID)
	}

	inSyncDemo(t, env, dir)
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment"); code != 0 {
		t.Fatalf("plan --comment in sync: exit %d, stderr:\n%s", code, stderr)
	}
	want := strings.TrimSuffix(noChangesComment, "\n") + " Planned by [this run](" + gitlabtest.WebURL + "/-/jobs/99).\n"
	if notes = mrNotes(f); len(notes) != 1 || notes[0].ID != first.ID || notes[0].Body != want {
		t.Fatalf("in sync, notes = %+v, want note %d to read\n%s", notes, first.ID, want)
	}
}

// TestGitLabPlanNoteSkipsNoChanges: a merge request that changes nothing
// gets no note.
func TestGitLabPlanNoteSkipsNoChanges(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	inSyncDemo(t, env, dir)
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	if notes := f.Notes(); len(notes) != 0 {
		t.Errorf("notes = %+v, want none", notes)
	}
	if !strings.Contains(stderr, "no changes in space demo: no plan note posted on merge request !1") {
		t.Errorf("stderr does not say why nothing was posted:\n%s", stderr)
	}
}

// TestGitLabDriftIssue: in a scheduled GitLab pipeline, drift --issue
// opens one labelled issue while the space drifts, updates it, and closes
// it with a note once in sync.
func TestGitLabDriftIssue(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	delete(env, "CI_MERGE_REQUEST_IID") // a scheduled pipeline
	if code, _, stderr := runCLI(t, env, "apply", "--dir", dir, "--auto-approve"); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}
	editInstructions(t, e, "release-notes", "# Release notes\n\nEdited in the app.\n")
	code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue")
	if code != 2 {
		t.Fatalf("drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues := f.Issues()
	if len(issues) != 1 || issues[0].State != "opened" || issues[0].Title != "skillsync: drift in space demo" ||
		!strings.HasPrefix(issues[0].Description, "<!-- skillsync:drift space=demo -->\n") ||
		!strings.Contains(issues[0].Description, "release-notes") || !slices.Contains(issues[0].Labels, "skillsync-drift") {
		t.Fatalf("issues = %+v, want one open drift issue of space demo", issues)
	}
	if !strings.Contains(stderr, "opened a drift issue for space demo") {
		t.Errorf("stderr does not say the issue was opened:\n%s", stderr)
	}

	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app too.\n")
	if code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue"); code != 2 {
		t.Fatalf("second drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	if issues = f.Issues(); len(issues) != 1 || issues[0].State != "opened" || !strings.Contains(issues[0].Description, "code-review") {
		t.Fatalf("issues = %+v, want the issue updated with code-review", issues)
	}

	inSyncDemo(t, env, dir)
	if code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue"); code != 0 {
		t.Fatalf("drift in sync: exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if issues = f.Issues(); len(issues) != 1 || issues[0].State != "closed" {
		t.Fatalf("issues = %+v, want the issue closed", issues)
	}
	notes := f.Notes()
	if len(notes) != 1 || notes[0].Noteable != "Issue" || notes[0].Body != "Space demo is back in sync with git." {
		t.Errorf("notes = %+v, want one on the issue saying it is back in sync", notes)
	}
}

// TestGitLabTargets: with several targets, one note per target on the
// merge request and one issue per target, each with the marker GitHub's
// has; a target with nothing to review gets no note.
func TestGitLabTargets(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	copyDemoSpace(t, e, "st01")
	cfg := "skillsDir: skills\nunmanaged: ignore\nmissing: warn\ntargets:\n  staging:\n    space: st01\n  production:\n    space: demo\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_SPACE")

	markers := []string{"<!-- skillsync:plan space=st01 target=staging -->", "<!-- skillsync:plan space=demo target=production -->"}
	for range 2 { // the second run edits the notes the first made
		if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment"); code != 0 {
			t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
		}
		notes := mrNotes(f)
		if len(notes) != 2 {
			t.Fatalf("notes = %+v, want one per target", notes)
		}
		for i, marker := range markers {
			if !strings.HasPrefix(notes[i].Body, marker+"\n") || !strings.Contains(notes[i].Body, "release-notes") {
				t.Errorf("note %d = %q, want the plan of its target, beginning %s", i, notes[i].Body, marker)
			}
		}
	}

	code, _, stderr := runCLI(t, env, "drift", "--dir", dir, "--issue")
	if code != 2 {
		t.Fatalf("drift: exit %d, want 2; stderr:\n%s", code, stderr)
	}
	issues := f.Issues()
	if len(issues) != 2 ||
		issues[0].Title != "skillsync: drift in target staging (space st01)" || !strings.HasPrefix(issues[0].Description, "<!-- skillsync:drift space=st01 target=staging -->\n") ||
		issues[1].Title != "skillsync: drift in target production (space demo)" || !strings.HasPrefix(issues[1].Description, "<!-- skillsync:drift space=demo target=production -->\n") {
		t.Fatalf("issues = %+v, want one drift issue per target", issues)
	}
}

// TestGitLabTargetsSkipNoChanges: the skip is per target.
func TestGitLabTargetsSkipNoChanges(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	inSyncDemo(t, env, dir)
	copyDemoSpace(t, e, "st01")
	cfg := "skillsDir: skills\nunmanaged: ignore\nmissing: warn\ntargets:\n  staging:\n    space: st01\n  production:\n    space: demo\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_SPACE")
	editInstructions(t, e, "code-review", "# Review\n\nEdited in the app.\n") // production only
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	if notes := mrNotes(f); len(notes) != 1 || !strings.HasPrefix(notes[0].Body, "<!-- skillsync:plan space=demo target=production -->\n") {
		t.Fatalf("notes = %+v, want production's plan only", notes)
	}
}

// TestGitLabErrors: what stops a note or an issue says what to set, and
// nothing is posted.
func TestGitLabErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		args       []string
		env        map[string]string
		readOnly   bool
		wantStderr []string
	}{
		{"no token", []string{"plan", "--comment"}, map[string]string{"GITLAB_TOKEN": ""}, false,
			[]string{"error: connecting to GitLab: no GitLab token\n", "hint: set GITLAB_TOKEN", "api scope", "Reporter role"}},
		{"no token for the issue", []string{"drift", "--issue"}, map[string]string{"GITLAB_TOKEN": ""}, false,
			[]string{"no GitLab token", "hint: set GITLAB_TOKEN"}},
		{"no merge request", []string{"plan", "--comment"}, map[string]string{"CI_MERGE_REQUEST_IID": ""}, false,
			[]string{"error: no merge request to comment the plan on\n", "hint: ", "merge_request_event", "--pr N"}},
		{"read-only token", []string{"plan", "--comment"}, nil, true,
			[]string{"GitLab answered 403", "hint: ", "api scope", "GITLAB_TOKEN"}},
		{"neither CI", []string{"plan", "--comment"}, map[string]string{"GITLAB_CI": ""}, false,
			[]string{"error: nowhere to post: this is neither a GitHub Actions job nor a GitLab CI job\n", "hint: ", "GITHUB_TOKEN", "GITLAB_TOKEN", "api scope"}},
		{"neither CI, drift", []string{"drift", "--issue"}, map[string]string{"GITLAB_CI": ""}, false,
			[]string{"error: nowhere to post"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			f := newFakeGitLab(t, env)
			for k, v := range tc.env {
				env[k] = v
			}
			if tc.readOnly {
				f.ReadOnly()
			}
			code, stdout, stderr := runCLI(t, env, append(tc.args, "--dir", dir)...)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			for _, want := range tc.wantStderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stdout+stderr, gitlabtest.Token) {
				t.Errorf("the output shows the GitLab token:\n%s\n%s", stdout, stderr)
			}
			if notes, issues := f.Notes(), f.Issues(); len(notes) != 0 || len(issues) != 0 {
				t.Errorf("notes = %+v, issues = %+v, want none", notes, issues)
			}
		})
	}
}

// TestGitLabTokenNeverShown: a GitLab that echoes the token in its errors,
// and a space whose text holds it, show it nowhere: not in the output,
// not in the note.
func TestGitLabTokenNeverShown(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	s, _ := e.SkillBySlug(demoSpace, "code-review")
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Description = "Posts with " + gitlabtest.Token + " as the token." })
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment")
	if code != 0 {
		t.Fatalf("plan --comment: exit %d\n%s", code, stderr)
	}
	notes := mrNotes(f)
	if len(notes) != 1 {
		t.Fatalf("notes = %+v, want one", notes)
	}
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "note": notes[0].Body} {
		if strings.Contains(text, gitlabtest.Token) {
			t.Errorf("the GitLab token appears in the %s", what)
		}
	}
	if !strings.Contains(notes[0].Body, "[REDACTED]") {
		t.Errorf("the note does not show the description, redacted:\n%s", notes[0].Body)
	}

	// GitLab echoes the token back in an error, for every call.
	f.Inject(func(r *http.Request) *gitlabtest.Fault {
		return &gitlabtest.Fault{Status: http.StatusForbidden, Body: `{"message":"403 Forbidden - token ` + r.Header.Get("Private-Token") + ` may not"}`}
	})
	for _, args := range [][]string{{"plan", "--comment"}, {"drift", "--issue"}} {
		code, stdout, stderr := runCLI(t, env, append(args, "--dir", dir)...)
		if code != 1 {
			t.Fatalf("%s against a GitLab that refuses: exit %d, want 1; stderr:\n%s", args[0], code, stderr)
		}
		if !strings.Contains(stderr, "GitLab answered 403") {
			t.Errorf("%s: stderr does not say what GitLab answered:\n%s", args[0], stderr)
		}
		if strings.Contains(stdout+stderr, gitlabtest.Token) {
			t.Errorf("%s: the output shows the GitLab token:\n%s", args[0], stderr)
		}
	}
}

// TestGitHubWinsUnderActions: under GitHub Actions, a job that also has
// GitLab's variables (a mirror) posts to GitHub; --github-repo says so
// too.
func TestGitHubWinsUnderActions(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	gl := newFakeGitLab(t, env)
	gh := newFakeGitHub(t, env)
	env["GITHUB_ACTIONS"] = "true"
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1"); code != 0 {
		t.Fatalf("plan --comment: exit %d, stderr:\n%s", code, stderr)
	}
	delete(env, "GITHUB_ACTIONS")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "1", "--github-repo", "acme/skills"); code != 0 {
		t.Fatalf("plan --comment --github-repo: exit %d, stderr:\n%s", code, stderr)
	}
	if n := len(gh.Comments()); n != 1 {
		t.Errorf("GitHub has %d comments, want the one plan comment", n)
	}
	if notes := gl.Notes(); len(notes) != 0 {
		t.Errorf("GitLab notes = %+v, want none", notes)
	}
}

// TestGitLabPlanNotePR: outside a merge request pipeline, --pr names the
// merge request to comment on.
func TestGitLabPlanNotePR(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	f.AddMergeRequest(2)
	delete(env, "CI_MERGE_REQUEST_IID")
	if code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment", "--pr", "2"); code != 0 {
		t.Fatalf("plan --comment --pr 2: exit %d, stderr:\n%s", code, stderr)
	}
	if notes := f.Notes(); len(notes) != 1 || notes[0].Noteable != "MergeRequest" || notes[0].IID != 2 {
		t.Errorf("notes = %+v, want the plan note on merge request !2", notes)
	}
}

// TestGitLabRetries: a read GitLab answers 502 once is sent again and the
// note is posted; the test's process retries at once (instantRetries), as
// the space's client does, so no test sleeps through GitLab's backoff.
func TestGitLabRetries(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	f := newFakeGitLab(t, env)
	var once sync.Once
	f.Inject(func(r *http.Request) *gitlabtest.Fault {
		var fault *gitlabtest.Fault
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/notes") {
			once.Do(func() {
				fault = &gitlabtest.Fault{Status: http.StatusBadGateway, Body: `{"message":"502 Bad Gateway"}`}
			})
		}
		return fault
	})
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--comment")
	if code != 0 {
		t.Fatalf("plan --comment after a 502: exit %d, stderr:\n%s", code, stderr)
	}
	if notes := mrNotes(f); len(notes) != 1 {
		t.Fatalf("notes = %+v, want one", notes)
	}
}
