package fsrepo

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

func testLock() Lock {
	var l Lock
	// Set sorts: given out of order, written in order.
	l.Set(LockedSkill{Slug: "pdf", Source: "https://github.com/anthropics/skills", Path: "skills/pdf",
		Commit: strings.Repeat("a", 40), Hash: "sha256:" + strings.Repeat("0", 64)})
	l.Set(LockedSkill{Slug: "brainstorming", Source: "../superpowers", Path: "skills/brainstorming", Ref: "v4.0.3",
		Commit: "1234567890123456789012345678901234567890", Hash: "sha256:" + strings.Repeat("1", 64)})
	l.Set(LockedSkill{Slug: "root-skill", Source: "/srv/git/one-skill", Commit: strings.Repeat("e", 40), Hash: "sha256:" + strings.Repeat("f", 64)})
	return l
}

// TestLockFormat pins the bytes of skillsync.lock: people review its
// changes in pull requests, so its layout must not churn.
func TestLockFormat(t *testing.T) {
	got := testLock().Marshal()
	golden := filepath.Join("testdata", "lock", "skillsync.lock")
	if *update {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("Marshal:\n%s\nwant (go test ./fsrepo -update rewrites it):\n%s", got, want)
	}
	back, ds := ParseLock(got)
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	for i := range back.Skills {
		if back.Skills[i].Line == 0 || back.Skills[i].Lines < 4 {
			t.Errorf("entry %s: line %d, %d lines", back.Skills[i].Slug, back.Skills[i].Line, back.Skills[i].Lines)
		}
		back.Skills[i].Line, back.Skills[i].Lines = 0, 0
	}
	if !reflect.DeepEqual(back, testLock()) {
		t.Fatalf("read back %+v\nwant %+v", back, testLock())
	}
}

func TestParseLockErrors(t *testing.T) {
	entry := func(extra string) string {
		return "version: 1\nskills:\n  - slug: pdf\n    source: https://example.com/r\n    commit: " + strings.Repeat("a", 40) +
			"\n    hash: sha256:" + strings.Repeat("0", 64) + "\n" + extra
	}
	for _, c := range []struct {
		name, lock string
		want       string // in the message of the diagnostic
		line       int
	}{
		{"syntax", "version: 1\nskills:\n  - slug: [\n", "", 3},
		{"no version", "skills: []\n", "no version", 1},
		{"newer version", "version: 2\nskills: []\n", "version 2 is not one this skillsync reads", 1},
		{"unknown key", entry("    branch: main\n"), `unknown key "branch"`, 7},
		{"unknown top key", entry("extra: 1\n"), `unknown key "extra"`, 7},
		{"version twice", "version: 1\nversion: 1\nskills: []\n", `duplicate key "version"`, 2},
		{"skills twice", entry("skills: []\n"), `duplicate key "skills"`, 7},
		{"missing field", "version: 1\nskills:\n  - slug: pdf\n    source: x\n", "no commit", 3},
		{"bad commit", strings.Replace(entry(""), strings.Repeat("a", 40), "abc", 1), `commit "abc" is not a commit id`, 5},
		{"upper-case commit", strings.Replace(entry(""), strings.Repeat("a", 40), strings.Repeat("A", 40), 1), "is not a commit id", 5},
		{"commit with a newline", strings.Replace(entry(""), strings.Repeat("a", 40), `"`+strings.Repeat("a", 40)+`\n"`, 1), "is not a commit id", 5},
		{"bad hash", strings.Replace(entry(""), "sha256:", "md5:", 1), "is not sha256: followed by 64", 6},
		{"short hash", strings.Replace(entry(""), strings.Repeat("0", 64), strings.Repeat("0", 63), 1), "is not sha256: followed by 64", 6},
		{"upper-case local", entry("    local: sha256:" + strings.Repeat("F", 64) + "\n"), "local", 7},
		{"bad slug", strings.Replace(entry(""), "slug: pdf", "slug: ../x", 1), `slug "../x"`, 3},
		{"bad path", entry("    path: ../up\n"), `path "../up"`, 7},
		{"twice", entry("") + strings.TrimPrefix(entry(""), "version: 1\nskills:\n"), `skill "pdf" is given twice (first at line 3)`, 7},
		{"list of text", "version: 1\nskills:\n  - pdf\n", "each skill must be a mapping", 3},
	} {
		t.Run(c.name, func(t *testing.T) {
			l, ds := ParseLock([]byte(c.lock))
			if len(ds) == 0 || len(l.Skills) != 0 {
				t.Fatalf("ParseLock = %+v, %v; want a diagnostic and no skills", l, ds)
			}
			d := ds[0]
			if d.Path != LockFile || d.Line != c.line || d.Severity != diag.SeverityError || !strings.Contains(d.Message, c.want) {
				t.Fatalf("diagnostic %s, want %s:%d: error: ...%s...", d, LockFile, c.line, c.want)
			}
		})
	}
}

func TestWriteLockNeverThroughSymlink(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "target")
	symlink(t, outside, filepath.Join(root, LockFile))
	if err := WriteLock(root, testLock()); err == nil {
		t.Fatal("WriteLock wrote through a symlink")
	}
	if _, err := os.Stat(outside); err == nil {
		t.Fatal("the symlink's target was written")
	}
	os.Remove(filepath.Join(root, LockFile))
	if err := WriteLock(root, testLock()); err != nil {
		t.Fatal(err)
	}
	l, ds, err := ReadLock(root)
	if err != nil || len(ds) > 0 || len(l.Skills) != 3 {
		t.Fatalf("ReadLock = %+v, %v, %v", l, ds, err)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("files left beside the lock: %v", entries)
	}
}

// hashFixture is a folder whose hash the shell pipeline of the README
// recomputes: nested files, names that sort differently by byte than by
// locale, an empty file, a file without a final newline.
var hashFixture = map[string]string{
	"SKILL.md":             "---\nname: pdf\ndescription: d\n---\nbody\n",
	"scripts/run.py":       "print('hi')",
	"scripts.md":           "",
	"Z-upper.md":           "upper\n",
	"a b/with space.md":    "space\n",
	"reference/forms.md":   "forms\n",
	"reference/forms-b.md": "b\n",
}

func TestFolderHashMatchesCoreutils(t *testing.T) {
	files := map[string][]byte{}
	for p, s := range hashFixture {
		files[p] = []byte(s)
	}
	got := HashFiles(files, nil)
	// The value, computed once with the pipeline below (GNU coreutils),
	// holds on machines without it.
	const want = "sha256:2722057fa9e9631510604c664d75c509a2dbfc0e23471fe9af5b0c1c386ce096"
	if got != want {
		t.Errorf("HashFiles = %s, want %s", got, want)
	}
	if runtime.GOOS == "windows" {
		return
	}
	for _, tool := range []string{"sh", "find", "sort", "xargs", "sha256sum"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed", tool)
		}
	}
	dir := t.TempDir()
	for p, s := range hashFixture {
		writeTestFile(t, filepath.Join(dir, filepath.FromSlash(p)), s)
	}
	// What operating systems leave behind is not hashed: the documented
	// command leaves it out too.
	writeTestFile(t, filepath.Join(dir, "scripts", ".DS_Store"), "litter")
	cmd := exec.Command("sh", "-c", readmeHashCommand)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "LC_ALL=en_US.UTF-8")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "docs", "vendoring.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n"+readmeHashCommand+"\n") {
		t.Errorf("docs/vendoring.md does not give the command on a line of its own:\n%s", readmeHashCommand)
	}
	shell := "sha256:" + strings.TrimSuffix(strings.TrimSpace(string(out)), "  -")
	if shell != got {
		t.Fatalf("the documented command gives %s, skillsync %s", shell, got)
	}
}

// readmeHashCommand is the command docs/vendoring.md gives to check a vendored
// folder's hash.
const readmeHashCommand = `find . -type f ! -iname .ds_store ! -iname thumbs.db ! -iname desktop.ini ! -iname ehthumbs.db ! -name '._*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum`

func TestFolderHashEscapesAsSha256sum(t *testing.T) {
	sum := sha256.Sum256(nil)
	got := FolderHash(map[string][sha256.Size]byte{`a\b`: sum})
	// GNU sha256sum prints "\<sum>  ./a\\b" for such a name.
	line := `\` + "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" + `  ./a\\b` + "\n"
	want := sha256.Sum256([]byte(line))
	if got != "sha256:"+hexString(want[:]) {
		t.Fatalf("FolderHash = %s", got)
	}
}

func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	var s strings.Builder
	for _, c := range b {
		s.WriteByte(digits[c>>4])
		s.WriteByte(digits[c&15])
	}
	return s.String()
}

// vendoredRepo makes a repository with one vendored skill, pdf, whose
// files match its lock entry, and a lock entry for a skill whose folder
// is gone.
func vendoredRepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, config.FileName), "space: ab12\n")
	files := map[string][]byte{}
	for p, s := range hashFixture {
		files[p] = []byte(s)
		writeTestFile(t, filepath.Join(root, "skills", "pdf", filepath.FromSlash(p)), s)
	}
	var l Lock
	l.Set(LockedSkill{Slug: "pdf", Source: "https://github.com/anthropics/skills", Path: "skills/pdf",
		Commit: strings.Repeat("a", 40), Hash: HashFiles(files, nil)})
	if err := WriteLock(root, l); err != nil {
		t.Fatal(err)
	}
	return root
}

func TestLoadChecksVendoredFolders(t *testing.T) {
	root := vendoredRepo(t)
	vendoredDiags := func() diag.Diagnostics {
		t.Helper()
		_, ds, err := Load(context.Background(), root, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var out diag.Diagnostics
		for _, d := range ds {
			if strings.HasPrefix(d.Code, "vendored-") || d.Code == "lock-invalid" {
				out = append(out, d)
			}
		}
		return out
	}
	if ds := vendoredDiags(); len(ds) != 0 {
		t.Fatalf("a folder as vendored: %v", ds)
	}
	// Litter is not a change.
	writeTestFile(t, filepath.Join(root, "skills", "pdf", ".DS_Store"), "x")
	if ds := vendoredDiags(); len(ds) != 0 {
		t.Fatalf("with a .DS_Store: %v", ds)
	}

	writeTestFile(t, filepath.Join(root, "skills", "pdf", "scripts", "run.py"), "print('edited')")
	ds := vendoredDiags()
	if len(ds) != 1 || ds[0].Severity != diag.SeverityWarning || ds[0].Path != "skills/pdf" ||
		ds[0].Message != "modified locally since vendored from https://github.com/anthropics/skills (skills/pdf)@aaaaaaaaaaaa" ||
		!strings.Contains(ds[0].Hint, "skillsync vendor update pdf") {
		t.Fatalf("an edited folder: %v", ds)
	}

	if err := os.RemoveAll(filepath.Join(root, "skills", "pdf")); err != nil {
		t.Fatal(err)
	}
	ds = vendoredDiags()
	if len(ds) != 1 || ds[0].Severity != diag.SeverityError || ds[0].Location() != "skillsync.lock:5:1" ||
		!strings.Contains(ds[0].Message, "skills/pdf is gone") || !strings.Contains(ds[0].Hint, "lines 5-9") {
		t.Fatalf("a folder gone: %v (%s)", ds, ds[0].Hint)
	}

	writeTestFile(t, filepath.Join(root, LockFile), "version: 1\nskills:\n  - slug: pdf\n")
	ds = vendoredDiags()
	if len(ds) == 0 || ds[0].Location() != "skillsync.lock:3:1" || !strings.Contains(ds[0].Message, "no source") {
		t.Fatalf("a malformed lock: %v", ds)
	}
}

func TestLoadRevisionChecksVendoredFolders(t *testing.T) {
	root := vendoredRepo(t)
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: edited\n---\nbody\n")
	gitInit(t, root)
	commitAll(t, root, "vendored, then edited")
	_, ds, err := Load(context.Background(), root, LoadOptions{Ref: "HEAD"})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range ds {
		found = found || d.Code == "vendored-modified" && d.Path == "skills/pdf"
	}
	if !found {
		t.Fatalf("no vendored-modified warning from the revision: %v", ds)
	}
}

func TestCheckFolder(t *testing.T) {
	cfg := config.Default()
	sk, ds, err := CheckFolder(cfg, "pdf", map[string][]byte{
		skillmd.FileName: []byte("---\nname: pdf\ndescription: Reads PDFs.\n---\nUse it.\n"),
		"notes.md":       []byte("n"),
		".DS_Store":      {0, 1},
	}, nil)
	if err != nil || sk == nil || sk.Invalid || len(sk.Files) != 1 || ds.HasErrors() {
		t.Fatalf("CheckFolder = %+v, %v, %v", sk, ds, err)
	}
	_, ds, err = CheckFolder(cfg, "pdf", map[string][]byte{skillmd.FileName: []byte("no frontmatter")}, nil)
	if err != nil || !ds.HasErrors() || !strings.HasPrefix(ds[0].Path, "skills/pdf/") {
		t.Fatalf("CheckFolder of a bad SKILL.md = %v, %v", ds, err)
	}
}
