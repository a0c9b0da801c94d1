// Command survey runs every lint rule, each at warning, on the skill
// folders under the folders named on its command line (each folder
// holding a SKILL.md, at any depth), and prints how many skills each rule
// flags, per folder named; with -v, every diagnostic too. It measures the
// rules on real collections (see ../README.md).
//
//	go run ./testdata/agentskills/survey [-v] COLLECTION...
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/lint"
)

func main() {
	verbose := flag.Bool("v", false, "print every diagnostic")
	flag.Parse()
	var cfg strings.Builder
	cfg.WriteString("skillsDir: skills\nlint:\n  rules:\n")
	for _, r := range lint.Rules {
		if !r.Security {
			fmt.Fprintf(&cfg, "    %s: warning\n", r.Name)
		}
	}
	for _, coll := range flag.Args() {
		var dirs []string
		filepath.WalkDir(coll, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Name() == skillmd.FileName {
				dirs = append(dirs, filepath.Dir(p))
			}
			return nil
		})
		flagged := map[string]int{}
		for _, dir := range dirs {
			ds, err := load(dir, cfg.String())
			if err != nil {
				fmt.Fprintf(os.Stderr, "survey: %s: %v\n", dir, err)
				os.Exit(1)
			}
			seen := map[string]bool{}
			for _, d := range ds {
				if _, ok := rule(d.Code); !ok {
					continue
				}
				if !seen[d.Code] {
					flagged[d.Code]++
					seen[d.Code] = true
				}
				if *verbose {
					fmt.Printf("%s: %s\n", dir, d)
				}
			}
		}
		var codes []string
		for c := range flagged {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		fmt.Printf("%s: %d skills\n", coll, len(dirs))
		for _, c := range codes {
			fmt.Printf("  %-24s %d\n", c, flagged[c])
		}
	}
}

func rule(code string) (lint.Rule, bool) {
	for _, r := range lint.Rules {
		if r.Name == code && !r.Security {
			return r, true
		}
	}
	return lint.Rule{}, false
}

// load copies the skill folder dir into a repository of its own, whose
// skillsync.yaml is cfg, and loads it.
func load(dir, cfg string) (diag.Diagnostics, error) {
	tmp, err := os.MkdirTemp("", "survey")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, fsrepo.ConfigFile), []byte(cfg), 0o644); err != nil {
		return nil, err
	}
	into := filepath.Join(tmp, "skills", filepath.Base(dir))
	if err := os.CopyFS(into, os.DirFS(dir)); err != nil {
		return nil, err
	}
	_, ds, err := fsrepo.Load(context.Background(), tmp, fsrepo.LoadOptions{})
	return ds, err
}
