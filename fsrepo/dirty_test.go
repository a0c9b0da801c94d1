package fsrepo

import (
	"context"
	"github.com/skillsync/skillsync/fsrepo/config"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// committedRepo commits, in a new git repository, skills whose folders and
// files git orders otherwise than a plain sort of their names ("pdf" sorts
// as "pdf/", after "pdf.v2"), with executable files, symlinks, nested
// folders and a file beside the skill folders, and returns its root.
func committedRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	md := func(name string) string {
		return "---\nname: " + name + "\ndescription: Reads PDFs. Use when asked to.\n---\nBody.\n"
	}
	for rel, data := range map[string]string{
		config.FileName:           "space: ab12\n",
		"skills/README.md":        "The skills of the team.\n",
		"skills/pdf/SKILL.md":     md("pdf"),
		"skills/pdf/x-y.md":       "a\n",
		"skills/pdf/x.md":         "b\n",
		"skills/pdf/x/y.md":       "c\n",
		"skills/pdf/x0.md":        "d\n",
		"skills/pdf.v2/SKILL.md":  md("pdf.v2"),
		"skills/pdf-x/SKILL.md":   md("pdf-x"),
		"skills/pdf-x/a/b/c.md":   "deep\n",
		"skills/pdf/scripts/r.sh": "echo run\n",
	} {
		writeTest(t, root, rel, data)
	}
	if err := os.Chmod(filepath.Join(root, "skills/pdf/scripts/r.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"skills/pdf/link.md": "x.md", "skills/alias": "pdf"} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	gitInit(t, root)
	commitAll(t, root, "skills")
	return root
}

func writeTest(t *testing.T, root, rel, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadDirty(t *testing.T, root string) bool {
	t.Helper()
	repo, _, err := Load(context.Background(), root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if repo.Commit == "" {
		t.Fatal("no commit in a git repository")
	}
	return repo.Dirty
}

// TestDirtyCleanReadsNoTree: a working tree as committed is clean without
// a tree of its skills folder read from git: its id, computed from the
// files, is HEAD's. The tree is deleted, so that reading it fails.
func TestDirtyCleanReadsNoTree(t *testing.T) {
	root := committedRepo(t)
	id := strings.TrimSpace(gitOutput(t, root, "rev-parse", "HEAD:skills"))
	if err := os.Remove(filepath.Join(root, ".git", "objects", id[:2], id[2:])); err != nil {
		t.Fatal(err) // git commit writes each object in a file of its own
	}
	if loadDirty(t, root) {
		t.Error("a working tree as committed is dirty")
	}
}

// TestDirtyCleanClone: the working tree of a clone, written by git's
// checkout from a pack, is clean.
func TestDirtyCleanClone(t *testing.T) {
	clone := filepath.Join(t.TempDir(), "clone")
	gitRun(t, committedRepo(t), "clone", "-q", "--no-local", ".", clone)
	if loadDirty(t, clone) {
		t.Error("a fresh clone is dirty")
	}
}

// TestDirtyEdits: every change of what the loader reads makes the working
// tree dirty, even one that keeps a file's size and modification time, or
// that git's index would take for unchanged as it happened in the second
// the index was written (racy git); what the loader does not read does not.
func TestDirtyEdits(t *testing.T) {
	root := committedRepo(t)
	x := filepath.Join(root, "skills/pdf/x.md")
	before, err := os.Stat(x)
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.Stat(filepath.Join(root, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	sameSizeEdit := func(mtime time.Time) func() {
		return func() {
			writeTest(t, root, "skills/pdf/x.md", "B\n")
			if err := os.Chtimes(x, mtime, mtime); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range []struct {
		name  string
		edit  func()
		dirty bool
	}{
		{"as committed", func() {}, false},
		{"same size and time", sameSizeEdit(before.ModTime()), true},
		{"same size, time of the index", sameSizeEdit(index.ModTime()), true},
		{"same size, a second later", sameSizeEdit(before.ModTime().Add(time.Second)), true},
		{"back as committed, time changed", func() {
			writeTest(t, root, "skills/pdf/x.md", "b\n")
			if err := os.Chtimes(x, index.ModTime(), index.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"deep file", func() { writeTest(t, root, "skills/pdf-x/a/b/c.md", "Deep\n") }, true},
		{"file beside the skills", func() { writeTest(t, root, "skills/README.md", "Edited.\n") }, true},
		{"new file", func() { writeTest(t, root, "skills/pdf/new.md", "") }, true},
		{"new skill", func() { writeTest(t, root, "skills/new/SKILL.md", "x") }, true},
		{"file removed", func() { remove(t, root, "skills/pdf/x0.md") }, true},
		{"symlink retargeted", func() { relink(t, root, "skills/pdf/link.md", "x0.md") }, true},
		{"folder symlink retargeted", func() { relink(t, root, "skills/alias", "pdf.v2") }, true},
		{"SKILL.md too large to read", func() {
			writeTest(t, root, "skills/pdf.v2/SKILL.md", strings.Repeat("x", MaxSkillMDBytes+1))
		}, true},
		{"new skill too large to read", func() {
			writeTest(t, root, "skills/big/SKILL.md", strings.Repeat("x", MaxSkillMDBytes+1))
		}, true},
		{"mode only", func() {
			if err := os.Chmod(x, 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"empty folder", func() {
			if err := os.MkdirAll(filepath.Join(root, "skills/pdf/empty/er"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"left by the system", func() { writeTest(t, root, "skills/pdf/x/.DS_Store", "junk") }, false},
		{"hidden beside the skills", func() { writeTest(t, root, "skills/.cache", "junk") }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			gitRun(t, root, "reset", "-q", "--hard")
			gitRun(t, root, "clean", "-q", "-f", "-d", "-x")
			if err := os.Chmod(x, before.Mode()); err != nil { // git reset keeps modes
				t.Fatal(err)
			}
			tc.edit()
			if got := loadDirty(t, root); got != tc.dirty {
				t.Errorf("Dirty = %t, want %t", got, tc.dirty)
			}
		})
	}
}

// TestDirtyCommittedLeftOut: files of HEAD that the loader leaves out (a
// committed .DS_Store, a hidden folder beside the skills) make no
// difference.
func TestDirtyCommittedLeftOut(t *testing.T) {
	root := committedRepo(t)
	writeTest(t, root, "skills/pdf/.DS_Store", "junk")
	writeTest(t, root, "skills/.github/notes.md", "hidden\n")
	commitAll(t, root, "junk")
	if loadDirty(t, root) {
		t.Error("files the loader leaves out make the working tree dirty")
	}
	remove(t, root, "skills/pdf/.DS_Store")
	if loadDirty(t, root) {
		t.Error("removing a file the loader leaves out makes the working tree dirty")
	}
	writeTest(t, root, "skills/pdf/x.md", "B\n")
	if !loadDirty(t, root) {
		t.Error("an edit is not seen beside files the loader leaves out")
	}
}

func remove(t *testing.T, root, rel string) {
	t.Helper()
	if err := os.Remove(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}

func relink(t *testing.T, root, rel, target string) {
	t.Helper()
	remove(t, root, rel)
	if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(rel))); err != nil {
		t.Fatal(err)
	}
}
