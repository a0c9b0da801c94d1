package lint

import (
	"os"
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
//	class: what a malicious fixture does (hidden, injection, exfil,
//	       remote, credential, persistence, destructive, consent,
//	       obfuscation); hidden is held to its own recall
//	error: the rules whose strongest finding is an error
//	warning: the rules whose strongest finding is a warning
//	secret: NAME=value, a secret the process holds
type fixture struct {
	name     string
	kind     string
	class    string
	errors   []string
	warnings []string
	secrets  map[string]string
	files    []File
	path     string
	archive  *txtar.Archive
}

// setExpected rewrites the fixture's error and warning lines to what the
// rules find (go test ./lint -run TestFixtures -update).
func (f fixture) setExpected(errs, warns []string) error {
	var lines []string
	for _, line := range strings.Split(strings.TrimSuffix(string(f.archive.Comment), "\n"), "\n") {
		if !strings.HasPrefix(line, "error:") && !strings.HasPrefix(line, "warning:") {
			lines = append(lines, line)
		}
	}
	// The expectations follow the kind and class lines.
	at := len(lines)
	for i, line := range lines {
		if strings.HasPrefix(line, "kind:") || strings.HasPrefix(line, "class:") || strings.HasPrefix(line, "secret:") {
			at = i + 1
		}
	}
	var exp []string
	if len(errs) > 0 {
		exp = append(exp, "error: "+strings.Join(errs, " "))
	}
	if len(warns) > 0 {
		exp = append(exp, "warning: "+strings.Join(warns, " "))
	}
	lines = append(lines[:at], append(exp, lines[at:]...)...)
	f.archive.Comment = []byte(strings.Join(lines, "\n") + "\n")
	return os.WriteFile(f.path, txtar.Format(f.archive), 0o644)
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
			case "class":
				f.class = val
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
		f.path, f.archive = p, a
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
	testJudge *Judge
)

// judgeFor is a Judge that knows the fixture's secrets.
func judgeFor(secrets map[string]string) *Judge {
	if len(secrets) > 0 {
		return New(Options{Secrets: secrets})
	}
	judgeOnce.Do(func() { testJudge = New(Options{}) })
	return testJudge
}

// TestFixtures: each fixture gets exactly the rules it expects, at the
// severity it expects.
func TestFixtures(t *testing.T) {
	for _, f := range loadFixtures(t) {
		t.Run(f.name, func(t *testing.T) {
			fs := judgeFor(f.secrets).Skill(f.files)
			m := strongest(fs)
			gotErr, gotWarn := rulesAt(m, SeverityError), rulesAt(m, SeverityWarning)
			if *update {
				if err := f.setExpected(gotErr, gotWarn); err != nil {
					t.Fatal(err)
				}
				return
			}
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

// Floors of TestFixtureRates, in percent: what the rules reach on the
// fixtures. A change of the rules that falls below one is a regression.
const (
	floorErrorRecall  = 94
	floorAnyRecall    = 99
	floorHiddenRecall = 100
	// ceilBenignError is the most benign fixtures with an error, in
	// percent; the goal for labelled benign skills is 3%.
	ceilBenignError = 3
)

// TestFixtureRates reports how much of the malicious fixtures the rules
// catch, at error level and at any level, by class, and how many benign
// fixtures they flag; it fails below the floors above.
func TestFixtureRates(t *testing.T) {
	type count struct{ n, err, any int }
	classes := map[string]*count{}
	var mal, ben count
	for _, f := range loadFixtures(t) {
		m := strongest(judgeFor(f.secrets).Skill(f.files))
		hasErr := len(rulesAt(m, SeverityError)) > 0
		hasAny := hasErr || len(rulesAt(m, SeverityWarning)) > 0
		c := &ben
		if f.kind == "malicious" {
			c = &mal
			if f.class == "" {
				t.Errorf("%s: a malicious fixture names its class", f.name)
			}
			if classes[f.class] == nil {
				classes[f.class] = &count{}
			}
			cl := classes[f.class]
			cl.n++
			cl.err += b2i(hasErr)
			cl.any += b2i(hasAny)
		}
		c.n++
		c.err += b2i(hasErr)
		c.any += b2i(hasAny)
	}
	pct := func(a, n int) float64 { return 100 * float64(a) / float64(max(n, 1)) }
	var names []string
	for k := range classes {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		c := classes[k]
		t.Logf("%-12s %3d fixtures: error %5.1f%%, any %5.1f%%", k, c.n, pct(c.err, c.n), pct(c.any, c.n))
	}
	t.Logf("malicious %d: error %.1f%%, any %.1f%%; benign %d: error %.1f%%, any %.1f%%",
		mal.n, pct(mal.err, mal.n), pct(mal.any, mal.n), ben.n, pct(ben.err, ben.n), pct(ben.any, ben.n))
	hidden := classes["hidden"]
	if hidden == nil {
		t.Fatal("no fixture of class hidden")
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"malicious fixtures with an error", pct(mal.err, mal.n), floorErrorRecall},
		{"malicious fixtures with any finding", pct(mal.any, mal.n), floorAnyRecall},
		{"hidden payloads with an error", pct(hidden.err, hidden.n), floorHiddenRecall},
	} {
		if c.got < c.want {
			t.Errorf("%s: %.1f%%, below the floor of %.0f%%", c.what, c.got, c.want)
		}
	}
	if got := pct(ben.err, ben.n); got > ceilBenignError {
		t.Errorf("benign fixtures with an error: %.1f%%, above %.0f%%", got, float64(ceilBenignError))
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
