package render

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/mdtest"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// injections are texts of the repository, the space or the service that
// would render as markdown: a link, bold "No changes.", a mention, an
// image, an issue reference and a bare address (the attack of issue 23);
// then what breaks a table, a fence or <details>, HTML, an entity, the
// references of GitHub and GitLab, math, emphasis, an emoji's code,
// commit hashes GitHub links, and new lines; last,
// text that would start a code block or a list where it begins an item;
// commit hashes right after a number, among plain words.
var injections = []string{
	"[Approve and merge](https://evil.example/x) **No changes.** @octocat <img src=x> #1 https://evil.example",
	"a | b ``` </details> <!-- x --> ![img](https://evil.example/i.png) &amp; GH-12 !12 ~label %m $x$ www.evil.example user@evil.example _em_ ~~s~~ \\ `code` :rocket: a5c3785ed8d6 \"see 1f0e4d9c\"\n# Heading\n- item\n\n| t |\n1. one",
	"     1. indented past a list's marker, @octocat #1",
	"the build of 1234567-deadbee1 passed, and so did \"the one between 7654321 cafe0123\" today",
	"&#64;octocat &#x23;1 [x]: https://evil.example [^1] [^1]: note $$x$$ $`y`$ <https://evil.example> javascript:alert(1) \\@octocat octocat/repo#1 - [ ] task > quote ``````` <!-- unclosed",
	"[x]: https://evil.example \"title\"\n[y]:\thttps://evil.example\n<details><summary>fake</summary>\n\n**No changes.**\n\n</details></details></details>\n<!--",
}

// exposedWords are what no text outside code may hold once an injection is
// rendered: GitHub or GitLab would link, mention or decode them. The tags
// it holds are counted by the shape of the document.
var exposedWords = []string{"@octocat", "#1", "evil.example", "GH-12", "!12", "~label", "%m", "&amp;", "<img", "user@", ":rocket:", "a5c3785", "1f0e4d9c", "deadbee1", "cafe0123", "&#64;", "&#x23;", "javascript:", "[^1]", "$$"}

// benign stands for an injection, to render a plan of the same shape.
const benign = "harmless"

// frontmatterProblems are the warnings and errors that validate finds in a
// SKILL.md whose frontmatter has a key named key, as plan shows them.
func frontmatterProblems(t *testing.T, key string) (warnings []reconcile.Problem, errors []string) {
	t.Helper()
	root := t.TempDir()
	write := func(name, content string) {
		path := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skillsync.yaml", "space: ab12\nlint:\n  rules:\n    frontmatter-key-unknown: warning\n")
	write("skills/a/SKILL.md", fmt.Sprintf("---\nname: a\ndescription: Use for a.\n%q: yes\n---\n\nDo a.\n", key))
	write("skills/b/SKILL.md", fmt.Sprintf("---\nname: b\ndescription: Use for b.\n%q: yes\n%q: no\n---\n\nDo b.\n", key, key))
	_, diags, err := fsrepo.Load(context.Background(), root, fsrepo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range diags {
		if d.Severity == diag.SeverityWarning {
			warnings = append(warnings, reconcile.Problem{Code: d.Code, Message: d.Location() + ": " + d.Message, Hint: d.Hint, Path: d.Path, Line: d.Line})
		} else {
			errors = append(errors, d.String())
		}
	}
	if len(warnings) == 0 || len(errors) == 0 {
		t.Fatalf("the frontmatter key %q gives no warning or no error: %v", key, diags)
	}
	return warnings, errors
}

// injectedPlan is a plan that shows x as a skill's name in the space and
// in the repository, an agent's name, the name of agents.publish, a
// supporting file's path, a missing skill's path, the slug of an
// unmanaged skill, and a frontmatter key.
func injectedPlan(t *testing.T, x string) *reconcile.Plan {
	desired := reconciletest.Repo(
		reconciletest.Local("a", reconciletest.Disabled),
		reconciletest.Local("b", reconciletest.WithFiles(reconciletest.TextFile("notes/"+x+".md", "new\n"))),
		reconciletest.Local("m", func(s *fsrepo.Skill) { s.Name, s.Path = x, "skills/m/"+x }),
	)
	lv := &reconcile.Live{Space: "ab12",
		Skills: []remote.Skill{reconciletest.Live("a"), reconciletest.Live("b", func(s *remote.Skill) { s.Name = x }), reconciletest.Live(x, func(s *remote.Skill) { s.ID = "id-unmanaged" })},
		Files:  map[string]map[string]*string{reconciletest.ID("b"): {"notes/" + x + ".md": reconciletest.Ptr("old\n")}},
		Agents: []remote.Agent{{ID: "11111111-1111-4111-8111-111111111111", Name: x, SkillIDs: []string{reconciletest.ID("a")}}},
	}
	p := reconcile.Compute(desired, lv, reconcile.Policy{Missing: config.MissingWarn, PublishAgents: []string{x}})
	warnings, _ := frontmatterProblems(t, x)
	p.Warnings = append(p.Warnings, warnings...)
	return p
}

// checkInert fails when hostile, a document rendered from an injection,
// differs in shape from good, the same rendered from benign text, or shows
// outside code what a host would link.
func checkInert(t *testing.T, what, hostile, good string) {
	t.Helper()
	hs, gs := mdtest.Shape(hostile), mdtest.Shape(good)
	if !maps.Equal(hs, gs) {
		var diff []string
		for _, k := range slices.Sorted(maps.Keys(hs)) {
			if hs[k] != gs[k] {
				diff = append(diff, fmt.Sprintf("%s: %d, not %d", k, hs[k], gs[k]))
			}
		}
		for k := range gs {
			if _, ok := hs[k]; !ok {
				diff = append(diff, fmt.Sprintf("%s: 0, not %d", k, gs[k]))
			}
		}
		t.Errorf("%s: the injection changes the document: %s\n%s", what, strings.Join(diff, "; "), hostile)
	}
	if exposed := mdtest.Exposed(hostile, exposedWords...); len(exposed) > 0 {
		t.Errorf("%s: outside code, a host would link or decode %q\n%s", what, exposed, hostile)
	}
}

// TestMarkdownShowsInjectionsAsText: text of the repository, the space or
// the service that holds markdown lands in the comment as code or escaped:
// no link, image, emphasis, raw HTML, autolink, heading, broken table or
// fence, and no mention or reference outside code.
func TestMarkdownShowsInjectionsAsText(t *testing.T) {
	render := func(p *reconcile.Plan, o MarkdownOptions) string {
		var b bytes.Buffer
		if err := Markdown(&b, p, o); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for i, x := range injections {
		hostile, good := injectedPlan(t, x), injectedPlan(t, benign)
		for _, o := range []MarkdownOptions{{}, {Title: "skillsync drift", Host: "GitLab", MaxLen: 1_000_000}} {
			md := render(hostile, o)
			checkInert(t, fmt.Sprintf("plan %d %+v", i, o), md, render(good, o))
			if !strings.HasPrefix(md, MarkdownMarker("ab12", "")+"\n") || len(md) > defaultMarkdownMaxLen {
				t.Errorf("plan %d: %d bytes, not starting with the marker", i, len(md))
			}
			if !strings.Contains(md, "<details>") || !strings.Contains(md, "```diff\n") {
				t.Errorf("plan %d: no <details> with a diff block:\n%s", i, md)
			}
		}
	}
}

// TestFailureMarkdownShowsInjectionsAsText: the service's error text, its
// hint and validation errors quoting a frontmatter key, in the comment
// that says no plan could be made.
func TestFailureMarkdownShowsInjectionsAsText(t *testing.T) {
	render := func(x string) string {
		_, errs := frontmatterProblems(t, x)
		var b bytes.Buffer
		msg := "reading space ab12: 400 Bad Request: " + x
		if err := FailureMarkdown(&b, "ab12", "prod", msg, x, append(errs, x), MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for i, x := range injections {
		checkInert(t, fmt.Sprintf("failure %d", i), render(x), render(benign))
	}
}

// TestResultMarkdownShowsInjectionsAsText: a skill's slug and the
// service's answer in the job summary of an apply.
func TestResultMarkdownShowsInjectionsAsText(t *testing.T) {
	render := func(x string) string {
		r := &reconcile.Result{Space: "ab12", JournalError: "writing " + x + ": disk full", Steps: []reconcile.StepResult{
			{Slug: x, ID: "id-x", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeFailed, Reason: "409 Conflict: " + x, Mismatch: x},
			{Slug: "b", ID: "id-b", Action: reconcile.ActionEnable, Outcome: reconcile.OutcomeSkipped, Reason: x},
		}}
		var b bytes.Buffer
		if err := ResultMarkdown(&b, r, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for i, x := range injections {
		checkInert(t, fmt.Sprintf("result %d", i), render(x), render(benign))
	}
}

// TestFindingsShowInjectionsAsText: a security finding quotes what it
// matched, hostile by nature, and names the skill and the file: in the
// comment, all of it shows as text.
func TestFindingsShowInjectionsAsText(t *testing.T) {
	render := func(x string) string {
		p := injectedPlan(t, benign)
		p.Findings = []reconcile.Finding{
			{Slug: x, Rule: "hidden-markdown", Severity: "error", InSpace: true, Path: "skills/" + x + "/SKILL.md", Line: 3, Col: 1,
				Message: fmt.Sprintf("instructions in an HTML comment: %q [hidden-markdown]", x), Match: x, Hint: "waive it: " + x},
			{Slug: "b", Rule: "exfiltration", Severity: "warning", Path: "skills/b/SKILL.md", Line: 7,
				Message: "a markdown image with a dynamic query: " + x, Match: x},
		}
		var b bytes.Buffer
		if err := Markdown(&b, p, MarkdownOptions{}); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	for i, x := range injections {
		md := render(x)
		if !strings.Contains(md, "**Security findings**") {
			t.Fatalf("findings %d: not shown:\n%s", i, md)
		}
		checkInert(t, fmt.Sprintf("findings %d", i), md, render(benign))
	}
}
