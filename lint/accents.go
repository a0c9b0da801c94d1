package lint

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/skillsync/skillsync/internal/visible"
)

// accents judges a text whose letters carry accents again without them,
// and reports at its line what only that reading finds: a model reads
// "ìgnòrè" and "i\u0323gnore" as "ignore", while the rules read letters as
// they are written. The whole text is judged again, so that a line keeps
// the context (code block, heading, words around) that may lower it.
func (s *scan) accents() {
	if s.t.offs == nil || s.depth >= maxDepth {
		return // ASCII has no accents
	}
	bare, ok := withoutAccents(s.t.raw)
	if !ok {
		return
	}
	inner := s.j.scan(s.path, bare, s.hash, s.depth+1, s.aboutAttacks)
	s.work += inner.work
	type at struct {
		rule string
		line int
	}
	found := map[at]bool{}
	for _, f := range s.out {
		found[at{f.Rule, f.Line}] = true
	}
	for _, f := range inner.out {
		// Hidden characters are judged in the text as it is, and a
		// secret of the process is not spelt out again.
		if f.Severity < SeverityWarning || f.Rule == RuleHiddenUnicode || f.Rule == RuleKnownSecret || found[at{f.Rule, f.Line}] {
			continue
		}
		found[at{f.Rule, f.Line}] = true
		lo, hi := s.t.lineSpan(f.Line)
		s.addRaw(f.Rule, f.Severity, lo, hi, "", "read without its accents, "+f.Message)
	}
}

// lineSpan is where line n (from 1) of the text lies, without its line
// break.
func (t *text) lineSpan(n int) (int, int) {
	t.pos(0) // makes t.lines
	if n < 1 || n > len(t.lines) {
		return len(t.raw), len(t.raw)
	}
	lo, hi := t.lines[n-1], len(t.raw)
	if n < len(t.lines) {
		hi = t.lines[n] - 1
	}
	return lo, hi
}

// withoutAccents is s with the combining marks on its Latin, Greek and
// Cyrillic text (letters, digits, punctuation) left out, and its accented
// letters made their base letters; changed says whether there were any.
// Line breaks stay, so line n of the result is line n of s.
// Marks on other scripts, whose vowels they may be, stay.
func withoutAccents(s string) (bare string, changed bool) {
	var b []byte // made at the first change; s[:kept] is in it
	kept := 0
	onBase := false // the last character kept is of those scripts, not a space
	for i := 0; i < len(s); {
		if s[i] < utf8.RuneSelf {
			// A run of ASCII has nothing to drop; only its last byte
			// says whether a mark after it sits on a base.
			i = asciiEnd(s, i+1)
			onBase = s[i-1] > ' ' && s[i-1] < 0x7f
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		drop, repl := false, ""
		switch {
		case visible.IsMark(r):
			drop = onBase
		case accentedScript(r) && !norm.NFD.IsNormalString(s[i:i+n]):
			base, _ := utf8.DecodeRuneInString(norm.NFD.String(s[i : i+n]))
			drop, repl = true, string(base)
			onBase = !unicode.IsSpace(base)
		default:
			onBase = accentedScript(r) && !unicode.IsSpace(r)
		}
		if drop {
			if b == nil {
				b = make([]byte, 0, len(s))
			}
			b = append(append(b, s[kept:i]...), repl...)
			kept = i + n
		}
		i += n
	}
	if b == nil {
		return s, false
	}
	return string(append(b, s[kept:]...)), true
}

// accentedScript reports whether r is of the Latin, Greek or Cyrillic
// blocks, whose letters take accents.
func accentedScript(r rune) bool {
	return r < 0x0530 || r >= 0x1e00 && r < 0x2000
}
