package lint

import (
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// A fixture is a skill folder of testdata/skills/*.txtar: its files and,
// in the archive's comment, what the rules must find:
//
//	kind: malicious | benign
//	error: the rules whose strongest finding is an error
//	warning: the rules whose strongest finding is a warning
//	secret: NAME=value, a secret the process holds
type fixture struct {
	name     string
	kind     string
	errors   []string
	warnings []string
	secrets  map[string]string
	files    []File
}

func loadFixtures(t testing.TB) []fixture {
	paths, err := filepath.Glob("testdata/skills/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	var out []fixture
	for _, p := range paths {
		a, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := fixture{name: strings.TrimSuffix(filepath.Base(p), ".txtar"), secrets: map[string]string{}}
		for _, line := range strings.Split(string(a.Comment), "\n") {
			key, val, ok := strings.Cut(line, ":")
			if !ok || strings.HasPrefix(line, "#") {
				continue
			}
			val = strings.TrimSpace(val)
			switch key {
			case "kind":
				f.kind = val
			case "error":
				f.errors = strings.Fields(val)
			case "warning":
				f.warnings = strings.Fields(val)
			case "secret":
				k, v, _ := strings.Cut(val, "=")
				f.secrets[k] = v
			}
		}
		if f.kind != "malicious" && f.kind != "benign" {
			t.Fatalf("%s: kind must be malicious or benign, not %q", p, f.kind)
		}
		for _, file := range a.Files {
			f.files = append(f.files, File{Path: file.Name, Data: file.Data})
		}
		out = append(out, f)
	}
	return out
}

// strongest maps each rule of fs to its strongest severity.
func strongest(fs []Finding) map[string]Severity {
	m := map[string]Severity{}
	for _, f := range fs {
		m[f.Rule] = max(m[f.Rule], f.Severity)
	}
	return m
}

func rulesAt(m map[string]Severity, sev Severity) []string {
	var out []string
	for r, s := range m {
		if s == sev {
			out = append(out, r)
		}
	}
	sort.Strings(out)
	return out
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

var (
	judgeOnce sync.Once
	judgeErr  error
	testJudge *Judge
)

// judgeFor is a Judge that knows the fixture's secrets.
func judgeFor(t testing.TB, secrets map[string]string) *Judge {
	if len(secrets) > 0 {
		j, err := New(Options{Secrets: secrets})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	judgeOnce.Do(func() { testJudge, judgeErr = New(Options{}) })
	if judgeErr != nil {
		t.Fatal(judgeErr)
	}
	return testJudge
}

// TestFixtures: each fixture gets exactly the rules it expects, at the
// severity it expects.
func TestFixtures(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			fs := judgeFor(t, f.secrets).Skill(f.files)
			m := strongest(fs)
			gotErr, gotWarn := rulesAt(m, SeverityError), rulesAt(m, SeverityWarning)
			if strings.Join(gotErr, " ") != strings.Join(sorted(f.errors), " ") || strings.Join(gotWarn, " ") != strings.Join(sorted(f.warnings), " ") {
				var b strings.Builder
				for _, x := range fs {
					b.WriteString("\n\t" + x.String() + "\n\t\tmatch: " + x.Match)
					if x.Decoded != "" {
						b.WriteString("\n\t\tdecoded: " + x.Decoded)
					}
				}
				t.Errorf("errors %v, want %v\nwarnings %v, want %v\nfindings:%s", gotErr, sorted(f.errors), gotWarn, sorted(f.warnings), b.String())
			}
			for _, x := range fs {
				for _, v := range f.secrets {
					if strings.Contains(x.Match+x.Message+x.Decoded, v) {
						t.Errorf("finding shows a secret's value: %s", x)
					}
				}
			}
		})
	}
}

// TestFixtureRates reports how much of the fixtures the rules catch, and
// holds them to it: every malicious fixture draws an error and every
// benign one none.
func TestFixtureRates(t *testing.T) {
	var mal, malErr, ben, benErr int
	for _, f := range loadFixtures(t) {
		m := strongest(judgeFor(t, f.secrets).Skill(f.files))
		hasErr := len(rulesAt(m, SeverityError)) > 0
		switch f.kind {
		case "malicious":
			mal++
			if hasErr {
				malErr++
			} else {
				t.Errorf("%s: malicious fixture draws no error", f.name)
			}
		case "benign":
			ben++
			if hasErr {
				benErr++
				t.Errorf("%s: benign fixture draws an error", f.name)
			}
		}
	}
	t.Logf("malicious fixtures with an error: %d/%d; benign fixtures with an error: %d/%d", malErr, mal, benErr, ben)
}
