package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFindRoot(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindRoot(sub); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), "--dir") {
		t.Errorf("FindRoot without config: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, FileName), []byte("space: ab12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := FindRoot(sub)
	if err != nil || got != dir {
		t.Errorf("FindRoot = %q, %v; want %q", got, err, dir)
	}
}

// TestFindRootStopsAtGit: a repository made inside another folder holding
// skillsync.yaml (git init in a subfolder, a linked worktree, a
// submodule) is not taken for part of it.
func TestFindRootStopsAtGit(t *testing.T) {
	for _, tc := range []struct {
		name string
		git  func(t *testing.T, dir string)
	}{
		{"git folder", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
				t.Fatal(err)
			}
		}},
		{"git file (worktree, submodule)", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, ".git"), []byte("gitdir: /elsewhere/.git/worktrees/x\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			outer := t.TempDir()
			if err := os.WriteFile(filepath.Join(outer, FileName), []byte("space: ab12\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			inner := filepath.Join(outer, "nested", "new-repo")
			sub := filepath.Join(inner, "a")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.git(t, inner)
			for _, start := range []string{inner, sub} {
				if got, err := FindRoot(start); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), inner) {
					t.Errorf("FindRoot(%s) = %q, %v; want ErrNotFound naming %s", start, got, err, inner)
				}
			}
			// The work tree's own skillsync.yaml is found, at its root too.
			if err := os.WriteFile(filepath.Join(inner, FileName), []byte("space: cd34\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, err := FindRoot(sub); err != nil || got != inner {
				t.Errorf("FindRoot(%s) = %q, %v; want %q", sub, got, err, inner)
			}
			// Above the nested repository, the outer one is found as before.
			if got, err := FindRoot(filepath.Join(outer, "nested")); err != nil || got != outer {
				t.Errorf("FindRoot(nested) = %q, %v; want %q", got, err, outer)
			}
		})
	}
}

func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     Config
		err      string
	}{
		{name: "empty", in: "", want: Config{SkillsDir: "skills", Unmanaged: "ignore", Missing: "error", MaxDisablePercent: 30}},
		{name: "empty sections", in: "agents:\n  publish:\n", want: Config{SkillsDir: "skills", Unmanaged: "ignore", Missing: "error", MaxDisablePercent: 30}},
		{name: "full", in: "baseURL: https://t.example.com\nspace: ab12\nskillsDir: .claude/skills/\nunmanaged: disable\nmissing: warn\nmaxDisablePercent: 0\nagents:\n  publish: [a, b]\n",
			want: Config{BaseURL: "https://t.example.com", Space: "ab12", SkillsDir: ".claude/skills", Unmanaged: "disable", Missing: "warn", MaxDisablePercent: 0, Agents: AgentsConfig{Publish: []string{"a", "b"}}}},
		{name: "unknown key", in: "space: ab12\nskilsDir: x\n", err: `skillsync.yaml:2: unknown key "skilsDir" (did you mean "skillsDir"?)`},
		{name: "unknown nested key", in: "agents:\n  publsh: []\n", err: `skillsync.yaml:2: unknown key "agents.publsh"`},
		{name: "bad enum", in: "unmanaged: delete\nmissing: ignore\n", err: "skillsync.yaml:1: unmanaged must be \"ignore\" or \"disable\", not \"delete\"\nskillsync.yaml:2: missing must be"},
		{name: "bad value below its key", in: "space: ab12\nunmanaged:\n  delete\n", err: "skillsync.yaml:3: unmanaged must be \"ignore\" or \"disable\", not \"delete\""},
		{name: "bad percent", in: "maxDisablePercent: 130\n", err: "skillsync.yaml:1: maxDisablePercent must be 0 to 100"},
		{name: "bad type", in: "maxDisablePercent: lots\n", err: `skillsync.yaml:1: maxDisablePercent must be a whole number, not "lots"; for example maxDisablePercent: 30`},
		{name: "fraction", in: "maxDisablePercent: 12.5\n", err: `skillsync.yaml:1: maxDisablePercent must be a whole number, not "12.5"`},
		{name: "bad excludeFiles glob", in: "space: ab12\nexcludeFiles: [\"docs/[x\"]\n", err: `skillsync.yaml:2: excludeFiles: pattern "docs/[x": "[x" is not a valid glob`},
		{name: "all type errors", in: "missing: [warn]\nagents:\n  publish: bot\nspace: {a: b}\n", err: "skillsync.yaml:1: missing must be a single value, not a list; for example missing: error (or warn)\n" +
			`skillsync.yaml:3: agents.publish must be a list, not "bot"` + "; for example publish: [Support bot, 0b5c...]\n" +
			"skillsync.yaml:4: space must be a single value, not a mapping"},
		{name: "publish as a mapping", in: "agents:\n  publish: {a: [x]}\n", err: "skillsync.yaml:2: agents.publish must be a list, not a mapping"},
		{name: "keys without values count as left out", in: "baseURL:\nspace:\nmaxDisablePercent:\nagents:\n", want: Config{SkillsDir: "skills", Unmanaged: "ignore", Missing: "error", MaxDisablePercent: 30}},
		{name: "alias items", in: "agents:\n  publish: [&bot Support bot, *bot]\n", want: Config{SkillsDir: "skills", Unmanaged: "ignore", Missing: "error", MaxDisablePercent: 30, Agents: AgentsConfig{Publish: []string{"Support bot", "Support bot"}}}},
		{name: "bad list item", in: "agents:\n  publish:\n    - a\n    - {b: 1}\n", err: "skillsync.yaml:4: agents.publish: each item must be an agent id or name, not a mapping"},
		{name: "agents not a mapping", in: "agents: [a]\n", err: "skillsync.yaml:1: agents must be a mapping, not a list"},
		{name: "escaping skillsDir", in: "skillsDir: ../other\n", err: "skillsync.yaml:1: skillsDir"},
		{name: "skillsDir in .git", in: "skillsDir: .git/hooks\n", err: `skillsync.yaml:1: skillsDir ".git/hooks" is inside a .git folder`},
		{name: "skillsDir in .GIT", in: "skillsDir: .GIT\n", err: `skillsync.yaml:1: skillsDir ".GIT" is inside a .git folder`},
		{name: "bad space", in: "space: abcdefgh\n", err: "skillsync.yaml:1: invalid spaceId"},
		{name: "duplicate", in: "space: ab\nspace: cd\n", err: `skillsync.yaml:2: duplicate key "space" (first at line 1)`},
		{name: "not yaml", in: "space: [\n", err: "skillsync.yaml:"},
		{name: "tab indent", in: "space: ab12\nagents:\n\tpublish: [a]\n", err: "skillsync.yaml:3: found character that cannot start any token: YAML does not allow tabs for indentation; indent with spaces"},
		{name: "tab before the first key", in: "\tspace: ab12\n", err: "skillsync.yaml:1: found character that cannot start any token: YAML does not allow tabs"},
		{name: "not a mapping", in: "- a\n", err: "skillsync.yaml:1: must be a mapping"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, FileName), []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := Read(dir)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", tc.want) {
				t.Errorf("got %#v\nwant %#v", got, tc.want)
			}
		})
	}
	if _, err := Read(t.TempDir()); !errors.Is(err, ErrNotFound) {
		t.Errorf("missing config: %v", err)
	}
}
