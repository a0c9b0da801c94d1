package lint

import (
	"math/rand/v2"
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
