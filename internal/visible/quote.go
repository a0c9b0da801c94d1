package visible

import "strings"

// Quote returns s between double quotes, as a message quotes a name or a
// value: its quotes and backslashes escaped as Go escapes them, and what
// no one can see shown as [Line] shows it, so that a message reads as
// every other output does (⟦ZWSP⟧, never \u200b).
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '"' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte('"')
	return Line(b.String())
}

// QuoteRune returns r between single quotes, as a message quotes one
// character: a quote or a backslash escaped as Go escapes them, and a
// character no one can see shown as [Line] shows it ('⟦ZWSP⟧').
func QuoteRune(r rune) string {
	if r == '\'' || r == '\\' {
		return `'\` + string(r) + `'`
	}
	return "'" + Line(string(r)) + "'"
}
