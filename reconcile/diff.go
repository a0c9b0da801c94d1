package reconcile

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// noNewline marks, in a unified diff, a last line with no newline after it.
const noNewline = "\\ No newline at end of file\n"

// UnifiedDiff returns the unified diff turning a into b, with oldName and
// newName in its --- and +++ headers: hunks with "@@ -a,b +c,d @@" headers
// and three lines of context, as diff -u writes them and patch reads them.
// It returns "" when a and b are equal.
//
// Lines are matched whole. The diff is the shortest unless finding it
// would take more than a fixed amount of work (see [diffLimits]), as it can
// for tens of thousands of repeated or blank lines: then parts of it are
// coarser, down to all of one text's lines deleted and the other's
// inserted, but it still turns a into b. The work is counted in steps, not
// measured on a clock, so the same texts always give the same diff.
func UnifiedDiff(oldName, newName, a, b string) string {
	return unifiedDiff(oldName, newName, a, b, defaultDiffLimits)
}

func unifiedDiff(oldName, newName, a, b string, lim diffLimits) string {
	if a == b {
		return ""
	}
	return diffText(oldName, newName, diffLines(a, b, lim))
}

// diffText writes the edit script ops as a unified diff.
func diffText(oldName, newName string, ops []lineOp) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	writeHunks(&sb, ops)
	return sb.String()
}

// A diffScript is a unified diff kept as its edit script, not its text:
// the markdown renderer sizes every diff of a plan before it writes any,
// and holds them meanwhile.
type diffScript struct {
	oldName, newName string
	a, b             string
	runs             []editRun // nil when a and b are equal
}

// newDiffScript returns the script of [UnifiedDiff] and its text.
func newDiffScript(oldName, newName, a, b string) (*diffScript, string) {
	s := &diffScript{oldName: oldName, newName: newName, a: a, b: b}
	if a == b {
		return s, ""
	}
	ops := diffLines(a, b, defaultDiffLimits)
	s.runs = compactOps(ops)
	return s, diffText(oldName, newName, ops)
}

// text is the unified diff of s, as [UnifiedDiff] gives it.
func (s *diffScript) text() string {
	if s.runs == nil {
		return ""
	}
	return diffText(s.oldName, s.newName, expandRuns(s.runs, splitLines(s.a), splitLines(s.b)))
}

// An editRun is a run of an edit script: n lines of one kind, kept (' '),
// deleted ('-') or inserted ('+'). Runs hold no text, so the scripts of
// every change of a plan are small beside its instructions; a script of
// runs is written out again with the texts it was made from
// ([expandRuns]).
type editRun struct {
	kind byte
	n    int32
}

// compactOps returns ops as runs.
func compactOps(ops []lineOp) []editRun {
	var runs []editRun
	for _, op := range ops {
		if k := len(runs) - 1; k >= 0 && runs[k].kind == op.kind {
			runs[k].n++
			continue
		}
		runs = append(runs, editRun{kind: op.kind, n: 1})
	}
	return runs
}

// expandRuns is the edit script of runs over la, the lines of the old text,
// and lb, the lines of the new: the ops [compactOps] was given.
func expandRuns(runs []editRun, la, lb []string) []lineOp {
	ops := make([]lineOp, 0, max(len(la), len(lb)))
	i, j := 0, 0
	for _, r := range runs {
		for range r.n {
			switch r.kind {
			case ' ':
				ops = append(ops, lineOp{' ', la[i]})
				i, j = i+1, j+1
			case '-':
				ops = append(ops, lineOp{'-', la[i]})
				i++
			default:
				ops = append(ops, lineOp{'+', lb[j]})
				j++
			}
		}
	}
	return ops
}

// diffLimits bounds the work of one diff.
//
// When the lines two texts do not share at their start and end number at
// most goDiffLines, counting both sides, go-diff diffs the texts: that is
// every diff of ordinary instructions, and go-diff's bisection finds the
// shortest script. Its cost grows with the square of those lines, though,
// which is seconds for tens of thousands of repeated or blank lines.
//
// Texts with more are diffed here. The changed middle is split at the middle
// of a shortest edit path (Myers' O(ND) bisection, as go-diff does, but
// counting its steps); when that costs too much, at the lines that occur
// once in each text (patience diff); when there are none, not at all: its
// lines are deleted and the other's inserted. Each part is diffed the same
// way.
//
// Work spends budget: a bisection step, a line trimmed or counted, and for
// go-diff the square of its lines, a bound of its bisection. A bisection may
// spend half of what is left. A part that cannot be paid for is deleted and
// inserted whole, so a diff costs at most about budget steps beyond reading
// the texts and writing the diff, and the same texts always give the same
// diff: the bound is a count, not a clock.
type diffLimits struct {
	goDiffLines int
	budget      int
}

// defaultDiffLimits keeps a diff of two 50,000-character texts within 50 ms
// (BenchmarkUnifiedDiff), at about 1 to 3 ns a step.
var defaultDiffLimits = diffLimits{goDiffLines: 3000, budget: 10_000_000}

// lineOp is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
// The line keeps its "\n", which only the last line of a text can lack.
type lineOp struct {
	kind byte
	line string
}

// diffLines computes the line edit script from a to b. Within each run of
// changed lines, deletions come before insertions, as diff -u writes them.
func diffLines(a, b string, lim diffLimits) []lineOp {
	d := newLineDiffer(splitLines(a), splitLines(b), lim.budget)
	n, m := len(d.xa), len(d.xb)
	pre, suf := d.trim(0, n, 0, m)
	// go-diff compares runes, one a line. There are 1,112,064 runes; texts
	// with more distinct lines than that (megabytes) are diffed here.
	if mid := n + m - 2*(pre+suf); mid <= lim.goDiffLines && d.ids <= maxLineRunes && d.spend(mid*mid) {
		// go-diff is given the common lines too: its clean-up slides
		// changes along them, as it always did.
		d.goDiff(lineRunes(d.xa), lineRunes(d.xb))
	} else {
		d.diff(0, n, 0, m)
	}
	d.flush()
	return d.ops
}

// lineDiffer holds the state of one diff: the lines of both texts, each as
// a number shared by equal lines, the budget left and the script so far.
type lineDiffer struct {
	la, lb []string // the lines of a and b
	xa, xb []int32  // their numbers: xa[i] == xb[j] if la[i] == lb[j]
	ids    int      // how many distinct lines
	budget int

	// For patience, indexed by line number: the count of the line in each
	// text, kept zero between uses, and its last place in b.
	countA, countB, lastB []int32
	v1, v2                []int32 // the bisection's paths

	ops, pending []lineOp // the script; insertions not yet in it
}

func newLineDiffer(la, lb []string, budget int) *lineDiffer {
	d := &lineDiffer{la: la, lb: lb, budget: budget,
		ops: make([]lineOp, 0, max(len(la), len(lb)))}
	number := make(map[string]int32)
	intern := func(lines []string) []int32 {
		xs := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := number[l]
			if !ok {
				id = int32(len(number))
				number[l] = id
			}
			xs[i] = id
		}
		return xs
	}
	d.xa, d.xb = intern(la), intern(lb)
	d.ids = len(number)
	return d
}

// maxLineRunes is the number of valid runes: all but the surrogate halves.
const maxLineRunes = utf8.MaxRune + 1 - (0xE000 - 0xD800)

// lineRunes maps line numbers, below maxLineRunes, to distinct valid runes.
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

// spend takes cost from the budget if it is there.
func (d *lineDiffer) spend(cost int) bool {
	if cost > d.budget {
		return false
	}
	d.budget -= cost
	return true
}

// equal, del and ins add lines to the script; insertions wait for the
// next kept line, so that they follow the deletions beside them.
func (d *lineDiffer) equal(a0, a1 int) {
	if a0 == a1 {
		return // no kept line: the change goes on
	}
	d.flush()
	for _, l := range d.la[a0:a1] {
		d.ops = append(d.ops, lineOp{' ', l})
	}
}

func (d *lineDiffer) del(a0, a1 int) {
	for _, l := range d.la[a0:a1] {
		d.ops = append(d.ops, lineOp{'-', l})
	}
}

func (d *lineDiffer) ins(b0, b1 int) {
	for _, l := range d.lb[b0:b1] {
		d.pending = append(d.pending, lineOp{'+', l})
	}
}

func (d *lineDiffer) flush() {
	d.ops = append(d.ops, d.pending...)
	d.pending = d.pending[:0]
}

// trim returns the number of lines a0:a1 of a and b0:b1 of b have in
// common at their start and, after those, at their end.
func (d *lineDiffer) trim(a0, a1, b0, b1 int) (pre, suf int) {
	for a0+pre < a1 && b0+pre < b1 && d.xa[a0+pre] == d.xb[b0+pre] {
		pre++
	}
	for a1-suf > a0+pre && b1-suf > b0+pre && d.xa[a1-suf-1] == d.xb[b1-suf-1] {
		suf++
	}
	d.budget -= min(d.budget, pre+suf)
	return pre, suf
}

// diff adds the script turning lines a0:a1 of a into lines b0:b1 of b.
func (d *lineDiffer) diff(a0, a1, b0, b1 int) {
	pre, suf := d.trim(a0, a1, b0, b1)
	d.equal(a0, a0+pre)
	if a0+pre == a1-suf || b0+pre == b1-suf {
		d.del(a0+pre, a1-suf)
		d.ins(b0+pre, b1-suf)
	} else {
		d.split(a0+pre, a1-suf, b0+pre, b1-suf)
	}
	d.equal(a1-suf, a1)
}

// goDiff adds go-diff's script turning a into b, given as ra and rb.
func (d *lineDiffer) goDiff(ra, rb []rune) {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the shortest script; goDiffLines bounds its cost
	diffs := dmp.DiffMainRunes(ra, rb, false)
	if !d.turnsInto(diffs) {
		// Not seen; but a wrong diff would be worse than a coarse one.
		d.del(0, len(d.la))
		d.ins(0, len(d.lb))
		return
	}
	i, j := 0, 0
	for _, df := range diffs {
		k := utf8.RuneCountInString(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			d.equal(i, i+k)
			i, j = i+k, j+k
		case diffmatchpatch.DiffDelete:
			d.del(i, i+k)
			i += k
		case diffmatchpatch.DiffInsert:
			d.ins(j, j+k)
			j += k
		}
	}
}

// turnsInto says whether diffs turn a into b.
func (d *lineDiffer) turnsInto(diffs []diffmatchpatch.Diff) bool {
	i, j := 0, 0
	for _, df := range diffs {
		k := utf8.RuneCountInString(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			if i+k > len(d.xa) || j+k > len(d.xb) || !equalLines(d.xa[i:i+k], d.xb[j:j+k]) {
				return false
			}
			i, j = i+k, j+k
		case diffmatchpatch.DiffDelete:
			i += k
		case diffmatchpatch.DiffInsert:
			j += k
		}
	}
	return i == len(d.xa) && j == len(d.xb)
}

func equalLines(x, y []int32) bool {
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

// split adds the script for lines a0:a1 of a and b0:b1 of b, which are
// both non-empty and differ in their first and in their last lines.
func (d *lineDiffer) split(a0, a1, b0, b1 int) {
	unique, common, ok := d.census(a0, a1, b0, b1)
	if ok && common {
		if x, y, found := d.bisect(a0, a1, b0, b1, d.budget/2); found {
			d.diff(a0, x, b0, y)
			d.diff(x, a1, y, b1)
			return
		}
		if len(unique) > 0 && d.spend(len(unique)*(1+bits.Len(uint(len(unique))))) {
			for _, p := range longestIncreasing(unique) {
				d.diff(a0, p.i, b0, p.j)
				d.equal(p.i, p.i+1)
				a0, b0 = p.i+1, p.j+1
			}
			d.diff(a0, a1, b0, b1)
			return
		}
	}
	// Nothing in common, where this is the shortest script, or no budget
	// left to find one.
	d.del(a0, a1)
	d.ins(b0, b1)
}

// linePair is a line of a (i) matched with a line of b (j).
type linePair struct{ i, j int }

// census counts the lines of a0:a1 and b0:b1 for patience diff: it says
// whether the two share any line, and returns the lines that occur once in
// each, in their order in a. ok is false when the budget cannot pay for it.
func (d *lineDiffer) census(a0, a1, b0, b1 int) (unique []linePair, common, ok bool) {
	if !d.spend(2 * (a1 - a0 + b1 - b0)) {
		return nil, false, false
	}
	if d.countA == nil {
		d.countA, d.countB, d.lastB = make([]int32, d.ids), make([]int32, d.ids), make([]int32, d.ids)
	}
	for i := a0; i < a1; i++ {
		d.countA[d.xa[i]]++
	}
	for j := b0; j < b1; j++ {
		d.countB[d.xb[j]]++
		d.lastB[d.xb[j]] = int32(j)
	}
	for i := a0; i < a1; i++ {
		x := d.xa[i]
		if d.countB[x] > 0 {
			common = true
			if d.countA[x] == 1 && d.countB[x] == 1 {
				unique = append(unique, linePair{i, int(d.lastB[x])})
			}
		}
	}
	for i := a0; i < a1; i++ {
		d.countA[d.xa[i]] = 0
	}
	for j := b0; j < b1; j++ {
		d.countB[d.xb[j]] = 0
	}
	return unique, common, true
}

// longestIncreasing returns the longest subsequence of ps (ordered by i)
// whose js increase, by patience sorting.
func longestIncreasing(ps []linePair) []linePair {
	tops := []int{}              // tops[k]: index in ps of the smallest j ending a run of k+1
	prev := make([]int, len(ps)) // the element before ps[x] in its run
	for x, p := range ps {
		lo, hi := 0, len(tops)
		for lo < hi {
			mid := (lo + hi) / 2
			if ps[tops[mid]].j < p.j {
				lo = mid + 1
			} else {
				hi = mid
			}
		}
		prev[x] = -1
		if lo > 0 {
			prev[x] = tops[lo-1]
		}
		if lo == len(tops) {
			tops = append(tops, x)
		} else {
			tops[lo] = x
		}
	}
	run := make([]linePair, len(tops))
	for k, x := len(tops)-1, tops[len(tops)-1]; k >= 0; k, x = k-1, prev[x] {
		run[k] = ps[x]
	}
	return run
}

// bisect finds the middle of a shortest edit path turning lines a0:a1 of a
// into lines b0:b1 of b (Myers 1986, section 4b): it returns the point
// (x, y), x in a and y in b, that the path goes through after half of its
// edits. It gives up, found false, once its steps cost more than limit:
// visitCost for each diagonal it extends, one for each line it compares.
// Both ranges are non-empty and differ in their first and last lines.
//
// The loop is go-diff's diffBisect (github.com/sergi/go-diff, MIT licence,
// after Neil Fraser's diff-match-patch) on line numbers, counting its steps
// where go-diff reads a clock.
func (d *lineDiffer) bisect(a0, a1, b0, b1, limit int) (x, y int, found bool) {
	xa, xb := d.xa[a0:a1], d.xb[b0:b1]
	n, m := len(xa), len(xb)
	maxD := (n + m + 1) / 2
	vOffset, vLength := maxD, 2*maxD+2
	cost := vLength
	defer func() { d.budget -= min(d.budget, cost) }()
	if cost > limit {
		return 0, 0, false
	}
	if cap(d.v1) < vLength {
		d.v1, d.v2 = make([]int32, vLength), make([]int32, vLength)
	}
	// v1[vOffset+k]: how far in a the forward path on diagonal k (x-y)
	// reaches; v2 the same for the reverse path, counted from the ends.
	v1, v2 := d.v1[:vLength], d.v2[:vLength]
	for i := range v1 {
		v1[i], v2[i] = -1, -1
	}
	v1[vOffset+1], v2[vOffset+1] = 0, 0
	delta := n - m
	front := delta%2 != 0 // whether the forward path is the one to meet the other
	// Diagonals beyond which the paths have run off the grid.
	k1start, k1end, k2start, k2end := 0, 0, 0, 0
	for dd := 0; dd < maxD; dd++ {
		for k1 := -dd + k1start; k1 <= dd-k1end; k1 += 2 {
			k1Offset := vOffset + k1
			var x1 int
			if k1 == -dd || (k1 != dd && v1[k1Offset-1] < v1[k1Offset+1]) {
				x1 = int(v1[k1Offset+1])
			} else {
				x1 = int(v1[k1Offset-1]) + 1
			}
			y1 := x1 - k1
			s := x1
			for x1 < n && y1 < m && xa[x1] == xb[y1] {
				x1++
				y1++
			}
			cost += visitCost + x1 - s
			v1[k1Offset] = int32(x1)
			if cost > limit {
				return 0, 0, false
			} else if x1 > n {
				k1end += 2
			} else if y1 > m {
				k1start += 2
			} else if front {
				k2Offset := vOffset + delta - k1
				if k2Offset >= 0 && k2Offset < vLength && v2[k2Offset] != -1 && x1 >= n-int(v2[k2Offset]) {
					return splitPoint(a0, b0, x1, y1, n, m)
				}
			}
		}
		for k2 := -dd + k2start; k2 <= dd-k2end; k2 += 2 {
			k2Offset := vOffset + k2
			var x2 int
			if k2 == -dd || (k2 != dd && v2[k2Offset-1] < v2[k2Offset+1]) {
				x2 = int(v2[k2Offset+1])
			} else {
				x2 = int(v2[k2Offset-1]) + 1
			}
			y2 := x2 - k2
			s := x2
			for x2 < n && y2 < m && xa[n-x2-1] == xb[m-y2-1] {
				x2++
				y2++
			}
			cost += visitCost + x2 - s
			v2[k2Offset] = int32(x2)
			if cost > limit {
				return 0, 0, false
			} else if x2 > n {
				k2end += 2
			} else if y2 > m {
				k2start += 2
			} else if !front {
				k1Offset := vOffset + delta - k2
				if k1Offset >= 0 && k1Offset < vLength && v1[k1Offset] != -1 {
					x1 := int(v1[k1Offset])
					y1 := vOffset + x1 - k1Offset
					if x1 >= n-x2 {
						return splitPoint(a0, b0, x1, y1, n, m)
					}
				}
			}
		}
	}
	return 0, 0, false
}

// visitCost is what bisect counts for extending a path along a diagonal,
// against one for comparing two lines: about the ratio of their times.
const visitCost = 4

// splitPoint turns bisect's point into positions in a and b, refusing one
// that would not split the problem.
func splitPoint(a0, b0, x, y, n, m int) (int, int, bool) {
	if (x == 0 && y == 0) || (x == n && y == m) || x < 0 || y < 0 || x > n || y > m {
		return 0, 0, false
	}
	return a0 + x, b0 + y, true
}

// splitLines splits s after each "\n"; the last line may lack one.
func splitLines(s string) []string {
	out := make([]string, 0, strings.Count(s, "\n")+1)
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// hunk is a range [start, end) of an edit script.
type hunk struct{ start, end int }

// hunks groups the changed lines of ops with their context; changes closer
// than twice the context share a hunk, as in diff -u.
func hunks(ops []lineOp) []hunk {
	var hs []hunk
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		// i is the first change of a new hunk; extend it over every change
		// whose gap of kept lines is at most 2*context.
		last := i
		for j := i + 1; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				if j-last-1 > 2*diffContext {
					break
				}
				last = j
			}
		}
		h := hunk{start: max(0, i-diffContext), end: min(len(ops), last+1+diffContext)}
		hs = append(hs, h)
		i = last + 1
	}
	return hs
}

// writeHunks writes the hunks of ops, counting line numbers as it goes.
func writeHunks(sb *strings.Builder, ops []lineOp) {
	oldLine, newLine := 1, 1 // line numbers of ops[pos] in each text
	pos := 0
	for _, h := range hunks(ops) {
		for ; pos < h.start; pos++ {
			oldLine, newLine = advance(ops[pos], oldLine, newLine)
		}
		writeHunk(sb, ops[h.start:h.end], oldLine, newLine)
	}
}

// advance returns the line numbers after op.
func advance(op lineOp, oldLine, newLine int) (int, int) {
	if op.kind != '+' {
		oldLine++
	}
	if op.kind != '-' {
		newLine++
	}
	return oldLine, newLine
}

// writeHunk writes the ops of one hunk, whose first line is oldLine in the
// old text and newLine in the new, with its "@@ -a,b +c,d @@" header.
func writeHunk(sb *strings.Builder, ops []lineOp, oldLine, newLine int) {
	oldEnd, newEnd := oldLine, newLine
	for _, op := range ops {
		oldEnd, newEnd = advance(op, oldEnd, newEnd)
	}
	sb.WriteString("@@ -")
	writeRange(sb, oldLine, oldEnd-oldLine)
	sb.WriteString(" +")
	writeRange(sb, newLine, newEnd-newLine)
	sb.WriteString(" @@\n")
	for _, op := range ops {
		sb.WriteByte(op.kind)
		sb.WriteString(op.line)
		if !strings.HasSuffix(op.line, "\n") {
			sb.WriteByte('\n')
			sb.WriteString(noNewline)
		}
	}
}

// writeRange writes one side of a hunk header as diff -u does: the count is
// left out when it is 1, and an empty range names the line before it.
func writeRange(sb *strings.Builder, start, count int) {
	switch count {
	case 0:
		sb.WriteString(strconv.Itoa(start - 1))
		sb.WriteString(",0")
	case 1:
		sb.WriteString(strconv.Itoa(start))
	default:
		sb.WriteString(strconv.Itoa(start))
		sb.WriteByte(',')
		sb.WriteString(strconv.Itoa(count))
	}
}
