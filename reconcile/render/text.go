package render

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/spec"
)

// TextOptions configure [TargetsText].
type TextOptions struct {
	// Color turns on ANSI colours. The caller decides (a terminal, no
	// NO_COLOR, no --no-color); the renderer never looks.
	Color bool
	// Title starts the first line, before " for space ID" (default
	// "skillsync plan"; drift says "skillsync drift").
	Title string
}

// ANSI escapes of the text renderer.
const (
	ansiReset  = "\x1b[0m"
	ansiBold   = "\x1b[1m"
	ansiRed    = "\x1b[31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiCyan   = "\x1b[36m"
)

// TargetsText writes the plans of the targets planned for a terminal or
// a CI log, Terraform-like: for each, "~" for an update, "+" an enable,
// "-" a disable, the unified diff of every instruction change, and last
// the line "Plan: X to update, Y to enable, Z to disable." or "No
// changes.". When there are several, a blank line follows each, then a
// line per target and the line of their sum, which ends the text as the
// summary line ends a plan's.
//
// It writes as it goes, a few kilobytes at a time, making each diff when
// it comes to it.
func TargetsText(w io.Writer, plans []*reconcile.Plan, o TextOptions) error {
	t := textWriter{b: newBuffered(w), color: o.Color, title: o.Title}
	for _, p := range plans {
		t.plan(p)
		if len(plans) > 1 {
			t.b.WriteByte('\n')
		}
	}
	if len(plans) > 1 {
		t.line(0, "Targets:")
		for _, p := range plans {
			line := SummaryLine(p)
			switch {
			case p.Failed():
				line = "could not be planned."
			case p.HasErrors():
				n := len(p.Errors)
				line += fmt.Sprintf(" %d %s: apply refuses this plan.", n, names.Plural(n, "error", "errors"))
			}
			t.line(2, Where(p.Space, p.Target)+": "+line)
		}
		t.paintLine(0, ansiBold, summaryLine(reconcile.SummarizeTargets(plans)))
	}
	return t.b.Flush()
}

type textWriter struct {
	b     *bufio.Writer
	color bool
	title string
}

// A span is text of a line and the colour it is painted in, if any.
type span struct {
	color, text string
	// painted ends text with a reset even when color is "", as the
	// context lines of a coloured diff always have.
	painted bool
}

// spaces indents the lines of the text renderer.
const spaces = "          "

// spans writes one line of spans. It is the one place where the text of a
// plan, which the space and the repository control, is shown visibly (see
// package visible), before any colour of skillsync's own is added: an
// escape sequence in an instruction or an agent's name must not repaint
// what a reviewer reads, nor a newline in it fake a line of the plan.
func (t *textWriter) spans(indent int, ss ...span) {
	for ; indent > len(spaces); indent -= len(spaces) {
		t.b.WriteString(spaces)
	}
	t.b.WriteString(spaces[:indent])
	for _, s := range ss {
		text := visible.Line(s.text)
		if !t.color || (s.color == "" && !s.painted) || text == "" {
			t.b.WriteString(text)
			continue
		}
		t.b.WriteString(s.color)
		t.b.WriteString(text)
		t.b.WriteString(ansiReset)
	}
	t.b.WriteByte('\n')
}

// line writes s as one line, uncoloured.
func (t *textWriter) line(indent int, s string) { t.spans(indent, span{text: s}) }

// paintLine writes s as one line painted in color.
func (t *textWriter) paintLine(indent int, color, s string) {
	t.spans(indent, span{color: color, text: s, painted: true})
}

// actionNames are the actions of c, as words.
func actionNames(c *reconcile.Change) []string {
	names := make([]string, len(c.Actions))
	for i, a := range c.Actions {
		names[i] = string(a)
	}
	return names
}

// symbol is the one-character mark of a change and its colour. An enable or
// disable outranks an update: it is the bigger news.
func symbol(c *reconcile.Change) (string, string) {
	switch {
	case c.Has(reconcile.ActionEnable):
		return "+", ansiGreen
	case c.Has(reconcile.ActionDisable):
		return "-", ansiRed
	}
	return "~", ansiYellow
}

func (t *textWriter) plan(p *reconcile.Plan) {
	head := title(t.title) + " for " + Where(p.Space, p.Target)
	if p.Commit != "" {
		head += " at " + fsrepo.ShortCommit(p.Commit)
		if p.Dirty {
			head += " with uncommitted edits"
		}
	}
	t.paintLine(0, ansiBold, head)
	t.b.WriteByte('\n')
	t.findings(p.Findings)

	if len(p.Changes) > 0 {
		if strings.HasSuffix(title(t.title), " drift") {
			// Drift only reads: what it lists is what apply would do.
			t.line(0, "The space differs from the repository; apply would perform these actions:")
		} else {
			t.line(0, "skillsync will perform the following actions:")
		}
		t.b.WriteByte('\n')
		for _, g := range groupByOrigin(p, "pull request") {
			if g.title != "" {
				t.paintLine(0, ansiBold, g.title)
				t.b.WriteByte('\n')
			}
			for _, c := range g.changes {
				t.change(c)
			}
		}
	}
	if len(p.Publish) > 0 {
		t.line(0, "Agents to publish:")
		for _, a := range p.Publish {
			t.spans(2, span{color: ansiGreen, text: "^"}, span{text: " " + a.Name + " (" + a.ID + "): " + publishReason(a, "pull request")})
		}
		t.b.WriteByte('\n')
	}
	if len(p.Missing) > 0 || len(p.Files) > 0 {
		t.line(0, "Not possible through the API, which cannot create skills or write files;")
		t.line(0, "make these changes in the app:")
		for _, m := range p.Missing {
			t.line(2, fmt.Sprintf("%s: no skill %s in the space (%s)", m.Path, m.Slug, m.Severity))
			if m.Todo != "" {
				t.line(6, m.Todo)
			}
		}
		for _, f := range p.Files {
			t.line(2, fmt.Sprintf("%s: %s", fileName(f), f.Detail))
			if f.Diff != "" {
				t.diff(6, f.Diff)
			}
		}
		t.b.WriteByte('\n')
	}
	if alone := leftAlone(p); len(alone) > 0 {
		t.line(0, fmt.Sprintf("Unmanaged skills in the space, left alone (%d):", len(alone)))
		for _, u := range alone {
			t.line(4, fmt.Sprintf("%s (%s)", u.Slug, enabledWord(u.Enabled)))
		}
		t.b.WriteByte('\n')
	}
	t.problems("warning", ansiYellow, p.Warnings)
	t.problems("error", ansiRed, p.Errors)

	// A target that could not be planned has no counts to show: zeros and
	// "No changes." would read as a space in step with git.
	if p.Failed() {
		t.paintLine(0, ansiRed, fmt.Sprintf("Not planned: %d %s, above.", len(p.Errors), names.Plural(len(p.Errors), "error", "errors")))
		return
	}
	t.line(0, fmt.Sprintf("Active skills: %d -> %d (limit %d).", p.Summary.ActiveBefore, p.Summary.ActiveAfter, spec.MaxActiveSkills))
	if d := p.Descriptions; d != nil {
		t.line(0, "Descriptions: "+d.BudgetLine()+overlapNote(d)+".")
	}
	if len(p.Publish) > 0 {
		t.line(0, fmt.Sprintf("Agents: %d to publish.", len(p.Publish)))
	}
	if p.HasErrors() {
		t.paintLine(0, ansiRed, fmt.Sprintf("%d %s: apply refuses this plan.", len(p.Errors), names.Plural(len(p.Errors), "error", "errors")))
	}
	t.paintLine(0, ansiBold, SummaryLine(p))
}

func (t *textWriter) change(c *reconcile.Change) {
	sym, col := symbol(c)
	notes := actionNames(c)
	if c.Unmanaged {
		notes = append(notes, "unmanaged")
	}
	t.spans(2, span{color: col, text: sym}, span{text: " "}, span{color: ansiBold, text: c.Slug}, span{text: "  (" + strings.Join(notes, ", ") + ")"})
	if c.Changes(reconcile.FieldName) {
		t.line(6, fmt.Sprintf("name: %s -> %s%s", quote(c.Before.Name), quote(c.After.Name), invisibleNote(c.Before.Name, c.After.Name)))
	}
	if c.Changes(reconcile.FieldDescription) {
		t.line(6, fmt.Sprintf("description: %s -> %s%s", quote(c.Before.Description), quote(c.After.Description), invisibleNote(c.Before.Description, c.After.Description)))
	}
	if c.Changes(reconcile.FieldEnabled) {
		t.line(6, fmt.Sprintf("enabled: %t -> %t", c.Before.Enabled, c.After.Enabled))
	}
	if c.Changes(reconcile.FieldInstructions) {
		switch ch, only := invisibleInstructions(c); {
		case c.Before.Instructions == nil:
			t.line(6, "instructions: (null in the space) ->")
		case only:
			t.line(6, "instructions: "+ch.describe(plain))
		default:
			t.line(6, "instructions:")
		}
		t.diff(8, c.Diff())
	}
	if len(c.DriftFields) > 0 {
		t.line(6, "drift: "+strings.Join(c.DriftFields, ", ")+" edited in the space, not by this pull request")
	}
	if len(c.Agents) > 0 {
		t.line(6, "used by agents: "+agentNames(c.Agents, plain))
	}
	t.b.WriteByte('\n')
}

// diff writes a unified diff indented, coloured line by line, shown as a
// reviewer must read it (see [shownDiff]).
func (t *textWriter) diff(indent int, d string) {
	for l := range strings.Lines(shownDiff(d)) {
		l = strings.TrimSuffix(l, "\n")
		col := ""
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			col = ansiBold
		case strings.HasPrefix(l, "@@"):
			col = ansiCyan
		case strings.HasPrefix(l, "+"):
			col = ansiGreen
		case strings.HasPrefix(l, "-"):
			col = ansiRed
		}
		t.paintLine(indent, col, l)
	}
}

// findings lists the findings of the security rules, above the plan.
func (t *textWriter) findings(fs []reconcile.Finding) {
	if len(fs) == 0 {
		return
	}
	t.paintLine(0, ansiBold, fmt.Sprintf("Security findings in the skills this plan changes (%d):", len(fs)))
	for _, f := range fs {
		col := map[string]string{"error": ansiRed, "warning": ansiYellow}[f.Severity]
		where := fmt.Sprintf("%s:%d:%d", f.Path, f.Line, max(f.Col, 1))
		if f.InSpace {
			where = fmt.Sprintf("in the space, skill %s, %s", f.Slug, where)
		}
		t.spans(2, span{color: col, text: f.Severity + ":"}, span{text: " " + where + ": " + f.Message})
		if f.Hint != "" {
			t.line(4, "hint: "+f.Hint)
		}
	}
	t.b.WriteByte('\n')
}

func (t *textWriter) problems(kind, col string, ps []reconcile.Problem) {
	ps = unlisted(ps)
	for _, pr := range ps {
		t.spans(0, span{color: col, text: kind + ":"}, span{text: " " + pr.Message})
		if pr.Hint != "" {
			t.line(2, "hint: "+pr.Hint)
		}
	}
	if len(ps) > 0 {
		t.b.WriteByte('\n')
	}
}

// unlisted are the problems of ps that no section of a plan lists
// already: a skill missing from the space is listed, with what to do, among
// what is not possible through the API, and said once.
func unlisted(ps []reconcile.Problem) []reconcile.Problem {
	return slices.DeleteFunc(slices.Clone(ps), func(pr reconcile.Problem) bool { return pr.Code == reconcile.CodeMissing })
}

// SummaryLine is the last line of a text plan: "Plan: X to update, Y to
// enable, Z to disable." or, when applying would change nothing, "No
// changes.".
func SummaryLine(p *reconcile.Plan) string {
	return summaryLine(reconcile.SummarizeTargets([]*reconcile.Plan{p}))
}

// summaryLine is the summary line of the plans s adds up: the last line
// of one plan, or of the plans of several targets.
func summaryLine(s reconcile.TargetsSummary) string {
	if s.WithChanges == 0 {
		return "No changes."
	}
	return fmt.Sprintf("Plan: %d to update, %d to enable, %d to disable.", s.Update, s.Enable, s.Disable)
}

// UnsyncableLine counts what the space differs in that apply cannot change
// (skills missing from the space, supporting files that differ or are
// absent there), as "Not possible through the API: 1 skill missing, 2 files
// differ."; "" when there is none. It explains a drift report whose
// [SummaryLine] is "No changes.".
func UnsyncableLine(p *reconcile.Plan) string {
	var parts []string
	if n := len(p.Missing); n > 0 {
		parts = append(parts, fmt.Sprintf("%d %s missing", n, names.Plural(n, "skill", "skills")))
	}
	differ, absent := 0, 0
	for _, f := range p.Files {
		switch f.Status {
		case reconcile.FileDiffers:
			differ++
		case reconcile.FileAbsent:
			absent++
		}
	}
	if differ > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", differ, names.Plural(differ, "file differs", "files differ")))
	}
	if absent > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", absent, names.Plural(absent, "file absent", "files absent")))
	}
	if len(parts) == 0 {
		return ""
	}
	return "Not possible through the API: " + strings.Join(parts, ", ") + "."
}

// publishReason says why agent a is published; review names what the
// plan is reviewed on ("pull request", "merge request").
func publishReason(a reconcile.AgentPublish, review string) string {
	why := "has unpublished changes"
	if !a.Published {
		why = "never published"
	}
	switch a.Origin {
	case reconcile.OriginPR:
		why += " (added to agents.publish by this " + review + ")"
	case reconcile.OriginDrift:
		why += " (drift: listed in agents.publish at the base)"
	}
	return why
}

// leftAlone are the unmanaged skills of p that it does not disable.
func leftAlone(p *reconcile.Plan) []reconcile.UnmanagedSkill {
	return slices.DeleteFunc(slices.Clone(p.Unmanaged), func(u reconcile.UnmanagedSkill) bool { return u.Disable })
}

func enabledWord(enabled bool) string {
	if enabled {
		return "enabled"
	}
	return "disabled"
}

// agentNames lists the names of agents, each as show writes it: plain in
// a terminal, as a code span in markdown.
func agentNames(refs []reconcile.AgentRef, show func(string) string) string {
	names := make([]string, len(refs))
	for i, a := range refs {
		names[i] = show(a.Name)
	}
	return strings.Join(names, ", ")
}

// plain is s as it is, for the text renderer, whose spans show it.
func plain(s string) string { return s }

// fileName names a supporting file for a reader: by its repository path
// when the plan has it.
func fileName(f reconcile.FileIssue) string {
	return cmp.Or(f.RepoPath, f.Slug+"/"+f.Path)
}

// overlapNote counts the overlapping pairs of d, and those the change
// brings: "; 2 overlapping pairs (1 new)"; "" for none.
func overlapNote(d *reconcile.Descriptions) string {
	if len(d.Overlaps) == 0 {
		return ""
	}
	n := 0
	for _, o := range d.Overlaps {
		if o.New {
			n++
		}
	}
	note := fmt.Sprintf("; %d overlapping %s", len(d.Overlaps), names.Plural(len(d.Overlaps), "pair", "pairs"))
	if n > 0 {
		note += fmt.Sprintf(" (%d new)", n)
	}
	return note
}
