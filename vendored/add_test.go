package vendored

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
)

func TestAddFromLocalRepository(t *testing.T) {
	up := pdfUpstream(t)
	root := newRoot(t)
	ctx := context.Background()
	added, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"SKILL.md", "forms.md", "scripts/fill.py"}; !reflect.DeepEqual(added.Files, want) {
		t.Errorf("files %q, want %q", added.Files, want)
	}
	if added.Diagnostics.HasErrors() {
		t.Errorf("diagnostics: %v", added.Diagnostics)
	}
	dir := filepath.Join(root, "skills", "pdf")
	if got := readFile(t, filepath.Join(dir, "SKILL.md")); got != pdfSkill {
		t.Errorf("SKILL.md = %q", got)
	}
	if fi, err := os.Stat(filepath.Join(dir, "scripts", "fill.py")); err != nil || fi.Mode().Perm()&0o100 == 0 {
		t.Errorf("the script is not executable: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "forms.md")); fi.Mode().Perm() != 0o644 {
		t.Errorf("forms.md mode %v", fi.Mode())
	}
	l := lockOf(t, root)
	e, ok := l.Entry("pdf")
	if !ok || e.Source != filepath.ToSlash(up.dir) || e.Path != "skills/pdf" || e.Ref != "" || e.Commit != up.head() {
		t.Fatalf("lock entry %+v (commit %s)", e, up.head())
	}
	files := map[string][]byte{}
	for _, p := range added.Files {
		files[p] = []byte(readFile(t, filepath.Join(dir, filepath.FromSlash(p))))
	}
	if e.Hash != fsrepo.HashFiles(files, nil) {
		t.Errorf("lock hash %s, the folder's %s", e.Hash, fsrepo.HashFiles(files, nil))
	}
	if ds := vendoredDiagnostics(t, root); len(ds) > 0 {
		t.Errorf("validate reports a folder just vendored: %v", ds)
	}

	// Once vendored, it is update's, and the folder is kept.
	before := snapshot(t, root)
	_, err = Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf"})
	if err == nil || !strings.Contains(err.Error(), "already vendored") || !strings.Contains(err.Error(), "vendor update pdf") {
		t.Errorf("second add: %v", err)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Error("a second add of a vendored skill wrote files")
	}
	// A folder of that name that is not vendored is kept too.
	_, err = Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/docx", As: "pdf-2"})
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, "skills", "mine", "SKILL.md"), "local")
	before = snapshot(t, root)
	_, err = Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/docx", As: "mine"})
	if err == nil || !strings.Contains(err.Error(), "skills/mine already exists") {
		t.Errorf("add over a local folder: %v", err)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Error("a refused add wrote files")
	}
}

func TestAddRelativeSourceIsRelativeToTheRoot(t *testing.T) {
	base := t.TempDir()
	up := pdfUpstream(t)
	upDir := filepath.Join(base, "upstream")
	if err := os.Rename(up.dir, upDir); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "team", "skills-repo")
	if err := os.MkdirAll(filepath.Join(root, "skills"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(root, config.FileName), "space: ab12\n")
	// Run from the skills folder: the path given counts from there, the
	// lock's from the root.
	t.Chdir(filepath.Join(root, "skills"))
	_, err := Add(context.Background(), root, AddOptions{Source: "../../../upstream/skills/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	e, _ := lockOf(t, root).Entry("pdf")
	if e.Source != "../../upstream" || e.Path != "skills/pdf" {
		t.Fatalf("lock entry %+v: want the repository, relative to the root, and the folder in it", e)
	}
	// Outdated finds it again from the lock.
	rep, err := Outdated(context.Background(), root, OutdatedOptions{})
	if err != nil || rep.Skills[0].State != StateCurrent {
		t.Fatalf("outdated: %+v, %v", rep, err)
	}
}

func TestAddChoosesTheFolder(t *testing.T) {
	ctx := context.Background()
	t.Run("several skills and no --path", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir})
		if err == nil || !strings.Contains(err.Error(), "holds 2 skills; choose one with --path:\n  skills/docx\n  skills/pdf") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a folder above skills", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/"})
		if err == nil || !strings.Contains(err.Error(), "holds 2 skills below it") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("no such folder", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/nope"})
		if !errors.Is(err, ErrNoFolder) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("a file, not a folder", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf/SKILL.md"})
		if !errors.Is(err, ErrNoFolder) || !strings.Contains(err.Error(), "skills/pdf/SKILL.md is a file: give the skill's folder, skills/pdf") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("an absolute path", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "/etc"})
		if err == nil || !strings.Contains(err.Error(), `path "/etc" is absolute`) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("the one skill", func(t *testing.T) {
		up := newUpstream(t)
		up.write(map[string]string{"README.md": "x", "pdf/SKILL.md": pdfSkill, "pdf/scripts/SKILL.md": "nested: a file of pdf"})
		up.commit("one skill")
		root := newRoot(t)
		added, err := Add(ctx, root, AddOptions{Source: up.dir})
		if err != nil || added.Skill.Path != "pdf" || added.Skill.Slug != "pdf" {
			t.Fatalf("Add = %+v, %v", added, err)
		}
	})
	t.Run("a repository that is the skill", func(t *testing.T) {
		up := newUpstream(t)
		up.write(map[string]string{"SKILL.md": strings.Replace(pdfSkill, "name: pdf", "name: pdf-tools", 1), "other/SKILL.md": "x"})
		up.commit("root skill")
		root := newRoot(t)
		added, err := Add(ctx, root, AddOptions{Source: up.dir, As: "pdf-tools"})
		if err != nil || added.Skill.Path != "" || added.Dir != "skills/pdf-tools" {
			t.Fatalf("Add = %+v, %v", added, err)
		}
		if _, err := os.Stat(filepath.Join(root, "skills", "pdf-tools", "other", "SKILL.md")); err != nil {
			t.Errorf("the root's files are not all copied: %v", err)
		}
	})
	t.Run("a bad folder name", func(t *testing.T) {
		up := pdfUpstream(t)
		root := newRoot(t)
		_, err := Add(ctx, root, AddOptions{Source: up.dir, Path: "skills/pdf", As: "my pdf"})
		if err == nil || !strings.Contains(err.Error(), "--as") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestAddRefs(t *testing.T) {
	up := pdfUpstream(t)
	first := up.head()
	up.tag("v1", "")
	up.tag("v1-annotated", "release 1")
	up.checkout("next", true)
	up.write(map[string]string{"skills/pdf/forms.md": "next\n"})
	next := up.commit("on next")
	up.checkout("main", false)
	up.write(map[string]string{"skills/pdf/forms.md": "main\n"})
	mainTip := up.commit("on main")

	for _, c := range []struct{ ref, commit, forms string }{
		{"", mainTip, "main\n"},
		{"next", next, "next\n"},
		{"v1", first, "# Forms\n\nFill them.\n"},
		{"v1-annotated", first, "# Forms\n\nFill them.\n"},
		{first[:10], first, "# Forms\n\nFill them.\n"},
		{first, first, "# Forms\n\nFill them.\n"},
	} {
		t.Run("ref "+c.ref, func(t *testing.T) {
			root := newRoot(t)
			added, err := Add(context.Background(), root, AddOptions{Source: up.dir, Path: "skills/pdf", Ref: c.ref})
			if err != nil {
				t.Fatal(err)
			}
			if added.Skill.Commit != c.commit || added.Skill.Ref != c.ref {
				t.Errorf("lock entry %+v, want commit %s", added.Skill, c.commit)
			}
			if got := readFile(t, filepath.Join(root, "skills", "pdf", "forms.md")); got != c.forms {
				t.Errorf("forms.md = %q, want %q", got, c.forms)
			}
		})
	}
	_, err := Add(context.Background(), newRoot(t), AddOptions{Source: up.dir, Path: "skills/pdf", Ref: "nope"})
	if err == nil || !strings.Contains(err.Error(), `no branch, tag or commit "nope"`) {
		t.Errorf("unknown ref: %v", err)
	}
}

func TestAddRefusesAnInvalidSkill(t *testing.T) {
	up := newUpstream(t)
	up.write(map[string]string{"bad/SKILL.md": "---\nname: bad\n---\nno description\n"})
	up.commit("bad")
	root := newRoot(t)
	before := snapshot(t, root)
	added, err := Add(context.Background(), root, AddOptions{Source: up.dir})
	if !errors.Is(err, ErrInvalidSkill) || added == nil || !added.Diagnostics.HasErrors() {
		t.Fatalf("Add = %+v, %v; want ErrInvalidSkill with the diagnostics", added, err)
	}
	if !strings.HasPrefix(added.Diagnostics[0].Path, "skills/bad/") {
		t.Errorf("diagnostic at %s, want the folder it would be written to", added.Diagnostics[0].Path)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Fatal("an invalid skill was written")
	}
	if _, err := Add(context.Background(), root, AddOptions{Source: up.dir, Force: true}); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if _, ok := lockOf(t, root).Entry("bad"); !ok {
		t.Fatal("forced, the skill is not in the lock")
	}
}

// TestAddSkipsWhatACheckoutCannotHold: git's control files of upstream
// (a .gitattributes that makes git show SKILL.md as binary, a .gitignore)
// are never written into the repository, nor names a checkout on Windows
// or macOS cannot hold: add copies the rest, and names each file skipped.
// The lock's hash is the folder's as written, which validate finds intact.
func TestAddSkipsWhatACheckoutCannotHold(t *testing.T) {
	up := newUpstream(t)
	up.write(map[string]string{"pdf/SKILL.md": pdfSkill, "pdf/.gitattributes": "SKILL.md binary\n", "pdf/docs/.gitignore": "secret.txt\n"})
	up.commit("control files")
	root := newRoot(t)
	added, err := Add(context.Background(), root, AddOptions{Source: up.dir, Path: "pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"SKILL.md"}; !reflect.DeepEqual(added.Files, want) {
		t.Errorf("files %q, want %q", added.Files, want)
	}
	for _, p := range []string{"pdf/.gitattributes is not copied: a file git reads for itself", "pdf/docs/.gitignore is not copied: a file git reads for itself"} {
		if !slices.ContainsFunc(added.Notes, func(n string) bool { return strings.HasPrefix(n, p) }) {
			t.Errorf("notes %q do not say %q", added.Notes, p)
		}
	}

	// go-git's worktree refuses to commit such names: the tree is made
	// by hand, at skills/bomb.
	up.commitTree(func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree {
		return object.Tree{Entries: []object.TreeEntry{
			{Name: "SKILL.md", Mode: filemode.Regular, Hash: blob(pdfSkill)},
			{Name: "con.md", Mode: filemode.Regular, Hash: blob("x\n")},
			{Name: "notes.md", Mode: filemode.Regular, Hash: blob("notes\n")},
			{Name: "skill.md", Mode: filemode.Regular, Hash: blob("y\n")},
		}}
	})
	added, err = Add(context.Background(), root, AddOptions{Source: up.dir, Path: "skills/bomb", As: "bomb"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"SKILL.md", "notes.md"}; !reflect.DeepEqual(added.Files, want) {
		t.Errorf("files %q, want %q", added.Files, want)
	}
	if want := []string{
		`skills/bomb/con.md is not copied: the name "con.md" is a device name on Windows, where a checkout cannot hold it`,
		`skills/bomb/skill.md is not copied: skill.md differs only in case from SKILL.md: a checkout on Windows or macOS holds only one of them`,
	}; !reflect.DeepEqual(added.Notes, want) {
		t.Errorf("notes %q, want %q", added.Notes, want)
	}
	dir := filepath.Join(root, "skills", "bomb")
	got := map[string][]byte{}
	for _, p := range []string{"SKILL.md", "notes.md"} {
		got[p] = []byte(readFile(t, filepath.Join(dir, p)))
	}
	if e, _ := lockOf(t, root).Entry("bomb"); e.Hash != fsrepo.HashFiles(got, nil) {
		t.Errorf("lock hash %s, the folder's %s", e.Hash, fsrepo.HashFiles(got, nil))
	}
	for _, p := range []string{"con.md", "skill.md"} {
		if _, err := os.Lstat(filepath.Join(dir, p)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was written: %v", p, err)
		}
	}
	if ds := vendoredDiagnostics(t, root); len(ds) > 0 {
		t.Errorf("validate reports the folders just vendored: %v", ds)
	}
}

func TestAddSymlinks(t *testing.T) {
	up := newUpstream(t)
	up.write(map[string]string{"pdf/SKILL.md": pdfSkill, "pdf/real.md": "real\n", "shared.md": "shared\n"})
	if err := os.Symlink("real.md", filepath.Join(up.dir, "pdf", "alias.md")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	up.commit("a link inside")
	root := newRoot(t)
	if _, err := Add(context.Background(), root, AddOptions{Source: up.dir, Path: "pdf"}); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(root, "skills", "pdf", "alias.md")
	if fi, err := os.Lstat(alias); err != nil || !fi.Mode().IsRegular() || readFile(t, alias) != "real\n" {
		t.Fatalf("a link inside the folder is not copied as the file it leads to: %v %v", fi, err)
	}

	if err := os.Symlink("../shared.md", filepath.Join(up.dir, "pdf", "out.md")); err != nil {
		t.Fatal(err)
	}
	up.commit("a link outside")
	root = newRoot(t)
	before := snapshot(t, root)
	_, err := Add(context.Background(), root, AddOptions{Source: up.dir, Path: "pdf"})
	if err == nil || !strings.Contains(err.Error(), "symlink pdf/out.md leads outside the folder") {
		t.Fatalf("err = %v", err)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Fatal("files written")
	}
}

func TestAddOverHTTP(t *testing.T) {
	up := pdfUpstream(t)
	up.tag("v1", "release 1")
	srv, base := serveGit(t, map[string]*git.Repository{"/anthropics/skills": up.repo})
	root := newRoot(t)
	for _, ref := range []string{"", "v1", up.head()} {
		slug := "pdf" + ref
		if len(slug) > 10 {
			slug = "pdf-by-id"
		}
		added, err := Add(context.Background(), root, AddOptions{Source: base + "/anthropics/skills/", Path: "skills/pdf", Ref: ref, As: slug})
		if err != nil {
			t.Fatalf("ref %q: %v", ref, err)
		}
		if added.Skill.Source != base+"/anthropics/skills" || added.Skill.Commit != up.head() {
			t.Errorf("ref %q: lock entry %+v", ref, added.Skill)
		}
		if fi, err := os.Stat(filepath.Join(root, "skills", slug, "scripts", "fill.py")); err != nil || fi.Mode().Perm()&0o100 == 0 {
			t.Errorf("ref %q: the script: %v %v", ref, fi, err)
		}
	}
	for _, r := range srv.seen() {
		if strings.HasPrefix(r, "fetch") && !strings.Contains(r, "depth=1") {
			t.Errorf("a fetch that is not shallow: %s (of %q)", r, srv.seen())
		}
	}
}

func TestParseSource(t *testing.T) {
	root := t.TempDir()
	for _, c := range []struct{ given, spec, err string }{
		{given: "https://GitHub.com/anthropics/skills/", spec: "https://github.com/anthropics/skills"},
		{given: "https://github.com/anthropics/skills.git", spec: "https://github.com/anthropics/skills.git"},
		{given: "http://127.0.0.1:8080/a/b", spec: "http://127.0.0.1:8080/a/b"},
		{given: "http://example.com/a/b", err: "plain http is only for loopback"},
		{given: "https://user:token@github.com/a/b", err: "holds credentials"},
		{given: "https://user:token%zz@github.com/a/b", err: "not a valid URL"},
		{given: "https://user:a token@github.com/a/b", err: "not a valid URL"},
		{given: "ftp://user:token@github.com/a/b", err: "not ftp"},
		{given: "git@github.com:anthropics/skills.git", err: "ssh address"},
		{given: "ssh://git@github.com/a/b", err: "not ssh"},
		{given: "file:///srv/repo", err: "not a file:// URL"},
		{given: "https://github.com", err: "names no repository"},
		{given: "https://github.com/a/b?x=1", err: "no query"},
		{given: "/srv/git/skills", spec: "/srv/git/skills"},
	} {
		s, err := ParseSource(c.given, root, root)
		switch {
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%q: err %v, want %q", c.given, err, c.err)
		case c.err == "" && (err != nil || s.Spec != c.spec):
			t.Errorf("%q: %q, %v; want %q", c.given, s.Spec, err, c.spec)
		}
		if err != nil && strings.Contains(err.Error(), "token") {
			t.Errorf("%q: the error shows the credentials: %v", c.given, err)
		}
	}
}

// A bare repository, a mirror, is a source too: go-git's detection of a
// repository above a folder finds .git folders only.
func TestAddFromBareRepository(t *testing.T) {
	up := pdfUpstream(t)
	bare := filepath.Join(t.TempDir(), "skills.git")
	if err := os.CopyFS(bare, os.DirFS(filepath.Join(up.dir, ".git"))); err != nil {
		t.Fatal(err)
	}
	root := newRoot(t)
	added, err := Add(context.Background(), root, AddOptions{Source: bare, Path: "skills/pdf"})
	if err != nil {
		t.Fatal(err)
	}
	if added.Skill.Commit != up.head() || added.Skill.Source != filepath.ToSlash(bare) {
		t.Fatalf("lock entry %+v", added.Skill)
	}
}
