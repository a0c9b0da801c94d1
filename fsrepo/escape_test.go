package fsrepo

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

// The secret is the content of files outside the repository: whatever a
// repository holds, Load must never read it, so it must never show up in
// a skill, a file or a diagnostic.
const outsideSecret = "OUTSIDE-SECRET-do-not-read"

// escapeFixture is a repository at root with a valid skill, and beside it a
// folder the repository must never read: it holds a valid skill folder and
// a SKILL.md, both with the secret.
type escapeFixture struct {
	root, outside string
}

func newEscapeFixture(t *testing.T, cfg string) *escapeFixture {
	t.Helper()
	base := t.TempDir()
	f := &escapeFixture{root: filepath.Join(base, "repo"), outside: filepath.Join(base, "elsewhere")}
	md := func(name string) string {
		return fmt.Sprintf("---\nname: %s\ndescription: %s\n---\n%s\n", name, outsideSecret, outsideSecret)
	}
	writeAll(t, f.outside, map[string]string{
		"SKILL.md":             md("Outside"),
		"stolen/SKILL.md":      md("Stolen"),
		"stolen/notes.md":      outsideSecret,
		"skills/ext/SKILL.md":  md("Ext"),
		"skills/ext/secret.md": outsideSecret,
	})
	writeAll(t, f.root, map[string]string{
		config.FileName:        cfg,
		"skills/ok/SKILL.md":   "---\nname: OK\ndescription: Fine.\n---\nBody.\n",
		"other/plain/SKILL.md": "---\nname: Plain\ndescription: Fine.\n---\nBody.\n",
	})
	return f
}

func writeAll(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func linkOut(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// noSecret fails if anything Load returned holds the secret.
func noSecret(t *testing.T, repo *Repo, ds diag.Diagnostics, err error) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%v\n", err)
	for _, d := range ds {
		fmt.Fprintf(&b, "%s %s\n", d, d.Hint)
	}
	if repo != nil {
		for _, s := range repo.Skills {
			fmt.Fprintf(&b, "%s %s %s %s\n", s.Slug, s.Name, s.Description, s.Instructions)
			for _, f := range s.Files {
				fmt.Fprintf(&b, "%s %s\n", f.Path, f.Content)
			}
		}
	}
	if strings.Contains(b.String(), outsideSecret) {
		t.Fatalf("Load read a file outside the repository:\n%s", b.String())
	}
}

func hasError(ds diag.Diagnostics, substr string) bool {
	for _, d := range ds {
		if d.Severity == diag.SeverityError && strings.Contains(d.Message, substr) {
			return true
		}
	}
	return false
}

func TestLoadNeverLeavesTheRepository(t *testing.T) {
	const cfg = "space: ab12\n"
	t.Run("symlinked skill folder", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		linkOut(t, filepath.Join(f.outside, "stolen"), filepath.Join(f.root, "skills", "stolen"))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err != nil || !hasError(ds, `skill folder "stolen" is a symlink`) {
			t.Fatalf("err = %v, diagnostics:\n%s", err, ds)
		}
	})
	t.Run("symlinked folder by a relative path", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		linkOut(t, "../../elsewhere/stolen", filepath.Join(f.root, "skills", "stolen"))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err != nil || !hasError(ds, `is a symlink`) {
			t.Fatalf("err = %v, diagnostics:\n%s", err, ds)
		}
	})
	t.Run("symlinked SKILL.md", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		os.Remove(filepath.Join(f.root, "skills", "ok", skillmd.FileName))
		linkOut(t, filepath.Join(f.outside, skillmd.FileName), filepath.Join(f.root, "skills", "ok", skillmd.FileName))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err != nil || !hasError(ds, "outside the skill folder") {
			t.Fatalf("err = %v, diagnostics:\n%s", err, ds)
		}
	})
	t.Run("SKILL.md linked through ..", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		os.Remove(filepath.Join(f.root, "skills", "ok", skillmd.FileName))
		linkOut(t, "../../../elsewhere/SKILL.md", filepath.Join(f.root, "skills", "ok", skillmd.FileName))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err != nil || !hasError(ds, "outside the skill folder") {
			t.Fatalf("err = %v, diagnostics:\n%s", err, ds)
		}
	})
	t.Run("symlinked skills folder", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		os.RemoveAll(filepath.Join(f.root, "skills"))
		linkOut(t, filepath.Join(f.outside, "skills"), filepath.Join(f.root, "skills"))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err == nil && !hasError(ds, "symlink") {
			t.Fatalf("a symlinked skills folder was read; diagnostics:\n%s", ds)
		}
	})
	t.Run("skills folder under a symlinked folder", func(t *testing.T) {
		f := newEscapeFixture(t, "space: ab12\nskillsDir: via/skills\n")
		linkOut(t, f.outside, filepath.Join(f.root, "via"))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err == nil && !hasError(ds, "symlink") {
			t.Fatalf("a skills folder under a symlink was read; diagnostics:\n%s", ds)
		}
	})
	t.Run("symlinked skillsync.yaml", func(t *testing.T) {
		f := newEscapeFixture(t, cfg)
		writeAll(t, f.outside, map[string]string{"evil.yaml": "space: ab12\nbaseURL: https://" + outsideSecret + ".example.com\n"})
		os.Remove(filepath.Join(f.root, config.FileName))
		linkOut(t, filepath.Join(f.outside, "evil.yaml"), filepath.Join(f.root, config.FileName))
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		if err == nil {
			t.Fatalf("a skillsync.yaml linked outside the repository was read: baseURL %q", repo.Config.BaseURL)
		}
		noSecret(t, repo, ds, err)
	})
	for _, dir := range []string{"../elsewhere/skills", "..", "skills/../../elsewhere/skills", "/abs/skills", "C:\\skills", `..\elsewhere`} {
		t.Run("skillsDir "+dir, func(t *testing.T) {
			f := newEscapeFixture(t, fmt.Sprintf("space: ab12\nskillsDir: %q\n", dir))
			if dir == "/abs/skills" {
				// An absolute path that exists and holds a skill.
				f = newEscapeFixture(t, fmt.Sprintf("space: ab12\nskillsDir: %q\n", filepath.ToSlash(filepath.Join(filepath.Dir(t.TempDir()), "x"))))
			}
			repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
			noSecret(t, repo, ds, err)
			if err == nil || !strings.Contains(err.Error(), "skillsDir") || !strings.Contains(err.Error(), "inside the repository") {
				t.Fatalf("err = %v, want a config error naming skillsDir", err)
			}
		})
	}
	t.Run("absolute skillsDir pointing at a real skills folder", func(t *testing.T) {
		base := t.TempDir()
		outside := filepath.Join(base, "elsewhere")
		f := newEscapeFixture(t, "")
		writeAll(t, outside, map[string]string{"s/SKILL.md": "---\nname: S\ndescription: " + outsideSecret + "\n---\n"})
		writeAll(t, f.root, map[string]string{config.FileName: fmt.Sprintf("space: ab12\nskillsDir: %q\n", filepath.ToSlash(outside))})
		repo, ds, err := Load(context.Background(), f.root, LoadOptions{})
		noSecret(t, repo, ds, err)
		if err == nil {
			t.Fatal("an absolute skillsDir was accepted")
		}
	})
}
