package reconcile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOpenJournalRefusesLinkedStateDir: a .skillsync folder, or a folder
// below it, that is a symbolic link (committed to the repository, say) is
// refused before anything is written: wherever it points, in the
// repository or out of it, the journal and the .gitignore would land there.
func TestOpenJournalRefusesLinkedStateDir(t *testing.T) {
	tests := []struct {
		name string
		// setup makes the repository root's state folder; it returns the
		// path OpenJournal must name, and a folder that must stay empty.
		setup func(t *testing.T, root string) (link, target string)
	}{
		{".skillsync links out of the repository", func(t *testing.T, root string) (string, string) {
			out := t.TempDir()
			symlink(t, out, filepath.Join(root, StateDir))
			return filepath.Join(root, StateDir), out
		}},
		{".skillsync links inside the repository", func(t *testing.T, root string) (string, string) {
			in := filepath.Join(root, "docs")
			mkdir(t, in)
			symlink(t, in, filepath.Join(root, StateDir))
			return filepath.Join(root, StateDir), in
		}},
		{".skillsync/journal is a link", func(t *testing.T, root string) (string, string) {
			out := t.TempDir()
			mkdir(t, filepath.Join(root, StateDir))
			symlink(t, out, filepath.Join(root, StateDir, "journal"))
			return filepath.Join(root, StateDir, "journal"), out
		}},
		{".skillsync/.gitignore is a dangling link", func(t *testing.T, root string) (string, string) {
			out := t.TempDir()
			mkdir(t, filepath.Join(root, StateDir))
			symlink(t, filepath.Join(out, "profile"), filepath.Join(root, StateDir, ".gitignore"))
			return filepath.Join(root, StateDir, ".gitignore"), out
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			link, target := tt.setup(t, root)
			_, err := OpenJournal(DefaultJournalPath(root, time.Now()))
			if !errors.Is(err, ErrStateDirLink) || !strings.Contains(err.Error(), link) {
				t.Fatalf("OpenJournal = %v, want ErrStateDirLink naming %s", err, link)
			}
			if es, err := os.ReadDir(target); err != nil || len(es) != 0 {
				t.Errorf("%s after a refused journal: %v, %v; want it untouched", target, es, err)
			}
		})
	}
}

// TestOpenJournalOutsideLinkedStateDir: a journal named outside the
// repository is written there, whatever the repository's .skillsync is,
// and nothing is written under it.
func TestOpenJournalOutsideLinkedStateDir(t *testing.T) {
	root, out := t.TempDir(), t.TempDir()
	symlink(t, out, filepath.Join(root, StateDir))
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	if es, err := os.ReadDir(out); err != nil || len(es) != 0 {
		t.Errorf("%s: %v, %v; want it untouched", out, es, err)
	}
}

func symlink(t *testing.T, oldname, newname string) {
	t.Helper()
	if err := os.Symlink(oldname, newname); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}
