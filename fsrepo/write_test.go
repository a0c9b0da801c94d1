package fsrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/skillsync/skillsync/spec"
)

// skillMDCases are texts that YAML and frontmatter make hard to round-trip.
var skillMDCases = []string{
	"PDF Processing", "a", "Café crème 日本語 🎉", "true", "no", "null", "~", "123", "0x1F", "1e3", ".inf",
	"2024-01-01", "- item", "# heading", "a: b", "a #b", "a:b", "key: value # c", "'single'", `"double"`,
	`back\slash`, "|", "> folded", "@at", "`tick`", "%percent", "!tag", "*alias", "&anchor", "{a: 1}", "[a, b]",
	"?", "-", "---", "...", "--- x", " leading", "trailing ", "  ", "\ttab", "a\tb",
	"line one\nline two", "two\n\nparagraphs", "ends with newline\n", "\nstarts with newline", "  indented\nblock",
	"has\n---\ndelimiter", "has\n  ---  \ndelimiter", "crlf\r\nline", "lone\rcr", "nel\u0085x", "sep\u2028x", "bom\uFEFFx",
	"nul\x00x", "del\x7fx", "bell\ax", "esc\x1bx", "private\uE000x", "\uFFFD", "invalid \xff utf8", "surrogate-ish \xed\xa0\x80",
	strings.Repeat("long words wrap at eighty columns ", 30) + "---",
	strings.Repeat("x", 1024),
}

var instructionCases = []string{
	"", "# Title\n\nBody.\n", "no final newline", "---\nname: fake\n---\nbody after a fake frontmatter\n",
	"text\n---\nmore\n---\n", "\n\n\nleading blank lines\n", "   indented code first\n", "trailing spaces   \n\n\n",
	"crlf\r\nlines\r\n", "\uFEFFbom first\n", "non-ASCII é 日本語 🎉\n", "lone\rcr\n", "invalid \xff\n", "nul \x00 byte\n",
}

func TestFormatSkillMDRoundTrip(t *testing.T) {
	for i, text := range skillMDCases {
		instr := instructionCases[i%len(instructionCases)]
		for _, enabled := range []bool{true, false} {
			checkRoundTrip(t, text, "desc: "+text, enabled, instr)
			checkRoundTrip(t, "Name", text, enabled, instr)
		}
	}
	for _, instr := range instructionCases {
		checkRoundTrip(t, "Name", "Description.", true, instr)
	}
}

func checkRoundTrip(t *testing.T, name, description string, enabled bool, instructions string) {
	t.Helper()
	out := FormatSkillMD(name, description, enabled, instructions)
	sk, ds := ParseSkillMD("skills/x/SKILL.md", out)
	wantName, wantDesc := strings.ToValidUTF8(name, "\uFFFD"), strings.ToValidUTF8(description, "\uFFFD")
	wantInstr := spec.Canonical(strings.ToValidUTF8(instructions, "\uFFFD"))
	// Final newlines of a description are dropped on purpose (see
	// SameDescription).
	if sk.Name != wantName || !spec.SameDescription(sk.Description, wantDesc) || sk.Enabled != enabled || sk.Instructions != wantInstr {
		t.Errorf("round trip of (%q, %q, %t, %q):\n%s\ngave (%q, %q, %t, %q)",
			name, description, enabled, instructions, out, sk.Name, sk.Description, sk.Enabled, sk.Instructions)
	}
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "frontmatter") || d.Code == "text-not-utf8" {
			t.Errorf("round trip of (%q, %q): %v\n%s", name, description, d, out)
		}
	}
	if len(sk.Extra) > 0 {
		t.Errorf("extra keys %v in\n%s", sk.Extra, out)
	}
}

// TestFormatSkillMDReadable pins the styles: plain where possible, a block
// for multi-line text, double quotes only when needed.
func TestFormatSkillMDReadable(t *testing.T) {
	for _, tc := range []struct {
		name, desc string
		enabled    bool
		instr      string
		want       string
	}{
		{"PDF Processing", "Extract text from PDFs. Use when handling PDF files.", true, "# PDF\r\n\r\nSteps.\r\n",
			"---\nname: PDF Processing\ndescription: Extract text from PDFs. Use when handling PDF files.\n---\n# PDF\n\nSteps.\n"},
		{"Café", "Line one.\n\nLine two.", false, "",
			"---\nname: Café\ndescription: |-\n  Line one.\n\n  Line two.\nenabled: false\n---\n"},
		{"yes", "Use when: always", true, "x",
			"---\nname: \"yes\"\ndescription: \"Use when: always\"\n---\nx\n"},
		{"A", "one\n---\ntwo\n", true, "x",
			"---\nname: A\ndescription: \"one\\n---\\ntwo\"\n---\nx\n"},
		// A final newline (from a "description: |" block) is dropped, so a
		// multi-line description stays a readable block.
		{"A", "Line one.\nLine two.\n", true, "x",
			"---\nname: A\ndescription: |-\n  Line one.\n  Line two.\n---\nx\n"},
	} {
		if got := string(FormatSkillMD(tc.name, tc.desc, tc.enabled, tc.instr)); got != tc.want {
			t.Errorf("FormatSkillMD(%q, %q) =\n%s\nwant\n%s", tc.name, tc.desc, got, tc.want)
		}
	}
}

func FuzzFormatSkillMD(f *testing.F) {
	for i, s := range skillMDCases {
		f.Add(s, skillMDCases[(i+7)%len(skillMDCases)], i%2 == 0, instructionCases[i%len(instructionCases)])
	}
	f.Fuzz(func(t *testing.T, name, description string, enabled bool, instructions string) {
		checkRoundTrip(t, name, description, enabled, instructions)
	})
}

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

func TestSkillWriterRefusesUnsafePaths(t *testing.T) {
	skill := map[string][]byte{SkillFile: []byte("---\nname: A\ndescription: B\n---\n")}
	with := func(extra map[string]string) map[string][]byte {
		m := map[string][]byte{SkillFile: skill[SkillFile]}
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

// TestSkillWriterLongNames: a file name of 255 bytes is written, though
// the temporary file it is first written to has a longer name to fit.
func TestSkillWriterLongNames(t *testing.T) {
	root := t.TempDir()
	name := strings.Repeat("a", 252) + ".md" // 255 bytes
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.Add("s", map[string][]byte{SkillFile: []byte("---\nname: A\ndescription: B\n---\n"), name: []byte("long")})
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
	w.Add("a", map[string][]byte{SkillFile: []byte("A"), "scripts/deep/run.py": []byte("print()")})
	w.Add("b", map[string][]byte{SkillFile: []byte("same"), "new.md": []byte("new")})
	res, err := w.Write()
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillWritten{
		{Slug: "a", Dir: "skills/a", Written: []string{SkillFile, "scripts/deep/run.py"}},
		{Slug: "b", Dir: "skills/b", Written: []string{"new.md"}, Unchanged: []string{SkillFile}},
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
				"clean":  {SkillFile: []byte("remote")},
				"edited": {SkillFile: []byte("remote"), "notes.md": []byte("committed"), "untracked.md": []byte("remote")},
				"new":    {SkillFile: []byte("remote")},
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

func TestWriteSkillFolder(t *testing.T) {
	root := t.TempDir()
	got, err := WriteSkillFolder(root, "skills", "s", map[string][]byte{SkillFile: []byte("x"), "a/b.md": []byte("y")}, WriteOptions{
		HeadBlob: func(string) ([]byte, bool) { return nil, false },
	})
	if err != nil || !reflect.DeepEqual(got, []string{"skills/s/SKILL.md", "skills/s/a/b.md"}) {
		t.Errorf("WriteSkillFolder = %q, %v", got, err)
	}
	// HeadBlob decides what counts as local work.
	writeTestFile(t, filepath.Join(root, "skills", "s", "SKILL.md"), "edited")
	_, err = WriteSkillFolder(root, "skills", "s", map[string][]byte{SkillFile: []byte("x")}, WriteOptions{
		HeadBlob: func(p string) ([]byte, bool) { return []byte("edited"), p == "skills/s/SKILL.md" },
	})
	if err != nil {
		t.Errorf("a file equal to HEAD is overwritten: %v", err)
	}
	_, err = WriteSkillFolder(root, "../escape", "s", map[string][]byte{SkillFile: []byte("x")}, WriteOptions{Force: true})
	if _, ok := err.(*RefusedError); !ok {
		t.Errorf("skills folder outside the root: %v", err)
	}
}

func TestWriteConfig(t *testing.T) {
	root := t.TempDir()
	if err := WriteConfig(root, Config{BaseURL: "http://127.0.0.1:8080", Space: "ab12"}); err != nil {
		t.Fatal(err)
	}
	cfg, err := ReadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfig()
	want.BaseURL, want.Space = "http://127.0.0.1:8080", "ab12"
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("read back %+v, want %+v", cfg, want)
	}
	data, _ := os.ReadFile(filepath.Join(root, ConfigFile))
	if strings.Contains(strings.ToLower(strings.ReplaceAll(string(data), "SKILLSYNC_TOKEN", "")), "token:") {
		t.Errorf("config holds a token key:\n%s", data)
	}
	if err := WriteConfig(root, Config{Space: "cd34"}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("second WriteConfig = %v, want fs.ErrExist", err)
	}
	if data2, _ := os.ReadFile(filepath.Join(root, ConfigFile)); string(data2) != string(data) {
		t.Error("existing config replaced")
	}

	// A symlink by that name, even dangling, is never written through.
	dir := t.TempDir()
	symlink(t, filepath.Join(dir, "elsewhere.yaml"), filepath.Join(dir, "repo", ConfigFile))
	if err := WriteConfig(filepath.Join(dir, "repo"), Config{Space: "ab12"}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteConfig through a symlink = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.yaml")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("wrote through the symlink")
	}
	if err := WriteConfig(t.TempDir(), Config{Space: "a/b"}); err == nil {
		t.Error("an invalid space was written")
	}
}

// TestSuggestNameLongInput: the suggestion for a huge invalid name still
// fits the service's limit (it used to be computed in quadratic time).
func TestSuggestNameLongInput(t *testing.T) {
	got := suggestName(strings.Repeat("ab_", 20000))
	if n := spec.UTF16Len(got); n == 0 || n > spec.MaxNameLen {
		t.Fatalf("suggestName gave %d units: %q", n, got)
	}
	if err := spec.CheckName(got); err != nil {
		t.Fatalf("suggestion %q is not a valid name: %v", got, err)
	}
}

// TestNonASCIINameWarns: a name with non-ASCII letters passes the rule as
// written ("letters, digits") but draws a warning, since the service may
// accept only ASCII ones (the emulator does).
func TestNonASCIINameWarns(t *testing.T) {
	_, ds := ParseSkillMD("skills/cafe/SKILL.md", []byte("---\nname: Café Menu\ndescription: d\n---\nbody\n"))
	if ds.HasErrors() {
		t.Fatalf("errors for a non-ASCII name: %v", ds)
	}
	if len(ds) != 1 || ds[0].Code != "name-non-ascii" || ds[0].Line != 2 {
		t.Fatalf("diagnostics %v, want one name-non-ascii warning on line 2", ds)
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
	w.Add("same", map[string][]byte{SkillFile: FormatSkillMD("PDF Processing", "Extract text.", true, "# PDF\n")})
	w.Add("edited", map[string][]byte{SkillFile: FormatSkillMD("PDF Processing", "New.", false, "# New\n")})
	res, err := w.Write()
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillWritten{
		{Slug: "same", Dir: "skills/same", Unchanged: []string{SkillFile}},
		{Slug: "edited", Dir: "skills/edited", Written: []string{SkillFile}},
	}
	if !reflect.DeepEqual(res, want) {
		t.Errorf("Write = %+v\nwant %+v", res, want)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "skills", "same", "SKILL.md")); string(data) != same {
		t.Errorf("a SKILL.md that says the same was rewritten:\n%s", data)
	}
	data, _ := os.ReadFile(filepath.Join(root, "skills", "edited", "SKILL.md"))
	wantEdited := "---\nname: PDF Processing\ndescription: New.\nenabled: false\nlicense: MIT\nallowed-tools: Bash\n---\n# New\n"
	if string(data) != wantEdited {
		t.Errorf("edited SKILL.md:\n%s\nwant\n%s", data, wantEdited)
	}
}

func TestMergeSkillMD(t *testing.T) {
	for _, tc := range []struct {
		name, local, want string
		next              []byte
	}{
		{
			name:  "says the same: untouched",
			local: "\uFEFF---\r\ndescription: Extract text.\r\nname: PDF Processing\r\nenabled: true\r\nlicense: MIT\r\n---\r\n\r\n# PDF  \r\n\r\n",
			next:  FormatSkillMD("PDF Processing", "Extract text.", true, "# PDF\n"),
			want:  "\uFEFF---\r\ndescription: Extract text.\r\nname: PDF Processing\r\nenabled: true\r\nlicense: MIT\r\n---\r\n\r\n# PDF  \r\n\r\n",
		},
		{
			name: "keys kept in order with their text and comments",
			local: "---\n# written by hand\nname: PDF Processing\nlicense: MIT\ndescription: Old.\n" +
				"# tools the skill may run\nallowed-tools: Bash Read\nmetadata:\n  author: me\n  version: \"1.0\"   # quoted\n---\nOld.\n",
			next: FormatSkillMD("PDF Processing", "New.\nTwo lines.", true, "New.\n"),
			want: "---\n# written by hand\nname: PDF Processing\ndescription: |-\n  New.\n  Two lines.\nlicense: MIT\n" +
				"# tools the skill may run\nallowed-tools: Bash Read\nmetadata:\n  author: me\n  version: \"1.0\"   # quoted\n---\nNew.\n",
		},
		{
			name:  "explicit enabled: true kept",
			local: "---\nname: a\nenabled: true\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  FormatSkillMD("A", "b", true, "body\n"),
			want:  "---\nname: A\ndescription: b\nenabled: true\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "disabled",
			local: "---\nname: a\nenabled: true\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  FormatSkillMD("a", "b", false, "body\n"),
			want:  "---\nname: a\ndescription: b\nenabled: false\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "flow mapping: values written afresh",
			local: "---\n{name: a, description: b, license: MIT, tags: [x, y]}\n---\nbody\n",
			next:  FormatSkillMD("a", "c", true, "body\n"),
			want:  "---\nname: a\ndescription: c\nlicense: MIT\ntags:\n  - x\n  - \"y\"\n---\nbody\n",
		},
		{
			name:  "alias of a replaced value: written afresh",
			local: "---\nname: &n a\ndescription: b\nalias: *n\n---\nbody\n",
			next:  FormatSkillMD("z", "b", true, "body\n"),
			want:  "---\nname: z\ndescription: b\nalias: a\n---\nbody\n",
		},
		{
			name:  "duplicate key: the first kept, as loaded",
			local: "---\nname: a\ndescription: b\nlicense: MIT\nlicense: GPL\n---\nbody\n",
			next:  FormatSkillMD("a", "b", true, "body\n"),
			want:  "---\nname: a\ndescription: b\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "no extra key",
			local: "---\nname: a\ndescription: b\n---\nbody\n",
			next:  FormatSkillMD("a", "c", true, "body\n"),
			want:  "---\nname: a\ndescription: c\n---\nbody\n",
		},
		{
			name:  "invalid frontmatter: replaced",
			local: "---\nname: [a\nlicense: MIT\n---\nbody\n",
			next:  FormatSkillMD("a", "b", true, "body\n"),
			want:  "---\nname: a\ndescription: b\n---\nbody\n",
		},
		{
			name:  "next without frontmatter",
			local: "---\nname: a\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  []byte("remote"),
			want:  "remote",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(MergeSkillMD([]byte(tc.local), tc.next)); got != tc.want {
				t.Errorf("MergeSkillMD =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestMergeSkillMDRoundTrip: whatever the values, the merged file reads
// back as the space's values plus the local extra keys, and merging again
// changes nothing.
func TestMergeSkillMDRoundTrip(t *testing.T) {
	local := []byte("---\nname: old\n# why\nlicense: MIT\ndescription: old\nallowed-tools: Bash\nmetadata: {a: 1, b: [x]}\n---\nold\n")
	extra := map[string]any{"license": "MIT", "allowed-tools": "Bash", "metadata": map[string]any{"a": 1, "b": []any{"x"}}}
	for i, s := range skillMDCases {
		enabled := i%2 == 0
		instr := instructionCases[i%len(instructionCases)]
		next := FormatSkillMD(s, s, enabled, instr)
		want, _ := ParseSkillMD(SkillFile, next)
		out := MergeSkillMD(local, next)
		got, _ := ParseSkillMD(SkillFile, out)
		if !sameSkill(got, want) || !reflect.DeepEqual(got.Extra, extra) {
			t.Errorf("%q: merged\n%s\nreads %+v", s, out, got)
		}
		if again := MergeSkillMD(out, next); string(again) != string(out) {
			t.Errorf("%q: merging again changed\n%s\ninto\n%s", s, out, again)
		}
	}
}

// TestSuggestName: the suggestion is a valid name close to what was meant.
func TestSuggestName(t *testing.T) {
	for in, want := range map[string]string{
		"Test-Driven Development (TDD)": "Test-Driven Development TDD",
		"Bad_Name!":                     "Bad-Name",
		"a / b":                         "a b",
		"(x)":                           "x",
		"--":                            "my-skill",
	} {
		got := suggestName(in)
		if got != want || spec.CheckName(got) != nil {
			t.Errorf("suggestName(%q) = %q (valid: %v), want %q", in, got, spec.CheckName(got) == nil, want)
		}
	}
}

// TestSkillWriterSwappedFolder: a skill folder swapped for a symlink (to
// .git/hooks, inside the repository) after the checks and before the write
// is caught, and nothing is written through it.
func TestSkillWriterSwappedFolder(t *testing.T) {
	root, hooks := repoWithHooks(t)
	testHookOpenSkillRoot = func(dir string) { swapForSymlink(t, root, dir, hooks) }
	t.Cleanup(func() { testHookOpenSkillRoot = nil })
	_, err := writeHookBait(root)
	if err == nil || !strings.Contains(err.Error(), "skills/s") {
		t.Fatalf("Write through a swapped folder: %v, want an error naming it", err)
	}
	entries, _ := os.ReadDir(hooks)
	if len(entries) != 0 {
		t.Errorf("files written into .git/hooks: %v", entries)
	}

	// Swapped once the folder is open: the writes go through the handle,
	// into the folder that was checked, never through the symlink.
	testHookOpenSkillRoot = nil
	root2, hooks2 := repoWithHooks(t)
	swapped := false
	testHookWriteFile = func(dir string) {
		if !swapped {
			swapped = true
			swapForSymlink(t, root2, dir, hooks2)
		}
	}
	t.Cleanup(func() { testHookWriteFile = nil })
	if _, err := writeHookBait(root2); err != nil {
		t.Fatalf("Write: %v", err)
	}
	if entries, _ := os.ReadDir(hooks2); len(entries) != 0 {
		t.Errorf("files written into .git/hooks after the swap: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(root2, "skills", "s.moved", "pre-commit")); err != nil {
		t.Errorf("the files did not go to the folder that was opened: %v", err)
	}
}

// repoWithHooks makes a repository folder holding .git/hooks.
func repoWithHooks(t *testing.T) (root, hooks string) {
	t.Helper()
	root = t.TempDir()
	hooks = filepath.Join(root, ".git", "hooks")
	if err := os.MkdirAll(hooks, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, hooks
}

// swapForSymlink moves the folder dir of root aside (to dir.moved) and puts
// a symlink to target in its place.
func swapForSymlink(t *testing.T, root, dir, target string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(dir))
	if err := os.Rename(p, p+".moved"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		t.Fatal(err)
	}
}

// writeHookBait writes skill s with a file named like a git hook.
func writeHookBait(root string) ([]SkillWritten, error) {
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.Add("s", map[string][]byte{SkillFile: []byte("---\nname: S\ndescription: d\n---\n"), "pre-commit": []byte("#!/bin/sh\necho pwned\n")})
	return w.Write()
}
