package fsrepo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/spec"
)

// FuzzParseSkillMD checks that no SKILL.md makes the parser panic, that
// every diagnostic points inside the file, and that the instructions are
// canonical.
func FuzzParseSkillMD(f *testing.F) {
	seeds, _ := filepath.Glob("../testdata/skillmd/*/skills/*/SKILL.md")
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil && len(data) < 4096 {
			f.Add(data)
		}
	}
	for _, s := range []string{"", "---", "---\n", "\uFEFF---\r\n---\r\n", "---\nname: [\n---\n", "---\na: &x 1\nb: *x\n---\n",
		"---\n? [a, b]\n: c\n---\n", "---\nname: !!binary aGk=\n---\n", "\n\n---\n\n---\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sk, ds := ParseSkillMD("skills/x/SKILL.md", data)
		lines := 1 + strings.Count(string(data), "\n")
		for _, d := range ds {
			if d.Line < 1 || d.Line > lines || d.Col < 1 {
				t.Errorf("diagnostic outside the file (%d lines): %v", lines, d)
			}
			if d.Path != "skills/x/SKILL.md" || d.Message == "" || d.Code == "" {
				t.Errorf("incomplete diagnostic %+v", d)
			}
		}
		if spec.Canonical(sk.Instructions) != sk.Instructions {
			t.Errorf("instructions not canonical: %q", sk.Instructions)
		}
		if !utf8.ValidString(sk.Instructions) || !utf8.ValidString(sk.Name) || !utf8.ValidString(sk.Description) {
			t.Error("invalid UTF-8 in the parsed skill")
		}
		if !ds.HasErrors() {
			if spec.CheckName(sk.Name) != nil || spec.CheckDescription(sk.Description) != nil || spec.CheckInstructions(sk.Instructions) != nil {
				t.Errorf("no error, yet the service would refuse %+v", sk)
			}
		}
	})
}

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
			"link":         {rel: "link", link: true, data: []byte(target)},
			"docs/ref.md":  {rel: "docs/ref.md", data: []byte("ref")},
			"loop":         {rel: "loop", link: true, data: []byte("loop")},
			SkillFile:      {rel: SkillFile, data: []byte("---\n---\n")},
			"docs/up-link": {rel: "docs/up-link", link: true, data: []byte("../" + target)},
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
