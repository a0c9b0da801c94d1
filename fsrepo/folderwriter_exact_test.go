package fsrepo

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

func TestSkillWriterExact(t *testing.T) {
	root := t.TempDir()
	// On disk: a SKILL.md with a key upstream's lacks, an executable
	// script that stops being one, a file upstream removed in a folder
	// that empties, and one it removed beside a file it keeps.
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "SKILL.md"), "---\nname: pdf\ndescription: d\nlocal-key: x\n---\nold\n")
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "scripts", "run.py"), "print()\n")
	os.Chmod(filepath.Join(root, "skills", "pdf", "scripts", "run.py"), 0o755)
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "old", "gone.md"), "gone")
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "notes", "gone.md"), "gone")
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "notes", "kept.md"), "kept")

	upstreamMD := "---\nname: pdf\ndescription: d\n---\nnew\n"
	w := NewSkillWriter(root, "skills", WriteOptions{Force: true})
	w.AddExact("pdf", map[string]FileData{
		skillmd.FileName:     {Data: []byte(upstreamMD)},
		"scripts/run.py":     {Data: []byte("print()\n")},
		"scripts/fill.py":    {Data: []byte("fill()\n"), Exec: true},
		"Reference Guide.md": {Data: []byte("spaces are fine on disk")},
	}, []string{"old/gone.md", "notes/gone.md", "never-there.md"})
	res, err := w.Write()
	if err != nil {
		t.Fatal(err)
	}
	want := []SkillWritten{{Slug: "pdf", Dir: "skills/pdf",
		Written: []string{"Reference Guide.md", skillmd.FileName, "scripts/fill.py", "scripts/run.py"},
		Removed: []string{"notes/gone.md", "old/gone.md"}}}
	if !reflect.DeepEqual(res, want) {
		t.Fatalf("Write = %+v\nwant %+v", res, want)
	}
	if data, _ := os.ReadFile(filepath.Join(root, "skills", "pdf", skillmd.FileName)); string(data) != upstreamMD {
		t.Errorf("SKILL.md = %q: an exact write is not merged with the file on disk", data)
	}
	for rel, perm := range map[string]os.FileMode{"scripts/run.py": 0o644, "scripts/fill.py": 0o755, skillmd.FileName: 0o644} {
		if fi, err := os.Stat(filepath.Join(root, "skills", "pdf", rel)); err != nil || fi.Mode().Perm() != perm {
			t.Errorf("%s: mode %v (%v), want %v", rel, fi.Mode().Perm(), err, perm)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "skills", "pdf", "old")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the folder a removal emptied is still there: %v", err)
	}
	if _, err := os.Stat(filepath.Join(root, "skills", "pdf", "notes", "kept.md")); err != nil {
		t.Errorf("a file beside a removed one is gone: %v", err)
	}

	// Written again, nothing changes, but a changed executable bit.
	os.Chmod(filepath.Join(root, "skills", "pdf", "scripts", "fill.py"), 0o644)
	w = NewSkillWriter(root, "skills", WriteOptions{Force: true})
	w.AddExact("pdf", map[string]FileData{
		skillmd.FileName:  {Data: []byte(upstreamMD)},
		"scripts/fill.py": {Data: []byte("fill()\n"), Exec: true},
	}, nil)
	res, err = w.Write()
	if err != nil || !reflect.DeepEqual(res[0].Written, []string{"scripts/fill.py"}) {
		t.Fatalf("Write = %+v, %v; want only the file whose mode changed written", res, err)
	}
}

func TestSkillWriterExactRefuses(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, "skillsync.yaml"), "space: ab12\n")
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "SKILL.md"), "committed")
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "edited.md"), "committed")
	commitRepo(t, root)
	writeTestFile(t, filepath.Join(root, "skills", "pdf", "edited.md"), "local work")
	symlink(t, "/etc", filepath.Join(root, "skills", "pdf", "link"))
	before := snapshot(t, root)

	// Paths unsafe in themselves: the skill is not queued at all.
	w := NewSkillWriter(root, "skills", WriteOptions{})
	w.AddExact("pdf", map[string]FileData{
		"a:b.md":         {Data: []byte("x")},
		"../out.md":      {Data: []byte("x")},
		".git/hooks":     {Data: []byte("x")},
		".gitattributes": {Data: []byte("* binary\n")}, // skipped alone
		"prn.txt":        {Data: []byte("x")},          // skipped alone
	}, []string{".gitmodules"}) // removing one is fine
	_, err := w.Write()
	var re *RefusedError
	if !errors.As(err, &re) {
		t.Fatalf("Write = %v, want a refusal", err)
	}
	for _, p := range []string{"a:b.md", "../out.md", ".git/hooks"} {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("refusal does not name %s:\n%v", p, err)
		}
	}

	// A symlink on the way, and the removal of local work.
	w = NewSkillWriter(root, "skills", WriteOptions{})
	w.AddExact("pdf", map[string]FileData{"link/x.md": {Data: []byte("x")}}, []string{"edited.md", "SKILL.md"})
	_, err = w.Write()
	if !errors.As(err, &re) {
		t.Fatalf("Write = %v, want a refusal", err)
	}
	if !reflect.DeepEqual(re.Modified, []string{"skills/pdf/edited.md"}) {
		t.Errorf("modified %q, want the removal of the edited file refused (the committed one may go)", re.Modified)
	}
	if len(re.Unsafe) != 1 || re.Unsafe[0].Path != "skills/pdf/link" {
		t.Errorf("unsafe %v, want the symlink", re.Unsafe)
	}
	if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
		t.Errorf("files changed on refusal")
	}
}

func TestCheckLocalPath(t *testing.T) {
	for _, ok := range []string{"SKILL.md", "Reference Guide.md", "scripts/run.py", "données/é.md", ".hidden"} {
		if err := CheckLocalPath(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "/abs", "a//b", "a/./b", "a/../b", "..", "a\\b", "a:b", "tab\there", "q?", "a\x00b", "\xff"} {
		if err := CheckLocalPath(bad); err == nil {
			t.Errorf("%q passes", bad)
		}
	}
}
