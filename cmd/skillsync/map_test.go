package main

import (
	"go/build"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/skillsync/skillsync"

// TestPackageMap holds the map of packages in docs/development.md
// true: the packages of the module, with their imports (tests
// left out), reach only what the map's arrows allow.
func TestPackageMap(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	imports := map[string][]string{} // package -> the module's packages it imports
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if path != root {
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // another module (tools)
			}
		}
		p, err := build.ImportDir(path, 0)
		if _, none := err.(*build.NoGoError); none {
			return nil
		}
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		name := filepath.ToSlash(rel)
		for _, imp := range p.Imports {
			if imp == module {
				imports[name] = append(imports[name], ".")
			} else if r, ok := strings.CutPrefix(imp, module+"/"); ok {
				imports[name] = append(imports[name], r)
			}
		}
		if _, ok := imports[name]; !ok {
			imports[name] = nil
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	reach := func(from string) []string {
		seen := map[string]bool{}
		var walk func(string)
		walk = func(p string) {
			for _, q := range imports[p] {
				if !seen[q] {
					seen[q] = true
					walk(q)
				}
			}
		}
		walk(from)
		var out []string
		for p := range seen {
			out = append(out, p)
		}
		slices.Sort(out)
		return out
	}
	// What each package may reach, the module's packages only; internal/...
	// stands for any package under internal/.
	allowed := map[string][]string{
		"spec":                         nil,
		"internal/...":                 {"internal/..."},
		"fsrepo/diag":                  {"spec"},
		"fsrepo/skillmd":               {"fsrepo/diag", "spec", "internal/..."},
		"lint":                         {"fsrepo/skillmd", "fsrepo/diag", "spec", "internal/..."},
		"fsrepo/skillignore":           {"fsrepo/skillmd", "fsrepo/diag", "spec", "internal/..."},
		"fsrepo/config":                {"fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "spec", "internal/..."},
		"fsrepo":                       {"fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "spec", "internal/..."},
		"remote":                       {"spec", "internal/..."},
		"remote/remotetest":            {"remote", "spec", "internal/..."},
		"remote/remotetest/testserver": {"remote/remotetest", "remote", "spec", "internal/..."},
		"reconcile/diff":               nil,
		"reconcile/fetch":              {"fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile":                    {"reconcile/fetch", "reconcile/diff", "fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile/render":             {"reconcile/planfile", "reconcile", "reconcile/fetch", "reconcile/diff", "fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile/planfile":           {"reconcile", "reconcile/fetch", "reconcile/diff", "fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile/journal":            {"reconcile", "reconcile/fetch", "reconcile/diff", "fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile/pull":               {"fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"reconcile/reconciletest":      {"remote/remotetest/testserver", "remote/remotetest", "fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "remote", "spec", "internal/..."},
		"vendored":                     {"fsrepo", "fsrepo/config", "fsrepo/skillignore", "lint", "fsrepo/skillmd", "fsrepo/diag", "spec", "internal/..."},
	}
	may := func(rule []string, p string) bool {
		return slices.Contains(rule, p) || strings.HasPrefix(p, "internal/") && slices.Contains(rule, "internal/...")
	}
	for pkg := range imports {
		rule, ok := allowed[pkg]
		if !ok && strings.HasPrefix(pkg, "internal/") {
			rule, ok = allowed["internal/..."]
		}
		if !ok {
			continue // cmd/skillsync and the root package may use them all
		}
		for _, p := range reach(pkg) {
			if !may(rule, p) {
				t.Errorf("%s reaches %s, against the map of docs/development.md", pkg, p)
			}
		}
	}
	for _, must := range []string{"spec", "fsrepo", "remote", "remote/remotetest", "reconcile", "reconcile/render", "reconcile/diff", "reconcile/fetch", "reconcile/pull", "reconcile/journal", "reconcile/planfile", "vendored", "cmd/skillsync", "internal/github"} {
		if _, ok := imports[must]; !ok {
			t.Errorf("no package %s: the map names it", must)
		}
	}
}
