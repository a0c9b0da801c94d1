package frontmatter

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		state    State
		openLine int
		block    string
		body     string
		bodyLine int
	}{
		{"plain", "---\nname: a\n---\nbody\n", Found, 1, "name: a\n", "body\n", 4},
		{"a byte-order mark", "\uFEFF---\nname: a\n---\nbody\n", Found, 1, "name: a\n", "body\n", 4},
		{"no final newline", "---\na: 1\n---\nbody", Found, 1, "a: 1\n", "body", 4},
		{"empty block", "---\n---\n", Found, 1, "", "", 3},
		{"closing line last, without newline", "---\na: 1\n---", Found, 1, "a: 1\n", "", 3},
		{"a second block is body", "---\na: 1\n---\n\n---\nx", Found, 1, "a: 1\n", "\n---\nx", 4},
		{"blank lines first", "\n \n---\na: 1\n---\nb\n", Found, 3, "a: 1\n", "b\n", 6},
		{"space around delimiters", "  ---  \na: 1\n --- \nb\n", Found, 1, "a: 1\n", "b\n", 4},
		{"CRLF", "---\r\na: 1\r\n---\r\nb\r\n", Found, 1, "a: 1\r\n", "b\r\n", 4},
		{"a longer delimiter is text", "---\na: ----\n----\n---\nb", Found, 1, "a: ----\n----\n", "b", 5},
		{"unclosed", "---\nname: a\n", Unclosed, 1, "", "", 3},
		{"unclosed, no final newline", "---\nname: a", Unclosed, 1, "", "", 2},
		{"unclosed after blank lines", "\n\n---\nname: a\n--\n", Unclosed, 3, "", "", 6},
		{"only an opening line", "---", Unclosed, 1, "", "", 1},
		{"no frontmatter", "# Title\n---\na: 1\n---\n", None, 0, "", "# Title\n---\na: 1\n---\n", 1},
		{"empty", "", None, 0, "", "", 1},
		{"blank", "\n\n", None, 0, "", "\n\n", 1},
		{"a mark after the start", "\n\uFEFF---\na\n---\n", None, 0, "", "\n\uFEFF---\na\n---\n", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Parse([]byte(tc.in))
			if got.State != tc.state || got.OpenLine != tc.openLine || string(got.Block) != tc.block ||
				string(got.Body) != tc.body || got.BodyLine != tc.bodyLine {
				t.Errorf("Parse(%q) = state %d, open line %d, block %q, body %q, body line %d;\nwant state %d, open line %d, block %q, body %q, body line %d",
					tc.in, got.State, got.OpenLine, got.Block, got.Body, got.BodyLine,
					tc.state, tc.openLine, tc.block, tc.body, tc.bodyLine)
			}
		})
	}
}

// TestLine: a line of the block, as a YAML parser counts them (a lone CR
// ends one), is the line of the document it is on (only LF ends one).
func TestLine(t *testing.T) {
	s := Parse([]byte("\n---\na: 1\rb: 2\r\nc: 3\n---\n"))
	for n, want := range map[int]int{1: 3, 2: 3, 3: 4} {
		if got := s.Line(n); got != want {
			t.Errorf("Line(%d) = %d, want %d", n, got, want)
		}
	}
}

// lineByScan is Line as the block's text says it, scanned from the top:
// the oracle of the index Parse makes.
func lineByScan(s Split, n int) int {
	yl, fl := 1, 1
	b := s.Block
	for i := 0; i < len(b) && yl < n; i++ {
		switch b[i] {
		case '\n':
			yl++
			fl++
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			yl++
		}
	}
	return s.OpenLine + fl
}

// TestLineIndex holds Line to the scan of the block, for every line of
// blocks mixing LF, CRLF and lone CRs, and past their last line.
func TestLineIndex(t *testing.T) {
	for _, doc := range []string{
		"---\na: 1\n---\n",
		"\n\n---\na: 1\rb: 2\r\nc: 3\r\r\nd: 4\n\re\n---\n",
		"---\n\r\r\r\n\n\r---\n",
		"---\r\na\r\r\nb\r\n---\r\n",
	} {
		s := Parse([]byte(doc))
		for n := -1; n < 12; n++ {
			if got, want := s.Line(n), lineByScan(s, n); got != want {
				t.Errorf("Parse(%q).Line(%d) = %d, want %d", doc, n, got, want)
			}
		}
	}
}

// TestLineDoesNotScanTheBlock: Parse indexes the lines of the block once,
// and Line reads the index. Were each Line to scan the block, finding the
// lines of the 100,000 keys a 1 MiB frontmatter can hold would take
// minutes. The block is overwritten after Parse: the lines stay those of
// the text Parse was given.
func TestLineDoesNotScanTheBlock(t *testing.T) {
	data := []byte("---\na: 1\rb: 2\nc: 3\r\nd: 4\n---\nbody\n")
	s := Parse(data)
	var want []int
	for n := range 6 {
		want = append(want, s.Line(n))
	}
	for i := range s.Block {
		s.Block[i] = '\r' // a line break at every byte, to a scan
	}
	for n := range 6 {
		if got := s.Line(n); got != want[n] {
			t.Errorf("Line(%d) = %d after the block changed, was %d: Line scans the block", n, got, want[n])
		}
	}
}

// TestParseDoesNotCopyTheBody: the library copies all it reads; Parse stops
// it at the closing line, so a long body costs nothing.
func TestParseDoesNotCopyTheBody(t *testing.T) {
	doc := []byte("---\nname: a\n---\n" + strings.Repeat("A line of the body.\n", 1<<20/20*8))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s := Parse(doc)
	runtime.ReadMemStats(&after)
	if s.State != Found || len(s.Body) != len(doc)-16 {
		t.Fatalf("Parse: state %d, %d bytes of body", s.State, len(s.Body))
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 256<<10 {
		t.Errorf("Parse of an 8 MB document allocated %d KB; the body was copied", n>>10)
	}
}

// scan is the split written by hand, line by line: the oracle of
// FuzzParse.
func scan(data []byte) Split {
	data = bytes.TrimPrefix(data, []byte(bom))
	lines := bytes.SplitAfter(data, []byte("\n"))
	delim := func(l []byte) bool { return string(bytes.TrimSpace(l)) == "---" }
	off, i := 0, 0
	for i < len(lines) && len(bytes.TrimSpace(lines[i])) == 0 {
		off += len(lines[i])
		i++
	}
	if i == len(lines) || !delim(lines[i]) {
		return Split{State: None, Body: data, BodyLine: 1}
	}
	open, openOff := i+1, off
	off += len(lines[i])
	for j := i + 1; j < len(lines); j++ {
		if delim(lines[j]) {
			end := off + len(lines[j])
			return Split{State: Found, OpenLine: open, Block: data[openOff+len(lines[i]) : off], Body: data[end:], BodyLine: 1 + bytes.Count(data[:end], []byte("\n"))}
		}
		off += len(lines[j])
	}
	return Split{State: Unclosed, OpenLine: open, Body: data[len(data):], BodyLine: 1 + bytes.Count(data, []byte("\n"))}
}

// FuzzParse holds Parse to the split written by hand.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"---\na: 1\n---\nb\n", "---\na", "\n---\n---", "x\n---\n---\n", "\uFEFF---\n---\n", " --- \r\n---\r\n", "---\n\r---\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, want := Parse(data), scan(data)
		if got.State != want.State || got.OpenLine != want.OpenLine || !bytes.Equal(got.Block, want.Block) ||
			!bytes.Equal(got.Body, want.Body) || got.BodyLine != want.BodyLine {
			t.Fatalf("Parse(%q) = %+v\nby hand:   %+v", data, got, want)
		}
	})
}
