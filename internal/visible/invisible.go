package visible

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Kind is a class of character that a person reading text cannot see,
// although a model reading the same text receives it.
type Kind uint8

// Kinds of invisible characters. KindNone is a character one can see.
const (
	KindNone Kind = iota
	// KindTag is a Unicode tag character, U+E0000 to U+E007F: each of
	// U+E0020 to U+E007E spells the ASCII character 0xE0000 below it.
	KindTag
	// KindZeroWidth is a zero-width space, joiner or non-joiner, a word
	// joiner, an invisible mathematical operator, or a byte order mark
	// inside text.
	KindZeroWidth
	// KindBidi is a bidirectional mark, embedding, override or isolate,
	// which reorders what a reader sees.
	KindBidi
	// KindVariation is a variation selector, U+FE00 to U+FE0F or U+E0100
	// to U+E01EF: each one can carry a byte.
	KindVariation
	// KindSoftHyphen is U+00AD, shown only where a line breaks.
	KindSoftHyphen
	// KindSeparator is the line or paragraph separator U+2028, U+2029.
	KindSeparator
	// KindFormat is another invisible format character or filler: the
	// combining grapheme joiner, Hangul fillers, interlinear annotation
	// marks, the format controls of Egyptian hieroglyphs and the like,
	// and the unassigned characters that Unicode makes ignorable by
	// default.
	KindFormat
	// KindControl is a C0 control but tab, newline and carriage return,
	// DEL, or a C1 control.
	KindControl
	// KindStack is a stack of combining marks deeper than any script
	// writes on one letter ("Zalgo"), which smears the text it covers.
	// [KindOf] never returns it: a mark is a stack only with its
	// neighbours (see [Runs]).
	KindStack
)

var kindNames = [...]string{
	KindNone:       "visible",
	KindTag:        "tag characters",
	KindZeroWidth:  "zero-width characters",
	KindBidi:       "bidirectional controls",
	KindVariation:  "variation selectors",
	KindSoftHyphen: "soft hyphens",
	KindSeparator:  "line or paragraph separators",
	KindFormat:     "invisible format characters",
	KindControl:    "control characters",
	KindStack:      "stacked combining marks",
}

// String names the kind in the plural, as a report lists them.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invisible characters"
}

// KindOf classifies r alone, whatever surrounds it: a zero-width joiner is
// KindZeroWidth even inside an emoji sequence. [Runs] judges a character
// in its context.
func KindOf(r rune) Kind {
	switch {
	case r < 0x20:
		if r == '\t' || r == '\n' || r == '\r' {
			return KindNone
		}
		return KindControl
	case r < 0x7f:
		return KindNone
	case r <= 0x9f:
		return KindControl
	case r == 0xad:
		return KindSoftHyphen
	case r < 0x034f:
		return KindNone
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5,
		r >= 0x180b && r <= 0x180f, r == 0x3164, r == 0xffa0,
		r >= 0x206a && r <= 0x206f, r >= 0xfff9 && r <= 0xfffb,
		r >= 0x1d173 && r <= 0x1d17a, r >= 0x1bca0 && r <= 0x1bca3, r >= 0x13430 && r <= 0x1343f,
		// Unassigned, and ignorable by default: shown as nothing.
		r == 0x2065, r >= 0xfff0 && r <= 0xfff8, r >= 0xe0080 && r <= 0xe00ff, r >= 0xe01f0 && r <= 0xe0fff:
		return KindFormat
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return KindBidi
	case r >= 0x200b && r <= 0x200d, r >= 0x2060 && r <= 0x2064, r == 0xfeff:
		return KindZeroWidth
	case r == 0x2028, r == 0x2029:
		return KindSeparator
	case r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return KindVariation
	case r >= 0xe0000 && r <= 0xe007f:
		return KindTag
	}
	return KindNone
}

// A Run is a stretch of text of invisible characters that no valid emoji
// sequence, script joiner or leading byte order mark explains; or of
// letters smeared by stacks of combining marks, of kind [KindStack] alone.
type Run struct {
	// Start and End are byte offsets of the run in the text.
	Start, End int
	// Kinds holds a bit (1 << Kind) for each kind the run holds.
	Kinds uint16
	// Count is the number of characters in the run: of a stack, the
	// combining marks.
	Count int
	// Decoded is what the run spells, when it spells something: the
	// ASCII of tag characters, or the bytes that variation selectors or
	// zero-width characters encode, when they are printable text; under
	// stacks, the letters without their marks.
	Decoded string
}

// Has reports whether the run holds a character of kind k.
func (r Run) Has(k Kind) bool { return r.Kinds&(1<<k) != 0 }

// Main is the kind of the run that says most about it: tag characters
// before variation selectors, before zero-width characters, before the rest.
func (r Run) Main() Kind {
	for _, k := range []Kind{KindTag, KindVariation, KindZeroWidth, KindBidi, KindControl, KindFormat, KindSeparator, KindSoftHyphen, KindStack} {
		if r.Has(k) {
			return k
		}
	}
	return KindNone
}

// HasInvisible reports whether s holds any character [KindOf] classifies
// as invisible, valid emoji sequences included: a quick test before [Runs].
func HasInvisible(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return true
			}
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if KindOf(r) != KindNone {
			return true
		}
		i += n - 1
	}
	return false
}

// Runs returns the runs of invisible characters of s, in order. Left out,
// as a person sees what they mean: a byte order mark at the very start;
// the emoji tag sequences of the flags of England, Scotland and Wales
// (U+1F3F4, the tags of gbeng, gbsct or gbwls, U+E007F); a zero-width joiner between
// two emoji; one variation selector after a character it may vary (VS15
// or VS16 after an emoji or a keycap base, another selector after a CJK
// ideograph or a character Unicode's standardized sequences vary); one joiner or non-joiner between two letters of
// a script that joins them; one format control of Egyptian hieroglyphs
// between two signs; and bidirectional marks in a line that holds
// right-to-left text.
//
// A letter that carries more combining marks than any script writes on
// one (more than 4 of the diacritics scripts share, or more than 30 in
// all) is a run of kind [KindStack], with the letter; stacks up to 3
// characters apart on a line make one run.
func Runs(s string) []Run { return findRuns(s, excuseSequences|excuseLeadingBOM) }

// What [findRuns] leaves out of its runs.
const (
	excuseSequences  = 1 << iota // valid emoji sequences, joiners of scripts, marks of RTL lines
	excuseLeadingBOM             // a byte order mark that starts the text
)

func findRuns(s string, excuse int) []Run {
	from := firstRun(s)
	if from < 0 {
		return nil
	}
	return runsFrom(s, from, excuse)
}

// runsFrom is [findRuns] for a text s whose first from bytes hold no
// invisible character and no combining mark that a run may take in.
func runsFrom(s string, from, excuse int) []Run {
	var out []Run
	cur := Run{Start: -1}
	var raw []rune // the run's characters, to decode
	flush := func() {
		if cur.Start >= 0 {
			cur.Decoded = decodeRun(raw)
			out = append(out, cur)
		}
		cur = Run{Start: -1}
		raw = raw[:0]
	}
	prev := before(s, from) // the last visible rune
	lineRTL := -1           // the offset of the line whose RTL state is known
	rtl := false
	for i := from; i < len(s); {
		if end, last := plainEnd(s, i); end > i {
			// Each of these characters ends a run and is the last visible.
			flush()
			prev = last
			i = end
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		k := KindOf(r)
		if k == KindNone && IsMark(r) {
			flush()
			end, last, marks, generic := markSequence(s, i)
			if stacked(marks, generic) {
				out = addStack(out, s, i-baseLen(s, i, prev), end, marks)
			}
			prev = last
			i = end
			continue
		}
		if k == KindNone {
			flush()
			prev = r
			i += n
			continue
		}
		if r == 0xfeff && i == 0 && excuse&excuseLeadingBOM != 0 {
			i += n
			continue
		}
		if excuse&excuseSequences != 0 {
			if skip := validSequence(s, i, r, prev, before(s, i)); skip > 0 {
				flush()
				i += skip // prev stays the base, which a joiner may follow
				continue
			}
			if k == KindBidi && (r == 0x200e || r == 0x200f || r == 0x061c) {
				ls := strings.LastIndexByte(s[:i], '\n') + 1
				if ls != lineRTL {
					lineRTL, rtl = ls, lineHasRTL(s, ls)
				}
				if rtl {
					flush()
					i += n
					continue
				}
			}
		}
		if cur.Start < 0 {
			cur.Start = i
		}
		cur.End = i + n
		cur.Kinds |= 1 << k
		cur.Count++
		raw = append(raw, r)
		i += n
	}
	flush()
	for i, r := range out {
		if r.Kinds == 1<<KindStack {
			out[i].Decoded = withoutMarks(s[r.Start:r.End])
		}
	}
	return out
}

// The depth of combining marks past which a letter carries a stack. Of
// the diacritics every script shares (U+0300 to U+036F and their
// supplements), which Zalgo piles up, Vietnamese writes 2 on a letter and
// phonetic transcription up to 4, as UTS #39 (5.4) allows. A script's own
// marks go up to 8 in Tibetan, and a table of them in code lists more:
// past 30, UAX #15's stream-safe limit, no text needs them.
const (
	maxSharedMarks = 4
	maxMarks       = 30
)

// maxStackGap is the most characters between two stacks of one run: a
// letter of smeared text may carry few marks by chance.
const maxStackGap = 3

// stacked reports whether marks combining marks on one letter, generic of
// them shared diacritics, are deeper than any script writes.
func stacked(marks, generic int) bool { return generic > maxSharedMarks || marks > maxMarks }

// IsMark reports whether r is a nonspacing or enclosing combining mark.
func IsMark(r rune) bool {
	return !markless(r) && unicode.In(r, unicode.Mn, unicode.Me)
}

// markless reports whether r lies where Unicode has no combining mark:
// Latin, punctuation, symbols and box drawing, CJK, Hangul, fullwidth
// forms and emoji, which make most text beyond ASCII.
func markless(r rune) bool {
	return r < 0x0300 || r >= 0x1e00 && r < 0x20d0 || r >= 0x20f1 && r < 0x2cef || r >= 0x309b && r < 0xa66f ||
		r >= 0xabee && r < 0xfb1e || r >= 0xfe30 && r < 0x101fd || r >= 0x1e94b && r < 0xe0100
}

// Masks for reading eight ASCII bytes at once: a byte plus 0x80-c has its
// high bit set exactly when the byte is at least c.
const (
	eachByte = 0x0101010101010101
	highBits = 0x8080808080808080
)

// plainEnd is the end of the characters of s from i that are visible
// and not combining marks, and the last of them (-1 if there is none).
func plainEnd(s string, i int) (int, rune) {
	last := rune(-1)
	for i < len(s) {
		// Eight printable ASCII bytes at once: none beyond ASCII, below a
		// space, or DEL.
		for ; i+8 <= len(s); i += 8 {
			w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
				uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
			if (w|^(w+(0x80-' ')*eachByte)|(w+eachByte))&highBits != 0 {
				break
			}
			last = rune(s[i+7])
		}
		if i == len(s) {
			break
		}
		if c := s[i]; c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				break
			}
			last = rune(c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if KindOf(r) != KindNone || IsMark(r) {
			break
		}
		last = r
		i += n
	}
	return i, last
}

// sharedMark reports whether the mark r is a diacritic that every script
// may use: the blocks of combining diacritical marks, for symbols and
// half marks.
func sharedMark(r rune) bool {
	return r >= 0x0300 && r <= 0x036f || r >= 0x1ab0 && r <= 0x1aff || r >= 0x1dc0 && r <= 0x1dff ||
		r >= 0x20d0 && r <= 0x20ff || r >= 0xfe20 && r <= 0xfe2f
}

// markSequence reads the visible combining marks from s[i:]: where they
// end, the last of them, how many there are, and how many are shared.
func markSequence(s string, i int) (end int, last rune, marks, generic int) {
	for end = i; end < len(s); {
		r, n := utf8.DecodeRuneInString(s[end:])
		if !IsMark(r) || KindOf(r) != KindNone {
			break
		}
		marks++
		if sharedMark(r) {
			generic++
		}
		last = r
		end += n
	}
	return end, last, marks, generic
}

// baseLen is the length in bytes of the letter that the marks at s[i:]
// stand on, prev, or 0 when something invisible or nothing stands between.
func baseLen(s string, i int, prev rune) int {
	if i == 0 {
		return 0
	}
	// Its width in s: an invalid byte decodes to U+FFFD, wider than it.
	if b, n := utf8.DecodeLastRuneInString(s[:i]); b == prev && b != '\n' {
		return n
	}
	return 0
}

// addStack adds to runs the stack of marks combining marks over
// s[start:end], joined to the last run when that is a stack ending up to
// maxStackGap characters before it on the same line.
func addStack(runs []Run, s string, start, end, marks int) []Run {
	if n := len(runs); n > 0 && runs[n-1].Kinds == 1<<KindStack {
		last := &runs[n-1]
		gap := s[last.End:start]
		if len(gap) <= maxStackGap*utf8.UTFMax && !strings.ContainsAny(gap, "\n\r") && utf8.RuneCountInString(gap) <= maxStackGap {
			last.End, last.Count = end, last.Count+marks
			return runs
		}
	}
	return append(runs, Run{Start: start, End: end, Kinds: 1 << KindStack, Count: marks})
}

// withoutMarks is s without its combining marks: the letters a stack
// smears.
func withoutMarks(s string) string {
	return strings.Map(func(r rune) rune {
		if IsMark(r) {
			return -1
		}
		return r
	}, s)
}

// firstRun is where [findRuns] starts to read s: at its first invisible
// character, at its start when it holds a stack of combining marks, or -1
// when it holds neither, so no run.
func firstRun(s string) int {
	marks, generic := 0, 0
	for i := 0; i < len(s); {
		if end, _ := plainEnd(s, i); end > i {
			marks, generic = 0, 0
			i = end
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0x7f {
				return i
			}
			marks, generic = 0, 0
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case KindOf(r) != KindNone:
			return i
		case IsMark(r):
			marks++
			if sharedMark(r) {
				generic++
			}
			if stacked(marks, generic) {
				return 0
			}
		default:
			marks, generic = 0, 0
		}
		i += n
	}
	return -1
}

// before is the rune just before s[i:], or -1.
func before(s string, i int) rune {
	if i == 0 {
		return -1
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i])
	return r
}

// validSequence is the length in bytes of the valid sequence that the
// invisible character r at s[i:] takes part in, or 0. prev is the last
// visible character before it and b the character just before it (-1 at
// the start of s).
func validSequence(s string, i int, r, prev, b rune) int {
	n := utf8.RuneLen(r)
	next, _ := utf8.DecodeRuneInString(s[i+n:])
	adjacent := b == prev // nothing invisible between prev and r
	switch {
	case r == 0x200d:
		// A joiner may follow an emoji's presentation selector or a flag.
		emojiBefore := adjacent || b == 0xfe0f || b == 0xe007f
		if emojiBefore && isPictographic(prev) && isPictographic(next) || adjacent && joins(prev) && joins(next) {
			return n
		}
	case r == 0x200c:
		if adjacent && joins(prev) && joins(next) {
			return n
		}
	case r == 0xfe0e || r == 0xfe0f:
		if !adjacent || KindOf(next) == KindVariation {
			return 0 // nothing varies twice
		}
		if isPictographic(prev) {
			return n
		}
		if (prev == '#' || prev == '*' || prev >= '0' && prev <= '9') && next == 0x20e3 {
			return n
		}
	case r >= 0xfe00 && r <= 0xfe0d, r >= 0xe0100 && r <= 0xe01ef:
		if adjacent && KindOf(next) != KindVariation && (ideograph(prev) || r <= 0xfe0d && variedBySelector(prev)) {
			return n
		}
	case r >= 0x180b && r <= 0x180f:
		if adjacent && prev >= 0x1820 && prev <= 0x18af {
			return n
		}
	case r >= 0x13430 && r <= 0x1343f:
		// A format control of Egyptian hieroglyphs lays out the two signs
		// around it; elsewhere it only hides.
		if adjacent && prev >= 0x13000 && prev <= 0x1345f && next >= 0x13000 && next <= 0x1345f {
			return n
		}
	case r >= 0xe0030 && r <= 0xe007a:
		if b == 0x1f3f4 {
			return flagTags(s[i:])
		}
	}
	return 0
}

// The tags, cancel tag included, of the subdivision flags Unicode
// recommends for interchange: England (gbeng), Scotland (gbsct), Wales
// (gbwls).
const (
	flagEngland  = "\U000E0067\U000E0062\U000E0065\U000E006E\U000E0067\U000E007F"
	flagScotland = "\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F"
	flagWales    = "\U000E0067\U000E0062\U000E0077\U000E006C\U000E0073\U000E007F"
)

// flagTags is the length of the tags that open s when they are those of
// the flag of England, Scotland or Wales, or 0: other tags after a black
// flag show as the flag alone, and can spell words.
func flagTags(s string) int {
	for _, f := range [...]string{flagEngland, flagScotland, flagWales} {
		if strings.HasPrefix(s, f) {
			return len(f)
		}
	}
	return 0
}

// isPictographic approximates Unicode's Extended_Pictographic property
// (with emoji modifiers and regional indicators): the characters an
// emoji ZWJ sequence joins.
func isPictographic(r rune) bool {
	switch {
	case r == 0xa9, r == 0xae, r == 0x203c, r == 0x2049, r == 0x2122, r == 0x2139,
		r >= 0x2194 && r <= 0x21ff, r >= 0x2300 && r <= 0x23ff, r == 0x24c2,
		r >= 0x25a0 && r <= 0x27bf, r >= 0x2900 && r <= 0x297f, r >= 0x2b00 && r <= 0x2bff,
		r == 0x3030, r == 0x303d, r == 0x3297, r == 0x3299,
		r >= 0x1f000 && r <= 0x1faff:
		return true
	}
	return false
}

// ideograph reports whether r is a CJK ideograph, which an ideographic
// variation sequence (U+E0100 to U+E01EF) or a standardized one may vary.
func ideograph(r rune) bool {
	return r >= 0x3400 && r <= 0x4dbf || r >= 0x4e00 && r <= 0x9fff || r >= 0xf900 && r <= 0xfaff || r >= 0x20000 && r <= 0x3ffff
}

// variedBySelector reports whether r belongs to a block whose characters
// Unicode's standardized variation sequences vary with VS1 to VS14:
// mathematical operators, Myanmar, Phags-pa, Manichaean, Egyptian
// hieroglyphs.
func variedBySelector(r rune) bool {
	return r >= 0x2200 && r <= 0x22ff || r >= 0x2a00 && r <= 0x2aff || r >= 0x1000 && r <= 0x109f ||
		r >= 0xa840 && r <= 0xa877 || r >= 0x10ac0 && r <= 0x10aff || r >= 0x13000 && r <= 0x1343f
}

// joins reports whether r is a letter or mark of a script that uses the
// zero-width joiner and non-joiner in ordinary words: Hebrew, Arabic,
// Syriac and the scripts near them, the Indic scripts, Tibetan, Myanmar,
// Khmer, Mongolian, and Arabic's presentation forms. Han, fullwidth or
// mathematical letters use neither, so a joiner there only hides.
func joins(r rune) bool {
	switch {
	case r >= 0x0590 && r <= 0x08ff, r >= 0x0900 && r <= 0x0dff, r >= 0x0f00 && r <= 0x109f,
		r >= 0x1780 && r <= 0x18af, r >= 0xa840 && r <= 0xa8ff, r >= 0xfb1d && r <= 0xfdff, r >= 0xfe70 && r <= 0xfefe:
		return unicode.IsLetter(r) || unicode.IsMark(r)
	}
	return false
}

// lineHasRTL reports whether the line starting at s[ls:] holds a
// right-to-left letter (Hebrew, Arabic, Syriac, Thaana, N'Ko and their
// presentation forms).
func lineHasRTL(s string, ls int) bool {
	for _, r := range s[ls:] {
		if r == '\n' {
			return false
		}
		if r >= 0x0590 && r <= 0x08ff || r >= 0xfb1d && r <= 0xfdff || r >= 0xfe70 && r <= 0xfefe {
			return true
		}
	}
	return false
}

// decodeRun is the text the run's characters spell, or "": the tag
// characters as ASCII; else the bytes the variation selectors carry (one
// each, U+FE00 to U+FE0F being 0 to 15 and U+E0100 to U+E01EF 16 to 255);
// else zero-width characters read as bits, 8 to a byte. The text must be
// mostly printable to count.
func decodeRun(rs []rune) string {
	var tags, sel []byte
	for _, r := range rs {
		switch {
		case r >= 0xe0020 && r <= 0xe007e:
			tags = append(tags, byte(r-0xe0000))
		case r >= 0xfe00 && r <= 0xfe0f:
			sel = append(sel, byte(r-0xfe00))
		case r >= 0xe0100 && r <= 0xe01ef:
			sel = append(sel, byte(r-0xe0100+16))
		}
	}
	if len(tags) > 0 {
		return string(tags)
	}
	if len(sel) >= 2 && printable(sel) {
		return string(sel)
	}
	return decodeBits(rs)
}

// decodeBits reads a run of two kinds of zero-width characters as bits,
// the first kind met as 0 (and, failing that, as 1), and returns the text
// when it is printable.
func decodeBits(rs []rune) string {
	var zw []rune
	for _, r := range rs {
		if KindOf(r) == KindZeroWidth {
			zw = append(zw, r)
		}
	}
	if len(zw) < 16 {
		return ""
	}
	zero := zw[0]
	for _, flip := range []bool{false, true} {
		var out []byte
		var c byte
		nbits := 0
		for _, r := range zw {
			bit := r != zero
			if flip {
				bit = !bit
			}
			c <<= 1
			if bit {
				c |= 1
			}
			if nbits++; nbits == 8 {
				out = append(out, c)
				c, nbits = 0, 0
			}
		}
		if len(out) >= 2 && printable(out) {
			return string(out)
		}
	}
	return ""
}

// printable reports whether b is mostly printable ASCII or UTF-8 text.
func printable(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	good, all := 0, 0
	for _, r := range string(b) {
		all++
		if r == '\n' || r == '\t' || r == '\r' || unicode.IsPrint(r) {
			good++
		}
	}
	return all > 0 && good*10 >= all*9
}
