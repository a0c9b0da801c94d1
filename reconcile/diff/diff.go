// Package diff writes the unified diff of two texts, line by line, as
// diff -u writes it and patch reads it ([Unified]).
//
// The diff is go-diff's line mode under a cost counted, not timed: past
// the cap, every line from the first change to the last is replaced and
// the hunk header says how many, so the same texts always give the same
// diff. A [Script] keeps a diff as its edit script, small beside the
// texts, for a renderer that sizes diffs before it writes them.
package diff

import (
	"fmt"
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// diffContext is the number of unchanged lines shown around each change.
const diffContext = 3

// noNewline marks, in a unified diff, a last line with no newline after it.
const noNewline = "\\ No newline at end of file\n"

// Unified returns the unified diff turning a into b, with oldName and
// newName in its --- and +++ headers: hunks with "@@ -a,b +c,d @@" headers
// and three lines of context, as diff -u writes them and patch reads them.
// It returns "" when a and b are equal.
//
// The diff is go-diff's, of whole lines, and the shortest, unless finding
// it would cost more than [maxDiffWork] or the texts are longer than
// [maxDiffLines]. Then every line from the first change to the last is
// replaced, and the hunk header says how many. The cost is counted, not
// timed, so the same texts always give the same diff.
func Unified(oldName, newName, a, b string) string {
	return unifiedDiff(oldName, newName, a, b, maxDiffWork)
}

func unifiedDiff(oldName, newName, a, b string, maxWork int) string {
	if a == b {
		return ""
	}
	ops, replaced := diffLines(a, b, maxWork)
	return diffText(oldName, newName, ops, replaced)
}

// maxDiffWork bounds go-diff's work on two texts, counted as Myers' bound
// (n+m)*d: n and m lines from the first change to the last, d lines in the
// shortest script.
const maxDiffWork = 5_000_000

// maxDiffLines bounds the lines of two texts, together, given to go-diff's
// line mode, which can number at most 1,112,060 distinct lines.
const maxDiffLines = 1 << 18

// lineOp is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
// The line keeps its "\n", which only the last line of a text can lack.
type lineOp struct {
	kind byte
	line string
}

// diffLines returns the line edit script from a to b, and whether it
// replaces all the lines between the first change and the last. Within each
// run of changed lines, deletions come before insertions, as diff -u has them.
func diffLines(a, b string, maxWork int) (ops []lineOp, replaced bool) {
	if strings.Count(a, "\n")+strings.Count(b, "\n")+2 <= maxDiffLines {
		dmp := diffmatchpatch.New()
		dmp.DiffTimeout = 0 // no clock: maxWork bounds the cost
		ra, rb, lines := dmp.DiffLinesToRunes(a, b)
		pre, suf := CommonEnds(ra, rb)
		if affordable(ra[pre:len(ra)-suf], rb[pre:len(rb)-suf], maxWork) {
			// go-diff is given the common lines too: its clean-up may slide
			// a change along them.
			diffs := dmp.DiffCharsToLines(dmp.DiffMainRunes(ra, rb, false), lines)
			return scriptOf(diffs, len(ra)+len(rb)), false
		}
	}
	la, lb := Lines(a), Lines(b)
	pre, suf := CommonEnds(la, lb)
	ma, mb := la[pre:len(la)-suf], lb[pre:len(lb)-suf]
	ops = make([]lineOp, 0, len(la)+len(mb))
	ops = appendLines(ops, ' ', la[:pre])
	ops = appendLines(ops, '-', ma)
	ops = appendLines(ops, '+', mb)
	ops = appendLines(ops, ' ', la[len(la)-suf:])
	return ops, len(ma) > 0 && len(mb) > 0
}

// CommonEnds returns how many elements x and y share at their start and,
// after those, at their end.
func CommonEnds[T comparable](x, y []T) (pre, suf int) {
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	return pre, suf
}

// affordable reports whether (n+m)*d is at most maxWork, where n and m are
// the lengths of x and y, and d that of the shortest script turning x into
// y. Finding d costs at most about 2*maxWork steps.
func affordable(x, y []rune, maxWork int) bool {
	n, m := len(x), len(y)
	switch {
	case n == 0 || m == 0:
		return true // go-diff inserts or deletes them whole
	case n+m <= maxWork/(n+m):
		return true // d is at most n+m
	}
	return shortestEdit(x, y, maxWork/(n+m)) >= 0
}

// shortestEdit returns the number of elements the shortest script turning
// x into y deletes and inserts, or -1 if it is more than maxD. It is the
// greedy algorithm of Myers (1986), section 2, in O((n+m)*maxD) steps.
func shortestEdit(x, y []rune, maxD int) int {
	n, m := len(x), len(y)
	// v[off+k] is how far in x the furthest path of d edits reaches on
	// diagonal k, where its position in y is that in x minus k.
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	for d := 0; d <= maxD; d++ {
		for k := -d; k <= d; k += 2 {
			var i int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				i = v[off+k+1] // an insertion from diagonal k+1
			} else {
				i = v[off+k-1] + 1 // a deletion from diagonal k-1
			}
			j := i - k
			for i < n && j < m && x[i] == y[j] {
				i, j = i+1, j+1
			}
			v[off+k] = i
			if i >= n && j >= m {
				return d
			}
		}
	}
	return -1
}

// scriptOf turns go-diff's line diffs, of at most size lines, into an edit
// script.
func scriptOf(diffs []diffmatchpatch.Diff, size int) []lineOp {
	ops := make([]lineOp, 0, size)
	var inserted []lineOp // insertions wait for the next kept line
	for _, df := range diffs {
		lines := Lines(df.Text)
		switch df.Type {
		case diffmatchpatch.DiffEqual:
			ops = append(ops, inserted...)
			inserted = inserted[:0]
			ops = appendLines(ops, ' ', lines)
		case diffmatchpatch.DiffDelete:
			ops = appendLines(ops, '-', lines)
		case diffmatchpatch.DiffInsert:
			inserted = appendLines(inserted, '+', lines)
		}
	}
	return append(ops, inserted...)
}

func appendLines(ops []lineOp, kind byte, lines []string) []lineOp {
	for _, l := range lines {
		ops = append(ops, lineOp{kind, l})
	}
	return ops
}

// diffText writes the edit script ops as a unified diff. When replaced, its
// one hunk's header says how many lines it replaces.
func diffText(oldName, newName string, ops []lineOp, replaced bool) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	oldLine, newLine := 1, 1 // line numbers of ops[pos] in each text
	pos := 0
	for _, h := range hunks(ops) {
		for ; pos < h.start; pos++ {
			oldLine, newLine = advance(ops[pos], oldLine, newLine)
		}
		writeHunk(&sb, ops[h.start:h.end], oldLine, newLine, replaced)
	}
	return sb.String()
}

// A Script is a unified diff kept as its edit script, not its text:
// the markdown renderer sizes every diff of a plan before it writes any,
// and holds them meanwhile.
type Script struct {
	oldName, newName string
	a, b             string
	runs             []editRun // nil when a and b are equal
	replaced         bool
}

// NewScript returns the script of [Unified] and its text.
func NewScript(oldName, newName, a, b string) (*Script, string) {
	s := &Script{oldName: oldName, newName: newName, a: a, b: b}
	if a == b {
		return s, ""
	}
	ops, replaced := diffLines(a, b, maxDiffWork)
	s.runs, s.replaced = compactOps(ops), replaced
	return s, diffText(oldName, newName, ops, replaced)
}

// Text is the unified diff of s, as [Unified] gives it.
func (s *Script) Text() string {
	if s.runs == nil {
		return ""
	}
	return diffText(s.oldName, s.newName, expandRuns(s.runs, Lines(s.a), Lines(s.b)), s.replaced)
}

// An editRun is a run of an edit script: n lines of one kind, kept (' '),
// deleted ('-') or inserted ('+'). Runs hold no text, so the scripts of
// every change of a plan are small beside its instructions.
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

// Lines splits s after each "\n"; the last line may lack one.
func Lines(s string) []string {
	return slices.Collect(strings.Lines(s))
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
// old text and newLine in the new, with its "@@ -a,b +c,d @@" header. When
// replaced, the header ends with how many lines the hunk replaces, where
// diff -p names a function: patch reads past it.
func writeHunk(sb *strings.Builder, ops []lineOp, oldLine, newLine int, replaced bool) {
	oldEnd, newEnd := oldLine, newLine
	deleted, inserted := 0, 0
	for _, op := range ops {
		oldEnd, newEnd = advance(op, oldEnd, newEnd)
		switch op.kind {
		case '-':
			deleted++
		case '+':
			inserted++
		}
	}
	sb.WriteString("@@ -")
	writeRange(sb, oldLine, oldEnd-oldLine)
	sb.WriteString(" +")
	writeRange(sb, newLine, newEnd-newLine)
	sb.WriteString(" @@")
	if replaced {
		word := "lines"
		if deleted == 1 {
			word = "line"
		}
		fmt.Fprintf(sb, " %d %s replaced by %d (too large to diff line by line)", deleted, word, inserted)
	}
	sb.WriteByte('\n')
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
		fmt.Fprintf(sb, "%d,0", start-1)
	case 1:
		fmt.Fprintf(sb, "%d", start)
	default:
		fmt.Fprintf(sb, "%d,%d", start, count)
	}
}
