package lint

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sync/errgroup"
)

// maxCorpusFile is the largest file a measurement reads; larger ones are
// data, not what an agent reads.
const maxCorpusFile = 4 << 20

// A corpusSkill is a skill folder read from disk.
type corpusSkill struct {
	dir   string
	files []File
	size  int
}

// readCorpus reads every skill folder (a folder holding SKILL.md) under
// root; a file belongs to the nearest skill folder above it.
func readCorpus(root string) ([]corpusSkill, error) {
	skillDirs := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && d.Name() == "SKILL.md" {
			skillDirs[filepath.Dir(p)] = true
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []corpusSkill
	for dir := range skillDirs {
		sk := corpusSkill{dir: dir}
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != dir && (skillDirs[p] || d.Name() == ".git" || d.Name() == "node_modules") {
					return filepath.SkipDir
				}
				return nil
			}
			info, err := d.Info()
			if err != nil || !info.Mode().IsRegular() || info.Size() > maxCorpusFile {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			sk.files = append(sk.files, File{Path: filepath.ToSlash(rel), Data: data})
			sk.size += len(data)
			return nil
		})
		out = append(out, sk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].dir < out[j].dir })
	return out, nil
}

// TestMeasureCorpus measures false alarms on real skills: set
// SKILLSYNC_LINT_CORPUS to folders (comma-separated) holding skill
// folders, each counted apart. It prints, per folder, the share of skills
// with an error and with any finding, and the rules behind them; with
// SKILLSYNC_LINT_REPORT set it writes every error and warning to that file.
func TestMeasureCorpus(t *testing.T) {
	roots := os.Getenv("SKILLSYNC_LINT_CORPUS")
	if roots == "" {
		t.Skip("set SKILLSYNC_LINT_CORPUS to folders of skill folders")
	}
	j := New(Options{})
	var report *os.File
	if p := os.Getenv("SKILLSYNC_LINT_REPORT"); p != "" {
		var err error
		if report, err = os.Create(p); err != nil {
			t.Fatal(err)
		}
		defer report.Close()
	}
	var mu sync.Mutex
	for _, root := range strings.Split(roots, ",") {
		skills, err := readCorpus(root)
		if err != nil {
			t.Fatal(err)
		}
		results := make([][]Finding, len(skills))
		g, _ := errgroup.WithContext(context.Background())
		g.SetLimit(runtime.GOMAXPROCS(0))
		for i := range skills {
			g.Go(func() error {
				results[i] = j.Skill(skills[i].files)
				return nil
			})
		}
		g.Wait()
		var withErr, withAny int
		errRules, anyRules := map[string]int{}, map[string]int{}
		for i, fs := range results {
			m := strongest(fs)
			if len(m) == 0 {
				continue
			}
			hasErr := false
			for r, sev := range m {
				if sev >= SeverityWarning {
					anyRules[r]++
				}
				if sev == SeverityError {
					errRules[r]++
					hasErr = true
				}
			}
			if hasErr {
				withErr++
			}
			if len(rulesAt(m, SeverityError))+len(rulesAt(m, SeverityWarning)) > 0 {
				withAny++
			}
			if report != nil {
				mu.Lock()
				for _, f := range fs {
					if f.Severity >= SeverityWarning {
						fmt.Fprintf(report, "%s\t%s/%s\n\t%s\n\tmatch: %s\n", f.Severity, skills[i].dir, f, f.Message, f.Match)
					}
				}
				mu.Unlock()
			}
		}
		n := max(len(skills), 1)
		t.Logf("%s: %d skills; with an error %d (%.2f%%), with any finding %d (%.2f%%)\n\terrors by rule: %v\n\tany by rule: %v",
			root, len(skills), withErr, 100*float64(withErr)/float64(n), withAny, 100*float64(withAny)/float64(n), top(errRules), top(anyRules))
	}
}

// top lists the counts of m, largest first.
func top(m map[string]int) string {
	type kv struct {
		k string
		v int
	}
	var kvs []kv
	for k, v := range m {
		kvs = append(kvs, kv{k, v})
	}
	sort.Slice(kvs, func(i, j int) bool { return kvs[i].v > kvs[j].v || kvs[i].v == kvs[j].v && kvs[i].k < kvs[j].k })
	var b []string
	for _, x := range kvs {
		b = append(b, fmt.Sprintf("%s %d", x.k, x.v))
	}
	return strings.Join(b, ", ")
}
