package skillmd

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/skillsync/skillsync/spec"
)

// TestSuggestNameLongInput: the suggestion for a huge invalid name still
// fits the service's limit, and is cut to it at once, not a character at
// a time, which cost the square of the name.
func TestSuggestNameLongInput(t *testing.T) {
	got := suggestName(strings.Repeat("ab_", 20000))
	if n := spec.UTF16Len(got); n == 0 || n > spec.MaxNameLen {
		t.Fatalf("suggestName gave %d units: %q", n, got)
	}
	if err := spec.CheckName(got); err != nil {
		t.Fatalf("suggestion %q is not a valid name: %v", got, err)
	}
	lineartest.Allocs(t, 2000, func(n int) { suggestName(strings.Repeat("ab_", n)) })
}

// TestNonASCIINameWarns: a name with non-ASCII letters passes the rule as
// written ("letters, digits") but draws a warning, since the service may
// accept only ASCII ones (the emulator does).
func TestNonASCIINameWarns(t *testing.T) {
	_, ds := Parse("skills/cafe/SKILL.md", []byte("---\nname: Café Menu\ndescription: d\n---\nbody\n"))
	if ds.HasErrors() {
		t.Fatalf("errors for a non-ASCII name: %v", ds)
	}
	if len(ds) != 1 || ds[0].Code != "name-non-ascii" || ds[0].Line != 2 {
		t.Fatalf("diagnostics %v, want one name-non-ascii warning on line 2", ds)
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

// TestYAMLErrorLinesAreFileLines: a line that yaml.v3 names inside its
// message ("already defined at line N") is a line of the file, as the
// position of the diagnostic is, not of the frontmatter block.
func TestYAMLErrorLinesAreFileLines(t *testing.T) {
	in := "---\nname: A\ndescription: d\nmetadata:\n  a: 1\n  a: 2\n---\nbody\n"
	_, ds := Parse("skills/a/SKILL.md", []byte(in))
	if len(ds) != 1 || ds[0].Line != 6 || !strings.Contains(ds[0].Message, `mapping key "a" already defined at line 5`) {
		t.Fatalf("diagnostics %v, want one at line 6 saying the key was first defined at line 5", ds)
	}
}

// TestTypoKeys: a misspelt key draws a warning naming the key meant; a
// plural or singular of a known key is a key of its own, written on
// purpose.
func TestTypoKeys(t *testing.T) {
	for key, want := range map[string]string{
		"agents": "", "tag": "", "models": "", "hook": "",
		"agnet": "agent", "licence": "license", "allowed_tools": "allowed-tools", "Description": "description",
	} {
		in := "---\nname: A\ndescription: d\n" + key + ": x\n---\nbody\n"
		_, ds := Parse("skills/a/SKILL.md", []byte(in))
		var got string
		for _, d := range ds {
			if d.Code == "frontmatter-key-typo" {
				got = d.Message
			}
		}
		switch {
		case want == "" && got != "":
			t.Errorf("%s: %s", key, got)
		case want != "" && !strings.Contains(got, `typo of "`+want+`"`):
			t.Errorf("%s: warning %q, want one naming %q", key, got, want)
		}
	}
}

// TestSurrogatePairs: JSON-style surrogate pair escapes are valid YAML
// 1.2, in the fields skillsync reads and in the keys it ignores; half a
// pair is an error at its place, saying what to write.
func TestSurrogatePairs(t *testing.T) {
	in := "---\nname: Stars\ndescription: \"Look up \\uD83D\\uDD2D\"\nmetadata:\n  icon: \"\\ud83c\\udf89\"\n---\nbody\n"
	sk, ds := Parse("skills/stars/SKILL.md", []byte(in))
	if len(ds) != 0 {
		t.Fatalf("diagnostics %v", ds)
	}
	if sk.Description != "Look up 🔭" || sk.Extra["metadata"].(map[string]any)["icon"] != "🎉" {
		t.Errorf("read %q and %v", sk.Description, sk.Extra)
	}

	in = "---\nname: Stars\ndescription: \"Look up \\uD83D x\"\n---\nbody\n"
	_, ds = Parse("skills/stars/SKILL.md", []byte(in))
	if len(ds) != 1 || ds[0].Line != 3 || ds[0].Col != 23 || ds[0].Severity != diag.SeverityError ||
		!strings.Contains(ds[0].Message, `\uD83D is the first half of a UTF-16 surrogate pair`) || !strings.Contains(ds[0].Hint, `\U0001F600`) {
		t.Errorf("diagnostics %v, want one error at 3:23 about half a pair", ds)
	}
}

// FuzzParse checks that no SKILL.md makes the parser panic, that
// every diagnostic points inside the file, and that the instructions are
// canonical.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("../../testdata/skillmd/*/skills/*/SKILL.md")
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
		sk, ds := Parse("skills/x/SKILL.md", data)
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
