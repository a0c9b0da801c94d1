// Tests of .pre-commit-hooks.yaml: the hooks pre-commit offers from this
// repository.
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// preCommitHook is a hook as pre-commit's schema has it; the fields it
// requires are id, name, entry and language.
type preCommitHook struct {
	ID            string `yaml:"id"`
	Name          string `yaml:"name"`
	Entry         string `yaml:"entry"`
	Language      string `yaml:"language"`
	PassFilenames *bool  `yaml:"pass_filenames"`
	Files         string `yaml:"files"`
	Description   string `yaml:"description"`
}

// TestPreCommitHooks: .pre-commit-hooks.yaml parses as pre-commit's list
// of hooks; skillsync-validate starts on a change to a SKILL.md or to
// skillsync.yaml, passes no file names, and its entry is a command of the
// binary that `go install ./...` (what pre-commit runs for language
// golang) installs from this repository: built here, it runs the entry
// in a skills repository, exit 0 on a valid one and 1 on an invalid one.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile("../.pre-commit-hooks.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var hooks []preCommitHook
	dec := yaml.NewDecoder(strings.NewReader(string(data)))
	dec.KnownFields(true)
	if err := dec.Decode(&hooks); err != nil {
		t.Fatalf(".pre-commit-hooks.yaml: %v", err)
	}
	var hook *preCommitHook
	for i, h := range hooks {
		if h.ID == "" || h.Name == "" || h.Entry == "" || h.Language == "" {
			t.Errorf("hook %d (%q) lacks one of id, name, entry, language, which pre-commit requires", i, h.ID)
		}
		if h.ID == "skillsync-validate" {
			hook = &hooks[i]
		}
	}
	if hook == nil {
		t.Fatal("no hook skillsync-validate")
	}
	if hook.Language != "golang" || hook.Entry != "skillsync validate" || hook.PassFilenames == nil || *hook.PassFilenames {
		t.Errorf("skillsync-validate: language %q, entry %q, pass_filenames %v; want golang, `skillsync validate`, false", hook.Language, hook.Entry, hook.PassFilenames != nil && *hook.PassFilenames)
	}
	files, err := regexp.Compile(hook.Files)
	if err != nil {
		t.Fatalf("files %q: %v", hook.Files, err)
	}
	for path, want := range map[string]bool{
		"skillsync.yaml":                true,
		"skills/pdf-tools/SKILL.md":     true,
		"SKILL.md":                      true,
		"team/skillsync.yaml":           true,
		"skills/pdf-tools/README.md":    false,
		"skills/pdf-tools/SKILL.md.bak": false,
		"notskillsync.yaml":             false,
		"skills/x/scripts/run.py":       false,
	} {
		if files.MatchString(path) != want {
			t.Errorf("files %q matches %s: %t, want %t", hook.Files, path, !want, want)
		}
	}

	// What `go install ./...` installs: the module's main packages, by
	// the last element of their path.
	out, err := exec.Command("go", "list", "-C", "..", "-f", `{{if eq .Name "main"}}{{.ImportPath}}{{end}}`, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	mains := strings.Fields(string(out))
	entry := strings.Fields(hook.Entry)
	if len(mains) != 1 || filepath.Base(mains[0]) != entry[0] {
		t.Fatalf("go install ./... installs %q; want the one binary the entry names, %s", mains, entry[0])
	}
	bin := filepath.Join(t.TempDir(), entry[0])
	build := exec.Command("go", "build", "-C", "..", "-o", bin, "./"+strings.TrimPrefix(mains[0], "github.com/skillsync/skillsync/"))
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	repo := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skillsync.yaml", "space: ab12\nskillsDir: skills\n")
	write("skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: Fill PDF forms. Use when a PDF form needs filling.\n---\nRead the form, then fill it.\n")
	run := func() (string, int) {
		cmd := exec.Command(bin, entry[1:]...)
		cmd.Dir = repo // pre-commit runs the entry from the repository's top
		cmd.Env = append(os.Environ(), "NO_COLOR=1", "SKILLSYNC_DIR=", "GITHUB_ACTIONS=")
		out, err := cmd.CombinedOutput()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := run(); code != 0 {
		t.Fatalf("%s on a valid repository: exit %d\n%s", hook.Entry, code, out)
	}
	write("skills/pdf-tools/SKILL.md", "---\nname: pdf-tools\ndescription: \"\"\n---\nbody\n")
	if out, code := run(); code != 1 || !strings.Contains(out, "skills/pdf-tools/SKILL.md:3:") {
		t.Errorf("%s on an invalid SKILL.md: exit %d, want 1 naming the file and line\n%s", hook.Entry, code, out)
	}
}
