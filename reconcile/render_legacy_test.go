package reconcile

// The renderers as they were before they streamed, kept as the reference
// the streaming ones must match byte for byte (render_identity_test.go).
// Only the diff of a change is taken from [Change.Diff], which the plan
// held as a field then.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/skillsync/skillsync/spec"
)

func legacyRenderText(w io.Writer, p *Plan, o TextOptions) error {
	t := legacyTextWriter{color: o.Color, title: o.Title}
	t.plan(p)
	_, err := io.WriteString(w, t.b.String())
	return err
}

type legacyTextWriter struct {
	b     strings.Builder
	color bool
	title string
}

func (t *legacyTextWriter) paint(code, s string) string {
	if !t.color || s == "" {
		return s
	}
	return code + s + ansiReset
}

func (t *legacyTextWriter) line(indent int, s string) {
	t.b.WriteString(strings.Repeat(" ", indent))
	t.b.WriteString(s)
	t.b.WriteByte('\n')
}

func (t *legacyTextWriter) plan(p *Plan) {
	head := title(t.title) + " for space " + clean(p.Space)
	if p.Commit != "" {
		head += " at " + clean(shortCommit(p.Commit))
		if p.Dirty {
			head += " with uncommitted edits"
		}
	}
	t.line(0, t.paint(ansiBold, head))
	t.b.WriteByte('\n')

	if len(p.Changes) > 0 {
		t.line(0, "skillsync will perform the following actions:")
		t.b.WriteByte('\n')
		for _, g := range groupByOrigin(p) {
			if g.title != "" {
				t.line(0, t.paint(ansiBold, g.title))
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
			t.line(2, t.paint(ansiGreen, "^")+" "+clean(a.Name)+" ("+clean(a.ID)+"): "+publishReason(a))
		}
		t.b.WriteByte('\n')
	}
	if len(p.Missing) > 0 || len(p.Files) > 0 {
		t.line(0, "Not possible through the API, which cannot create skills or write files;")
		t.line(0, "make these changes in the app:")
		for _, m := range p.Missing {
			t.line(2, clean(fmt.Sprintf("%s: no skill %s in the space (%s)", m.Path, m.Slug, m.Severity)))
			if m.Todo != "" {
				t.line(6, clean(m.Todo))
			}
		}
		for _, f := range p.Files {
			t.line(2, clean(fmt.Sprintf("%s: %s", fileName(f), f.Detail)))
			if f.Diff != "" {
				t.diff(6, f.Diff)
			}
		}
		t.b.WriteByte('\n')
	}
	if n := countIgnored(p); n > 0 {
		t.line(0, fmt.Sprintf("Unmanaged skills in the space, left alone (%d):", n))
		for _, u := range p.Unmanaged {
			if !u.Disable {
				t.line(4, clean(fmt.Sprintf("%s (%s)", u.Slug, enabledWord(u.Enabled))))
			}
		}
		t.b.WriteByte('\n')
	}
	t.problems("warning", ansiYellow, unlisted(p.Warnings))
	t.problems("error", ansiRed, unlisted(p.Errors))

	t.line(0, fmt.Sprintf("Active skills: %d -> %d (limit %d).", p.Summary.ActiveBefore, p.Summary.ActiveAfter, spec.MaxActiveSkills))
	if len(p.Publish) > 0 {
		t.line(0, fmt.Sprintf("Agents: %d to publish.", len(p.Publish)))
	}
	if p.HasErrors() {
		t.line(0, t.paint(ansiRed, fmt.Sprintf("%d %s: apply refuses this plan.", len(p.Errors), plural(len(p.Errors), "error", "errors"))))
	}
	t.line(0, t.paint(ansiBold, SummaryLine(p)))
}

func (t *legacyTextWriter) change(c *Change) {
	sym, col := symbol(c)
	notes := make([]string, 0, len(c.Actions)+1)
	for _, a := range c.Actions {
		notes = append(notes, string(a))
	}
	if c.Unmanaged {
		notes = append(notes, "unmanaged")
	}
	t.line(2, t.paint(col, sym)+" "+t.paint(ansiBold, clean(c.Slug))+"  ("+strings.Join(notes, ", ")+")")
	if c.Changes(FieldName) {
		t.line(6, fmt.Sprintf("name: %s -> %s", strconv.Quote(c.Before.Name), strconv.Quote(c.After.Name)))
	}
	if c.Changes(FieldDescription) {
		t.line(6, fmt.Sprintf("description: %s -> %s", strconv.Quote(c.Before.Description), strconv.Quote(c.After.Description)))
	}
	if c.Changes(FieldEnabled) {
		t.line(6, fmt.Sprintf("enabled: %t -> %t", c.Before.Enabled, c.After.Enabled))
	}
	if c.Changes(FieldInstructions) {
		if c.Before.Instructions == nil {
			t.line(6, "instructions: (null in the space) ->")
		} else {
			t.line(6, "instructions:")
		}
		t.diff(8, c.Diff())
	}
	if len(c.DriftFields) > 0 {
		t.line(6, "drift: "+strings.Join(c.DriftFields, ", ")+" edited in the space, not by this pull request")
	}
	if len(c.Agents) > 0 {
		t.line(6, "used by agents: "+clean(agentNames(c.Agents)))
	}
	t.b.WriteByte('\n')
}

// diff writes a unified diff indented, coloured line by line.
func (t *legacyTextWriter) diff(indent int, d string) {
	for _, l := range splitLines(d) {
		l = clean(strings.TrimSuffix(l, "\n"))
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
		t.line(indent, t.paint(col, l))
	}
}

func (t *legacyTextWriter) problems(kind, col string, ps []Problem) {
	for _, pr := range ps {
		t.line(0, t.paint(col, kind+":")+" "+clean(pr.Message))
		if pr.Hint != "" {
			t.line(2, "hint: "+clean(pr.Hint))
		}
	}
	if len(ps) > 0 {
		t.b.WriteByte('\n')
	}
}

func legacyRenderMarkdown(w io.Writer, p *Plan, o MarkdownOptions) error {
	max := o.MaxLen
	if max <= 0 {
		max = DefaultMarkdownMaxLen
	}
	m := &legacyMDWriter{limit: max - mdReserve, title: o.Title}
	m.plan(p)
	_, err := io.WriteString(w, m.b.String())
	return err
}

type legacyMDWriter struct {
	b     strings.Builder
	limit int // bytes the content may fill; notes may go beyond, into the reserve
	title string
}

func (m *legacyMDWriter) room() int { return m.limit - m.b.Len() }

// add writes s if it fits, and reports whether it did.
func (m *legacyMDWriter) add(s string) bool {
	if len(s) > m.room() {
		return false
	}
	m.b.WriteString(s)
	return true
}

// must writes s whatever its size: the head of the comment and the notes.
func (m *legacyMDWriter) must(s string) { m.b.WriteString(s) }

// list writes items until one does not fit, then a note of how many were
// left out. It reports whether all fit.
func (m *legacyMDWriter) list(items []string, what string) bool {
	for i, it := range items {
		if !m.add(it) {
			m.must(legacyCutNote(len(items)-i, what))
			return false
		}
	}
	return true
}

func (m *legacyMDWriter) plan(p *Plan) {
	m.must(MarkdownMarker(p.Space, "") + "\n")
	m.must("### " + title(m.title) + " for space " + codeSpan(p.Space) + "\n\n")
	head := "**" + SummaryLine(p) + "**"
	if p.Summary.Publish > 0 {
		head += fmt.Sprintf(" Agents: %d to publish.", p.Summary.Publish)
	}
	head += fmt.Sprintf(" Active skills: %d → %d of %d.", p.Summary.ActiveBefore, p.Summary.ActiveAfter, spec.MaxActiveSkills)
	if p.Commit != "" {
		head += " Commit " + codeSpan(shortCommit(p.Commit))
		if p.Dirty {
			head += " with uncommitted edits"
		}
		head += "."
	}
	if u := UnsyncableLine(p); u != "" {
		head += " " + u
	}
	m.must(head + "\n\n")
	if p.HasErrors() {
		m.must(fmt.Sprintf("> [!CAUTION]\n> **%d %s**: apply refuses this plan.\n\n", len(p.Errors), plural(len(p.Errors), "error", "errors")))
	}

	groups := groupByOrigin(p)
	for _, g := range groups {
		if len(g.changes) == 0 {
			continue
		}
		if g.title != "" {
			m.must("**" + g.title + "**\n\n")
		}
		m.must("| | Skill | Actions | Fields | Agents |\n|:-:|---|---|---|---|\n")
		rows := make([]string, len(g.changes))
		for i, c := range g.changes {
			sym, _ := symbol(c)
			acts := make([]string, len(c.Actions))
			for j, a := range c.Actions {
				acts[j] = string(a)
			}
			if c.Unmanaged {
				acts = append(acts, "(unmanaged)")
			}
			rows[i] = fmt.Sprintf("| %s | %s | %s | %s | %s |\n", sym, cell(codeSpan(c.Slug)),
				strings.Join(acts, ", "), fieldsCell(c), cell(agentNames(c.Agents)))
		}
		m.list(rows, "skills")
		m.must("\n")
	}

	m.problems("Errors", unlisted(p.Errors))
	m.problems("Warnings", unlisted(p.Warnings))

	var items []string
	for _, s := range p.Missing {
		item := fmt.Sprintf("- %s: no skill %s in the space (%s)", codeSpan(s.Path), codeSpan(s.Slug), s.Severity)
		if s.Todo != "" {
			item += ": " + cell(s.Todo)
		}
		items = append(items, item+"\n")
	}
	for _, f := range p.Files {
		items = append(items, fmt.Sprintf("- %s: %s\n", codeSpan(fileName(f)), cell(f.Detail)))
	}
	m.section("**Not possible through the API**, which cannot create skills or write files; make these changes in the app:\n\n", items, "\n", "items")

	items = nil
	for _, a := range p.Publish {
		items = append(items, fmt.Sprintf("- %s (%s): %s\n", cell(a.Name), codeSpan(a.ID), publishReason(a)))
	}
	m.section("**Agents to publish:**\n\n", items, "\n", "agents")

	items = nil
	for _, u := range p.Unmanaged {
		if !u.Disable {
			items = append(items, fmt.Sprintf("- %s (%s)\n", codeSpan(u.Slug), enabledWord(u.Enabled)))
		}
	}
	m.section(fmt.Sprintf("<details><summary>Unmanaged skills in the space, left alone (%d)</summary>\n\n", len(items)),
		items, "\n</details>\n\n", "unmanaged skills")

	blocks := make([]legacyMDBlock, 0, len(p.Changes))
	for _, g := range groups {
		for _, c := range g.changes {
			blocks = append(blocks, legacyChangeBlock(c))
		}
	}
	for _, f := range p.Files {
		if f.Diff != "" {
			blocks = append(blocks, legacyMDBlock{
				head: "<details><summary>File <code>" + html.EscapeString(fileName(f)) + "</code>: differs from the space (not syncable)</summary>\n\n",
				diff: f.Diff,
			})
		}
	}
	m.blocks(blocks, "diffs")
}

// section writes a header, the items that fit and a footer; with no items it
// writes nothing, and when even the header does not fit, only a note.
func (m *legacyMDWriter) section(header string, items []string, footer, what string) {
	if len(items) == 0 {
		return
	}
	if !m.add(header) {
		m.must(legacyCutNote(len(items), what))
		return
	}
	m.list(items, what)
	m.must(footer)
}

func legacyCutNote(n int, what string) string {
	return fmt.Sprintf("\n_…and %d more %s, cut to keep this comment under GitHub's size limit; `skillsync plan` shows them all._\n", n, what)
}

func (m *legacyMDWriter) problems(title string, ps []Problem) {
	items := make([]string, len(ps))
	for i, pr := range ps {
		s := "- " + cell(pr.Message)
		if pr.Hint != "" {
			s += " (hint: " + cell(pr.Hint) + ")"
		}
		items[i] = s + "\n"
	}
	m.section("**"+title+":**\n\n", items, "\n", strings.ToLower(title))
}

// legacyMDBlock is a <details> block: a head, then a diff, cut if need be.
type legacyMDBlock struct {
	head string
	diff string
}

func (b legacyMDBlock) render(maxLen int) (string, bool) {
	const tail = "</details>\n\n"
	if b.diff == "" {
		s := b.head + tail
		return s, len(s) <= maxLen
	}
	fence := fenceFor(b.diff)
	open, close := fence+"diff\n", fence+"\n"
	whole := b.head + open + b.diff + close + tail
	if len(whole) <= maxLen {
		return whole, true
	}
	lines := splitLines(b.diff)
	var sb strings.Builder
	sb.WriteString(b.head)
	sb.WriteString(open)
	const noteFmt = "\n_Diff cut after %d of %d lines to keep this comment under GitHub's size limit; `skillsync plan` shows it whole._\n\n"
	budget := maxLen - len(b.head) - len(open) - len(close) - len(tail) - len(noteFmt) - 20
	n := 0
	for _, l := range lines {
		if len(l) > budget {
			break
		}
		sb.WriteString(l)
		budget -= len(l)
		n++
	}
	if n == 0 {
		return "", false
	}
	sb.WriteString(close)
	fmt.Fprintf(&sb, noteFmt, n, len(lines))
	sb.WriteString(tail)
	return sb.String(), true
}

func (m *legacyMDWriter) blocks(blocks []legacyMDBlock, what string) {
	// Water-filling: visit blocks from the smallest, each taking at most an
	// equal share of the room left to the blocks not yet visited.
	sizes := make([]int, len(blocks))
	order := make([]int, len(blocks))
	for i, b := range blocks {
		s, _ := b.render(1 << 62)
		sizes[i], order[i] = len(s), i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	allot := make([]int, len(blocks))
	room := m.room()
	for k, i := range order {
		share := room / (len(order) - k)
		allot[i] = min(sizes[i], share)
		room -= allot[i]
	}
	omitted := 0
	for i, b := range blocks {
		s, ok := b.render(allot[i])
		if !ok || !m.add(s) {
			omitted++
		}
	}
	if omitted > 0 {
		m.must(fmt.Sprintf("_%d %s not shown, to keep this comment under GitHub's size limit; `skillsync plan` shows them all._\n", omitted, what))
	}
}

// legacyChangeBlock is the <details> block of one change: its field changes as a
// list, then the instructions diff.
func legacyChangeBlock(c *Change) legacyMDBlock {
	sym, _ := symbol(c)
	acts := make([]string, len(c.Actions))
	for i, a := range c.Actions {
		acts[i] = string(a)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "<details><summary><code>%s %s</code>: %s</summary>\n\n", sym, html.EscapeString(c.Slug), strings.Join(acts, ", "))
	if c.Changes(FieldName) {
		fmt.Fprintf(&sb, "- name: %s → %s\n", codeSpan(strconv.Quote(c.Before.Name)), codeSpan(strconv.Quote(c.After.Name)))
	}
	if c.Changes(FieldDescription) {
		fmt.Fprintf(&sb, "- description: %s → %s\n", codeSpan(strconv.Quote(c.Before.Description)), codeSpan(strconv.Quote(c.After.Description)))
	}
	if c.Changes(FieldEnabled) {
		fmt.Fprintf(&sb, "- enabled: `%t` → `%t`\n", c.Before.Enabled, c.After.Enabled)
	}
	if c.Unmanaged {
		sb.WriteString("- not in the repository (unmanaged: disable)\n")
	}
	if len(c.Agents) > 0 {
		sb.WriteString("- used by agents: " + cell(agentNames(c.Agents)) + "\n")
	}
	if c.Changes(FieldInstructions) {
		if c.Before.Instructions == nil {
			sb.WriteString("- instructions: null in the space (its SKILL.md could not be read), rewritten as below\n")
		} else {
			sb.WriteString("- instructions: as below\n")
		}
	}
	sb.WriteString("\n")
	return legacyMDBlock{head: sb.String(), diff: c.Diff()}
}

// legacyPlan is [Plan] as it was, its changes holding their diff.
type legacyPlan struct {
	FormatVersion string `json:"format_version"`
	Space         string `json:"space"`
	Commit        string `json:"commit"`
	Dirty         bool   `json:"dirty,omitempty"`
	DesiredHash   string `json:"desired_hash"`

	Changes   []legacyChange   `json:"changes"`
	Unmanaged []UnmanagedSkill `json:"unmanaged"`
	Missing   []MissingSkill   `json:"missing"`
	Files     []FileIssue      `json:"files"`
	Publish   []AgentPublish   `json:"publish"`
	Errors    []Problem        `json:"errors"`
	Warnings  []Problem        `json:"warnings"`
	Summary   Summary          `json:"summary"`
}

// legacyChange is [Change] as it was.
type legacyChange struct {
	Slug        string     `json:"slug"`
	ID          string     `json:"id"`
	Path        string     `json:"path,omitempty"`
	Actions     []Action   `json:"actions"`
	Fields      []string   `json:"fields"`
	Before      SkillState `json:"before"`
	After       SkillState `json:"after"`
	Diff        string     `json:"diff,omitempty"`
	Agents      []AgentRef `json:"agents"`
	Unmanaged   bool       `json:"unmanaged,omitempty"`
	Origin      string     `json:"origin,omitempty"`
	DriftFields []string   `json:"drift_fields,omitempty"`
	UpdatedAt   string     `json:"updated_at"`
	LiveHash    string     `json:"live_hash"`
}

func toLegacy(p *Plan) *legacyPlan {
	l := &legacyPlan{
		FormatVersion: p.FormatVersion, Space: p.Space, Commit: p.Commit, Dirty: p.Dirty, DesiredHash: p.DesiredHash,
		Unmanaged: p.Unmanaged, Missing: p.Missing, Files: p.Files, Publish: p.Publish,
		Errors: p.Errors, Warnings: p.Warnings, Summary: p.Summary,
	}
	if p.Changes != nil {
		l.Changes = []legacyChange{}
	}
	for i := range p.Changes {
		c := &p.Changes[i]
		l.Changes = append(l.Changes, legacyChange{
			Slug: c.Slug, ID: c.ID, Path: c.Path, Actions: c.Actions, Fields: c.Fields,
			Before: c.Before, After: c.After, Diff: c.Diff(), Agents: c.Agents,
			Unmanaged: c.Unmanaged, Origin: c.Origin, DriftFields: c.DriftFields,
			UpdatedAt: c.UpdatedAt, LiveHash: c.LiveHash,
		})
	}
	return l
}

// legacyRenderJSON is RenderJSON as it was: one encoder, the whole plan.
func legacyRenderJSON(w io.Writer, p *Plan) error {
	cp := *p
	cp.normalize()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(toLegacy(&cp)); err != nil {
		return fmt.Errorf("encoding plan: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}
