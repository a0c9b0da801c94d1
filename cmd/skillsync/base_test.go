package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillsync/skillsync/remote"
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
func origins(t *testing.T, env testEnv, args ...string) (map[string]string, string) {
	t.Helper()
	code, stdout, stderr := runCLI(t, env, append([]string{"plan", "--format", "json"}, args...)...)
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
// gitInitMain makes dir a git repository whose branch is main.
func gitInitMain(t *testing.T, dir string) *git.Repository {
	t.Helper()
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName("main")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func basePRRepo(t *testing.T, dir string) *git.Repository {
	t.Helper()
	r := gitInitMain(t, dir)
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
	t.Parallel()
	e, dir, env := ciSetup(t)
	basePRRepo(t, dir)
	// Edited in the app: drift, whatever the pull request does.
	s, _ := e.SkillBySlug(demoSpace, "sql-style")
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Name = "SQL style, edited in the app" })
	// A field the pull request does not touch, of a skill it changes:
	// still the pull request's change, with that field named as drift.
	cr, _ := e.SkillBySlug(demoSpace, "code-review")
	e.EditSkill(demoSpace, cr.ID, func(sd *remotetest.SkillSeed) { sd.Name = "Code review, edited in the app" })

	got, stderr := origins(t, env, "--dir", dir, "--base", "main")
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

	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--base", "main")
	if code != 0 {
		t.Fatalf("plan --base: exit %d, stderr:\n%s", code, stderr)
	}
	pr := strings.Index(stdout, "Changes from this pull request")
	drift := strings.Index(stdout, "Drift: changed in the space since the base")
	if pr < 0 || drift < pr || !strings.Contains(stdout[pr:drift], "~ code-review") || strings.Contains(stdout[drift:], "~ code-review") {
		t.Errorf("the text plan does not show code-review under the pull request's changes, before the drift:\n%s", stdout)
	}
	if !strings.Contains(stdout[pr:drift], "      drift: name edited in the space, not by this pull request\n") {
		t.Errorf("the text plan does not say which field of code-review drifted:\n%s", stdout[pr:drift])
	}
	code, stdout, _ = runCLI(t, env, "plan", "--dir", dir, "--base", "main", "--format", "markdown")
	if code != 0 || !strings.Contains(stdout, "**Changes from this pull request**") || !strings.Contains(stdout, "**Drift: changed in the space since the base**") {
		t.Errorf("the markdown plan lacks the sections of the split (exit %d):\n%s", code, stdout)
	}
	if !strings.Contains(stdout, "| name (drift), description |") {
		t.Errorf("the markdown table does not mark code-review's name as drift:\n%s", stdout)
	}
	_, stdout, _ = runCLI(t, env, "plan", "--dir", dir, "--base", "main", "--format", "json")
	var p struct {
		Changes []struct {
			Slug        string   `json:"slug"`
			DriftFields []string `json:"drift_fields"`
		} `json:"changes"`
	}
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	for _, c := range p.Changes {
		if want := map[string]string{"code-review": "name"}[c.Slug]; strings.Join(c.DriftFields, ",") != want {
			t.Errorf("drift_fields of %s = %v, want %q", c.Slug, c.DriftFields, want)
		}
	}
}

// fetchShallow stands for a branch fetched at depth 1 into a shallow
// clone, as `git fetch --depth=1 origin main` leaves it: a commit under
// refs/remotes/origin/<branch> whose parent is not in the clone, listed in
// .git/shallow along with the commits in keep.
func fetchShallow(t *testing.T, r *git.Repository, branch string, keep ...plumbing.Hash) plumbing.Hash {
	t.Helper()
	head, err := r.Head()
	if err != nil {
		t.Fatal(err)
	}
	hc, err := r.CommitObject(head.Hash())
	if err != nil {
		t.Fatal(err)
	}
	sig := object.Signature{Name: "test", Email: "test@example.com", When: time.Date(2024, 2, 3, 4, 5, 6, 0, time.UTC)}
	c := &object.Commit{
		Author: sig, Committer: sig, Message: branch + " fetched at depth 1",
		TreeHash:     hc.TreeHash,
		ParentHashes: []plumbing.Hash{plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")},
	}
	obj := r.Storer.NewEncodedObject()
	if err := c.Encode(obj); err != nil {
		t.Fatal(err)
	}
	h, err := r.Storer.SetEncodedObject(obj)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", branch), h)); err != nil {
		t.Fatal(err)
	}
	if err := r.Storer.SetShallow(append([]plumbing.Hash{h}, keep...)); err != nil {
		t.Fatal(err)
	}
	return h
}

func TestPlanBaseFallsBackWithoutMergeBase(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	r := basePRRepo(t, dir)
	// A shallow clone holds the target branch, but not the merge base: it
	// falls back to HEAD^1, here the commit the branch started at.
	fetchShallow(t, r, "main")
	got, stderr := origins(t, env, "--dir", dir, "--base", "origin/main")
	for _, want := range []string{"warning: the merge base of origin/main and HEAD is not in this clone, which is shallow", "use actions/checkout with fetch-depth: 0", "HEAD^1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got["code-review"] != "pr" || got["release-notes"] != "drift" {
		t.Errorf("origins = %v, want code-review pr and release-notes drift", got)
	}
}

func TestPlanBaseFallsBackWithUnrelatedHistory(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	r := basePRRepo(t, dir)
	// A full clone where --base names a branch with no commit in common:
	// not a shallow clone, and not said to be.
	fetchShallow(t, r, "main")
	if err := r.Storer.SetShallow(nil); err != nil {
		t.Fatal(err)
	}
	_, stderr := origins(t, env, "--dir", dir, "--base", "origin/main")
	for _, want := range []string{"warning: origin/main and HEAD have no common history in this clone", "HEAD^1"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "shallow") {
		t.Errorf("stderr blames a shallow clone in a full one:\n%s", stderr)
	}
}

func TestPlanBaseFailsWithNoHistory(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	head := gitCommitAll(t, r, "skills")
	fetchShallow(t, r, "main", head)
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir, "--base", "origin/main")
	if code != 1 {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
	}
	for _, want := range []string{"not in this clone, which is shallow", "hint: ", "fetch-depth: 0"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
}

func TestPlanBaseUnknownRef(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		base string
		want []string
	}{
		// A typo: an error, not a plan against HEAD^1.
		{"mian", []string{"error: unknown ref mian", "hint: check the name", "fetch-depth: 0", "git fetch origin mian"}},
		// The target branch that the checkout did not fetch.
		{"origin/main", []string{"error: unknown ref origin/main", "fetch-depth: 0", "git fetch origin main"}},
	} {
		t.Run(tc.base, func(t *testing.T) {
			t.Parallel()
			_, dir, env := ciSetup(t)
			basePRRepo(t, dir)
			code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--base", tc.base)
			if code != 1 {
				t.Fatalf("exit %d, want 1; stderr:\n%s", code, stderr)
			}
			for _, want := range tc.want {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			for _, bad := range []string{"HEAD^1", "shallow"} {
				if strings.Contains(stderr, bad) {
					t.Errorf("stderr says %q:\n%s", bad, stderr)
				}
			}
			if strings.Contains(stdout, "Plan:") {
				t.Errorf("printed a plan:\n%s", stdout)
			}
		})
	}
}

// TestPlanBaseSplitsAgentPublishes: an agent the pull request adds to
// agents.publish is its change; one listed there at the base whose draft
// was edited in the app is drift. Every format says which.
func TestPlanBaseSplitsAgentPublishes(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	e.AddAgent(demoSpace, remote.Agent{ID: "11111111-1111-4111-8111-111111111111", Name: "Old bot", Published: true, HasUnpublishedChanges: true})
	e.AddAgent(demoSpace, remote.Agent{ID: "22222222-2222-4222-8222-222222222222", Name: "New bot"})
	cfg := filepath.Join(dir, "skillsync.yaml")
	appendFile := func(text string) {
		f, err := os.OpenFile(cfg, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	appendFile("agents:\n  publish:\n    - Old bot\n")
	r := gitInitMain(t, dir)
	gitCommitAll(t, r, "publish the old bot")
	gitCheckout(t, r, "feature", true)
	appendFile("    - 22222222-2222-4222-8222-222222222222\n")
	gitCommitAll(t, r, "publish the new bot too")

	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--base", "main", "--format", "json")
	if code != 0 {
		t.Fatalf("plan --base: exit %d, stderr:\n%s", code, stderr)
	}
	var p struct {
		Publish []struct {
			Name   string `json:"name"`
			Origin string `json:"origin"`
		} `json:"publish"`
	}
	if err := json.Unmarshal([]byte(stdout), &p); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, a := range p.Publish {
		got[a.Name] = a.Origin
	}
	if want := map[string]string{"Old bot": "drift", "New bot": "pr"}; !maps.Equal(got, want) {
		t.Errorf("origins of the publishes = %v, want %v", got, want)
	}
	for _, format := range []string{"text", "markdown"} {
		_, stdout, _ := runCLI(t, env, "plan", "--dir", dir, "--base", "main", "--format", format)
		for _, want := range []string{
			"New bot (`22222222-2222-4222-8222-222222222222`): never published (added to agents.publish by this pull request)",
			"Old bot (`11111111-1111-4111-8111-111111111111`): has unpublished changes (drift: listed in agents.publish at the base)",
		} {
			if format == "text" {
				want = strings.ReplaceAll(want, "`", "")
			}
			if !strings.Contains(stdout, want) {
				t.Errorf("%s plan lacks %q:\n%s", format, want, stdout)
			}
		}
	}
}
