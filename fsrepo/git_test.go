package fsrepo

import (
	"context"
	"errors"
	"github.com/skillsync/skillsync/fsrepo/config"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// copyTree copies a folder, keeping symlinks as symlinks.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		switch {
		case de.IsDir():
			return os.MkdirAll(to, 0o755)
		case de.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		default:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
}

// gitRun runs the git command: go-git's worktree.Add rewrites absolute
// symlink targets, so commits are made as users make them.
func gitRun(t testing.TB, dir string, args ...string) {
	t.Helper()
	gitOutput(t, dir, args...)
}

// gitOutput runs the git command and returns its standard output.
func gitOutput(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	// A git that waits for input (a credential helper, an editor) fails
	// the test instead of hanging the suite; a benchmark's repository of
	// thousands of files may take longer to commit.
	timeout := time.Minute
	if _, ok := t.(*testing.B); ok {
		timeout = 10 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Stdin = nil
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_AUTHOR_DATE=2023-11-14T22:13:20Z",
		"GIT_COMMITTER_NAME=test", "GIT_COMMITTER_EMAIL=test@example.com", "GIT_COMMITTER_DATE=2023-11-14T22:13:20Z")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return string(out)
}

func gitInit(t *testing.T, dir string) {
	gitRun(t, dir, "init", "-q", "-b", "main")
}

func commitAll(t *testing.T, dir, msg string) {
	gitRun(t, dir, "add", "-A")
	gitRun(t, dir, "commit", "-q", "--allow-empty", "-m", msg)
}

// TestLoadRevisionMatchesWorkTree commits every case of testdata/skillmd
// and checks that loading the commit gives what loading the working tree
// gives. Half the cases sit in a subfolder of the git repository, as in a
// monorepo.
func TestLoadRevisionMatchesWorkTree(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/skillmd/*")
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		i++
		sub := i%2 == 0
		t.Run(filepath.Base(dir), func(t *testing.T) {
			top := t.TempDir()
			root := top
			if sub {
				root = filepath.Join(top, "infra", "skills-repo")
			}
			copyTree(t, dir, root)
			if _, err := os.Stat(filepath.Join(root, config.FileName)); err != nil {
				if err := os.WriteFile(filepath.Join(root, config.FileName), []byte("space: ab12\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			gitInit(t, top)
			commitAll(t, top, "add case")
			ctx := context.Background()
			work, wds, err := Load(ctx, root, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			rev, rds, err := Load(ctx, root, LoadOptions{Ref: "HEAD"})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(work.Skills, rev.Skills) {
				t.Errorf("skills differ:\nwork tree: %+v\nrevision:  %+v", work.Skills, rev.Skills)
			}
			if !reflect.DeepEqual(wds, rds) {
				t.Errorf("diagnostics differ:\nwork tree: %v\nrevision:  %v", wds, rds)
			}
			if work.Commit == "" || work.Commit != rev.Commit {
				t.Errorf("commits: work tree %q, revision %q", work.Commit, rev.Commit)
			}
			if work.Dirty {
				t.Error("freshly committed work tree is dirty")
			}
		})
	}
}

func TestDirtyAndHistory(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	copyTree(t, "../testdata/skillmd/valid-minimal", root)
	write := func(rel, s string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(config.FileName, "space: ab12\n")

	// Outside git: the working tree loads, a revision does not.
	repo, _, err := Load(ctx, root, LoadOptions{})
	if err != nil || repo.Commit != "" || repo.Dirty {
		t.Fatalf("outside git: %+v, %v", repo, err)
	}
	if _, _, err := Load(ctx, root, LoadOptions{Ref: "main"}); !errors.Is(err, ErrNotGit) {
		t.Fatalf("revision outside git: %v", err)
	}

	gitInit(t, root)
	dirty := func(want bool) {
		t.Helper()
		repo, _, err := Load(ctx, root, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if repo.Dirty != want {
			t.Errorf("Dirty = %t, want %t", repo.Dirty, want)
		}
	}
	dirty(true) // nothing committed yet
	commitAll(t, root, "first")
	dirty(false)

	md := "skills/pdf-processing/SKILL.md"
	write(md, "---\nname: PDF Processing\ndescription: Second version.\n---\nBody.\n")
	dirty(true)
	commitAll(t, root, "second")
	dirty(false)
	write("skills/pdf-processing/notes.md", "new\n")
	dirty(true)
	if err := os.Remove(filepath.Join(root, "skills/pdf-processing/notes.md")); err != nil {
		t.Fatal(err)
	}
	dirty(false)
	write("skills/pdf-processing/.DS_Store", "junk") // never part of a skill
	dirty(false)
	write("README.md", "outside the skills folder\n")
	dirty(false)
	if err := os.Remove(filepath.Join(root, md)); err != nil {
		t.Fatal(err)
	}
	dirty(true)

	prev, _, err := Load(ctx, root, LoadOptions{Ref: "HEAD~1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(prev.Skills) != 1 || !strings.HasPrefix(prev.Skills[0].Description, "Extract text") {
		t.Errorf("HEAD~1: %+v", prev.Skills)
	}
	// A name that resolves to nothing, and one past the first commit
	// (go-git says only "EOF"), are the same clear error.
	for _, ref := range []string{"no-such-branch", "HEAD~9"} {
		_, _, err := Load(ctx, root, LoadOptions{Ref: ref})
		if !errors.Is(err, ErrUnknownRevision) || !strings.Contains(err.Error(), `revision "`+ref+`": no such branch, tag or commit`) {
			t.Errorf("Ref %s: %v", ref, err)
		}
	}
}

// TestLoadLinkedWorktree loads from a linked worktree (git worktree add),
// whose .git is a file pointing into the main repository's common dir.
func TestLoadLinkedWorktree(t *testing.T) {
	ctx := context.Background()
	top := t.TempDir()
	main := filepath.Join(top, "main")
	copyTree(t, "../testdata/skillmd/valid-extra-keys", main)
	if err := os.WriteFile(filepath.Join(main, config.FileName), []byte("space: ab12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitInit(t, main)
	commitAll(t, main, "first")
	linked := filepath.Join(top, "linked")
	gitRun(t, main, "worktree", "add", "-q", "-b", "feature", linked)

	work, _, err := Load(ctx, linked, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rev, _, err := Load(ctx, linked, LoadOptions{Ref: "main"})
	if err != nil {
		t.Fatal(err)
	}
	if work.Commit == "" || work.Commit != rev.Commit || work.Dirty {
		t.Errorf("linked worktree: commit %q dirty %t; main is %q", work.Commit, work.Dirty, rev.Commit)
	}
	if !reflect.DeepEqual(work.Skills, rev.Skills) || len(work.Skills) != 1 {
		t.Errorf("skills differ: %+v\n%+v", work.Skills, rev.Skills)
	}
}

// TestLoadClosesGitFiles: the files of git's packs, kept open while a
// revision or the dirty check reads them, are closed when Load returns.
func TestLoadClosesGitFiles(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to list open files")
	}
	clone := filepath.Join(t.TempDir(), "clone")
	gitRun(t, committedRepo(t), "clone", "-q", "--no-local", ".", clone)
	writeTest(t, clone, "skills/pdf/x.md", "B\n") // dirty: HEAD's trees are read
	for _, ref := range []string{"", "HEAD"} {
		repo, _, err := Load(context.Background(), clone, LoadOptions{Ref: ref})
		if err != nil {
			t.Fatal(err)
		}
		if len(repo.Skills) == 0 || repo.Dirty != (ref == "") {
			t.Fatalf("ref %q: %d skills, dirty %t", ref, len(repo.Skills), repo.Dirty)
		}
		fds, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range fds {
			name, _ := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
			if strings.HasPrefix(name, filepath.Join(clone, ".git")) {
				t.Errorf("ref %q: %s is still open after Load", ref, name)
			}
		}
	}
}
