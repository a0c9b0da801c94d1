package lint

import (
	"bytes"
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
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
	// offs maps fold to raw in segments, in increasing order of both;
	// nil when the two align byte for byte.
	offs  []seg
	lines []int // offsets in raw of line starts, made when first needed
	// plain says raw holds no character that [visible.KindOf] calls
	// invisible and no combining mark, so that it has no run of them.
	plain bool
	buf   *textBuf
}

// A textBuf holds the memory of a text's fold, offsets and lines, kept
// for the next text once the one that used it is judged.
type textBuf struct {
	fold  []byte
	offs  []seg
	lines []int
}

// A seg is the part of fold from fold up to the next seg's start. In a
// run, fold byte i came from raw byte raw+i-fold; otherwise all its bytes
// came from the one character at raw.
type seg struct {
	fold, raw int32
	run       bool
}

// newText folds raw into the memory of buf, which the text then owns
// until it is judged.
func newText(raw string, buf *textBuf) *text {
	t := &text{raw: raw, buf: buf}
	// Most texts are ASCII: lowered as they are copied.
	b, plain, n := appendLowerASCII(buf.fold[:0], raw)
	t.plain = plain
	if n == len(raw) {
		blankContinuations(b)
		t.fold, buf.fold = b, b[:0]
		return t
	}
	// offs is not nil even when nothing folds to a byte, so that the end
	// of fold still maps to the end of raw.
	offs := append(buf.offs[:0], seg{})[:0]
	if n > 0 {
		offs = append(offs, seg{0, 0, true})
	}
	same := selfFolds()
	var tmp [32]byte
	for i := n; i < len(raw); {
		if raw[i] < utf8.RuneSelf {
			offs = append(offs, seg{int32(len(b)), int32(i), true})
			b, plain, n = appendLowerASCII(b, raw[i:])
			t.plain = t.plain && plain
			i += n
			continue
		}
		r, size := utf8.DecodeRuneInString(raw[i:])
		if r < rune(len(same))*8 && same[r/8]&(1<<(r%8)) != 0 {
			// Visible, no mark, and its own fold: copied as it is.
			offs = append(offs, seg{int32(len(b)), int32(i), false})
			b = append(b, raw[i:i+size]...)
			i += size
			continue
		}
		if t.plain && (visible.KindOf(r) != visible.KindNone || visible.IsMark(r)) {
			t.plain = false // a combining mark may be one of a stack
		}
		if f := foldRune(tmp[:0], r); len(f) > 0 {
			offs = append(offs, seg{int32(len(b)), int32(i), false})
			b = append(b, f...)
		}
		i += size
	}
	blankContinuations(b)
	t.fold, t.offs = b, offs
	buf.fold, buf.offs = b[:0], offs[:0]
	return t
}

// selfFolds holds a bit for each character below U+10000 that is neither
// invisible nor a combining mark and folds to itself; the replacement
// character, which also stands for bytes that are not UTF-8, has none.
var selfFolds = sync.OnceValue(func() []byte {
	bits := make([]byte, 0x10000/8)
	var tmp [32]byte
	for r := rune(utf8.RuneSelf); r < 0x10000; r++ {
		if r == utf8.RuneError || !utf8.ValidRune(r) || visible.KindOf(r) != visible.KindNone || visible.IsMark(r) {
			continue
		}
		if string(foldRune(tmp[:0], r)) == string(r) {
			bits[r/8] |= 1 << (r % 8)
		}
	}
	return bits
})

// word is the eight bytes of s from i, the first the lowest.
func word(s string, i int) uint64 {
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}

// asciiEnd is the end of the run of ASCII bytes of s that starts at i.
func asciiEnd(s string, i int) int {
	for ; i+8 <= len(s); i += 8 {
		w := word(s, i)
		if w&highBits != 0 {
			break
		}
	}
	for i < len(s) && s[i] < utf8.RuneSelf {
		i++
	}
	return i
}

// Masks for reading eight ASCII bytes at once: a byte plus 0x80-c has its
// high bit set exactly when the byte is at least c.
const (
	eachByte = 0x0101010101010101
	highBits = 0x8080808080808080
)

// appendLowerASCII appends to dst the ASCII bytes that s starts with, its
// letters lowered, up to its first byte beyond ASCII, s[n] (n is len(s)
// when there is none). plain reports whether those bytes are free of
// control characters other than tabs and line breaks.
func appendLowerASCII(dst []byte, s string) (b []byte, plain bool, n int) {
	d := len(dst)
	b = slices.Grow(dst, len(s))[:d+len(s)]
	plain = true
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := word(s, i)
		if w&highBits != 0 {
			break // the bytes of this word are read one by one
		}
		upper := (w + (0x80-'A')*eachByte) &^ (w + (0x80-'Z'-1)*eachByte) & highBits
		binary.LittleEndian.PutUint64(b[d+i:], w|upper>>2)
		// Bytes below a space, or DEL; line breaks are common enough to
		// be set apart here.
		ctl := (^(w + (0x80-' ')*eachByte) | (w + eachByte)) & highBits
		if nl := w ^ '\n'*eachByte; ctl != 0 && plain {
			ctl &^= ^((nl&^highBits + ^uint64(highBits)) | nl) & highBits
			plain = ctl == 0 || plainControls(s[i:i+8])
		}
	}
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return b[:d+i], plain, i
		case 'A' <= c && c <= 'Z':
			c += 'a' - 'A'
		case c < ' ' || c == 0x7f:
			plain = plain && plainControls(s[i:i+1])
		}
		b[d+i] = c
	}
	return b, plain, len(s)
}

// plainControls reports whether the control characters of b are tabs and
// line breaks only.
func plainControls(b string) bool {
	for _, c := range b {
		if c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
			return false
		}
	}
	return true
}

// blankContinuations turns a backslash (or PowerShell's backtick) that
// continues a command on the next line into spaces, so a command cut
// across lines reads as one. It blanks in order, so a blanked break may
// make the backtick that follows it follow a space.
func blankContinuations(b []byte) {
	// Backslashes and backticks are fewer than line breaks: each is
	// looked at, in order, to see whether a line break follows it.
	next := func(c byte, from int) int {
		if k := bytes.IndexByte(b[from:], c); k >= 0 {
			return from + k
		}
		return len(b)
	}
	slash, tick := next('\\', 0), next('`', 0)
	for {
		i := min(slash, tick)
		if i == len(b) {
			return
		}
		if i == slash {
			slash = next('\\', i+1)
		} else {
			tick = next('`', i+1)
		}
		k := i + 1 // the line break continued
		if k < len(b) && b[k] == '\r' {
			k++
		}
		// PowerShell continues a line with a backtick after a space;
		// markdown ends code spans and fences with backticks too.
		if k < len(b) && b[k] == '\n' && (b[i] == '\\' || i > 0 && b[i-1] == ' ') {
			for c := i; c <= k; c++ {
				b[c] = ' '
			}
		}
	}
}

// foldRune appends to dst the folded form of r.
func foldRune(dst []byte, r rune) []byte {
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
		if f, ok := nfkcFolds()[r]; ok {
			return append(dst, f...)
		}
	}
	return utf8.AppendRune(dst, unicode.ToLower(r))
}

// nfkcFolds maps each character that [mayFold] accepts to its NFKC form
// in lower case, with look-alike letters made ASCII, where that is not
// the character in lower case. It is made when a text first needs it.
var nfkcFolds = sync.OnceValue(func() map[rune]string {
	folds := map[rune]string{}
	for r := rune(utf8.RuneSelf); r <= 0x1f1ff; r++ {
		if !mayFold(r) {
			continue
		}
		var f []byte
		for _, fr := range norm.NFKC.String(string(r)) {
			fr = unicode.ToLower(fr)
			if c, ok := lookAlike(fr); ok {
				f = append(f, c)
			} else {
				f = utf8.AppendRune(f, fr)
			}
		}
		if string(f) != string(unicode.ToLower(r)) {
			folds[r] = string(f)
		}
	}
	return folds
})

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
	if i >= len(t.fold) {
		return len(t.raw)
	}
	// The last segment starting at or before i.
	k := sort.Search(len(t.offs), func(k int) bool { return int(t.offs[k].fold) > i }) - 1
	sg := t.offs[k]
	if sg.run {
		return int(sg.raw) + i - int(sg.fold)
	}
	return int(sg.raw)
}

// foldOff is the first i whose rawOff(i) is at least off, or len(fold).
func (t *text) foldOff(off int) int {
	if t.offs == nil {
		return off
	}
	// The first segment holding a byte from off or beyond: its last byte
	// comes from the last byte of a run, or from its one character.
	k := sort.Search(len(t.offs), func(k int) bool {
		sg, last := t.offs[k], int(t.offs[k].raw)
		if sg.run {
			last += t.segEnd(k) - int(sg.fold) - 1
		}
		return last >= off
	})
	if k == len(t.offs) {
		return len(t.fold)
	}
	if sg := t.offs[k]; sg.run && off > int(sg.raw) {
		return int(sg.fold) + off - int(sg.raw)
	}
	return int(t.offs[k].fold)
}

// segEnd is the end in fold of segment k.
func (t *text) segEnd(k int) int {
	if k+1 < len(t.offs) {
		return int(t.offs[k+1].fold)
	}
	return len(t.fold)
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
		lines := []int{0}
		if t.buf != nil {
			lines = append(t.buf.lines[:0], 0)
		}
		for i := 0; ; {
			k := strings.IndexByte(t.raw[i:], '\n')
			if k < 0 {
				break
			}
			i += k + 1
			lines = append(lines, i)
		}
		t.lines = lines
		if t.buf != nil {
			t.buf.lines = lines[:0]
		}
	}
	l := sort.Search(len(t.lines), func(k int) bool { return t.lines[k] > off }) - 1
	return l + 1, utf8.RuneCountInString(t.raw[t.lines[l]:off]) + 1
}
