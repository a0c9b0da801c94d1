// Command compare prints, for each skill folder named on its command line,
// the verdicts of skillsync's agentskills lint profile on the rules that
// skills-ref, the Agent Skills reference validator, also checks: one JSON
// object a line. compare.py runs skills-ref on the same folders and
// compares the two (see ../README.md).
//
//	go run ./testdata/agentskills/compare DIR...
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/lint"
)

// A verdict is what the profile says of a skill folder.
type verdict struct {
	Dir string `json:"dir"`
	// NameOK: no diagnostic of the name's rules (the format's, and the
	// service's missing or empty name).
	NameOK bool `json:"name_ok"`
	// UnknownKeys are the frontmatter keys reported unknown, sorted.
	UnknownKeys []string `json:"unknown_keys"`
	// Compatibility: compatibility-invalid reported.
	CompatibilityOK bool `json:"compatibility_ok"`
	// Diagnostics are all the diagnostics of SKILL.md.
	Diagnostics []string `json:"diagnostics"`
}

const config = "skillsDir: skills\nlint:\n  profile: agentskills\n"

func main() {
	enc := json.NewEncoder(os.Stdout)
	for _, dir := range os.Args[1:] {
		v, err := check(dir)
		if err != nil {
			fmt.Fprintf(os.Stderr, "compare: %s: %v\n", dir, err)
			os.Exit(1)
		}
		enc.Encode(v)
	}
}

func check(dir string) (verdict, error) {
	v := verdict{Dir: dir, NameOK: true, CompatibilityOK: true, UnknownKeys: []string{}, Diagnostics: []string{}}
	tmp, err := os.MkdirTemp("", "compare")
	if err != nil {
		return v, err
	}
	defer os.RemoveAll(tmp)
	abs, err := filepath.Abs(dir)
	if err != nil {
		return v, err
	}
	slug := filepath.Base(abs)
	if err := os.WriteFile(filepath.Join(tmp, fsrepo.ConfigFile), []byte(config), 0o644); err != nil {
		return v, err
	}
	// Only SKILL.md: the rules compared read nothing else.
	data, err := os.ReadFile(filepath.Join(abs, skillmd.FileName))
	if err != nil {
		return v, err
	}
	into := filepath.Join(tmp, "skills", slug)
	if err := os.MkdirAll(into, 0o755); err != nil {
		return v, err
	}
	if err := os.WriteFile(filepath.Join(into, skillmd.FileName), data, fs.FileMode(0o644)); err != nil {
		return v, err
	}
	_, ds, err := fsrepo.Load(context.Background(), tmp, fsrepo.LoadOptions{})
	if err != nil {
		return v, err
	}
	for _, d := range ds {
		v.Diagnostics = append(v.Diagnostics, d.String())
		switch d.Code {
		case lint.RuleNameFormat, lint.RuleNameFolder, "name-missing", "name-empty":
			v.NameOK = false
		case lint.RuleKeyUnknown:
			var key string
			if _, err := fmt.Sscanf(d.Message, "key %q", &key); err != nil {
				return v, fmt.Errorf("no key in %q", d.Message)
			}
			v.UnknownKeys = append(v.UnknownKeys, key)
		case lint.RuleCompatibility:
			v.CompatibilityOK = false
		}
	}
	sort.Strings(v.UnknownKeys)
	return v, nil
}
