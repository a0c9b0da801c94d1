package fsrepo

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
)

// TestValidateUnportableNames: names a checkout on Windows or macOS cannot
// hold as written (device names, trailing dots and spaces, two names that
// differ only in case) are errors of validate, at each such file: the
// writer refuses them, and a teammate's checkout would lose or refuse them.
func TestValidateUnportableNames(t *testing.T) {
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, config.FileName), "space: ab12\n")
	md := "---\nname: a\ndescription: Does a. Use when asked for a.\n---\nBody.\n"
	for rel, content := range map[string]string{
		"skills/a/SKILL.md":      md,
		"skills/a/skill.md":      "lower case",
		"skills/a/con.md":        "a device",
		"skills/a/Notes /x.md":   "a trailing space",
		"skills/a/docs./y.md":    "a trailing dot",
		"skills/a/Refs/one.md":   "one",
		"skills/a/refs/two.md":   "two",
		"skills/aux/SKILL.md":    strings.ReplaceAll(md, "name: a", "name: aux"),
		"skills/fine/SKILL.md":   strings.ReplaceAll(md, "name: a", "name: fine"),
		"skills/fine/readme.txt": "fine",
		"skills/Fine/SKILL.md":   strings.ReplaceAll(md, "name: a", "name: Fine"),
	} {
		writeTestFile(t, filepath.Join(root, filepath.FromSlash(rel)), content)
	}
	_, ds, err := Load(context.Background(), root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Code == "path-unportable" {
			if d.Severity != diag.SeverityError {
				t.Errorf("%s: %s, want an error", d.Path, d.Severity)
			}
			got = append(got, d.Path+": "+d.Message)
		}
	}
	slices.Sort(got)
	want := []string{
		`skills/a/Notes /x.md: the name "Notes " ends with a space, which Windows drops: a checkout there cannot hold it`,
		`skills/a/con.md: the name "con.md" is a device name on Windows, where a checkout cannot hold it`,
		`skills/a/docs./y.md: the name "docs." ends with a dot, which Windows drops: a checkout there cannot hold it`,
		`skills/a/refs/two.md: refs differs only in case from Refs: a checkout on Windows or macOS holds only one of them`,
		`skills/a/skill.md: skill.md differs only in case from SKILL.md: a checkout on Windows or macOS holds only one of them`,
		`skills/aux: the name "aux" is a device name on Windows, where a checkout cannot hold it`,
		`skills/fine: skills/fine differs only in case from skills/Fine: a checkout on Windows or macOS holds only one of them`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
