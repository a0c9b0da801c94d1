package fsrepo

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/lineartest"
)

// snapshot records every path under dir: file contents, symlink targets
// and folders, to tell that nothing was written.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case de.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			m[rel] = "link:" + target
			return err
		case de.IsDir():
			m[rel] = "dir"
		default:
			data, err := os.ReadFile(p)
			m[rel] = "file:" + string(data)
			return err
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func writeTestFile(t *testing.T, name, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, name); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
}

// TestSkillWriterSkipsUnwritable: a file git reads for itself (a
// .gitattributes that makes git show SKILL.md as binary, a .gitignore that
// leaves the skill out of git), or whose name a checkout on Windows or
// macOS cannot hold, is skipped and reported; the rest is written.
func TestSkillWriterSkipsUnwritable(t *testing.T) {
	root := t.TempDir()
	files := map[string]FileData{skillmd.FileName: {Data: []byte("---\nname: A\ndescription: B\n---\n")}, "notes.md": {Data: []byte("notes")}}
	for _, rel := range []string{".gitignore", "docs/.GitAttributes", ".gitmodules.", "con.md", "AUX/a.md", "Lpt9.tar.gz",
		"notes.", "Notes /x.md", "skill.md", "Docs/a.md", "docs/b.md"} {
		files[rel] = FileData{Data: []byte("x")}
	}
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.AddExact("s", files, nil)
	res, err := w.Write()
	if err != nil || len(res) != 1 {
		t.Fatalf("Write = %v, %v", res, err)
	}
	if want := []string{"Docs/a.md", skillmd.FileName, "notes.md"}; !reflect.DeepEqual(res[0].Written, want) {
		t.Errorf("written %q, want %q", res[0].Written, want)
	}
	var skipped []string
	for _, p := range res[0].Skipped {
		skipped = append(skipped, p.Path+": "+p.Reason)
	}
	want := []string{
		`skills/s/.gitignore: ` + gitControlReason,
		`skills/s/.gitmodules.: ` + gitControlReason,
		`skills/s/AUX/a.md: the name "AUX" is a device name on Windows, where a checkout cannot hold it`,
		`skills/s/Lpt9.tar.gz: the name "Lpt9.tar.gz" is a device name on Windows, where a checkout cannot hold it`,
		`skills/s/Notes /x.md: the name "Notes " ends with a space, which Windows drops: a checkout there cannot hold it`,
		`skills/s/con.md: the name "con.md" is a device name on Windows, where a checkout cannot hold it`,
		`skills/s/docs/.GitAttributes: ` + gitControlReason,
		`skills/s/docs/b.md: docs differs only in case from Docs: a checkout on Windows or macOS holds only one of them`,
		`skills/s/notes.: the name "notes." ends with a dot, which Windows drops: a checkout there cannot hold it`,
		`skills/s/skill.md: skill.md differs only in case from SKILL.md: a checkout on Windows or macOS holds only one of them`,
	}
	if !reflect.DeepEqual(skipped, want) {
		t.Errorf("skipped:\n%s\nwant:\n%s", strings.Join(skipped, "\n"), strings.Join(want, "\n"))
	}
	var on []string
	for rel, what := range snapshot(t, root) {
		if what != "dir" {
			on = append(on, filepath.ToSlash(rel))
		}
	}
	sort.Strings(on)
	if want := []string{"skills/s/Docs/a.md", "skills/s/SKILL.md", "skills/s/notes.md"}; !reflect.DeepEqual(on, want) {
		t.Errorf("on disk: %q, want %q", on, want)
	}
}

func TestSkillWriterRefusesUnsafePaths(t *testing.T) {
	skill := map[string][]byte{skillmd.FileName: []byte("---\nname: A\ndescription: B\n---\n")}
	with := func(extra map[string]string) map[string][]byte {
		m := map[string][]byte{skillmd.FileName: skill[skillmd.FileName]}
		for k, v := range extra {
			m[k] = []byte(v)
		}
		return m
	}
	for _, tc := range []struct {
		name  string
		setup func(t *testing.T, base, root string)
		slug  string
		files map[string][]byte
		want  string // the path named in the refusal
	}{
		{name: "dotdot file", slug: "s", files: with(map[string]string{"../escape.md": "x"}), want: "skills/s/../escape.md"},
		{name: "deep dotdot file", slug: "s", files: with(map[string]string{"docs/../../../../outside/x.md": "x"}), want: "skills/s/docs/../../../../outside/x.md"},
		{name: "absolute file", slug: "s", files: with(map[string]string{"/tmp/x.md": "x"}), want: "skills/s//tmp/x.md"},
		{name: "empty segment", slug: "s", files: with(map[string]string{"docs//x.md": "x"}), want: "skills/s/docs//x.md"},
		{name: "dotdot slug", slug: "..", files: skill, want: "skills/.."},
		{name: "slash slug", slug: "a/../../x", files: skill, want: "skills/a/../../x"},
		{name: "hidden slug", slug: ".git", files: skill, want: "skills/.git"},
		{name: "nested .git", slug: "s", files: with(map[string]string{".git/config": "[core]\n\tfsmonitor = x\n"}), want: "skills/s/.git/config"},
		{name: "nested .GIT in a subfolder", slug: "s", files: with(map[string]string{"sub/.GIT/HEAD": "x"}), want: "skills/s/sub/.GIT/HEAD"},
		{name: "nested .git with a trailing dot", slug: "s", files: with(map[string]string{".git./config": "x"}), want: "skills/s/.git./config"},
		{name: "nested git short name", slug: "s", files: with(map[string]string{"git~1/config": "x"}), want: "skills/s/git~1/config"},
		{name: "a .git file", slug: "s", files: with(map[string]string{"sub/.git": "gitdir: /tmp/x"}), want: "skills/s/sub/.git"},
		{name: "a device name as the slug", slug: "nul", files: skill, want: "skills/nul"},
		{name: "a file on disk that differs in case only", slug: "s", files: with(map[string]string{"readme.md": "x"}), want: "skills/s/readme.md",
			setup: func(t *testing.T, base, root string) {
				writeTestFile(t, filepath.Join(root, "skills", "s", "README.md"), "local")
			}},
		{name: "a skill folder on disk that differs in case only", slug: "pdf", files: skill, want: "skills/pdf",
			setup: func(t *testing.T, base, root string) {
				writeTestFile(t, filepath.Join(root, "skills", "PDF", "SKILL.md"), "local")
			}},
		{name: "file and folder clash", slug: "s", files: with(map[string]string{"docs": "x", "docs/a.md": "y"}), want: "skills/s/docs/a.md"},
		{name: "slug too long for a folder name", slug: strings.Repeat("s", 256), files: skill, want: "skills/" + strings.Repeat("s", 256)},
		{name: "file name too long", slug: "s", files: with(map[string]string{strings.Repeat("f", 253) + ".md": "x"}), want: "skills/s/" + strings.Repeat("f", 253) + ".md"},
		{name: "folder name too long", slug: "s", files: with(map[string]string{strings.Repeat("d", 256) + "/a.md": "x"}), want: "skills/s/" + strings.Repeat("d", 256) + "/a.md"},
		{name: "symlinked skill folder", slug: "s", files: skill, want: "skills/s",
			setup: func(t *testing.T, base, root string) {
				symlink(t, filepath.Join(base, "outside"), filepath.Join(root, "skills", "s"))
			}},
		{name: "relative symlinked skill folder", slug: "s", files: skill, want: "skills/s",
			setup: func(t *testing.T, base, root string) { symlink(t, "../../outside", filepath.Join(root, "skills", "s")) }},
		{name: "symlinked skills folder", slug: "s", files: skill, want: "skills",
			setup: func(t *testing.T, base, root string) {
				symlink(t, filepath.Join(base, "outside"), filepath.Join(root, "skills"))
			}},
		{name: "symlinked subfolder", slug: "s", files: with(map[string]string{"scripts/run.py": "x"}), want: "skills/s/scripts",
			setup: func(t *testing.T, base, root string) {
				symlink(t, filepath.Join(base, "outside"), filepath.Join(root, "skills", "s", "scripts"))
			}},
		{name: "symlinked file", slug: "s", files: skill, want: "skills/s/SKILL.md",
			setup: func(t *testing.T, base, root string) {
				symlink(t, filepath.Join(base, "outside", "target.md"), filepath.Join(root, "skills", "s", "SKILL.md"))
			}},
		{name: "dangling symlinked file", slug: "s", files: skill, want: "skills/s/SKILL.md",
			setup: func(t *testing.T, base, root string) {
				symlink(t, filepath.Join(base, "outside", "nothing.md"), filepath.Join(root, "skills", "s", "SKILL.md"))
			}},
		{name: "file where a folder is needed", slug: "s", files: with(map[string]string{"docs/a.md": "x"}), want: "skills/s/docs",
			setup: func(t *testing.T, base, root string) {
				writeTestFile(t, filepath.Join(root, "skills", "s", "docs"), "a file")
			}},
		{name: "folder where the file goes", slug: "s", files: skill, want: "skills/s/SKILL.md",
			setup: func(t *testing.T, base, root string) {
				os.MkdirAll(filepath.Join(root, "skills", "s", "SKILL.md"), 0o755)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "repo")
			writeTestFile(t, filepath.Join(base, "outside", "target.md"), "outside")
			writeTestFile(t, filepath.Join(root, "README.md"), "readme")
			if tc.setup != nil {
				tc.setup(t, base, root)
			}
			before := snapshot(t, base)
			w := NewSkillWriter(root, "skills", WriteOptions{Force: true})
			// A safe skill beside the unsafe one is not written either.
			w.Add("safe", skill)
			w.Add(tc.slug, tc.files)
			res, err := w.Write()
			var re *RefusedError
			if !errors.As(err, &re) || len(re.Unsafe) == 0 {
				t.Fatalf("Write = %v, %v; want a refusal", res, err)
			}
			named := false
			for _, p := range re.Unsafe {
				named = named || p.Path == tc.want
			}
			if !named || !strings.HasPrefix(err.Error(), "nothing was written") {
				t.Errorf("refusal does not name %s:\n%v", tc.want, err)
			}
			if after := snapshot(t, base); !reflect.DeepEqual(before, after) {
				t.Errorf("files changed on refusal:\nbefore %q\nafter  %q", before, after)
			}
		})
	}
}

// TestInspectAsksTheFileSystem: below a folder that does not exist yet,
// the names of the folders and file to create are put to the deepest one
// that does, so that a name the file system cannot hold (shorter limits
// than 255 bytes exist) is a problem before any write.
func TestInspectAsksTheFileSystem(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("x", 300)
	for _, rel := range []string{"skills/" + long + "/SKILL.md", "skills/s/" + long, "skills/s/docs/" + long + "/a.md"} {
		_, problem := inspect(root, rel)
		if problem == nil || !strings.HasSuffix(problem.Path, long) && !strings.Contains(problem.Path, long+"/") ||
			problem.Reason != "is too long a name for the file system" {
			t.Errorf("inspect(%s) = %+v, want the long name refused", rel, problem)
		}
	}
	if _, problem := inspect(root, "skills/s/"+strings.Repeat("y", 255)); problem != nil {
		t.Errorf("a name of 255 bytes refused: %+v", problem)
	}
}

// TestSkillWriterLongNames: a file name of 255 bytes is written, through
// a temporary file in the same folder.
func TestSkillWriterLongNames(t *testing.T) {
	root := t.TempDir()
	name := strings.Repeat("a", 252) + ".md" // 255 bytes
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.Add("s", map[string][]byte{skillmd.FileName: []byte("---\nname: A\ndescription: B\n---\n"), name: []byte("long")})
	if _, err := w.Write(); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(root, "skills", "s", name)); err != nil || string(data) != "long" {
		t.Errorf("read back %q, %v", data, err)
	}
}

func TestSkillWriterWrites(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "skills", "b", "SKILL.md"), "same")
	if err := os.Chmod(filepath.Join(root, "skills", "b", "SKILL.md"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.Add("a", map[string][]byte{skillmd.FileName: []byte("A"), "scripts/deep/run.py": []byte("print()")})
	w.Add("b", map[string][]byte{skillmd.FileName: []byte("same"), "new.md": []byte("new")})
	res, err := w.Write()
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillWritten{
		{Slug: "a", Dir: "skills/a", Written: []string{skillmd.FileName, "scripts/deep/run.py"}},
		{Slug: "b", Dir: "skills/b", Written: []string{"new.md"}, Unchanged: []string{skillmd.FileName}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("Write = %+v\nwant %+v", res, want)
	}
	got := snapshot(t, root)
	wantFiles := map[string]string{
		".": "dir", "skills": "dir", "skills/a": "dir", "skills/a/SKILL.md": "file:A", "skills/a/scripts": "dir",
		"skills/a/scripts/deep": "dir", "skills/a/scripts/deep/run.py": "file:print()",
		"skills/b": "dir", "skills/b/SKILL.md": "file:same", "skills/b/new.md": "file:new",
	}
	if !reflect.DeepEqual(got, wantFiles) {
		t.Errorf("files (no temporary file may be left):\n%q\nwant\n%q", got, wantFiles)
	}
	if fi, _ := os.Stat(filepath.Join(root, "skills", "a", "SKILL.md")); fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v", fi.Mode())
	}
	if fi, _ := os.Stat(filepath.Join(root, "skills", "b", "SKILL.md")); fi.Mode().Perm() != 0o600 {
		t.Errorf("unchanged file mode %v", fi.Mode())
	}
}

// commitRepo makes a git repository at dir with go-git and commits its
// files.
func commitRepo(t *testing.T, dir string) {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("."); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1700000000, 0)}
	if _, err := wt.Commit("seed", &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

func TestSkillWriterLocalChanges(t *testing.T) {
	for _, inGit := range []bool{true, false} {
		name := "outside git"
		if inGit {
			name = "git"
		}
		t.Run(name, func(t *testing.T) {
			base := t.TempDir()
			root := filepath.Join(base, "monorepo", "team")
			writeTestFile(t, filepath.Join(root, "skillsync.yaml"), "space: ab12\n")
			writeTestFile(t, filepath.Join(root, "skills", "clean", "SKILL.md"), "committed")
			writeTestFile(t, filepath.Join(root, "skills", "edited", "SKILL.md"), "committed")
			writeTestFile(t, filepath.Join(root, "skills", "edited", "notes.md"), "committed")
			if inGit {
				// The repository root is a subfolder of the git working tree.
				commitRepo(t, filepath.Join(base, "monorepo"))
			}
			writeTestFile(t, filepath.Join(root, "skills", "edited", "SKILL.md"), "local work")
			writeTestFile(t, filepath.Join(root, "skills", "edited", "untracked.md"), "local work")
			files := map[string]map[string][]byte{
				"clean":  {skillmd.FileName: []byte("remote")},
				"edited": {skillmd.FileName: []byte("remote"), "notes.md": []byte("committed"), "untracked.md": []byte("remote")},
				"new":    {skillmd.FileName: []byte("remote")},
			}
			run := func(force bool) ([]SkillWritten, error) {
				w := NewSkillWriter(root, "skills", WriteOptions{Force: force})
				for _, slug := range []string{"clean", "edited", "new"} {
					w.Add(slug, files[slug])
				}
				return w.Write()
			}
			before := snapshot(t, base)
			_, err := run(false)
			var re *RefusedError
			if !errors.As(err, &re) {
				t.Fatalf("Write = %v; want a refusal", err)
			}
			want := []string{"skills/edited/SKILL.md", "skills/edited/untracked.md"}
			if !inGit {
				// Outside git every differing file is local work.
				want = []string{"skills/clean/SKILL.md", "skills/edited/SKILL.md", "skills/edited/untracked.md"}
			}
			if !reflect.DeepEqual(re.Modified, want) || len(re.Unsafe) > 0 {
				t.Errorf("refusal names %q, %v; want %q", re.Modified, re.Unsafe, want)
			}
			for _, p := range want {
				if !strings.Contains(err.Error(), p) {
					t.Errorf("message does not name %s:\n%v", p, err)
				}
			}
			if after := snapshot(t, base); !reflect.DeepEqual(before, after) {
				t.Errorf("files changed on refusal")
			}

			res, err := run(true)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 3 || !reflect.DeepEqual(res[1].Unchanged, []string{"notes.md"}) {
				t.Errorf("forced Write = %+v", res)
			}
			for _, p := range []string{"clean/SKILL.md", "edited/SKILL.md", "edited/untracked.md", "new/SKILL.md"} {
				if data, _ := os.ReadFile(filepath.Join(root, "skills", p)); string(data) != "remote" {
					t.Errorf("%s = %q after --force", p, data)
				}
			}
		})
	}
}

// writeSkillFolder writes one skill folder with a [SkillWriter] and returns
// the files it wrote, slash-separated and relative to root.
func writeSkillFolder(root, skillsDir, slug string, files map[string][]byte, opts WriteOptions) ([]string, error) {
	w := NewSkillWriter(root, skillsDir, opts)
	w.Add(slug, files)
	res, err := w.Write()
	var written []string
	for _, s := range res {
		for _, f := range s.Written {
			written = append(written, path.Join(s.Dir, f))
		}
	}
	return written, err
}

// TestSkillWriterOneFolder: the files written are named relative to the
// root, HeadBlob decides what counts as local work, and a skills folder
// outside the root is refused.
func TestSkillWriterOneFolder(t *testing.T) {
	root := t.TempDir()
	got, err := writeSkillFolder(root, "skills", "s", map[string][]byte{skillmd.FileName: []byte("x"), "a/b.md": []byte("y")}, WriteOptions{
		HeadBlob: func(string) ([]byte, bool) { return nil, false },
	})
	if err != nil || !reflect.DeepEqual(got, []string{"skills/s/SKILL.md", "skills/s/a/b.md"}) {
		t.Errorf("writeSkillFolder = %q, %v", got, err)
	}
	// HeadBlob decides what counts as local work.
	writeTestFile(t, filepath.Join(root, "skills", "s", "SKILL.md"), "edited")
	_, err = writeSkillFolder(root, "skills", "s", map[string][]byte{skillmd.FileName: []byte("x")}, WriteOptions{
		HeadBlob: func(p string) ([]byte, bool) { return []byte("edited"), p == "skills/s/SKILL.md" },
	})
	if err != nil {
		t.Errorf("a file equal to HEAD is overwritten: %v", err)
	}
	_, err = writeSkillFolder(root, "../escape", "s", map[string][]byte{skillmd.FileName: []byte("x")}, WriteOptions{Force: true})
	if _, ok := err.(*RefusedError); !ok {
		t.Errorf("skills folder outside the root: %v", err)
	}
}

// TestSkillWriterKeepsUnknownKeys writes over committed SKILL.md files that
// hold frontmatter keys skillsync does not know: a file that already says
// what the space says is left as it is, and a rewritten one keeps them.
func TestSkillWriterKeepsUnknownKeys(t *testing.T) {
	root := t.TempDir()
	same := "---\nname: PDF Processing\ndescription: Extract text.\nlicense: MIT\nallowed-tools: Bash\n---\r\n# PDF   \r\n\r\n"
	edited := "---\nname: PDF Processing\nlicense: MIT\ndescription: Old.\nallowed-tools: Bash\n---\n# Old\n"
	writeTestFile(t, filepath.Join(root, "skills", "same", "SKILL.md"), same)
	writeTestFile(t, filepath.Join(root, "skills", "edited", "SKILL.md"), edited)
	commitRepo(t, root)

	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.Add("same", map[string][]byte{skillmd.FileName: skillmd.Format("PDF Processing", "Extract text.", true, "# PDF\n")})
	w.Add("edited", map[string][]byte{skillmd.FileName: skillmd.Format("PDF Processing", "New.", false, "# New\n")})
	res, err := w.Write()
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillWritten{
		{Slug: "same", Dir: "skills/same", Unchanged: []string{skillmd.FileName}},
		{Slug: "edited", Dir: "skills/edited", Written: []string{skillmd.FileName}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("Write = %+v\nwant %+v", res, want)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "skills", "same", "SKILL.md")); string(data) != same {
		t.Errorf("a SKILL.md that says the same was rewritten:\n%s", data)
	}
	data, _ := os.ReadFile(filepath.Join(root, "skills", "edited", "SKILL.md"))
	// The keys stay in their order; "enabled: false" goes after the
	// description.
	wantEdited := "---\nname: PDF Processing\nlicense: MIT\ndescription: New.\nenabled: false\nallowed-tools: Bash\n---\n# New\n"
	if string(data) != wantEdited {
		t.Errorf("edited SKILL.md:\n%s\nwant\n%s", data, wantEdited)
	}
}

// TestSkillWriterLargeLocalFiles writes over local files far over the
// loader's bounds (a SKILL.md over MaxSkillMDBytes, a supporting file over
// MaxCompareBytes) without holding them or their HEAD copies whole: files
// as committed are overwritten, files edited since are refused as local
// work, and a file that already holds what is written is left alone.
func TestSkillWriterLargeLocalFiles(t *testing.T) {
	const mdSize, refSize = 8 << 20, 3*MaxCompareBytes + 11
	root := t.TempDir()
	md := filepath.Join(root, "skills", "big", skillmd.FileName)
	ref := filepath.Join(root, "skills", "big", "reference.md")
	setUp := func() {
		sparse(t, md, validMD, mdSize)
		writeFrom(t, ref, textLines(refSize))
	}
	setUp()
	gitInit(t, root)
	commitAll(t, root, "big files")
	files := map[string][]byte{skillmd.FileName: []byte(validMD), "reference.md": []byte("# Reference\n")}
	write := func(files map[string][]byte) ([]SkillWritten, uint64, error) {
		w := NewSkillWriter(root, "skills", WriteOptions{})
		w.Add("big", files)
		var (
			res []SkillWritten
			err error
		)
		n := lineartest.Allocated(func() { res, err = w.Write() })
		return res, n, err
	}
	const most = 16 << 20

	// Edited since the commit: refused, and nothing written.
	if f, err := os.OpenFile(ref, os.O_APPEND|os.O_WRONLY, 0); err != nil {
		t.Fatal(err)
	} else {
		f.WriteString("An edit.\n")
		f.Close()
	}
	if err := os.Truncate(md, mdSize+1); err != nil {
		t.Fatal(err)
	}
	_, n, err := write(files)
	var refused *RefusedError
	if !errors.As(err, &refused) || !reflect.DeepEqual(refused.Modified, []string{"skills/big/SKILL.md", "skills/big/reference.md"}) {
		t.Errorf("Write over edited files: %v, want both refused as local work", err)
	}
	if n > most {
		t.Errorf("Write over edited files allocated %d MB; a file was read whole", n>>20)
	}

	// As committed: overwritten.
	setUp()
	res, n, err := write(files)
	if err != nil || len(res) != 1 || !reflect.DeepEqual(res[0].Written, []string{skillmd.FileName, "reference.md"}) {
		t.Errorf("Write over committed files = %+v, %v; want both written", res, err)
	}
	if n > most {
		t.Errorf("Write over committed files allocated %d MB; a file was read whole", n>>20)
	}
	if data, _ := os.ReadFile(ref); string(data) != "# Reference\n" {
		t.Errorf("reference.md = %.40q...", data)
	}

	// Already what is written: unchanged.
	big, err := io.ReadAll(textLines(refSize))
	if err != nil {
		t.Fatal(err)
	}
	writeFrom(t, ref, textLines(refSize))
	res, n, err = write(map[string][]byte{skillmd.FileName: []byte(validMD), "reference.md": big})
	if err != nil || len(res) != 1 || !reflect.DeepEqual(res[0].Unchanged, []string{skillmd.FileName, "reference.md"}) {
		t.Errorf("Write of what the files hold = %+v, %v; want both unchanged", res, err)
	}
	if n > most {
		t.Errorf("Write of what the files hold allocated %d MB; a file was read whole", n>>20)
	}
}

// TestRefusedErrorCounts: the refusal counts its paths in words that fit
// the number ("1 local file differs", not "1 local file(s)").
func TestRefusedErrorCounts(t *testing.T) {
	one := (&RefusedError{Modified: []string{"skills/a/SKILL.md"}}).Error()
	two := (&RefusedError{Modified: []string{"a", "b"}, Unsafe: []PathProblem{{Path: "x"}}}).Error()
	for _, want := range []string{"\n1 local file differs from git HEAD"} {
		if !strings.Contains(one, want) {
			t.Errorf("%q lacks %q", one, want)
		}
	}
	for _, want := range []string{"\n2 local files differ from git HEAD", "\n1 unsafe path, never written"} {
		if !strings.Contains(two, want) {
			t.Errorf("%q lacks %q", two, want)
		}
	}
}
