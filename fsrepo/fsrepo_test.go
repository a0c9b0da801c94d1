package fsrepo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/spec"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/skillmd")

// TestSkillMDCases loads each case of testdata/skillmd (a small repository:
// skills/<slug>/..., with skillsync.yaml when the defaults do not do) and
// compares the diagnostics and the skills with <case>.golden.
func TestSkillMDCases(t *testing.T) {
	dirs, err := filepath.Glob("../testdata/skillmd/*")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			repo, ds, err := loadCase(t, dir)
			got := renderCase(repo, ds, err)
			golden := dir + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./fsrepo -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs; got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
	if n < 30 {
		t.Errorf("only %d cases in testdata/skillmd", n)
	}
}

// loadCase loads a case with its skillsync.yaml, or with the default
// configuration when it has none.
func loadCase(t *testing.T, dir string) (*Repo, diag.Diagnostics, error) {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
		return Load(context.Background(), abs, LoadOptions{})
	}
	cfg, err := parseConfig(ConfigFile, nil)
	if err != nil {
		t.Fatal(err)
	}
	return loadWorkTree(context.Background(), abs, cfg, nil, "")
}

func renderCase(repo *Repo, ds diag.Diagnostics, err error) string {
	var b bytes.Buffer
	if err != nil {
		fmt.Fprintf(&b, "load error: %v\n", err)
		return b.String()
	}
	b.WriteString("# diagnostics\n")
	for _, d := range ds {
		b.WriteString(d.String() + "\n")
		if d.Hint != "" {
			b.WriteString("\thint: " + d.Hint + "\n")
		}
	}
	b.WriteString("# skills\n")
	for _, sk := range repo.Skills {
		fmt.Fprintf(&b, "%s (%s) invalid=%t\n", sk.Slug, sk.Path, sk.Invalid)
		desc := fmt.Sprintf("%q", sk.Description)
		if len(sk.Description) > 100 {
			desc = fmt.Sprintf("%q... (%d UTF-16 units)", string([]rune(sk.Description)[:40]), spec.UTF16Len(sk.Description))
		}
		fmt.Fprintf(&b, "\tname: %q\n\tdescription: %s\n\tenabled: %t\n", sk.Name, desc, sk.Enabled)
		if len(sk.Extra) > 0 {
			keys := make([]string, 0, len(sk.Extra))
			for k := range sk.Extra {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				j, _ := json.Marshal(sk.Extra[k])
				fmt.Fprintf(&b, "\textra %s: %s\n", k, j)
			}
		}
		first, _, _ := strings.Cut(sk.Instructions, "\n")
		if len(first) > 60 {
			first = first[:60] + "..."
		}
		fmt.Fprintf(&b, "\tinstructions: %d UTF-16 units, %d lines, first line %q\n",
			spec.UTF16Len(sk.Instructions), strings.Count(sk.Instructions, "\n"), first)
		for _, f := range sk.Files {
			kind := "text"
			if f.Binary {
				kind = "binary"
			}
			fmt.Fprintf(&b, "\tfile %s: %d bytes, %s, sha256 %s\n", f.Path, f.Size, kind, f.SHA256[:12])
		}
	}
	return b.String()
}

func TestSlugify(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"PDF Processing", "pdf-processing"},
		{"  Hello,  World!! ", "hello-world"},
		{"sql-style", "sql-style"},
		{"my_skill", "my-skill"},
		{"Café 2", "caf-2"},
		{"---", "skill"},
		{"日本語", "skill"},
	} {
		if got := Slugify(tc.in); got != tc.want {
			t.Errorf("Slugify(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestFindRoot(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := FindRoot(sub); !errors.Is(err, ErrNoConfig) || !strings.Contains(err.Error(), "--dir") {
		t.Errorf("FindRoot without config: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte("space: ab12\n"), 0o644); err != nil {
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
			if err := os.WriteFile(filepath.Join(outer, ConfigFile), []byte("space: ab12\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			inner := filepath.Join(outer, "nested", "new-repo")
			sub := filepath.Join(inner, "a")
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			tc.git(t, inner)
			for _, start := range []string{inner, sub} {
				if got, err := FindRoot(start); !errors.Is(err, ErrNoConfig) || !strings.Contains(err.Error(), inner) {
					t.Errorf("FindRoot(%s) = %q, %v; want ErrNoConfig naming %s", start, got, err, inner)
				}
			}
			// The work tree's own skillsync.yaml is found, at its root too.
			if err := os.WriteFile(filepath.Join(inner, ConfigFile), []byte("space: cd34\n"), 0o644); err != nil {
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
		{name: "bad percent", in: "maxDisablePercent: 130\n", err: "skillsync.yaml:1: maxDisablePercent must be 0 to 100"},
		{name: "bad type", in: "maxDisablePercent: lots\n", err: `skillsync.yaml:1: maxDisablePercent must be a whole number, not "lots"; for example maxDisablePercent: 30`},
		{name: "fraction", in: "maxDisablePercent: 12.5\n", err: `skillsync.yaml:1: maxDisablePercent must be a whole number, not "12.5"`},
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
			if err := os.WriteFile(filepath.Join(dir, ConfigFile), []byte(tc.in), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadConfig(dir)
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
	if _, err := ReadConfig(t.TempDir()); !errors.Is(err, ErrNoConfig) {
		t.Errorf("missing config: %v", err)
	}
}

// TestMissingSkillsDir: a skills folder that does not exist is a
// diagnostic naming it, in a git repository or not, never a raw error.
func TestMissingSkillsDir(t *testing.T) {
	for _, withGit := range []bool{false, true} {
		root := t.TempDir()
		if withGit {
			if _, err := git.PlainInit(root, false); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(root, ConfigFile), []byte("space: ab12\nskillsDir: nope\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, diags, err := Load(context.Background(), root, LoadOptions{})
		if err != nil {
			t.Errorf("git %t: Load: %v, want a diagnostic instead", withGit, err)
		}
		if len(diags) != 1 || diags[0].Code != "skills-dir-missing" || diags[0].Path != "nope" {
			t.Errorf("git %t: diagnostics %v, want one skills-dir-missing of nope", withGit, diags)
		}
	}
}

// TestParallelReturnsAPanic: a panic in a worker, which Go would turn
// into the end of the process with exit code 2 (skillsync's "changes"),
// is the error of parallel, which the command line reports as a bug; the
// calls not yet started are not made.
func TestParallelReturnsAPanic(t *testing.T) {
	var calls atomic.Int32
	err := parallel(context.Background(), 10000, func(i int) error {
		calls.Add(1)
		if i == 42 {
			panic("planted bug")
		}
		time.Sleep(time.Millisecond) // all calls take 10 s together
		return nil
	})
	var be *bug.Error
	if !errors.As(err, &be) || be.Value != "planted bug" {
		t.Fatalf("parallel returned %v (%T), want the worker's panic as a *bug.Error", err, err)
	}
	if n := calls.Load(); n > 1000 {
		t.Errorf("%d calls were made, most of them after the panic", n)
	}
}
