package lint

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/visible"
)

var update = flag.Bool("update", false, "rewrite docs/rules.md from Rules, and the expectations of the fixtures")

// rulesDoc is docs/rules.md, the list of every rule, from the root of the
// module.
const rulesDoc = "../docs/rules.md"

// TestRulesDoc: docs/rules.md is what Rules says, every rule with its
// levels and text (go test ./lint -update rewrites it).
func TestRulesDoc(t *testing.T) {
	got, ok := generated(t, rulesDoc, renderRules())
	if !ok {
		t.Errorf("%s is not the list of lint.Rules of this build: run go test ./lint -update and commit it", rulesDoc)
	}
	for _, r := range Rules {
		if !bytes.Contains(got, []byte("\n## `"+r.Name+"`\n")) {
			t.Errorf("%s has no section for rule %s", rulesDoc, r.Name)
		}
	}
}

// generated reads the file at path, written from want first under
// -update, and reports whether it holds want.
func generated(t *testing.T, path string, want []byte) ([]byte, bool) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return got, bytes.Equal(got, want)
}

// readme is the README, whose rules section lists every rule with an
// example, between these markers.
const (
	readme          = "../README.md"
	readmeRulesFrom = "<!-- rules: generated from lint.Rules by go test ./lint -update -->\n"
	readmeRulesTo   = "<!-- /rules -->\n"
)

// TestReadmeRules: the README lists every rule with an example, as Rules
// says (go test ./lint -update rewrites the list).
func TestReadmeRules(t *testing.T) {
	got, err := os.ReadFile(readme)
	if err != nil {
		t.Fatal(err)
	}
	head, rest, ok := bytes.Cut(got, []byte(readmeRulesFrom))
	_, tail, ok2 := bytes.Cut(rest, []byte(readmeRulesTo))
	if !ok || !ok2 {
		t.Fatalf("%s has no rules section between %q and %q", readme, readmeRulesFrom, readmeRulesTo)
	}
	want := slices.Concat(head, []byte(readmeRulesFrom), readmeRules(), []byte(readmeRulesTo), tail)
	if *update {
		if err := os.WriteFile(readme, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got = want
	}
	if !bytes.Equal(got, want) {
		t.Errorf("the rules of %s are not lint.Rules of this build: run go test ./lint -update and commit it", readme)
	}
	for _, r := range Rules {
		if !bytes.Contains(got, []byte("| `"+r.Name+"` |")) {
			t.Errorf("%s does not list rule %s", readme, r.Name)
		}
	}
}

// readmeRules is the README's table of rules: name, default level and an
// example, with what no one can see made visible.
func readmeRules() []byte {
	var b bytes.Buffer
	b.WriteString("| Rule | Default | Finds, for example |\n|---|---|---|\n")
	for _, security := range []bool{true, false} {
		for _, r := range Rules {
			if r.Security == security {
				example := strings.ReplaceAll(visible.Line(r.Example), "|", "\\|")
				fmt.Fprintf(&b, "| `%s` | %s | `` %s `` |\n", r.Name, r.Default, example)
			}
		}
	}
	return b.Bytes()
}

// renderRules writes Rules as markdown: a table of every rule's levels,
// then a section per rule. Examples are shown with what no one can see
// made visible, so the page itself hides nothing.
func renderRules() []byte {
	var b bytes.Buffer
	b.WriteString("# Lint rules\n\n")
	b.WriteString("<!-- Generated from lint.Rules by go test ./lint -update; do not edit. -->\n\n")
	b.WriteString("Every rule skillsync applies beyond the service's own, by its code: the\n" +
		"one its diagnostics print in brackets. `lint.rules` in `skillsync.yaml`\n" +
		"sets the level of the format and quality rules; [lint](lint.md) says how,\n" +
		"and how the rules decide.\n\n" +
		"- *Default* is the level with no `lint:` section, *agentskills* the level\n" +
		"  under `lint: {profile: agentskills}`: `off`, `warning` or `error` (which\n" +
		"  fails `validate` and stops `plan` and `apply`).\n" +
		"- The security rules judge every text that reaches a space: the\n" +
		"  repository (`validate`, `plan`), the space (`drift`, `pull`) and an\n" +
		"  upstream (`vendor`). Their level is that of their strongest signals;\n" +
		"  weaker ones report as warnings or notes.\n\n")
	for _, security := range []bool{false, true} {
		if security {
			b.WriteString("### Security rules\n\n")
		} else {
			b.WriteString("### Format and quality rules\n\n")
		}
		b.WriteString("| Rule | Default | agentskills | Checks |\n|---|---|---|---|\n")
		for _, r := range Rules {
			if r.Security == security {
				fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", r.Name, r.Name, r.Default, r.AgentSkills, strings.ReplaceAll(visible.Line(r.Summary), "|", "\\|"))
			}
		}
		b.WriteString("\n")
	}
	for _, r := range Rules {
		fmt.Fprintf(&b, "## `%s`\n\n", r.Name)
		kind := "Format and quality"
		if r.Security {
			kind = "Security"
		}
		fmt.Fprintf(&b, "%s rule. Default: %s; agentskills: %s.\n\n", kind, r.Default, r.AgentSkills)
		fmt.Fprintf(&b, "Checks: %s.\n\n", visible.Line(r.Summary))
		fmt.Fprintf(&b, "Why: %s.\n\n", visible.Line(r.Why))
		fmt.Fprintf(&b, "Finds, for example:\n\n~~~text\n%s\n~~~\n\n", visible.Line(r.Example))
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}
