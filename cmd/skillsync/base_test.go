package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillsync/skillsync/remote/remotetest"
)

// gitCommitAll commits the whole worktree of r.
func gitCommitAll(t *testing.T, r *git.Repository, msg string) plumbing.Hash {
	t.Helper()
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("."); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func gitCheckout(t *testing.T, r *git.Repository, branch string, create bool) {
	t.Helper()
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: create}); err != nil {
		t.Fatal(err)
	}
}

// replaceInFile replaces old with new in the file at path, which must hold old.
func replaceInFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// origins plans with args in JSON and returns the origin of each change.
func origins(t *testing.T, args ...string) (map[string]string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, append([]string{"plan", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("plan %v: exit %d, stderr:\n%s", args, code, stderr)
	}
	var p struct {
		Changes []struct{ Slug, Origin string }
	}
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, c := range p.Changes {
		got[c.Slug] = c.Origin
	}
	return got, stderr
}

// basePRRepo builds the history of a pull request: the demo repository
// committed on main; a branch "feature" changing code-review's
// description; main moving on after the branch, changing release-notes;
// and HEAD on feature.
func basePRRepo(t *testing.T, dir string) *git.Repository {
	t.Helper()
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, r, "skills")
	gitCheckout(t, r, "feature", true)
	replaceInFile(t, filepath.Join(dir, "skills", "code-review", "SKILL.md"), "description: Reviews", "description: Reviews carefully")
	gitCommitAll(t, r, "review carefully")
	gitCheckout(t, r, "main", false)
	replaceInFile(t, filepath.Join(dir, "skills", "release-notes", "SKILL.md"), "description: ", "description: Since main moved on. ")
	gitCommitAll(t, r, "main moves on")
	gitCheckout(t, r, "feature", false)
	return r
}

func TestPlanBaseSplitsPRFromDrift(t *testing.T) {
	e, dir := ciSetup(t)
	basePRRepo(t, dir)
	// Edited in the app: drift, whatever the pull request does.
	s, _ := e.SkillBySlug(demoSpace, "sql-style")
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Name = "SQL style, edited in the app" })

	got, stderr := origins(t, "--dir", dir, "--base", "main")
	want := map[string]string{
		"code-review":         "pr",    // changed by the pull request
		"release-notes":       "drift", // differs at the merge base already; main's later edit is not the pull request's
		"sql-style":           "drift",
		"incident-postmortem": "drift",
	}
	for slug, o := range want {
		if got[slug] != o {
			t.Errorf("origin of %s = %q, want %q (all: %v)", slug, got[slug], o, got)
		}
	}
	if strings.Contains(stderr, "warning") {
		t.Errorf("unexpected warning:\n%s", stderr)
	}

	code, stdout, stderr := runCLI(t, "plan", "--dir", dir, "--base", "main")
	if code != 0 {
		t.Fatalf("plan --base: exit %d, stderr:\n%s", code, stderr)
	}
	pr := strings.Index(stdout, "Changes from this pull request")
	drift := strings.Index(stdout, "Drift: changed in the space since the base")
	if pr < 0 || drift < pr || !strings.Contains(stdout[pr:drift], "~ code-review") || strings.Contains(stdout[drift:], "~ code-review") {
		t.Errorf("the text plan does not show code-review under the pull request's changes, before the drift:\n%s", stdout)
	}
	code, stdout, _ = runCLI(t, "plan", "--dir", dir, "--base", "main", "--format", "markdown")
	if code != 0 || !strings.Contains(stdout, "**Changes from this pull request**") || !strings.Contains(stdout, "**Drift: changed in the space since the base**") {
		t.Errorf("the markdown plan lacks the sections of the split (exit %d):\n%s", code, stdout)
	}
}

func TestPlanBaseFallsBackWithoutMergeBase(t *testing.T) {
	_, dir := ciSetup(t)
	basePRRepo(t, dir)
	// A clone that lacks the base (shallow, or the target branch not
	// fetched) falls back to HEAD^1, here the commit the branch started at.
	got, stderr := origins(t, "--dir", dir, "--base", "origin/main")
	for _, want := range []string{"warning: the merge base of origin/main and HEAD is not in this clone (shallow?): use actions/checkout with fetch-depth: 0", "HEAD^1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got["code-review"] != "pr" || got["release-notes"] != "drift" {
		t.Errorf("origins = %v, want code-review pr and release-notes drift", got)
	}
}

func TestPlanBaseFailsWithNoHistory(t *testing.T) {
	_, dir := ciSetup(t)
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	gitCommitAll(t, r, "skills")
	code, _, stderr := runCLI(t, "plan", "--dir", dir, "--base", "origin/main")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"not in this clone (shallow?)", "fetch-depth: 0"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}
