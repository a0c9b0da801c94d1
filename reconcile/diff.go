package reconcile

import (
	"fmt"
	"strconv"
	"strings"

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
// Lines are matched whole (go-diff in line mode); the hunks are rendered here
// because go-diff's own patch text is character-based and URL-escaped.
func UnifiedDiff(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	ops := diffLines(a, b)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	writeHunks(&sb, ops)
	return sb.String()
}

// lineOp is one line of an edit script: ' ' kept, '-' deleted, '+' inserted.
// The line keeps its "\n", which only the last line of a text can lack.
type lineOp struct {
	kind byte
	line string
}

// diffLines computes the line edit script from a to b. Within each run of
// changed lines, deletions come before insertions, as diff -u writes them.
func diffLines(a, b string) []lineOp {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // the shortest script every time, not "good enough in a second"
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)

	var ops, ins []lineOp
	flush := func() {
		ops = append(ops, ins...)
		ins = ins[:0]
	}
	for _, d := range diffs {
		for _, l := range splitLines(d.Text) {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				flush()
				ops = append(ops, lineOp{' ', l})
			case diffmatchpatch.DiffDelete:
				ops = append(ops, lineOp{'-', l})
			case diffmatchpatch.DiffInsert:
				ins = append(ins, lineOp{'+', l})
			}
		}
	}
	flush()
	return ops
}

// splitLines splits s after each "\n"; the last line may lack one.
func splitLines(s string) []string {
	var out []string
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
