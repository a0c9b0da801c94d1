// Package diff3 merges two edits of one text line by line, as diff3(1) and
// git merge do: the lines both edits left alone are kept, a region only one
// side changed takes that side's lines, a region both sides changed alike
// takes them once, and a region both changed differently is a [Conflict],
// reported with its lines on each side rather than written with markers.
//
// The two edit scripts (base to ours, base to theirs) come from go-diff's
// shortest line diff; the merge is the one of Khanna, Kunal and Pierce's
// "A Formal Investigation of Diff3" (2007), which GNU diff3 follows.
package diff3

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// MaxChangedLines bounds the lines a side changed from the base, counting
// the lines of both texts between their first and last difference, that
// [Merge] diffs: go-diff's shortest script costs up to the square of
// them, a fraction of a second at this bound.
const MaxChangedLines = 10_000

// ErrTooLarge is returned by [Merge] when a side changed more than
// [MaxChangedLines] lines from the base.
var ErrTooLarge = errors.New("too many changed lines to merge line by line")

// A Range is a run of lines of one text: Count lines from line Start,
// counting from 1. An empty range (Count 0) stands between line Start-1
// and line Start.
type Range struct {
	Start int `json:"start"`
	Count int `json:"count"`
}

// String says "line 4", "lines 4-7", or "after line 3" for an empty range
// ("at the start" before line 1).
func (r Range) String() string {
	switch {
	case r.Count == 0 && r.Start <= 1:
		return "at the start"
	case r.Count == 0:
		return fmt.Sprintf("after line %d", r.Start-1)
	case r.Count == 1:
		return fmt.Sprintf("line %d", r.Start)
	}
	return fmt.Sprintf("lines %d-%d", r.Start, r.Start+r.Count-1)
}

// A Conflict is a region both sides changed, differently: its lines in
// the base, in ours and in theirs.
type Conflict struct {
	Base   Range `json:"base"`
	Ours   Range `json:"ours"`
	Theirs Range `json:"theirs"`
}

// Result is a merge: the merged text when there is no conflict, else the
// conflicts, in the order of the text.
type Result struct {
	Text      []byte
	Conflicts []Conflict
}

// Merge merges ours and theirs, two edits of base. Lines end at "\n",
// which they keep (the last line may lack one), so "\r\n" line ends and a
// final newline merge like any other change. It fails only with
// [ErrTooLarge].
func Merge(base, ours, theirs []byte) (Result, error) {
	lb, lo, lt := splitLines(base), splitLines(ours), splitLines(theirs)
	ids := map[string]int32{}
	xb, xo, xt := intern(ids, lb), intern(ids, lo), intern(ids, lt)
	mo, err := match(xb, xo, len(ids))
	if err != nil {
		return Result{}, err
	}
	mt, err := match(xb, xt, len(ids))
	if err != nil {
		return Result{}, err
	}

	var res Result
	var out bytes.Buffer
	emit := func(lines [][]byte) {
		for _, l := range lines {
			out.Write(l)
		}
	}
	n := len(lb)
	b, o, t := 0, 0, 0 // the next line of base, ours and theirs
	for {
		// A stable run: base lines both sides kept, with nothing inserted
		// before them on either side.
		k := 0
		for b+k < n && mo[b+k] == o+k && mt[b+k] == t+k {
			k++
		}
		if k > 0 {
			emit(lb[b : b+k])
			b, o, t = b+k, o+k, t+k
			continue
		}
		// An unstable run, up to the next base line both sides kept.
		e := b
		for e < n && (mo[e] < 0 || mt[e] < 0) {
			e++
		}
		oe, te := len(lo), len(lt)
		if e < n {
			oe, te = mo[e], mt[e]
		}
		if e == b && oe == o && te == t {
			break // the end of all three
		}
		rb, ro, rt := xb[b:e], xo[o:oe], xt[t:te]
		switch {
		case slices.Equal(ro, rb):
			emit(lt[t:te])
		case slices.Equal(rt, rb), slices.Equal(ro, rt):
			emit(lo[o:oe])
		default:
			res.Conflicts = append(res.Conflicts, Conflict{
				Base:   Range{b + 1, e - b},
				Ours:   Range{o + 1, oe - o},
				Theirs: Range{t + 1, te - t},
			})
		}
		b, o, t = e, oe, te
	}
	if len(res.Conflicts) == 0 {
		res.Text = out.Bytes()
		if res.Text == nil {
			res.Text = []byte{}
		}
	}
	return res, nil
}

// splitLines cuts text after each "\n"; the last line may lack one.
func splitLines(text []byte) [][]byte {
	var lines [][]byte
	for len(text) > 0 {
		i := bytes.IndexByte(text, '\n') + 1
		if i == 0 {
			i = len(text)
		}
		lines = append(lines, text[:i:i])
		text = text[i:]
	}
	return lines
}

// intern numbers lines so that equal lines, in any of the texts, share a
// number.
func intern(ids map[string]int32, lines [][]byte) []int32 {
	xs := make([]int32, len(lines))
	for i, l := range lines {
		id, ok := ids[string(l)]
		if !ok {
			id = int32(len(ids))
			ids[string(l)] = id
		}
		xs[i] = id
	}
	return xs
}

// maxLineRunes is the number of valid runes: all but the surrogate halves.
const maxLineRunes = utf8.MaxRune + 1 - (0xE000 - 0xD800)

// match returns, for each line of a (by number), the line of b it is kept
// as in a shortest line diff from a to b, or -1 when it is deleted.
func match(a, b []int32, ids int) ([]int, error) {
	m := make([]int, len(a))
	for i := range m {
		m[i] = -1
	}
	// The lines both share at their start and end are kept: go-diff
	// would find the same, at a cost.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		m[pre] = pre
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		m[len(a)-1-suf] = len(b) - 1 - suf
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma) == 0 || len(mb) == 0 {
		return m, nil
	}
	if len(ma)+len(mb) > MaxChangedLines || ids > maxLineRunes {
		return nil, ErrTooLarge
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the shortest script; MaxChangedLines bounds its cost
	i, j := pre, pre
	for _, d := range dmp.DiffMainRunes(lineRunes(ma), lineRunes(mb), false) {
		k := utf8.RuneCountInString(d.Text)
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for x := range k {
				m[i+x] = j + x
			}
			i, j = i+k, j+k
		case diffmatchpatch.DiffDelete:
			i += k
		case diffmatchpatch.DiffInsert:
			j += k
		}
	}
	return m, nil
}

// lineRunes maps line numbers, below maxLineRunes, to distinct valid runes
// for go-diff, which diffs runes.
func lineRunes(xs []int32) []rune {
	rs := make([]rune, len(xs))
	for i, x := range xs {
		r := rune(x)
		if r >= 0xD800 {
			r += 0xE000 - 0xD800
		}
		rs[i] = r
	}
	return rs
}
