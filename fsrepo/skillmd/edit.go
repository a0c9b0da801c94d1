package skillmd

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// editSkillMD is [Merge]'s edit line by line of local, an existing
// SKILL.md that parsed as have with the diagnostics haveDs, to say want:
// an entry in error is rewritten too, and so is the body when it is.
//
// ok is false for a file laid out so that it cannot be edited line by
// line: no frontmatter, YAML that does not parse, a flow mapping, keys not
// at the start of their lines, line breaks YAML counts and the frontmatter
// cutter does not (a lone CR, NEL, LS, PS). The caller checks that the
// result reads back as want.
func editSkillMD(local []byte, have *Document, haveDs diag.Diagnostics, want *Document) ([]byte, bool) {
	fm := frontmatter.Parse(normalizeSkillMD(local))
	if fm.State != frontmatter.Found {
		return nil, false
	}
	lines := strings.SplitAfter(string(local), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	closing := fm.OpenLine + bytes.Count(fm.Block, []byte("\n")) // index of the closing line
	if closing >= len(lines) || strings.TrimSpace(lines[closing]) != "---" {
		return nil, false
	}
	entries, editable := blockEntries(fm, lines, closing)
	first := map[string]int{}
	for i, e := range entries {
		if !e.dup {
			first[e.key] = i
		}
	}
	find := func(key string) *blockEntry {
		if i, ok := first[key]; ok {
			return &entries[i]
		}
		return nil
	}
	blockStart := fm.OpenLine

	// What to rewrite: a field whose value differs, or whose entry is in
	// error; the body when the instructions differ or it is in error.
	differ := map[string]bool{}
	for _, f := range spec.Differ(have.Fields(), want.Fields()) {
		differ[f] = true
	}
	rewrite := map[string]bool{
		KeyName:        differ[spec.FieldName],
		KeyDescription: differ[spec.FieldDescription],
		KeyEnabled:     differ[spec.FieldEnabled],
	}
	body := differ[spec.FieldInstructions]
	for _, d := range haveDs {
		if d.Severity != diag.SeverityError {
			continue
		}
		for _, key := range []string{KeyName, KeyDescription, KeyEnabled} {
			if strings.HasPrefix(d.Code, key+"-") {
				rewrite[key] = true
			}
			if e := find(key); e != nil && d.Line > e.start && d.Line <= e.end {
				rewrite[key] = true
			}
		}
		if d.Line > closing+1 {
			body = true
		}
	}
	if !editable && (rewrite[KeyName] || rewrite[KeyDescription] || rewrite[KeyEnabled]) {
		return nil, false
	}

	// The frontmatter as written out, line by line up to the closing one:
	// a replaced entry takes its first line and empties the others, and
	// the lines inserted before a line are kept apart.
	text := append(slices.Clone(lines[:closing]), "")
	replace := func(e *blockEntry, with []string) {
		text[e.start] = strings.Join(with, "")
		clear(text[e.start+1 : e.end])
	}
	insert := map[int][]string{}
	eolAt := func(i int) string {
		if i >= 0 && i < len(lines) && strings.HasSuffix(lines[i], "\r\n") {
			return "\r\n"
		}
		return "\n"
	}
	for _, e := range entries {
		if e.dup {
			replace(&e, nil)
		}
	}
	// after is the line after the entry of the first of keys the block
	// holds, or otherwise when it holds none: where a new entry goes.
	after := func(otherwise int, keys ...string) int {
		for _, key := range keys {
			if e := find(key); e != nil {
				return e.end
			}
		}
		return otherwise
	}
	firstKey := closing // the first entry, with the comments above it
	if len(entries) > 0 {
		firstKey = entries[0].start
		for firstKey-1 >= blockStart && strings.HasPrefix(lines[firstKey-1], "#") {
			firstKey--
		}
	}
	set := func(key, value string, at int) {
		if !rewrite[key] {
			return
		}
		if e := find(key); e != nil {
			eol := eolAt(e.start)
			replace(e, withEOL(renderEntry(lines[e.start:e.end], e.k, e.v, key, value), eol))
			return
		}
		insert[at] = append(insert[at], withEOL(freshEntry(key, value), eolAt(at-1))...)
	}
	set(KeyName, want.Name, firstKey)
	set(KeyDescription, want.Description, after(firstKey, KeyName))
	if rewrite[KeyEnabled] {
		if e := find(KeyEnabled); e != nil {
			replace(e, withEOL([]string{enabledEntry(lines[e.start], e.v, want.Enabled)}, eolAt(e.start)))
		} else if !want.Enabled {
			at := after(closing, KeyDescription, KeyName)
			insert[at] = append(insert[at], KeyEnabled+": false"+eolAt(at-1))
		}
	}

	var out strings.Builder
	for i, t := range text {
		out.WriteString(strings.Join(insert[i], "") + t)
	}
	rest := strings.Join(lines[closing:], "")
	if body {
		tail := strings.Join(lines[closing+1:], "")
		newBody := editBody(tail, want.Instructions, eolAt(closing))
		head := lines[closing]
		if !strings.HasSuffix(head, "\n") && newBody != "" {
			head += eolAt(closing - 1)
		}
		rest = head + newBody
	}
	out.WriteString(rest)
	return []byte(out.String()), true
}

// A blockEntry is a key of a frontmatter block and its value, by lines
// of the file.
type blockEntry struct {
	key        string
	k, v       *yaml.Node
	start, end int  // lines [start, end)
	dup        bool // a key that an earlier entry has
}

// blockEntries are the entries of the frontmatter block fm of the file of
// lines, whose closing line is closing: a key's line to the next key's,
// less the blank lines and comments above the next one. ok is false for a
// block that cannot be edited line by line (see [editSkillMD]).
func blockEntries(fm frontmatter.Split, lines []string, closing int) (entries []blockEntry, ok bool) {
	if bytes.ContainsAny(fm.Block, "\r\u0085\u2028\u2029") {
		return nil, false
	}
	doc, err := parseBlock(fm.Block)
	if err != nil {
		return nil, false
	}
	var pairs []*yaml.Node
	if len(doc.Content) > 0 {
		root := doc.Content[0]
		switch {
		case root.Kind == yaml.ScalarNode && root.Tag == "!!null":
		case root.Kind != yaml.MappingNode || root.Style&yaml.FlowStyle != 0:
			return nil, false
		default:
			pairs = root.Content
		}
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(pairs); i += 2 {
		k := pairs[i]
		start := fm.OpenLine + k.Line - 1
		if k.Kind != yaml.ScalarNode || k.Column != 1 || start >= closing ||
			(len(entries) > 0 && start <= entries[len(entries)-1].start) {
			return nil, false
		}
		entries = append(entries, blockEntry{key: k.Value, k: k, v: pairs[i+1], start: start, dup: seen[k.Value]})
		seen[k.Value] = true
	}
	for i := range entries {
		end := closing
		if i+1 < len(entries) {
			end = entries[i+1].start
		}
		for end-1 > entries[i].start && (strings.TrimSpace(lines[end-1]) == "" || strings.HasPrefix(lines[end-1], "#")) {
			end--
		}
		entries[i].end = end
	}
	return entries, true
}

// editBody is body, the text after the closing "---", saying
// instructions ([spec.Canonical]) instead: its blank lines first, its
// white space last and its line endings (those most of its lines end
// with, or fmEOL when it has none) stay.
func editBody(body, instructions, fmEOL string) string {
	eol := fmEOL
	if n := strings.Count(body, "\n"); n > 0 {
		eol = "\n"
		if 2*strings.Count(body, "\r\n") > n {
			eol = "\r\n"
		}
	}
	lead := 0 // the blank lines first
	for {
		i := strings.IndexByte(body[lead:], '\n')
		if i < 0 || strings.Trim(body[lead:lead+i], " \t\r\f\v") != "" {
			break
		}
		lead += i + 1
	}
	core := strings.TrimRight(body[lead:], " \t\r\n\f\v")
	trail := body[lead+len(core):]
	text := strings.TrimSuffix(instructions, "\n")
	if text == "" {
		return body[:lead] + trail
	}
	if core == "" {
		trail = eol // an empty body gets a final line break
	}
	return body[:lead] + strings.ReplaceAll(text, "\n", eol) + trail
}

// withEOL ends each of lines, written with "\n", with eol.
func withEOL(lines []string, eol string) []string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimSuffix(l, "\n") + eol
	}
	return out
}

// freshEntry is "key: value" as Format writes it, as lines.
func freshEntry(key, value string) []string {
	text := yamlEntry(key, value, false)
	if !entryReadsBack(text, key, value, 0, false) {
		text = yamlEntry(key, value, true)
	}
	return strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
}

// renderEntry is the entry key (whose lines and value node are given)
// saying value, as lines ending in "\n": in the style of v, when it holds
// value, and as [Format] writes it otherwise.
func renderEntry(lines []string, k, v *yaml.Node, key, value string) []string {
	plain := make([]string, len(lines))
	for i, l := range lines {
		plain[i] = strings.TrimRight(l, "\r\n")
	}
	if out := sameStyle(plain, k, v, key, value); out != nil {
		return out
	}
	return freshEntry(key, value)
}

// sameStyle writes value in the style and layout of the entry (lines
// without their endings, k and v its key and value), or returns nil when
// that style cannot hold it.
func sameStyle(lines []string, k, v *yaml.Node, key, value string) []string {
	if v.Kind != yaml.ScalarNode || v.Anchor != "" || v.Tag != "!!str" || v.Style&yaml.TaggedStyle != 0 || v.Line < k.Line {
		return nil
	}
	keyLine := lines[0]
	onKeyLine := v.Line == k.Line
	var out []string
	style := v.Style
	switch style {
	case yaml.LiteralStyle, yaml.FoldedStyle:
		if style == yaml.LiteralStyle && !strings.Contains(value, "\n") {
			// A literal block is the form of text whose line breaks
			// matter; one line reads best as Format writes it.
			return nil
		}
		at := runeOffset(keyLine, v.Column-1)
		if !onKeyLine || at < 0 || at >= len(keyLine) || (keyLine[at] != '|' && keyLine[at] != '>') {
			return nil
		}
		indent := blockIndent(strings.Fields(keyLine[at:])[0], lines[1:])
		if indent == "" {
			return nil
		}
		var content []string
		if style == yaml.LiteralStyle {
			content = strings.Split(value, "\n")
		} else if content = foldLines(value, width(lines)-len(indent)); content == nil {
			return nil
		}
		out = append(out, keyLine)
		for _, l := range content {
			if l == "" {
				out = append(out, "")
			} else {
				out = append(out, indent+l)
			}
		}
	case 0, yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		var text string
		switch style {
		case 0:
			if !plainSafe(key, value) {
				return nil
			}
			text = value
		case yaml.DoubleQuotedStyle:
			text = doubleQuote(value)
		default:
			if strings.ContainsAny(value, "\n\r") || !yamlPrintable(value) {
				return nil
			}
			text = "'" + strings.ReplaceAll(value, "'", "''") + "'"
		}
		// The value begins after the key, or alone on the line below it
		// ("key:" alone), indented as the entry's second line was.
		cont := continuation(lines)
		prefix, rest := cont, ""
		if onKeyLine {
			at := runeOffset(keyLine, v.Column-1)
			if at < 0 {
				return nil
			}
			prefix = keyLine[:at]
			if len(lines) == 1 {
				var ok bool
				if rest, ok = afterScalar(keyLine[at:], v); !ok {
					return nil
				}
			}
		} else {
			if cont == "" {
				return nil
			}
			out = append(out, keyLine)
		}
		// A plain value over several lines is wrapped as it was.
		wrapped := []string{text}
		if style == 0 && len(lines) > 1 {
			wrapped = wrapWords(text, width(lines)-len(prefix), width(lines)-len(cont))
			if wrapped == nil || cont == "" {
				return nil
			}
		}
		out = append(out, prefix+wrapped[0]+rest)
		for _, l := range wrapped[1:] {
			out = append(out, cont+l)
		}
	default:
		return nil
	}
	text := strings.Join(out, "\n") + "\n"
	if !entryReadsBack(text, key, value, style, true) {
		return nil
	}
	return strings.SplitAfter(strings.TrimSuffix(text, "\n"), "\n")
}

// entryReadsBack reports whether text, one "key: value" entry, reads as
// key with the string value (a block's final line breaks dropped, as the
// loader drops them), in style when checkStyle, and keeps clear of the
// frontmatter's delimiters.
func entryReadsBack(text, key, value string, style yaml.Style, checkStyle bool) bool {
	for _, l := range strings.Split(text, "\n") {
		if strings.TrimSpace(l) == "---" {
			return false
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil || len(doc.Content) != 1 {
		return false
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode || len(m.Content) != 2 || m.Content[0].Value != key {
		return false
	}
	v := m.Content[1]
	got := v.Value
	if v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		got = strings.TrimRight(got, "\n")
	}
	return v.Kind == yaml.ScalarNode && v.Tag == "!!str" && got == value &&
		(!checkStyle || v.Style&^yaml.TaggedStyle == style)
}

// enabledEntry is the line of an "enabled" entry saying on, in the words
// it used (true/false, yes/no, on/off, in their case) and with its
// comment.
func enabledEntry(line string, v *yaml.Node, on bool) string {
	line = strings.TrimRight(line, "\r\n")
	word := strconv.FormatBool(on)
	if v.Kind == yaml.ScalarNode && v.Style == 0 && v.Line >= 1 {
		if at := runeOffset(line, v.Column-1); at >= 0 && strings.HasPrefix(line[at:], v.Value) {
			old := v.Value
			pairs := map[string][2]string{"true": {"true", "false"}, "false": {"true", "false"},
				"yes": {"yes", "no"}, "no": {"yes", "no"}, "on": {"on", "off"}, "off": {"on", "off"}}
			if p, ok := pairs[strings.ToLower(old)]; ok {
				word = p[1]
				if on {
					word = p[0]
				}
				switch {
				case old == strings.ToUpper(old):
					word = strings.ToUpper(word)
				case old[:1] == strings.ToUpper(old[:1]):
					word = strings.ToUpper(word[:1]) + word[1:]
				}
			}
			return line[:at] + word + line[at+len(old):] + "\n"
		}
	}
	return KeyEnabled + ": " + word + "\n"
}

// afterScalar is what follows the one-line scalar v at the start of s:
// white space and a comment, or nothing.
func afterScalar(s string, v *yaml.Node) (string, bool) {
	end := -1
	switch v.Style &^ yaml.TaggedStyle {
	case 0:
		if strings.HasPrefix(s, v.Value) {
			end = len(v.Value)
		}
	case yaml.DoubleQuotedStyle, yaml.SingleQuotedStyle:
		if i := yamlnode.ClosingQuote(s, 0); i >= 0 {
			end = i + 1
		}
	}
	if end < 0 {
		return "", false
	}
	rest := s[end:]
	if t := strings.TrimSpace(rest); t != "" && !strings.HasPrefix(t, "#") {
		return "", false
	}
	return rest, true
}

// blockIndent is the indentation of a block scalar's content lines: that
// of its header's indentation indicator ("|2"), or of its first line that
// is not blank, or two spaces when it has none.
func blockIndent(header string, content []string) string {
	for _, c := range header[1:] {
		if '1' <= c && c <= '9' {
			return strings.Repeat(" ", int(c-'0'))
		}
	}
	for _, l := range content {
		if strings.TrimSpace(l) != "" {
			if n := len(l) - len(strings.TrimLeft(l, " ")); n > 0 {
				return l[:n]
			}
			return ""
		}
	}
	return "  "
}

// continuation is the indentation of the entry's second line, or "" when
// it has none.
func continuation(lines []string) string {
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) != "" {
			return l[:len(l)-len(strings.TrimLeft(l, " "))]
		}
	}
	return ""
}

// width is the width to wrap a rewritten value at: that of the entry's
// longest line, and 80 at least.
func width(lines []string) int {
	w := 80
	for _, l := range lines {
		w = max(w, utf8.RuneCountInString(l))
	}
	return w
}

// wrapWords cuts s at single spaces into lines of at most first (the
// first) and rest (the others) characters where it can, for a plain or
// folded scalar, which joins lines with one space. nil when s cannot be
// so written: a line break, a tab, or space that is not between words.
func wrapWords(s string, first, rest int) []string {
	if s == "" || strings.ContainsAny(s, "\n\r\t") || strings.TrimSpace(s) != s {
		return nil
	}
	var out []string
	line := ""
	limit := first
	for _, w := range strings.Split(s, " ") {
		switch {
		case w == "":
			// Two spaces: they stay together, inside a line.
			line += " "
		case line == "":
			line = w
		case strings.HasSuffix(line, " ") || utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) <= limit:
			line += " " + w
		default:
			out = append(out, line)
			line, limit = w, rest
		}
	}
	out = append(out, line)
	for _, l := range out {
		if strings.HasSuffix(l, " ") {
			return nil
		}
	}
	return out
}

// foldLines writes value as the content lines of a folded block scalar
// (">"): each line of value wrapped at width, and a blank line for each
// line break, which folding turns back into one. nil when a line starts
// with white space, which a folded scalar keeps with its line breaks.
func foldLines(value string, width int) []string {
	var out []string
	for i, p := range strings.Split(value, "\n") {
		if i > 0 {
			out = append(out, "")
		}
		if p == "" {
			continue
		}
		if p[0] == ' ' || p[0] == '\t' {
			return nil
		}
		w := wrapWords(p, width, width)
		if w == nil {
			return nil
		}
		out = append(out, w...)
	}
	return out
}

// runeOffset is the byte offset of the n-th character of s (from 0), or
// -1 when s is shorter.
func runeOffset(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	if n == 0 {
		return len(s)
	}
	return -1
}
