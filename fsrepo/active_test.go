package fsrepo

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
)

// activeRepo writes a repository of n enabled skills, s01 to sNN, and
// the skillsync.yaml cfg.
func activeRepo(t *testing.T, n int, cfg string) *Repo {
	t.Helper()
	root := t.TempDir()
	writeTestFile(t, filepath.Join(root, config.FileName), cfg)
	for i := 1; i <= n; i++ {
		slug := fmt.Sprintf("s%02d", i)
		writeTestFile(t, filepath.Join(root, "skills", slug, "SKILL.md"),
			fmt.Sprintf("---\nname: %s\ndescription: Skill %d. Use when testing the limit.\n---\nBody.\n", slug, i))
	}
	repo, _, err := Load(context.Background(), root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return repo
}

// TestActiveLimit: more than 40 enabled skills in a target, after its
// overrides, is an error naming the target and the count; 40 is not.
func TestActiveLimit(t *testing.T) {
	for _, tc := range []struct {
		name, cfg string
		n         int
		want      []string // one message fragment per diagnostic
	}{
		{"40 is the limit", "space: ab12\n", 40, nil},
		{"41 is over", "space: ab12\n", 41, []string{"the repository asks for 41 enabled skills, 1 over the limit of 40"}},
		{"an override brings a target under", "targets:\n  a: {space: aa01}\n  b:\n    space: bb01\n    enabled: {s01: false, s02: false}\n", 42,
			[]string{"target a asks for 42 enabled skills, 2 over"}},
		{"an exclude brings a target under", "targets:\n  a:\n    space: aa01\n    exclude: [\"s4*\"]\n", 45, nil},
		{"an ignored enabled asks for nothing", "space: ab12\nignore:\n  - skills: [\"s0*\"]\n    fields: [enabled]\n", 45, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds := ActiveLimit(activeRepo(t, tc.n, tc.cfg))
			if len(ds) != len(tc.want) {
				t.Fatalf("%d diagnostics, want %d: %v", len(ds), len(tc.want), ds)
			}
			for i, d := range ds {
				if !strings.Contains(d.Message, tc.want[i]) || d.Code != "active-limit" || d.Hint == "" {
					t.Errorf("%s (hint %q), want %q", d, d.Hint, tc.want[i])
				}
			}
		})
	}
}
