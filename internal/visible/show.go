package visible

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Markers open and close what [String] shows in place of what no one can
// see. They are rare in text, and stand out from it.
const (
	Open  = "⟦"
	Close = "⟧"
)

// maxNamed is the longest run shown by the names of its characters; a
// longer one is counted.
const maxNamed = 8

// maxDecoded bounds the decoded text a marker quotes, in bytes; what is
// past it is cut with "…".
const maxDecoded = 4096

// How [show] shows text.
const (
	showLines = 1 << iota // newlines too, for text that stays on one line
	showEvery             // the characters of valid emoji sequences too
)

// String returns s with what a person cannot see shown as markers: each
// run of invisible or control characters becomes one marker, ⟦ZWSP⟧,
// ⟦ESC⟧, ⟦tags: "what they spell"⟧, ⟦12 zero-width characters⟧, the
// letters under stacks of marks ⟦40 stacked combining marks on "hi"⟧; a bare
// carriage return ⟦CR⟧, a byte that is not UTF-8 ⟦0x9B⟧. Tab, newline
// and the carriage return of a CRLF line end are kept, and so are valid
// emoji sequences and the joiners and marks of scripts that use them
// (see [Runs]). Text shown once shows the same again.
func String(s string) string { return show(s, 0) }

// Line is [String] for text that must stay on one line: it shows newlines
// and carriage returns too, as ⟦LF⟧ and ⟦CR⟧.
func Line(s string) string { return show(s, showLines) }

// Every is [Line] that also shows the invisible characters of valid emoji
// sequences and the marks of right-to-left lines: for two texts that
// [Line] would show alike.
func Every(s string) string { return show(s, showLines|showEvery) }

// Strip returns s without the characters that [KindOf] finds invisible:
// the text a person sees. Bytes that are not UTF-8 are kept.
func Strip(s string) string {
	if !HasInvisible(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if KindOf(r) == KindNone {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// Hidden returns the marker of each run of invisible characters of s, in
// order, those of valid emoji sequences included.
func Hidden(s string) []string {
	runs := findRuns(s, 0)
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = string(appendMarker(nil, s, r))
	}
	return out
}

// plain reports whether s is printable ASCII, tabs and newlines: nothing
// to show.
func plain(s string, m int) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f, c == '\t':
		case c == '\n' && m&showLines == 0:
		default:
			return false
		}
	}
	return true
}

func show(s string, m int) string {
	if plain(s, m) {
		return s
	}
	excuse := excuseSequences
	if m&showEvery != 0 {
		excuse = 0
	}
	runs := findRuns(s, excuse)
	b := make([]byte, 0, len(s)+16)
	for i := 0; i < len(s); {
		if len(runs) > 0 && runs[0].Start == i {
			b = appendMarker(b, s, runs[0])
			i = runs[0].End
			runs = runs[1:]
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\n' && m&showLines != 0:
				b = append(b, Open+"LF"+Close...)
			case c == '\r' && (m&showLines != 0 || i+1 == len(s) || s[i+1] != '\n'):
				b = append(b, Open+"CR"+Close...)
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = fmt.Appendf(b, Open+"0x%02X"+Close, c)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}

// appendMarker appends the marker of run r of s: for a stack, how many
// marks smear which letters; what it spells, when it spells something;
// else the names of its characters, when they are few; else how many
// there are.
func appendMarker(b []byte, s string, r Run) []byte {
	b = append(b, Open...)
	switch {
	case r.Kinds == 1<<KindStack:
		b = fmt.Appendf(b, "%d %s on ", r.Count, KindStack)
		b = appendQuoted(b, r.Decoded)
	case r.Decoded != "":
		kind := r.Main().String()
		if r.Main() == KindTag {
			kind = "tags"
		}
		b = append(b, kind...)
		b = append(b, ": "...)
		b = appendQuoted(b, r.Decoded)
	case r.Count <= maxNamed:
		for i, c := range s[r.Start:r.End] {
			if i > 0 {
				b = append(b, ' ')
			}
			b = append(b, Name(c)...)
		}
	default:
		kind := "invisible characters"
		if k := r.Main(); r.Kinds == 1<<k {
			kind = k.String()
		}
		b = fmt.Appendf(b, "%d %s", r.Count, kind)
	}
	return append(b, Close...)
}

// appendQuoted appends text decoded from a run as a Go string literal, in
// which nothing is hidden and no marker ends.
func appendQuoted(b []byte, text string) []byte {
	if len(text) > maxDecoded {
		cut := maxDecoded
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut] + "…"
	}
	q := strconv.Quote(text)
	if strings.Contains(q, Close) {
		q = strings.ReplaceAll(q, Close, `\u27e7`)
	}
	return append(b, q...)
}

// c0Names are the abbreviations of the C0 control characters.
var c0Names = [...]string{
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT", "FF", "CR", "SO", "SI",
	"DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
}

// Name is the short name of an invisible or control character, as a
// marker shows it: its Unicode abbreviation (ZWSP, RLO, VS16, ESC) when it
// has one in common use, else U+XXXX.
func Name(r rune) string {
	switch {
	case r >= 0 && r < 0x20:
		return c0Names[r]
	case r >= 0xfe00 && r <= 0xfe0f:
		return "VS" + strconv.Itoa(int(r-0xfe00)+1)
	case r >= 0xe0100 && r <= 0xe01ef:
		return "VS" + strconv.Itoa(int(r-0xe0100)+17)
	}
	switch r {
	case 0x7f:
		return "DEL"
	case 0xad:
		return "SHY"
	case 0x034f:
		return "CGJ"
	case 0x061c:
		return "ALM"
	case 0x200b:
		return "ZWSP"
	case 0x200c:
		return "ZWNJ"
	case 0x200d:
		return "ZWJ"
	case 0x200e:
		return "LRM"
	case 0x200f:
		return "RLM"
	case 0x2028:
		return "LSEP"
	case 0x2029:
		return "PSEP"
	case 0x202a:
		return "LRE"
	case 0x202b:
		return "RLE"
	case 0x202c:
		return "PDF"
	case 0x202d:
		return "LRO"
	case 0x202e:
		return "RLO"
	case 0x2060:
		return "WJ"
	case 0x2066:
		return "LRI"
	case 0x2067:
		return "RLI"
	case 0x2068:
		return "FSI"
	case 0x2069:
		return "PDI"
	case 0xfeff:
		return "BOM"
	}
	return fmt.Sprintf("U+%04X", r)
}

// EscapeJSON returns JSON text b with every character that [KindOf] finds
// invisible or a control written as a \u escape (two, past U+FFFF), which
// a reader of the JSON sees and a parser reads as the same value.
// encoding/json leaves them raw, but for U+2028 and U+2029. Such
// characters are found only inside strings in JSON.
func EscapeJSON(b []byte) []byte {
	var out []byte
	done := 0
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf && b[i] != 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if KindOf(r) == KindNone {
			i += n
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+64)
		}
		out = append(out, b[done:i]...)
		if r > 0xffff {
			r -= 0x10000
			out = fmt.Appendf(out, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
		done = i
	}
	if out == nil {
		return b
	}
	return append(out, b[done:]...)
}
