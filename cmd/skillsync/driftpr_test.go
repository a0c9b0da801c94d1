package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/forge/forgetest"
	"github.com/skillsync/skillsync/internal/github/githubtest"
	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
	"github.com/skillsync/skillsync/internal/mdtest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// repoFiles are the files of the repository dir, for seeding a fake's
// branch with what the job checked out.
func repoFiles(t *testing.T, dir string) map[string]*forgetest.File {
	t.Helper()
	out := map[string]*forgetest.File{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = &forgetest.File{Content: string(data)}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// branchFiles are the files branch holds on the fake's repository.
func branchFiles(t *testing.T, git *forgetest.Repo, branch string) map[string]forgetest.File {
	t.Helper()
	id, ok := git.Branch(branch)
	if !ok {
		t.Fatalf("no branch %s; branches: %v", branch, git.Branches())
	}
	return git.Files(id)
}

func openPRs(f *githubtest.Server) []githubtest.Issue {
	var out []githubtest.Issue
	for _, is := range f.Issues() {
		if is.PR && is.State == "open" && is.Head != "" {
			out = append(out, is)
		}
	}
	return out
}

// TestDriftPullRequest: drift --pr proposes the app's edit as one pull
// request whose branch holds the repository with the edit written as pull
// writes it (the rest of SKILL.md byte for byte); run again it changes
// nothing; a further edit updates the same pull request; and once the
// space is back in sync it is closed and its branch deleted.
func TestDriftPullRequest(t *testing.T) {
	t.Parallel()
	e, dir, te := ciSetup(t)
	f := newFakeGitHub(t, te)
	f.AllowActionsPullRequests()
	te["GITHUB_REF"] = "refs/heads/main"
	syncDemo(t, dir, te)
	f.Git().CommitFiles("main", "the repository", repoFiles(t, dir))
	before, err := os.ReadFile(filepath.Join(dir, "skills", "release-notes", "SKILL.md"))
	if err != nil {
		t.Fatal(err)
	}

	editInstructions(t, e, "release-notes", "# Release notes\n\nEdited in the app.\n")
	code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr")
	if code != exitChanges {
		t.Fatalf("drift --pr: exit %d, want 2\n%s", code, stderr)
	}
	prs := openPRs(f)
	if len(prs) != 1 || prs[0].Head != "skillsync/drift/demo" || prs[0].Base != "main" ||
		!strings.HasPrefix(prs[0].Body, "<!-- skillsync:drift-pr space=demo -->") || !strings.Contains(prs[0].Body, "release-notes") {
		t.Fatalf("open pull requests %+v, want one from skillsync/drift/demo to main with the drift report", prs)
	}
	front, _, _ := strings.Cut(string(before), "# Release notes")
	want := front + "# Release notes\n\nEdited in the app.\n"
	got := branchFiles(t, f.Git(), "skillsync/drift/demo")
	if got["skills/release-notes/SKILL.md"].Content != want {
		t.Errorf("the branch's SKILL.md:\n%s\nwant the repository's frontmatter as it was and the app's body:\n%s", got["skills/release-notes/SKILL.md"].Content, want)
	}
	main := branchFiles(t, f.Git(), "main")
	for p, file := range main {
		if p != "skills/release-notes/SKILL.md" && got[p] != file {
			t.Errorf("the branch changes %s, which the app did not", p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "skills", "release-notes", "SKILL.md")); string(b) != string(before) {
		t.Errorf("drift --pr wrote into the working tree")
	}

	// Again: nothing changes.
	n := len(f.Requests())
	if code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr"); code != exitChanges {
		t.Fatalf("second drift --pr: exit %d\n%s", code, stderr)
	}
	for _, r := range f.Requests()[n:] {
		if !strings.HasPrefix(r, "GET ") {
			t.Errorf("a second run with the same drift wrote: %s", r)
		}
	}

	// A further edit: the same pull request, its branch moved.
	e.EditSkill(demoSpace, mustSkill(t, e, "sql-style").ID, func(s *remotetest.SkillSeed) { s.Description = "Edited description." })
	if code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr"); code != exitChanges {
		t.Fatalf("third drift --pr: exit %d\n%s", code, stderr)
	}
	if prs2 := openPRs(f); len(prs2) != 1 || prs2[0].Number != prs[0].Number || !strings.Contains(prs2[0].Body, "sql-style") {
		t.Fatalf("after a further edit, open pull requests %+v, want #%d updated", prs2, prs[0].Number)
	}
	got = branchFiles(t, f.Git(), "skillsync/drift/demo")
	if !strings.Contains(got["skills/sql-style/SKILL.md"].Content, "description: Edited description.") || got["skills/release-notes/SKILL.md"].Content != want {
		t.Errorf("the branch after a further edit holds:\n%s\n%s", got["skills/sql-style/SKILL.md"].Content, got["skills/release-notes/SKILL.md"].Content)
	}

	// Back in sync (the edits reverted by apply): closed, branch gone.
	if code, _, stderr := runCLI(t, te, "apply", "--dir", dir, "--auto-approve", "--journal", filepath.Join(t.TempDir(), "j.jsonl")); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI(t, te, "drift", "--dir", dir, "--pr")
	if code != exitOK {
		t.Fatalf("drift --pr in sync: exit %d\n%s", code, stderr)
	}
	if len(openPRs(f)) != 0 {
		t.Errorf("the drift pull request is still open once in sync")
	}
	if _, ok := f.Git().Branch("skillsync/drift/demo"); ok {
		t.Errorf("the drift branch was not deleted")
	}
	if !strings.Contains(stderr, "closed the drift pull request of space demo") {
		t.Errorf("stderr does not say the pull request was closed:\n%s", stderr)
	}
}

func mustSkill(t *testing.T, e *remotetest.Emulator, slug string) remote.Skill {
	t.Helper()
	s, ok := e.SkillBySlug(demoSpace, slug)
	if !ok {
		t.Fatalf("no skill %s", slug)
	}
	return s
}

// TestDriftMergeRequestOfTarget: under GitLab CI, drift --pr of a target
// proposes a skill the app disabled as the target's enabled override in
// skillsync.yaml, leaving SKILL.md (the state the targets share) as it
// is, on the target's own branch, as one merge request.
func TestDriftMergeRequestOfTarget(t *testing.T) {
	t.Parallel()
	e, dir, te, f := gitlabTargetOnMain(t, "prod")

	e.EditSkill(demoSpace, mustSkill(t, e, "code-review").ID, func(s *remotetest.SkillSeed) { s.Enabled = false })
	for run := range 2 {
		code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr")
		if code != exitChanges {
			t.Fatalf("drift --pr run %d: exit %d, want 2\n%s", run+1, code, stderr)
		}
	}
	var open []string
	for _, mr := range f.MergeRequests() {
		if mr.State == "opened" && mr.SourceBranch != "" {
			open = append(open, mr.SourceBranch+" -> "+mr.TargetBranch)
		}
	}
	if len(open) != 1 || open[0] != "skillsync/drift/prod -> main" {
		t.Fatalf("open merge requests %v, want one from skillsync/drift/prod to main after two runs", open)
	}
	main, got := branchFiles(t, f.Git(), "main"), branchFiles(t, f.Git(), "skillsync/drift/prod")
	if got["skills/code-review/SKILL.md"] != main["skills/code-review/SKILL.md"] {
		t.Errorf("SKILL.md of code-review changed; the target's state belongs in its override:\n%s", got["skills/code-review/SKILL.md"].Content)
	}
	if !strings.Contains(got["skillsync.yaml"].Content, "\n  prod: {space: demo, enabled: {code-review: false}}\n") {
		t.Errorf("skillsync.yaml of the branch:\n%s\nwant the override code-review: false in target prod", got["skillsync.yaml"].Content)
	}
}

// TestDriftMergeRequestNamesShownAsCode: a target named like an address
// (target names may hold dots) is named in the merge request's
// description in a code span, which GitLab does not link.
func TestDriftMergeRequestNamesShownAsCode(t *testing.T) {
	t.Parallel()
	e, dir, te, f := gitlabTargetOnMain(t, "www.evil.example")

	e.EditSkill(demoSpace, mustSkill(t, e, "code-review").ID, func(s *remotetest.SkillSeed) { s.Description = "Edited in the app." })
	if code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr"); code != exitChanges {
		t.Fatalf("drift --pr: exit %d, want 2\n%s", code, stderr)
	}
	var bodies []string
	for _, mr := range f.MergeRequests() {
		if mr.SourceBranch != "" {
			bodies = append(bodies, mr.Description)
		}
	}
	if len(bodies) != 1 || !strings.Contains(bodies[0], "www.evil.example") {
		t.Fatalf("merge requests %q, want one naming the target", bodies)
	}
	for _, got := range mdtest.Exposed(bodies[0], "www.evil.example") {
		if !strings.HasPrefix(got, "<!-- skillsync:") { // the markers, which no one sees
			t.Errorf("GitLab would link the target's name in %q", got)
		}
	}
}

// TestDriftMergeRequestSaysMergeRequest: on GitLab the description and
// the log of drift --pr call the request a merge request, as GitLab
// does, never a pull request.
func TestDriftMergeRequestSaysMergeRequest(t *testing.T) {
	t.Parallel()
	e, dir, te, f := gitlabTargetOnMain(t, "prod")

	e.EditSkill(demoSpace, mustSkill(t, e, "code-review").ID, func(s *remotetest.SkillSeed) { s.Description = "Edited in the app." })
	code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--pr")
	if code != exitChanges {
		t.Fatalf("drift --pr: exit %d, want 2\n%s", code, stderr)
	}
	var bodies []string
	for _, mr := range f.MergeRequests() {
		if mr.SourceBranch != "" {
			bodies = append(bodies, mr.Description)
		}
	}
	if len(bodies) != 1 {
		t.Fatalf("merge requests %q, want one", bodies)
	}
	// What skillsync says before the report (whose skills may speak of
	// anything).
	intro, _, _ := strings.Cut(bodies[0], "<!-- skillsync:plan ")
	if !strings.Contains(intro, "**Merging** this merge request") || strings.Contains(intro, "pull request") {
		t.Errorf("the description calls the request otherwise than a merge request:\n%s", intro)
	}
	if !strings.Contains(stderr, "opened a drift merge request for target prod") || strings.Contains(stderr, "pull request") {
		t.Errorf("stderr does not say a drift merge request was opened, or speaks of a pull request:\n%s", stderr)
	}
}

// gitlabTargetOnMain sets up a GitLab pipeline on main of a repository
// whose one target, named target, is the demo space, applied and
// committed to main.
func gitlabTargetOnMain(t *testing.T, target string) (*remotetest.Emulator, string, testEnv, *gitlabtest.Server) {
	t.Helper()
	e, dir, te := ciSetup(t)
	delete(te, "SKILLSYNC_SPACE")
	cfgPath := filepath.Join(dir, "skillsync.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = []byte(strings.Replace(string(cfg), "space: demo", "targets:\n  "+target+": {space: demo}", 1))
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	syncDemo(t, dir, te)
	f := newFakeGitLab(t, te)
	delete(te, "CI_MERGE_REQUEST_IID")
	te["CI_COMMIT_BRANCH"] = "main"
	f.Git().CommitFiles("main", "the repository", repoFiles(t, dir))
	return e, dir, te, f
}
