package fsrepo

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/spec"
)

// FuzzPathRules checks the path rules of a skill folder: supporting file
// paths, symlink targets and slugs. A symlink is followed only to a file of
// the skill folder.
func FuzzPathRules(f *testing.F) {
	for _, s := range []string{"scripts/run.py", "../x", "/etc/passwd", "a//b", "./a", "a/../../b", "C:\\x", "données.txt",
		"docs", "link", "a/./b", strings.Repeat("a/", 300), "..", "."} {
		f.Add(s, "Skill Name")
	}
	f.Fuzz(func(t *testing.T, target, name string) {
		// A supporting file at the fuzzed path that the path rules accept
		// has a path git and the files endpoint both take.
		if spec.CheckFilePath(target) == nil {
			if strings.Contains(target, "..") {
				t.Fatalf("CheckFilePath accepted %q, which holds \"..\"", target)
			}
			for _, seg := range strings.Split(target, "/") {
				if seg == "" || seg == "." || seg == ".." {
					t.Fatalf("CheckFilePath accepted %q", target)
				}
			}
		}
		byRel := map[string]*entry{
			"link":           {rel: "link", link: true, data: []byte(target)},
			"docs/ref.md":    {rel: "docs/ref.md", data: []byte("ref")},
			"loop":           {rel: "loop", link: true, data: []byte("loop")},
			skillmd.FileName: {rel: skillmd.FileName, data: []byte("---\n---\n")},
			"docs/up-link":   {rel: "docs/up-link", link: true, data: []byte("../" + target)},
		}
		fe := &folderEntries{byRel: byRel}
		for _, rel := range []string{"link", "docs/up-link"} {
			var codes []string
			e, ok := fe.resolve(rel, "skills/s", func(p, code, hint, format string, args ...any) { codes = append(codes, code) })
			if ok == (len(codes) > 0) {
				t.Fatalf("resolve(%q -> %q): ok=%t with errors %v", rel, target, ok, codes)
			}
			if ok && string(e.data) != "ref" && string(e.data) != "---\n---\n" {
				t.Fatalf("resolve(%q -> %q) read %q, which is no file of the folder", rel, target, e.data)
			}
		}
		s := Slugify(name)
		if s != "" && !names.URLSafe(s) || Slugify(s) != s || strings.Contains(s, "--") {
			t.Fatalf("Slugify(%q) = %q", name, s)
		}
	})
}
