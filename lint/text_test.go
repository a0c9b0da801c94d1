package lint

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/visible"
	"golang.org/x/text/unicode/norm"
)

// TestFoldASCII: an ASCII text folds to its lower case, and is plain
// unless it holds a control character other than a tab or a line break,
// wherever in the text (and in the eight-byte words read at once) it lies.
func TestFoldASCII(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const special = "\n\t\r \x7f\x00\x1b\x1f@[`{AZaz"
	for range 50000 {
		b := make([]byte, r.IntN(40))
		for i := range b {
			if r.IntN(3) == 0 {
				b[i] = special[r.IntN(len(special))]
			} else {
				b[i] = byte(' ' + r.IntN(0x5f))
			}
		}
		raw := string(b)
		plain := !strings.ContainsFunc(raw, func(c rune) bool {
			return c < ' ' && c != '\t' && c != '\n' && c != '\r' || c == 0x7f
		})
		tx := newText(raw, &textBuf{})
		want := strings.ToLower(raw)
		if !strings.Contains(raw, "\\\n") && !strings.Contains(raw, " `\n") && !strings.Contains(raw, "\\\r\n") && !strings.Contains(raw, " `\r\n") {
			if string(tx.fold) != want {
				t.Fatalf("%q folds to %q, want %q", raw, tx.fold, want)
			}
		}
		if tx.plain != plain || tx.offs != nil {
			t.Fatalf("%q: plain %v offsets %v, want plain %v and no offsets", raw, tx.plain, tx.offs != nil, plain)
		}
	}
}

// TestFoldOffsets: on texts mixing ASCII with characters that fold to
// nothing, to one byte, to themselves and to several bytes, every byte of
// fold maps back to the start of the character it came from, and every raw
// offset to the first fold byte from there on.
func TestFoldOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "B", "ab c", "\n", "\\\n", "é", "Ｐ", "ﬁ", "а", "\u200b", "日本", "’", "①", "ǅ", "\u0301", "x\u00ady"}
	for range 20000 {
		var sb strings.Builder
		for range r.IntN(12) {
			sb.WriteString(pieces[r.IntN(len(pieces))])
		}
		raw := sb.String()
		// The definition: each byte a character folds to comes from it.
		var want []int
		for i, c := range raw {
			for range foldRune(nil, c, raw[i:i+utf8.RuneLen(c)]) {
				want = append(want, i)
			}
		}
		want = append(want, len(raw))
		tx := newText(raw, &textBuf{})
		if len(tx.fold)+1 != len(want) {
			t.Fatalf("%q folds to %d bytes, want %d", raw, len(tx.fold), len(want)-1)
		}
		for i, w := range want {
			if got := tx.rawOff(i); got != w {
				t.Fatalf("%q: fold byte %d of %q maps to raw %d, want %d", raw, i, tx.fold, got, w)
			}
		}
		for off := 0; off <= len(raw); off++ {
			first := sort.SearchInts(want, off)
			if got := tx.foldOff(off); got != first {
				t.Fatalf("%q: raw offset %d maps to fold %d of %q, want %d", raw, off, got, tx.fold, first)
			}
		}
	}
}

// TestFoldRuneNFKC: every character that NFKC may make ASCII folds to its
// NFKC form in lower case, with look-alike letters made ASCII.
func TestFoldRuneNFKC(t *testing.T) {
	for r := rune(0x80); r <= unicode.MaxRune; r++ {
		if !mayFold(r) || !utf8.ValidRune(r) || visible.KindOf(r) != visible.KindNone {
			continue
		}
		if _, ok := lookAlike(r); ok || r >= 0x2010 && r <= 0x2013 || r >= 0x2018 && r <= 0x201f || r == 0x2032 || r == 0x2033 || r == 0x2212 {
			continue // folded by a rule of their own
		}
		var want []byte
		for _, fr := range norm.NFKC.String(string(r)) {
			fr = unicode.ToLower(fr)
			if c, ok := lookAlike(fr); ok {
				want = append(want, c)
			} else {
				want = utf8.AppendRune(want, fr)
			}
		}
		if got := foldRune(nil, r, string(r)); string(got) != string(want) {
			t.Errorf("%U folds to %q, want %q", r, got, want)
		}
	}
}
