package reconcile

import (
	"strings"
	"unicode"
)

// canonical is the form in which instructions are compared (DESIGN.md):
// CRLF -> LF, BOM removed, leading blank lines removed, trailing whitespace
// at the end reduced to one newline; "" stays "".
//
// TODO: switch to fsrepo.Canonical once fsrepo exports it; the two must
// agree, or a plan after apply would show changes.
func canonical(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.TrimPrefix(s, "\uFEFF")
	for s != "" {
		line, rest, found := strings.Cut(s, "\n")
		if strings.TrimLeftFunc(line, unicode.IsSpace) != "" {
			break
		}
		if !found {
			s = ""
			break
		}
		s = rest
	}
	s = strings.TrimRightFunc(s, unicode.IsSpace)
	if s == "" {
		return ""
	}
	return s + "\n"
}
