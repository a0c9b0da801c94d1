package journal

import (
	"errors"
	"os"
	"os/exec"
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
			_, err := Open(TargetPath(root, time.Now(), ""))
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
	j, err := Open(path)
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

// TestOpenJournalIgnoredByGit: a journal holds every text apply replaced,
// so git must ignore it. A repository's own .skillsync/.gitignore that
// does not is kept, with a line that ignores the journal added; one that
// does is left as it is. git check-ignore is the judge.
func TestOpenJournalIgnoredByGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	tests := []struct {
		name      string
		gitignore string // "" for none
		journal   string // relative to .skillsync; "" for the default
		added     string // what is added to it; "" for nothing
	}{
		{name: "none", added: ""},
		{name: "one that ignores something else", gitignore: "cache/\n", added: "/journal/"},
		{name: "an empty one", gitignore: "\n", added: "/journal/"},
		{name: "one that takes the journals back", gitignore: "*\n!journal/\n!journal/*\n", added: "/journal/"},
		{name: "one without a final newline", gitignore: "notes.txt", added: "/journal/"},
		{name: "one that ignores all", gitignore: "*\n"},
		{name: "one that ignores the journal folder", gitignore: "journal/\n"},
		{name: "a journal of its own", gitignore: "journal/\n", journal: "mine.jsonl", added: "/mine.jsonl"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			gi := filepath.Join(root, StateDir, ".gitignore")
			if tt.gitignore != "" {
				mkdir(t, filepath.Join(root, StateDir))
				if err := os.WriteFile(gi, []byte(tt.gitignore), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			path := TargetPath(root, time.Now(), "")
			if tt.journal != "" {
				path = filepath.Join(root, StateDir, tt.journal)
			}
			j, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			j.Close()
			cmd := exec.Command("git", "check-ignore", "-q", path)
			cmd.Dir = root
			if err := cmd.Run(); err != nil {
				t.Errorf("git check-ignore %s: %v: the journal is not ignored", path, err)
			}
			data, err := os.ReadFile(gi)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.gitignore == "":
			case tt.added == "" && string(data) != tt.gitignore:
				t.Errorf(".gitignore = %q, want it left as %q", data, tt.gitignore)
			case tt.added != "" && (!strings.HasPrefix(string(data), tt.gitignore) || !strings.HasSuffix(string(data), "\n"+tt.added+"\n")):
				t.Errorf(".gitignore = %q, want %q kept and %q added", data, tt.gitignore, tt.added)
			}
		})
	}
}
