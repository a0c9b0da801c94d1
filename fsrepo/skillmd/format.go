package skillmd

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// Format is the SKILL.md of a skill: YAML frontmatter with name and
// description (and "enabled: false" when the skill is disabled), then the
// instructions, in [spec.Canonical] form, as the body.
//
// Any text round-trips: Parse(Format(n, d, e, i)) gives back
// n, d, e and spec.Canonical(i). A value is written plain when YAML reads it back
// as the same string, as a literal block when it spans lines that a block
// holds faithfully, and double-quoted with escapes otherwise (leading or
// trailing space, a final line break, "\r", a line of "---", characters
// YAML cannot hold raw). Invalid UTF-8 is replaced by U+FFFD first, as the
// loader does.
func Format(name, description string, enabled bool, instructions string) []byte {
	name = strings.ToValidUTF8(name, "\uFFFD")
	// Final newlines of a description mean nothing (see SameDescription);
	// without them a multi-line one reads as a block, not an escaped line.
	description = strings.TrimRight(strings.ToValidUTF8(description, "\uFFFD"), "\n")
	body := spec.Canonical(strings.ToValidUTF8(instructions, "\uFFFD"))
	// Canonical replaces "\r\n" in one pass, so "\r\r\n" leaves a "\r\n"
	// that the loader, which reads the whole file with CRLF replaced, never
	// sees: write what the loader will read.
	for c := spec.Canonical(body); c != body; c = spec.Canonical(body) {
		body = c
	}
	out := renderSkillMD(name, description, enabled, body, false)
	// The styles above are chosen to read back exactly; should one not,
	// double quotes always do.
	if sk, _ := Parse(FileName, out); sk.Name != name || sk.Description != description ||
		sk.Enabled != enabled || sk.Instructions != body {
		out = renderSkillMD(name, description, enabled, body, true)
	}
	return out
}

func renderSkillMD(name, description string, enabled bool, body string, quoteAll bool) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	b.WriteString(yamlEntry(KeyName, name, quoteAll))
	b.WriteString(yamlEntry(KeyDescription, description, quoteAll))
	if !enabled {
		b.WriteString(KeyEnabled + ": false\n")
	}
	b.WriteString("---\n")
	b.WriteString(body)
	return b.Bytes()
}

// Merge returns what to write over local, an existing SKILL.md, so
// that it says what next, a SKILL.md as [Format] writes it, says.
//
// Only what differs changes. When local already says it (the same name,
// description, enabled and [spec.Canonical] instructions, with no error)
// local itself is returned: nothing is rewritten. Otherwise the lines of
// the name, description or enabled entry that differs are rewritten, in
// the style the author wrote the value in (plain, quoted, a "|" or ">"
// block) when that style holds the new value (a "|" block only a value of
// several lines: one line is written as Format writes it), and the body
// when the instructions differ; every other byte stays as it is: a
// byte-order mark, CRLF line endings, comments, the other keys and their
// order, the blank lines after the closing "---". A key written twice
// keeps its first entry, as the loader reads it.
//
// A frontmatter that cannot be edited line by line (a flow mapping, keys
// not at the start of their lines) is written afresh: next, with the keys
// of local that skillsync does not know (license, allowed-tools, metadata,
// ...) after name, description and enabled, in their order, encoded
// anew, and an explicit "enabled: true" kept; in the byte-order mark and
// line endings of local. When next has no frontmatter, or local none to
// keep, the result is next, in the byte-order mark and line endings of
// local.
func Merge(local, next []byte) []byte {
	if frontmatter.Parse(normalizeSkillMD(next)).State != frontmatter.Found {
		return next
	}
	want, wantDs := Parse(FileName, next)
	have, haveDs := Parse(FileName, local)
	if sameSkill(have, want) && !haveDs.HasErrors() {
		return local
	}
	readsBack := func(out []byte) bool {
		got, ds := Parse(FileName, out)
		return sameSkill(got, want) && sameExtra(got.Extra, have.Extra) && (!ds.HasErrors() || wantDs.HasErrors())
	}
	if out, ok := editSkillMD(local, have, haveDs, want); ok && readsBack(out) {
		return out
	}
	out := rewriteSkillMD(next, have, want, readsBack)
	if styled := inStyleOf(local, out); !bytes.Equal(styled, out) {
		if got, ds := Parse(FileName, styled); sameSkill(got, want) && (!ds.HasErrors() || wantDs.HasErrors()) {
			return styled
		}
	}
	return out
}

// inStyleOf is out with the byte-order mark of local, and its CRLF line
// endings when most of its lines end so.
func inStyleOf(local, out []byte) []byte {
	if bytes.HasPrefix(local, []byte(bom)) && !bytes.HasPrefix(out, []byte(bom)) {
		out = append([]byte(bom), out...)
	}
	if n := bytes.Count(local, []byte("\n")); n > 0 && 2*bytes.Count(local, []byte("\r\n")) > n {
		out = bytes.ReplaceAll(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
	}
	return out
}

// rewriteSkillMD is next with the keys of have, the local SKILL.md, that
// skillsync does not know, for a local that cannot be edited line by line
// (see [Merge]); readsBack tells a result that says want.
func rewriteSkillMD(next []byte, have, want *Document, readsBack func([]byte) bool) []byte {
	keepEnabled := want.Enabled && slices.ContainsFunc(have.Keys, func(k Key) bool { return k.Name == KeyEnabled })
	if len(have.Extra) == 0 && !keepEnabled {
		return next
	}
	nfm := frontmatter.Parse(normalizeSkillMD(next))
	known := string(nfm.Block)
	if known != "" && !strings.HasSuffix(known, "\n") {
		known += "\n"
	}
	if keepEnabled {
		known += KeyEnabled + ": true\n"
	}
	if extra, ok := extraValues(have.Keys, have.Extra); ok {
		out := slices.Concat([]byte("---\n"+known+extra+"---\n"), nfm.Body)
		if readsBack(out) {
			return out
		}
	}
	return next
}

// extraValues writes the keys of extra afresh, in the order of keys.
func extraValues(keys []Key, extra map[string]any) (string, bool) {
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range keys {
		v, ok := extra[k.Name]
		if !ok {
			continue
		}
		var vn yaml.Node
		if err := vn.Encode(v); err != nil {
			return "", false
		}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k.Name}, &vn)
	}
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return "", false
	}
	if err := enc.Close(); err != nil {
		return "", false
	}
	return b.String(), true
}

// sameSkill reports whether two parsed SKILL.md files ask for the same
// skill.
func sameSkill(a, b *Document) bool {
	return len(spec.Differ(a.Fields(), b.Fields())) == 0
}

// sameExtra compares kept frontmatter values by their YAML text, which
// tells NaN from NaN as equal and needs no care for the types decoded.
func sameExtra(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	ta, err1 := yaml.Marshal(a)
	tb, err2 := yaml.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ta, tb)
}

// normalizeSkillMD reads data as the loader does: invalid UTF-8 replaced,
// no byte-order mark, LF line endings.
func normalizeSkillMD(data []byte) []byte {
	data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	data = bytes.TrimPrefix(data, []byte(bom))
	return bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
}

// yamlEntry is "key: value\n" in the most readable style that reads back
// as value, or double-quoted when quoteAll.
func yamlEntry(key, value string, quoteAll bool) string {
	switch {
	case !quoteAll && plainSafe(key, value):
		return key + ": " + value + "\n"
	case !quoteAll && literalSafe(key, value):
		return literalEntry(key, value)
	}
	return key + ": " + doubleQuote(value) + "\n"
}

// literalEntry is "key: |-" and the lines of value below it, indented by
// two spaces but for blank ones.
func literalEntry(key, value string) string {
	var b strings.Builder
	b.WriteString(key + ": |-\n")
	for _, line := range strings.Split(value, "\n") {
		if line != "" {
			b.WriteString("  " + line)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// plainSafe reports whether value can be written unquoted: one line that
// YAML reads back as the very same string (not a number, a boolean, a
// comment, a flow collection...).
func plainSafe(key, value string) bool {
	if value == "" || strings.ContainsAny(value, "\n\r\t") || strings.TrimSpace(value) != value || !yamlPrintable(value) {
		return false
	}
	// YAML 1.1 readers (PyYAML, many editors) take these for booleans
	// and numbers, though YAML 1.2 reads strings.
	switch strings.ToLower(value) {
	case "y", "n", "yes", "no", "on", "off":
		return false
	}
	if strings.Trim(value, "0123456789.:_+-eE") == "" {
		return false
	}
	return entryReadsBack(key+": "+value+"\n", key, value, 0, true)
}

// literalSafe reports whether value can be written as a "|-" block: lines
// without "\r", none of them the frontmatter delimiter, the first not
// indented (which would need an indentation indicator), no final line break
// (which the loader drops from blocks), and YAML reading it back the same.
func literalSafe(key, value string) bool {
	if !strings.Contains(value, "\n") || strings.ContainsAny(value, "\r") || strings.HasSuffix(value, "\n") ||
		strings.HasPrefix(value, " ") || strings.HasPrefix(value, "\n") || !yamlPrintable(value) {
		return false
	}
	return entryReadsBack(literalEntry(key, value), key, value, yaml.LiteralStyle, true)
}

// yamlPrintable reports whether s holds only characters YAML allows raw in a
// document and reads as no line break: tab, the printable ASCII range, and
// the printable non-ASCII ranges except NEL, the Unicode line and paragraph
// separators and the byte-order mark.
func yamlPrintable(s string) bool {
	for _, r := range s {
		if !yamlRawRune(r) {
			return false
		}
	}
	return true
}

func yamlRawRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return true
	case r < 0x20 || r == 0x7F:
		return false
	case r < 0x7F:
		return true
	case r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF:
		return false
	case r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= utf8.MaxRune:
		return true
	}
	return false
}

// doubleQuote writes s as a YAML double-quoted scalar on one line, escaping
// what YAML cannot hold raw.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			switch {
			case yamlRawRune(r):
				b.WriteRune(r)
			case r <= 0xFF:
				fmt.Fprintf(&b, `\x%02X`, r)
			case r <= 0xFFFF:
				fmt.Fprintf(&b, `\u%04X`, r)
			default:
				fmt.Fprintf(&b, `\U%08X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
