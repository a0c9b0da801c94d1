package lint

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minOffscreen is the fewest blanks between two texts of a line that push
// the second out of view: a diff in a comment scrolls sideways, and a
// reviewer does not scroll. Tables and aligned code pad less.
const minOffscreen = 64

// brailleBlank is U+2800, which no font draws and visible does not mark.
const brailleBlank = "\u2800"

// offscreenDetector reports text that a run of blanks (spaces, tabs,
// braille blanks) pushes out of view on its line. Its match is the
// letter, number or punctuation before the run, the run (group 1) and
// the rest of the line from a letter on (group 2): a run after a diff's
// marker or a table's pipe is indentation or padding.
var offscreenDetector = detector{
	rule: RuleHiddenUnicode, sev: SeverityError, noDoc: true,
	// The finding's decoded text is the text pushed away, which the
	// excerpt of its match, blanks first, would cut off.
	refine: func(s *scan, m []int) verdict {
		text := s.t.raw[s.t.rawOff(m[4]):s.t.rawEnd(m[5])]
		n := blankRunes(s.fold[m[2]:m[3]])
		return verdict{SeverityError, fmt.Sprintf("text pushed out of view by %d blanks on its line, past where a reviewer reads", n), text}
	},
}

// offscreen finds the runs of minOffscreen blanks or more in fold. A run
// that long spans at least minOffscreen bytes, so it holds one of every
// minOffscreen bytes: only those are looked at, and the run is grown from
// there. The work is linear in the text.
func (s *scan) offscreen() { s.offscreenEvery(minOffscreen) }

// offscreenEvery looks at one byte of every step bytes of fold, and at
// the runs of blanks around them; step is at most minOffscreen.
func (s *scan) offscreenEvery(step int) {
	f := s.fold
	for p := 0; p < len(f); p += step {
		if !isBlankByte(f[p]) {
			continue
		}
		start, end := blankRun(f, p)
		if blankRunes(f[start:end]) < minOffscreen {
			p = max(p, end-step) // the next look is past the run
			continue
		}
		eol := len(f)
		if i := bytes.IndexByte(f[end:], '\n'); i >= 0 {
			eol = end + i
		}
		before, size := utf8.DecodeLastRune(f[:start])
		after, _ := utf8.DecodeRune(f[end:])
		if start > 0 && pushesAway(before) && unicode.IsLetter(after) {
			s.report(&offscreenDetector, []int{start - size, eol, start, end, end, eol})
		}
		p = max(p, end-step)
	}
}

// pushesAway reports whether r, before a run of blanks, ends text a
// reader sees: a letter, a number or punctuation that ends a sentence
// or a phrase.
func pushesAway(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsNumber(r) || strings.ContainsRune(".,;:!?)\"'`*_", r)
}

// isBlankByte reports whether b may be part of a blank: a space, a tab,
// or a byte of a braille blank.
func isBlankByte(b byte) bool {
	return b == ' ' || b == '\t' || b == 0xE2 || b == 0xA0 || b == 0x80
}

// blankRun returns the run of blanks around f[p], or an empty one at p
// when f[p] is in none.
func blankRun(f []byte, p int) (start, end int) {
	// The blank f[p] is in starts at most two bytes before it.
	start = -1
	for q := p; q >= max(p-2, 0); q-- {
		if n := blankAt(f, q); n > 0 && q+n > p {
			start = q
			break
		}
	}
	if start < 0 {
		return p, p
	}
	end = start
	for n := blankAt(f, end); n > 0; n = blankAt(f, end) {
		end += n
	}
	for {
		switch {
		case start > 0 && (f[start-1] == ' ' || f[start-1] == '\t'):
			start--
		case start >= 3 && string(f[start-3:start]) == brailleBlank:
			start -= 3
		default:
			return start, end
		}
	}
}

// blankAt is the length of the blank at f[q], or 0.
func blankAt(f []byte, q int) int {
	switch {
	case q >= len(f):
		return 0
	case f[q] == ' ' || f[q] == '\t':
		return 1
	case bytes.HasPrefix(f[q:], []byte(brailleBlank)):
		return 3
	}
	return 0
}

// blankRunes is the number of blanks in a run of them.
func blankRunes(run []byte) int {
	return utf8.RuneCount(run)
}
