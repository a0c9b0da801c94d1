package render

import (
	"cmp"
	"errors"
	"fmt"
	"html"
	"io"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/diff"
	"github.com/skillsync/skillsync/spec"
)

// defaultMarkdownMaxLen is the largest comment GitHub accepts, 65,536
// characters. Lengths here are counted in bytes, which are never fewer than
// the characters (or UTF-16 code units) a service counts.
const defaultMarkdownMaxLen = 65536

// MarkdownOptions configure [Markdown].
type MarkdownOptions struct {
	MaxLen int // default 65,536, GitHub's
	// Title starts the heading, before " for space ID" (default
	// "skillsync plan"; drift says "skillsync drift").
	Title string
	// Host names whose size limit MaxLen is, in the notes that say what
	// was cut: "GitHub" unless set ("GitLab" for a merge request note).
	Host string
	// RunURL, when set, is the address of the CI run (a GitHub Actions
	// run, a GitLab job) whose log holds the whole plan: a plan cut to fit
	// ends with a link to it, and [NoChangesMarkdown] names it.
	// Anything but an absolute http(s) URL that a markdown link can hold
	// as it is is ignored.
	RunURL string
}

// maxLen is the most bytes a comment may take: MaxLen, or GitHub's limit.
func (o MarkdownOptions) maxLen() int {
	if o.MaxLen <= 0 {
		return defaultMarkdownMaxLen
	}
	return o.MaxLen
}

// review names what a plan is reviewed on, as its host calls it.
func (o MarkdownOptions) review() string {
	if o.Host == "GitLab" {
		return "merge request"
	}
	return "pull request"
}

// sizeLimit names the limit the cut notes speak of.
func (o MarkdownOptions) sizeLimit() string {
	return cmp.Or(o.Host, "GitHub") + "'s size limit"
}

// runLink is the line that ends a cut plan, linking the run whose log
// holds all of it; "" when o has no usable RunURL.
func (o MarkdownOptions) runLink() string {
	u := linkURL(o.RunURL)
	if u == "" {
		return ""
	}
	return "\n_All of it is in the log of [the run that made this plan](" + u + ")._\n"
}

// linkURL returns raw if it is an absolute http(s) URL that can stand as
// the destination of a markdown link unescaped, else "": the address comes
// from the CI's environment, and must not inject markdown or HTML.
func linkURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || len(raw) > 2048 {
		return ""
	}
	if strings.ContainsAny(raw, " \t\r\n<>()[]\"'`\\") {
		return ""
	}
	return raw
}

// title is the title of a rendered plan, the default when t is empty.
func title(t string) string {
	return cmp.Or(t, "skillsync plan")
}

// MarkdownMarker is the first line of a markdown plan, by which CI finds the
// comment of a space to update it in place: "<!-- skillsync:plan space=ID
// -->" for the one space of a skillsync.yaml without targets (so that the
// comments of earlier versions go on being updated), with " target=NAME"
// before "-->" for a target (two targets may have spaces of one id at two
// addresses). It is part of the markdown format and defined here only:
// the GitHub and GitLab clients are handed it.
func MarkdownMarker(space, target string) string {
	if target != "" {
		return "<!-- skillsync:plan space=" + space + " target=" + target + " -->"
	}
	return "<!-- skillsync:plan space=" + space + " -->"
}

// Where names the space of a plan in words: "space ID", or "target NAME
// (space ID)" for a target of skillsync.yaml.
func Where(space, target string) string {
	if target != "" {
		return "target " + target + " (space " + space + ")"
	}
	return "space " + space
}

// WhereMarkdown is [Where] in markdown, the names in code spans.
func WhereMarkdown(space, target string) string {
	if target != "" {
		return "target " + CodeSpan(target) + " (space " + CodeSpan(space) + ")"
	}
	return "space " + CodeSpan(space)
}

// mdReserve is kept free while filling the comment, for the notes that say
// what was cut; there are at most a few, each short.
const mdReserve = 2048

// Markdown writes p as a pull-request comment: the marker line, the
// summary and a table of the skills, the problems, then one <details> per
// skill with a diff block. The output never exceeds o.MaxLen bytes (for a
// MaxLen of a few kilobytes or more): the summary and table come first and
// are kept, long diffs are cut with a note saying so, and what does not fit
// at all is counted in a note.
func Markdown(w io.Writer, p *reconcile.Plan, o MarkdownOptions) error {
	m := newMDWriter(o)
	m.plan(p)
	m.end()
	return writeLines(w, m.b.String())
}

// NothingToReview reports whether p holds nothing for a reviewer to read:
// no change, no error, no warning, nothing that the API cannot do. Such a
// plan needs no comment of its own: a CI tool may post none, or replace
// an earlier plan's comment with [NoChangesMarkdown]'s few lines.
// A plan with errors always has something to read: why it was refused.
func NothingToReview(p *reconcile.Plan) bool {
	return !p.HasChanges() && !p.HasErrors() && len(p.Warnings) == 0 && len(p.Missing) == 0 && len(p.Files) == 0
}

// NoChangesMarkdown writes the short report of a plan that
// [NothingToReview] says has nothing to show: the marker of p's space, so
// that it replaces the comment of an earlier plan that did, the heading,
// "No changes.", the commit planned and, when o has one, a link to the
// run that planned it, so that a reviewer can tell it is not stale. A plan
// with something to review is refused.
func NoChangesMarkdown(w io.Writer, p *reconcile.Plan, o MarkdownOptions) error {
	if !NothingToReview(p) {
		return errors.New("the plan has changes, errors, warnings or things the API cannot do: render it whole")
	}
	m := mdWriter{o: o}
	m.heading(p.Space, p.Target)
	m.must("**No changes.**" + commitNote(p))
	if u := linkURL(o.RunURL); u != "" {
		m.must(" Planned by [this run](" + u + ").")
	}
	m.must("\n")
	return writeLines(w, m.b.String())
}

// FailureMarkdown writes, in place of a plan, why none could be
// made: the marker of space (so that it replaces the plan comment a
// reviewer would otherwise keep reading), the error and its hint, and the
// problems behind it, such as validation errors, as a list. Like
// [Markdown] it stays under o.MaxLen bytes, listing as many problems
// as fit.
func FailureMarkdown(w io.Writer, space, target, message, hint string, problems []string, o MarkdownOptions) error {
	m := newMDWriter(o)
	m.heading(space, target)
	m.must("> [!CAUTION]\n> **No plan could be made:** " + MarkdownText(message) + "\n")
	if hint != "" {
		m.must(">\n> " + MarkdownText(hint) + "\n")
	}
	m.must("\n")
	items := make([]string, len(problems))
	for i, p := range problems {
		items[i] = "- " + CodeSpan(p) + "\n"
	}
	m.list(items, "problems")
	m.end()
	return writeLines(w, m.b.String())
}

type mdWriter struct {
	b     strings.Builder
	o     MarkdownOptions
	limit int  // bytes the content may fill; notes may go beyond, into the reserve
	cut   bool // something was left out
}

// newMDWriter returns a writer that keeps to o.MaxLen bytes, with room kept
// for the notes and, when o links the run, the line linking it.
func newMDWriter(o MarkdownOptions) *mdWriter {
	return &mdWriter{o: o, limit: o.maxLen() - mdReserve - len(o.runLink())}
}

// end closes a plan from which something was cut with the link to the
// run that holds all of it, when there is one.
func (m *mdWriter) end() {
	if m.cut {
		m.must(m.o.runLink())
	}
}

func (m *mdWriter) room() int { return m.limit - m.b.Len() }

// add writes s if it fits, and reports whether it did. add and [must] are
// the one place where the text of a plan, which the space and the
// repository control, is shown visibly (see package visible): a raw
// control character can break the rendering of a comment or fake it, and
// the same markdown is printed to terminals and CI logs.
func (m *mdWriter) add(s string) bool {
	s = visible.String(s)
	if len(s) > m.room() {
		return false
	}
	m.b.WriteString(s)
	return true
}

// must writes s whatever its size: the head of the comment and the notes.
func (m *mdWriter) must(s string) { m.b.WriteString(visible.String(s)) }

// list writes items until one does not fit, then a note of how many were
// left out.
func (m *mdWriter) list(items []string, what string) {
	for i, it := range items {
		if !m.add(it) {
			m.note(len(items)-i, what)
			return
		}
	}
}

// heading writes the marker of the space's comment and its heading.
func (m *mdWriter) heading(space, target string) {
	m.must(MarkdownMarker(space, target) + "\n")
	m.must("### " + title(m.o.Title) + " for " + WhereMarkdown(space, target) + "\n\n")
}

// commitNote is " Commit `SHA`." for a plan of a commit, saying whether
// the working tree had uncommitted edits; "" outside git.
func commitNote(p *reconcile.Plan) string {
	if p.Commit == "" {
		return ""
	}
	note := " Commit " + CodeSpan(fsrepo.ShortCommit(p.Commit))
	if p.Dirty {
		note += " with uncommitted edits"
	}
	return note + "."
}

func (m *mdWriter) plan(p *reconcile.Plan) {
	m.heading(p.Space, p.Target)
	head := "**" + SummaryLine(p) + "**"
	if p.Summary.Publish > 0 {
		head += fmt.Sprintf(" Agents: %d to publish.", p.Summary.Publish)
	}
	head += fmt.Sprintf(" Active skills: %d → %d of %d.", p.Summary.ActiveBefore, p.Summary.ActiveAfter, spec.MaxActiveSkills)
	if d := p.Descriptions; d != nil {
		head += " Descriptions: " + htmlText(strings.ReplaceAll(d.BudgetLine(), "->", "→")) + htmlText(overlapNote(d)) + "."
	}
	if p.Failed() {
		// No counts to show: zeros and "No changes." would read as a
		// space in step with git.
		head = "**Not planned.**"
	}
	head += commitNote(p)
	if u := UnsyncableLine(p); u != "" {
		head += " " + u
	}
	m.must(head + "\n\n")
	if p.HasErrors() {
		m.must(fmt.Sprintf("> [!CAUTION]\n> **%d %s**: apply refuses this plan.\n\n", len(p.Errors), names.Plural(len(p.Errors), "error", "errors")))
	}
	m.findings(p.Findings)

	groups := groupByOrigin(p, m.o.review())
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
			acts := actionNames(c)
			if c.Unmanaged {
				acts = append(acts, "(unmanaged)")
			}
			rows[i] = fmt.Sprintf("| %s | %s | %s | %s | %s |\n", sym, cell(CodeSpan(c.Slug)),
				strings.Join(acts, ", "), fieldsCell(c), cell(agentNames(c.Agents, CodeSpan)))
		}
		m.list(rows, "skills")
		m.must("\n")
	}

	m.problems("Errors", unlisted(p.Errors))
	m.problems("Warnings", unlisted(p.Warnings))

	var items []string
	for _, s := range p.Missing {
		item := fmt.Sprintf("- %s: no skill %s in the space (%s)", CodeSpan(s.Path), CodeSpan(s.Slug), s.Severity)
		if s.Todo != "" {
			item += ": " + MarkdownText(s.Todo)
		}
		items = append(items, item+"\n")
	}
	for _, f := range p.Files {
		items = append(items, fmt.Sprintf("- %s: %s\n", CodeSpan(fileName(f)), MarkdownText(f.Detail)))
	}
	m.section("**Not possible through the API**, which cannot create skills or write files; make these changes in the app:\n\n", items, "\n", "items")

	items = nil
	for _, a := range p.Publish {
		items = append(items, fmt.Sprintf("- %s (%s): %s\n", CodeSpan(a.Name), CodeSpan(a.ID), publishReason(a, m.o.review())))
	}
	m.section("**Agents to publish:**\n\n", items, "\n", "agents")

	items = nil
	for _, u := range leftAlone(p) {
		items = append(items, fmt.Sprintf("- %s (%s)\n", CodeSpan(u.Slug), enabledWord(u.Enabled)))
	}
	m.section(fmt.Sprintf("<details><summary>Unmanaged skills in the space, left alone (%d)</summary>\n\n", len(items)),
		items, "\n</details>\n\n", "unmanaged skills")

	blocks := make([]mdBlock, 0, len(p.Changes))
	for _, g := range groups {
		for _, c := range g.changes {
			blocks = append(blocks, changeBlock(c))
		}
	}
	for _, f := range p.Files {
		if f.Diff != "" {
			blocks = append(blocks, mdBlock{
				head: "<details><summary>File <code>" + htmlText(fileName(f)) + "</code>: differs from the space (not syncable)</summary>\n\n",
				diff: f.Diff,
			})
		}
	}
	m.blocks(blocks, "diffs")
}

// section writes a header, the items that fit and a footer; with no items it
// writes nothing, and when even the header does not fit, only a note.
func (m *mdWriter) section(header string, items []string, footer, what string) {
	if len(items) == 0 {
		return
	}
	if !m.add(header) {
		m.note(len(items), what)
		return
	}
	m.list(items, what)
	m.must(footer)
}

// note says that the last n items of a list were left out.
func (m *mdWriter) note(n int, what string) {
	m.cut = true
	m.must(fmt.Sprintf("\n_…and %d more %s, cut to keep this comment under %s; `skillsync plan` shows them all._\n", n, what, m.o.sizeLimit()))
}

// findings lists the findings of the security rules, above the plan:
// every text of them is escaped or in code, as the repository and the
// space wrote it.
func (m *mdWriter) findings(fs []reconcile.Finding) {
	items := make([]string, len(fs))
	for i, f := range fs {
		where := CodeSpan(fmt.Sprintf("%s:%d:%d", f.Path, f.Line, max(f.Col, 1)))
		if f.InSpace {
			where = "in the space, skill " + CodeSpan(f.Slug) + ", " + where
		}
		s := fmt.Sprintf("- **%s** %s %s: %s", f.Severity, CodeSpan(f.Rule), where, MarkdownText(strings.TrimSuffix(f.Message, " ["+f.Rule+"]")))
		if f.Hint != "" {
			s += "\n  - hint: " + MarkdownText(f.Hint)
		}
		items[i] = s + "\n"
	}
	m.section(fmt.Sprintf("**Security findings** in the skills this plan changes (%d):\n\n", len(fs)), items, "\n", "findings")
}

func (m *mdWriter) problems(title string, ps []reconcile.Problem) {
	items := make([]string, len(ps))
	for i, pr := range ps {
		s := "- " + MarkdownText(pr.Message)
		if pr.Hint != "" {
			s += " (hint: " + MarkdownText(pr.Hint) + ")"
		}
		items[i] = s + "\n"
	}
	m.section("**"+title+":**\n\n", items, "\n", strings.ToLower(title))
}

// mdBlock is a <details> block: a head, then a diff, cut if need be.
type mdBlock struct {
	head string
	diff string // a file's diff; "" for a change's
	// change, when set, is the change whose instructions diff the block
	// shows, made when the block is sized and kept as script until it is
	// written.
	change *reconcile.Change
	script *diff.Script
}

// mdTail closes a block.
const mdTail = "</details>\n\n"

// diffText is the diff of b, made the first time, shown as a reviewer
// must read it ([shownDiff]), so that it is sized as written.
func (b *mdBlock) diffText() string {
	switch {
	case b.script != nil:
		return shownDiff(b.script.Text())
	case b.change != nil:
		var d string
		b.script, d = diff.NewScript(b.change.DiffInput())
		return shownDiff(d)
	}
	return shownDiff(b.diff)
}

// size is the length of b written whole, with d its diff.
func (b *mdBlock) size(d string) int {
	if d == "" {
		return len(b.head) + len(mdTail)
	}
	fence := fenceFor(d)
	return len(b.head) + len(fence) + len("diff\n") + len(d) + len(fence) + len("\n") + len(mdTail)
}

// render writes b, with d its diff, in at most maxLen bytes: whole, cut
// after as many lines of the diff as fit, or not at all.
func (b *mdBlock) render(d string, maxLen int, sizeLimit string) (string, bool) {
	const tail = mdTail
	if d == "" {
		s := b.head + tail
		return s, len(s) <= maxLen
	}
	fence := fenceFor(d)
	open, close := fence+"diff\n", fence+"\n"
	if b.size(d) <= maxLen {
		return b.head + open + d + close + tail, true
	}
	var sb strings.Builder
	sb.WriteString(b.head)
	sb.WriteString(open)
	noteFmt := "\n_Diff cut after %d of %d lines to keep this comment under " + sizeLimit + "; `skillsync plan` shows it whole._\n\n"
	budget := maxLen - len(b.head) - len(open) - len(close) - len(tail) - len(noteFmt) - 20
	lines := diff.Lines(d)
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

// blocks writes as many blocks as fit, sharing the room left fairly, and a
// note counting those that did not. Every diff is sized before any block
// is written, but only one diff's text is held at a time: the others are
// kept as scripts.
func (m *mdWriter) blocks(blocks []mdBlock, what string) {
	if len(blocks) == 0 {
		return
	}
	room := m.room()
	// A block takes at least its head and tail. When no block has that
	// much room, none is shown, and no diff need be made to find out.
	omitted := len(blocks)
	if slices.ContainsFunc(blocks, func(b mdBlock) bool { return len(b.head)+len(mdTail) <= room }) {
		omitted = m.fill(blocks, room)
	}
	if omitted > 0 {
		m.cut = true
		m.must(fmt.Sprintf("_%d %s not shown, to keep this comment under %s; `skillsync plan` shows them all._\n", omitted, what, m.o.sizeLimit()))
	}
}

// fill writes the blocks that fit in room, and returns how many did not.
func (m *mdWriter) fill(blocks []mdBlock, room int) int {
	// Water-filling: visit blocks from the smallest, each taking at most an
	// equal share of the room left to the blocks not yet visited.
	sizes := make([]int, len(blocks))
	order := make([]int, len(blocks))
	for i := range blocks {
		sizes[i], order[i] = blocks[i].size(blocks[i].diffText()), i
	}
	sort.SliceStable(order, func(a, b int) bool { return sizes[order[a]] < sizes[order[b]] })
	allot := make([]int, len(blocks))
	for k, i := range order {
		share := room / (len(order) - k)
		allot[i] = min(sizes[i], share)
		room -= allot[i]
	}
	omitted := 0
	for i := range blocks {
		b := &blocks[i]
		if allot[i] < len(b.head)+len(mdTail) {
			omitted++ // no room for even its head: its diff is not made again
			continue
		}
		d := b.diffText()
		s, ok := b.render(d, allot[i], m.o.sizeLimit())
		if !ok || !m.add(s) {
			omitted++
			continue
		}
		m.cut = m.cut || b.size(d) > allot[i]
	}
	return omitted
}

// changeBlock is the <details> block of one change: its field changes as a
// list, then the instructions diff.
func changeBlock(c *reconcile.Change) mdBlock {
	sym, _ := symbol(c)
	var sb strings.Builder
	fmt.Fprintf(&sb, "<details><summary><code>%s %s</code>: %s</summary>\n\n", sym, htmlText(c.Slug), strings.Join(actionNames(c), ", "))
	if c.Changes(reconcile.FieldName) {
		fmt.Fprintf(&sb, "- name: %s → %s%s\n", CodeSpan(quote(c.Before.Name)), CodeSpan(quote(c.After.Name)), invisibleNote(c.Before.Name, c.After.Name))
	}
	if c.Changes(reconcile.FieldDescription) {
		fmt.Fprintf(&sb, "- description: %s → %s%s\n", CodeSpan(quote(c.Before.Description)), CodeSpan(quote(c.After.Description)), invisibleNote(c.Before.Description, c.After.Description))
	}
	if c.Changes(reconcile.FieldEnabled) {
		fmt.Fprintf(&sb, "- enabled: `%t` → `%t`\n", c.Before.Enabled, c.After.Enabled)
	}
	if c.Unmanaged {
		sb.WriteString("- not in the repository (unmanaged: disable)\n")
	}
	if len(c.Agents) > 0 {
		sb.WriteString("- used by agents: " + agentNames(c.Agents, CodeSpan) + "\n")
	}
	if c.Changes(reconcile.FieldInstructions) {
		switch ch, only := invisibleInstructions(c); {
		case c.Before.Instructions == nil:
			sb.WriteString("- instructions: null in the space (its SKILL.md could not be read), rewritten as below\n")
		case only:
			sb.WriteString("- instructions: " + ch.describe(CodeSpan) + ", as below\n")
		default:
			sb.WriteString("- instructions: as below\n")
		}
	}
	sb.WriteString("\n")
	return mdBlock{head: sb.String(), change: c}
}

// htmlText is s as the text of an HTML element, what it holds that no
// one can see shown.
func htmlText(s string) string { return html.EscapeString(visible.Line(s)) }

// fenceFor returns a code fence longer than any run of backticks in s, so
// that no line of s can close it.
func fenceFor(s string) string {
	return strings.Repeat("`", max(3, longestBackticks(s)+1))
}

// longestBackticks is the length of the longest run of backticks in s.
func longestBackticks(s string) int {
	longest, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return longest
}

// fieldsCell lists the fields of a change, marking those the pull request
// did not change (see [reconcile.Change.DriftFields]) and those in which only
// invisible characters change.
func fieldsCell(c *reconcile.Change) string {
	fs := make([]string, len(c.Fields))
	for i, f := range c.Fields {
		fs[i] = f
		var only bool
		switch f {
		case reconcile.FieldName:
			_, only = onlyInvisible(c.Before.Name, c.After.Name)
		case reconcile.FieldDescription:
			_, only = onlyInvisible(c.Before.Description, c.After.Description)
		case reconcile.FieldInstructions:
			_, only = invisibleInstructions(c)
		}
		if only {
			fs[i] += " (invisible characters only)"
		}
		if slices.Contains(c.DriftFields, f) {
			fs[i] += " (drift)"
		}
	}
	return strings.Join(fs, ", ")
}

// CodeSpan returns s as a markdown inline code span that s cannot break
// out of, what it holds that no one can see shown (see package visible).
func CodeSpan(s string) string {
	s = visible.Line(s)
	// Spaces inside the ticks let s begin or end with a backtick.
	if longest := longestBackticks(s); longest > 0 {
		ticks := strings.Repeat("`", longest+1)
		return ticks + " " + s + " " + ticks
	}
	return "`" + s + "`"
}

// cell makes md, markdown on one line, safe inside a table cell: no pipe
// splits it, not even within a code span.
func cell(md string) string { return strings.ReplaceAll(md, "|", `\|`) }

// MarkdownText returns s, text that the repository, the space or the
// service may hold, as markdown on one line that shows it as it reads, for
// a list item or a paragraph (a table cell needs [cell] too). Its plain
// words stay as they are; a word that markdown, GitHub or GitLab could
// take for markup, a link, an address, a mention or a reference (#12,
// GH-12, !12, @user, ~label) goes in a code span, which they show as it
// is; so do a quoted text holding one, and runs of such words with the
// few plain words between them. A code span of s stays one. What no one
// can see is shown (see package visible).
func MarkdownText(s string) string {
	// Spaces that begin it could start a code block; those that end it,
	// a line break.
	s = strings.Trim(visible.Line(strings.ReplaceAll(s, "\n", " ")), " ")
	type token struct {
		space, text string // the spaces before it, and it
		code, plain bool   // a code span of s (text is its content); a plain word
	}
	var toks []token
	space := ""
	for i := 0; i < len(s); {
		if s[i] == ' ' {
			j := i
			for j < len(s) && s[j] == ' ' {
				j++
			}
			space, i = s[i:j], j
			continue
		}
		text, end := mdToken(s, i)
		t := token{space: space, text: text}
		switch {
		case s[i] == '`' && end-i > 2 && text == s[i+1:end-1]:
			// A span stays one where nothing but a space or punctuation
			// touches it: else its backticks would run into another's.
			t.code = (space != "" || i == 0) && (end == len(s) || strings.IndexByte(" ,.;:)?!", s[end]) >= 0)
			if !t.code {
				t.text = s[i:end]
			}
		default:
			t.plain = plainWord(text, len(toks) == 0)
		}
		toks = append(toks, t)
		space, i = "", end
	}
	// A plain word or two between words bound for code spans joins them.
	for i := range toks {
		if !toks[i].plain {
			continue
		}
		j := i
		for j < len(toks) && j < i+2 && toks[j].plain {
			j++
		}
		if i > 0 && !toks[i-1].plain && !toks[i-1].code && j < len(toks) && !toks[j].plain && !toks[j].code {
			for k := i; k < j; k++ {
				toks[k].plain = false
			}
		}
	}
	var b, run strings.Builder // run gathers the words of one code span
	flush := func() {
		if run.Len() > 0 {
			b.WriteString(CodeSpan(run.String()))
			run.Reset()
		}
	}
	for _, t := range toks {
		switch {
		case t.code:
			flush()
			b.WriteString(t.space + CodeSpan(t.text))
		case t.plain:
			flush()
			b.WriteString(t.space + t.text)
		case run.Len() > 0:
			run.WriteString(t.space + t.text)
		default:
			b.WriteString(t.space)
			run.WriteString(t.text)
		}
	}
	flush()
	return b.String()
}

// mdToken is the token of s that starts at i, and where it ends: a code
// span (`...`, its content returned), a quoted text ("...", escapes
// within it skipped), or a word, up to a space, a backtick or a quote.
func mdToken(s string, i int) (string, int) {
	switch s[i] {
	case '`':
		if j := strings.IndexByte(s[i+1:], '`'); j > 0 {
			return s[i+1 : i+1+j], i + j + 2
		}
		return "`", i + 1
	case '"':
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return s[i : j+1], j + 1
			}
		}
	}
	j := i + 1
	for j < len(s) && s[j] != ' ' && s[j] != '`' && s[j] != '"' {
		j++
	}
	return s[i:j], j
}

// plainWord reports whether w shows as it is in markdown, on GitHub and on
// GitLab: no markup, address, mention, reference, commit hash or emoji
// code in it. A first word
// must not read as the marker of a list either.
func plainWord(w string, first bool) bool {
	lower := strings.ToLower(w)
	if strings.Contains(w, "://") || strings.Contains(lower, "www.") || ghRef.MatchString(lower) ||
		emojiCode.MatchString(lower) || commitLike(lower) {
		return false
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		switch {
		case c >= 0x80, 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte(` ,.;:'"()?/-`, c) >= 0: // a quoted text has spaces
		case (c == '!' || c == '%') && i == len(w)-1:
		default:
			return false
		}
	}
	if strings.Trim(w, "-") == "" {
		return false // a thematic break, or a list's marker
	}
	return !first || !listMarker.MatchString(w)
}

// commitLike reports whether w, in lower case, holds a word GitHub would
// link to a commit: 7 to 40 hex digits between non-alphanumerics, a letter
// among them, as plain numbers (sizes, counts) are left as they read.
func commitLike(w string) bool {
	words := strings.FieldsFunc(w, func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	return slices.ContainsFunc(words, func(m string) bool {
		return len(m) >= 7 && len(m) <= 40 && strings.Trim(m, "0123456789abcdef") == "" && strings.ContainsAny(m, "abcdef")
	})
}

var (
	// ghRef matches GitHub's reference to an issue, GH-12.
	ghRef = regexp.MustCompile(`(^|[^a-z0-9])gh-[0-9]`)
	// emojiCode matches an emoji's code, :rocket:, which both hosts show
	// as the emoji.
	emojiCode = regexp.MustCompile(`:[a-z0-9_+-]+:`)
	// listMarker matches the marker of an ordered list, 1. or 1).
	listMarker = regexp.MustCompile(`^[0-9]{1,9}[.)]`)
)
