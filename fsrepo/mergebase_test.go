package fsrepo

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
)

// branchedRepo makes a repository whose main and feature branches part at
// commit A: main goes on to C, feature to B. It returns the SHAs of A, B
// and C.
func branchedRepo(t *testing.T, dir string) (a, b, c string) {
	t.Helper()
	gitInit(t, dir)
	commit := func(file string) string {
		writeTestFile(t, filepath.Join(dir, file), file+"\n")
		commitAll(t, dir, file)
		return strings.TrimSpace(gitOutput(t, dir, "rev-parse", "HEAD"))
	}
	a = commit("a")
	gitRun(t, dir, "checkout", "-q", "-b", "feature")
	b = commit("b")
	gitRun(t, dir, "checkout", "-q", "main")
	c = commit("c")
	gitRun(t, dir, "checkout", "-q", "feature")
	return a, b, c
}

func TestMergeBase(t *testing.T) {
	root := t.TempDir()
	a, b, c := branchedRepo(t, root)
	sub := filepath.Join(root, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{root, sub} { // found from a folder inside too
		if got, err := MergeBase(dir, "main", "HEAD"); err != nil || got != a {
			t.Errorf("MergeBase(%s, main, HEAD) = %s, %v; want %s", dir, got, err, a)
		}
	}
	if got, err := MergeBase(root, c, b); err != nil || got != a {
		t.Errorf("MergeBase(C, B) = %s, %v; want %s", got, err, a)
	}
	if got, err := FirstParent(root, "HEAD"); err != nil || got != a {
		t.Errorf("FirstParent(HEAD) = %s, %v; want %s", got, err, a)
	}
	if _, err := FirstParent(root, a); err == nil {
		t.Error("FirstParent of a root commit: no error")
	}
}

func TestMergeBaseErrors(t *testing.T) {
	root := t.TempDir()
	branchedRepo(t, root)

	t.Run("not a repository", func(t *testing.T) {
		_, err := MergeBase(t.TempDir(), "main", "HEAD")
		var nr *NotRepoError
		if !errors.As(err, &nr) || !errors.Is(err, git.ErrRepositoryNotExists) {
			t.Errorf("MergeBase outside git: %v, want a NotRepoError", err)
		}
	})
	t.Run("unknown ref", func(t *testing.T) {
		for _, args := range [][2]string{{"mian", "HEAD"}, {"main", "origin/feature"}} {
			_, err := MergeBase(root, args[0], args[1])
			var ur *UnknownRefError
			if !errors.As(err, &ur) || err.Error() != "unknown ref "+ur.Ref || (ur.Ref != "mian" && ur.Ref != "origin/feature") {
				t.Errorf("MergeBase(%s, %s): %v, want an UnknownRefError naming the bad one", args[0], args[1], err)
			}
		}
	})
	t.Run("shallow clone", func(t *testing.T) {
		clone := t.TempDir()
		gitRun(t, clone, "clone", "-q", "--depth", "1", "--no-single-branch", "file://"+filepath.ToSlash(root), ".")
		_, err := MergeBase(clone, "origin/main", "HEAD")
		var nb *NoMergeBaseError
		if !errors.As(err, &nb) || !nb.Shallow || !strings.HasPrefix(err.Error(), "the merge base of origin/main and HEAD is not in this clone, which is shallow") ||
			!strings.Contains(nb.Advice(), "fetch-depth: 0") {
			t.Errorf("MergeBase in a shallow clone: %v", err)
		}
		if p, err := FirstParent(clone, "HEAD"); err == nil {
			t.Errorf("FirstParent beyond a shallow clone's edge = %s, want an error", p)
		}
	})
	t.Run("unrelated histories", func(t *testing.T) {
		gitRun(t, root, "checkout", "-q", "--orphan", "other")
		commitAll(t, root, "other")
		_, err := MergeBase(root, "main", "other")
		var nb *NoMergeBaseError
		if !errors.As(err, &nb) || nb.Shallow || err.Error() != "main and other have no common history in this clone" ||
			nb.Advice() != "pass as --base the branch this one was made from" {
			t.Errorf("MergeBase of unrelated branches: %v", err)
		}
	})
}
