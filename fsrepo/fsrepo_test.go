package fsrepo

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
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
	if _, err := os.Stat(filepath.Join(dir, config.FileName)); err == nil {
		return Load(context.Background(), abs, LoadOptions{})
	}
	cfg, err := config.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	return loadWorkTree(context.Background(), abs, cfg, nil, "", checks{lint: cfg.Lint})
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
		if err := os.WriteFile(filepath.Join(root, config.FileName), []byte("space: ab12\nskillsDir: nope\n"), 0o644); err != nil {
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
