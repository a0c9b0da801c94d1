package lint

import (
	"bytes"
	"sort"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/visible"
	"golang.org/x/text/unicode/norm"
)

// A text is a file as the rules read it. fold is raw in lower case, with
// what disguises a word undone: invisible characters dropped, fullwidth and
// other compatibility forms (NFKC), Cyrillic and Greek look-alikes and
// curly quotes made ASCII, line continuations made spaces. Rules match
// fold; findings point into raw.
type text struct {
	raw  string
	fold []byte
	// offs[i] is the offset in raw of the byte fold[i] came from; nil
	// when the two align byte for byte.
	offs  []int32
	lines []int // offsets in raw of line starts, made when first needed
	// plain says raw holds no character that [visible.KindOf] calls
	// invisible and no combining mark, so that it has no run of them.
	plain bool
}

// A textBuf holds the memory of a text's fold and offsets, kept for the
// next text once the one that used it is judged.
type textBuf struct {
	fold []byte
	offs []int32
}

// newText folds raw into the memory of buf, which the text then owns
// until it is judged.
func newText(raw string, buf *textBuf) *text {
	t := &text{raw: raw, plain: true}
	ascii := true
	for i := 0; i < len(raw); i++ {
		if raw[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		b := append(buf.fold[:0], raw...)
		t.plain = lowerASCII(b)
		blankContinuations(b)
		t.fold, buf.fold = b, b[:0]
		return t
	}
	b, offs := buf.fold[:0], buf.offs[:0]
	var tmp [32]byte
	for i := 0; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			// A run of ASCII is copied and lowered as a whole.
			j := i + 1
			for j < len(raw) && raw[j] < utf8.RuneSelf {
				j++
			}
			b = append(b, raw[i:j]...)
			if !lowerASCII(b[len(b)-(j-i):]) {
				t.plain = false
			}
			for ; i < j; i++ {
				offs = append(offs, int32(i))
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(raw[i:])
		if t.plain && (visible.KindOf(r) != visible.KindNone || unicode.In(r, unicode.Mn, unicode.Me)) {
			t.plain = false // a combining mark may be one of a stack
		}
		for _, c := range foldRune(tmp[:0], r, raw[i:i+n]) {
			b = append(b, c)
			offs = append(offs, int32(i))
		}
		i += n
	}
	blankContinuations(b)
	t.fold, t.offs = b, offs
	buf.fold, buf.offs = b[:0], offs[:0]
	return t
}

// lowerASCII lowers the ASCII letters of b in place, and reports whether
// b is free of control characters other than tabs and line breaks.
func lowerASCII(b []byte) bool {
	plain := true
	for i, c := range b {
		switch {
		case 'A' <= c && c <= 'Z':
			b[i] = c + 'a' - 'A'
		case c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f:
			plain = false
		}
	}
	return plain
}

// blankContinuations turns a backslash (or PowerShell's backtick) that
// continues a command on the next line into spaces, so a command cut
// across lines reads as one. It looks only before line breaks, in order,
// so a blanked break may make the next one's backtick follow a space.
func blankContinuations(b []byte) {
	for k := bytes.IndexByte(b, '\n'); k >= 0; {
		i := k - 1 // the character continued
		if i >= 0 && b[i] == '\r' {
			i--
		}
		// PowerShell continues a line with a backtick after a space;
		// markdown ends code spans and fences with backticks too.
		if i >= 0 && (b[i] == '\\' || b[i] == '`' && i > 0 && b[i-1] == ' ') {
			for c := i; c <= k; c++ {
				b[c] = ' '
			}
		}
		next := bytes.IndexByte(b[k+1:], '\n')
		if next < 0 {
			break
		}
		k += 1 + next
	}
}

// foldRune appends to dst the folded form of r, whose UTF-8 is s.
func foldRune(dst []byte, r rune, s string) []byte {
	if visible.KindOf(r) != visible.KindNone {
		return dst
	}
	if c, ok := lookAlike(r); ok {
		return append(dst, c)
	}
	switch {
	case r >= 0x2018 && r <= 0x201b, r == 0x2032:
		return append(dst, '\'')
	case r >= 0x201c && r <= 0x201f, r == 0x2033:
		return append(dst, '"')
	case r == 0x2010 || r == 0x2011 || r == 0x2012 || r == 0x2013 || r == 0x2212:
		return append(dst, '-')
	}
	if mayFold(r) {
		start := len(dst)
		dst = norm.NFKC.AppendString(dst, s)
		// Lower-case what NFKC made, keeping it to ASCII where it is.
		folded := string(dst[start:])
		dst = dst[:start]
		for _, fr := range folded {
			fr = unicode.ToLower(fr)
			if c, ok := lookAlike(fr); ok {
				dst = append(dst, c)
			} else {
				dst = utf8.AppendRune(dst, fr)
			}
		}
		return dst
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// mayFold reports whether NFKC may turn r into something ASCII: Latin-1
// and its extensions, spacing and punctuation, letter-like symbols,
// enclosed and fullwidth forms, mathematical letters.
func mayFold(r rune) bool {
	return r < 0x0300 || r >= 0x1d00 && r <= 0x1dbf || r >= 0x2000 && r <= 0x24ff ||
		r == 0x3000 || r >= 0xfb00 && r <= 0xfb4f || r >= 0xfe30 && r <= 0xfe6f ||
		r >= 0xff00 && r <= 0xffef || r >= 0x1d400 && r <= 0x1d7ff || r >= 0x1f100 && r <= 0x1f1ff
}

// lookAlike is the ASCII letter that the Cyrillic or Greek letter r is
// drawn like, in lower case.
func lookAlike(r rune) (byte, bool) {
	if r < 0x0370 || r > 0x052f {
		if r == 0x0131 { // dotless i
			return 'i', true
		}
		return 0, false
	}
	switch r {
	case 'а', 'А', 'α', 'Α':
		return 'a', true
	case 'в', 'В', 'Β', 'ь':
		return 'b', true
	case 'с', 'С', 'ϲ':
		return 'c', true
	case 'ԁ':
		return 'd', true
	case 'е', 'Е', 'ё', 'Ё', 'Ε', 'ε':
		return 'e', true
	case 'һ', 'Һ', 'Н', 'Η':
		return 'h', true
	case 'і', 'І', 'ї', 'Ї', 'ι', 'Ι', 'ӏ':
		return 'i', true
	case 'ј', 'Ј', 'ϳ':
		return 'j', true
	case 'к', 'К', 'κ', 'Κ':
		return 'k', true
	case 'м', 'М', 'Μ':
		return 'm', true
	case 'Ν', 'η':
		return 'n', true
	case 'о', 'О', 'ο', 'Ο', 'σ':
		return 'o', true
	case 'р', 'Р', 'ρ', 'Ρ':
		return 'p', true
	case 'ԛ':
		return 'q', true
	case 'ѕ', 'Ѕ':
		return 's', true
	case 'т', 'Т', 'τ', 'Τ':
		return 't', true
	case 'υ', 'ս':
		return 'u', true
	case 'ν', 'ѵ':
		return 'v', true
	case 'ԝ', 'Ԝ', 'ω':
		return 'w', true
	case 'х', 'Х', 'χ', 'Χ':
		return 'x', true
	case 'у', 'У', 'Υ', 'γ', 'ү':
		return 'y', true
	case 'Ζ':
		return 'z', true
	}
	return 0, false
}

// rawOff is the offset in raw of the byte fold[i] came from; i may be
// len(fold), which maps to len(raw).
func (t *text) rawOff(i int) int {
	if t.offs == nil {
		return i
	}
	if i >= len(t.offs) {
		return len(t.raw)
	}
	return int(t.offs[i])
}

// rawEnd is the end in raw of the folded span ending at fold[i]: the end
// of the character the last byte of the span came from.
func (t *text) rawEnd(i int) int {
	if t.offs == nil || i == 0 {
		return t.rawOff(i)
	}
	o := t.rawOff(i - 1)
	_, n := utf8.DecodeRuneInString(t.raw[o:])
	return o + n
}

// pos is the line and column (in characters), from 1, of raw[off].
func (t *text) pos(off int) (line, col int) {
	if t.lines == nil {
		t.lines = []int{0}
		for i := 0; i < len(t.raw); i++ {
			if t.raw[i] == '\n' {
				t.lines = append(t.lines, i+1)
			}
		}
	}
	l := sort.Search(len(t.lines), func(k int) bool { return t.lines[k] > off }) - 1
	return l + 1, utf8.RuneCountInString(t.raw[t.lines[l]:off]) + 1
}
