package spec

import "strings"

// bom is the byte-order mark, which some editors put before a text.
const bom = "\uFEFF"

// Canonical is the form in which instructions are compared and sent: CRLF
// line endings become LF, leading byte-order marks and blank lines are
// removed, and trailing white space is reduced to a single final newline.
// A body with nothing but white space canonicalises to "", so an empty body
// stays empty rather than becoming "\n". Canonical(Canonical(s)) ==
// Canonical(s).
func Canonical(s string) string {
	if strings.Contains(s, "\r\n") {
		s = dropCRBeforeLF(s)
	}
	// Drop byte-order marks and blank lines from the front, in any order
	// and number (an editor may add a second mark, a generator a blank
	// line before one), but keep the indentation of the first non-blank
	// line: it may be an indented code block.
	for {
		if t := strings.TrimPrefix(s, bom); t != s {
			s = t
			continue
		}
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.Trim(s[:i], " \t\r\f\v") != "" {
			break
		}
		s = s[i+1:]
	}
	t := strings.TrimRight(s, " \t\r\n\f\v")
	if t == "" {
		return ""
	}
	if len(t) < len(s) && s[len(t)] == '\n' {
		return s[:len(t)+1] // no copy in the common case
	}
	return t + "\n"
}

// InstructionsToSend is what apply sends for the instructions s, and what
// the service's limit ([MaxInstructionsLen]) is checked against:
// [Canonical] s, less its final newline when that newline alone passes the
// limit. Instructions are compared in canonical form, which adds that
// newline back, so a remote text of exactly the limit with no final newline
// pulls into a SKILL.md (whose body always ends with one) that validates,
// plans no change and, changed, applies.
func InstructionsToSend(s string) string {
	c := Canonical(s)
	if strings.HasSuffix(c, "\n") && len(c) > MaxInstructionsLen && UTF16Len(c) > MaxInstructionsLen {
		return c[:len(c)-1]
	}
	return c
}

// dropCRBeforeLF turns every run of carriage returns that ends a line into
// nothing, in one pass: replacing "\r\n" once would leave "\r\r\n" as
// "\r\n", and Canonical must be idempotent.
func dropCRBeforeLF(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if s[i] != '\r' {
			b.WriteByte(s[i])
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] == '\r' {
			j++
		}
		if j == len(s) || s[j] != '\n' {
			b.WriteString(s[i:j])
		}
		i = j
	}
	return b.String()
}
