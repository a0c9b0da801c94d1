package lint

import (
	"math/rand/v2"
	"os"
	"slices"
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
// nothing, to one byte, to themselves and to several bytes, and bytes
// that are not UTF-8, the text folds as its characters do one by one,
// is plain as they are, every byte of fold maps back to the start of the
// character it came from, and every raw offset to the first fold byte
// from there on.
func TestFoldOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"a", "B", "ab c", "\n", "\\\n", " `\r\n", "\t", "\x00", "\x1b", "é", "É", "İ", "Ｐ", "，", "ﬁ", "а", "Ω", "\u200b",
		"日本", "├──", "✅\ufe0f", "’", "…", "\u00a0", "①", "ǅ", "\u0301", "x\u00ady", "\ufffd", "\xff", "\xe6\x97", "\U0001F680"}
	for range 20000 {
		checkFold(t, joinPieces(r, pieces, 16), nil)
	}
}

// joinPieces is fewer than most pieces drawn by r, joined.
func joinPieces(r *rand.Rand, pieces []string, most int) string {
	var b strings.Builder
	for range r.IntN(most) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// bothWays calls check with 20000 texts of fewer than most pieces drawn
// by r, and fails the test unless a tenth to nine tenths of them pass:
// random text that tests one way only proves nothing.
func bothWays(t *testing.T, r *rand.Rand, pieces []string, most int, check func(string) bool) {
	t.Helper()
	const n = 20000
	passed := 0
	for range n {
		if check(joinPieces(r, pieces, most)) {
			passed++
		}
	}
	if passed < n/10 || passed > n-n/10 {
		t.Errorf("%d of %d random texts pass: they do not test both ways", passed, n)
	}
}

// TestFoldCorpus checks the fold of every file of the skill folders that
// SKILLSYNC_LINT_CORPUS names against its definition, at offsets drawn
// at random.
func TestFoldCorpus(t *testing.T) {
	if os.Getenv("SKILLSYNC_LINT_CORPUS") == "" {
		t.Skip("set SKILLSYNC_LINT_CORPUS to folders of skill folders")
	}
	r := rand.New(rand.NewPCG(5, 6))
	eachCorpusFile(t, func(_ string, raw string) { checkFold(t, raw, r) })
}

// eachCorpusFile calls f with the path and the text of every file of the
// skill folders that SKILLSYNC_LINT_CORPUS names, if any.
func eachCorpusFile(t *testing.T, f func(path, raw string)) {
	roots := os.Getenv("SKILLSYNC_LINT_CORPUS")
	if roots == "" {
		return
	}
	for _, root := range strings.Split(roots, ",") {
		skills, err := readCorpus(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, sk := range skills {
			for _, file := range sk.files {
				f(sk.dir+"/"+file.Path, string(file.Data))
			}
		}
	}
}

// TestBlankContinuations: blanking from the backslashes and backticks
// does what blanking before each line break, in order, does.
func TestBlankContinuations(t *testing.T) {
	byLine := func(b []byte) {
		for k := 0; k < len(b); k++ {
			if b[k] != '\n' {
				continue
			}
			i := k - 1 // the character continued
			if i >= 0 && b[i] == '\r' {
				i--
			}
			if i >= 0 && (b[i] == '\\' || b[i] == '`' && i > 0 && b[i-1] == ' ') {
				for c := i; c <= k; c++ {
					b[c] = ' '
				}
			}
		}
	}
	r := rand.New(rand.NewPCG(7, 8))
	const special = "\\` \r\nab"
	blanked := 0
	for range 100000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = special[r.IntN(len(special))]
		}
		want := slices.Clone(b)
		byLine(want)
		got := slices.Clone(b)
		blankContinuations(got)
		if string(got) != string(want) {
			t.Fatalf("%q blanks to %q, want %q", b, got, want)
		}
		if string(want) != string(b) {
			blanked++
		}
	}
	if blanked < 10000 {
		t.Errorf("%d of 100000 texts have a continuation: the texts do not test both ways", blanked)
	}
}

// FuzzFold: every text folds as its characters do one by one.
func FuzzFold(f *testing.F) {
	f.Add("Ｉｇｎｏｒｅ ﬁle ├── 日本 ✅\ufe0f \xff\\\nA\u0301")
	f.Fuzz(func(t *testing.T, raw string) { checkFold(t, raw, nil) })
}

// checkFold compares the text of raw with its definition, character by
// character: at every offset, or at 200 drawn by r when r is not nil.
func checkFold(t *testing.T, raw string, r *rand.Rand) {
	t.Helper()
	var want []byte
	var from []int // of each byte of want, the offset of its character
	plain := true
	for i, c := range raw {
		if visible.KindOf(c) != visible.KindNone || unicode.In(c, unicode.Mn, unicode.Me) {
			plain = false
		}
		n := len(want)
		if c < utf8.RuneSelf {
			want = append(want, byte(unicode.ToLower(c)))
		} else {
			want = foldRune(want, c)
		}
		for range len(want) - n {
			from = append(from, i)
		}
	}
	blankContinuations(want)
	from = append(from, len(raw))
	tx := newText(raw, &textBuf{})
	if string(tx.fold) != string(want) || tx.plain != plain {
		t.Fatalf("%q folds to %q (plain %v), want %q (plain %v)", shorten(raw, 200), shorten(string(tx.fold), 200), tx.plain, shorten(string(want), 200), plain)
	}
	n := len(want)
	if r != nil {
		n = min(n, 200)
	}
	for k := 0; k <= n; k++ {
		i := k
		if r != nil {
			i = r.IntN(len(want) + 1)
		}
		if got := tx.rawOff(i); got != from[i] {
			t.Fatalf("%q: fold byte %d of %q maps to raw %d, want %d", shorten(raw, 200), i, shorten(string(tx.fold), 200), got, from[i])
		}
	}
	n = len(raw)
	if r != nil {
		n = min(n, 200)
	}
	for k := 0; k <= n; k++ {
		off := k
		if r != nil {
			off = r.IntN(len(raw) + 1)
		}
		first := sort.SearchInts(from, off)
		if got := tx.foldOff(off); got != first {
			t.Fatalf("%q: raw offset %d maps to fold %d of %q, want %d", shorten(raw, 200), off, got, shorten(string(tx.fold), 200), first)
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
		if got := foldRune(nil, r); string(got) != string(want) {
			t.Errorf("%U folds to %q, want %q", r, got, want)
		}
	}
}
