// Package frontmatter cuts a Markdown document (a SKILL.md) into its YAML
// frontmatter and its body with github.com/adrg/frontmatter, which finds the
// delimiters, wrapped for what the library does not do: it reads a leading
// byte-order mark as text and a block with no closing "---" as no
// frontmatter at all, both silently; it says neither where the block and
// the body begin nor which line of the file a line of the block is; and it
// copies all it reads, body included.
//
// The repository reader (fsrepo) and the emulator's seed loader
// (remote/remotetest) both cut SKILL.md files with [Parse], so that they
// agree on what a frontmatter block is.
package frontmatter

import (
	"bytes"
	"io"
	"slices"

	adrg "github.com/adrg/frontmatter"
)

// A State says what [Parse] found.
type State int

// States of a [Split].
const (
	// None: the first line that is not blank is not "---".
	None State = iota
	// Found: a block between an opening and a closing "---" line.
	Found
	// Unclosed: an opening "---" line and no closing one after it.
	Unclosed
)

// A Split is a document cut at its frontmatter. Lines count from 1, and
// end at "\n".
type Split struct {
	State State
	// OpenLine is the line of the opening "---" (Found, Unclosed).
	OpenLine int
	// Block is the text between the delimiter lines (Found).
	Block []byte
	// Body is the text after the closing line: all of the document for
	// None, nothing for Unclosed.
	Body []byte
	// BodyLine is the line on which Body begins.
	BodyLine int

	// lines indexes the line breaks of Block for [Split.Line]; Parse
	// makes it, so that finding the line of each key of a block costs no
	// scan of the block.
	lines *lineIndex
}

const bom = "\uFEFF"

// sentinel closes, after the document, a block the document left open,
// so that the library reports it as found, and not as no frontmatter.
const sentinel = "\n---\n"

// Parse cuts data at its frontmatter, as adrg/frontmatter finds it: blank
// lines may come first, and each delimiter line is "---" with any space
// around it. A leading byte-order mark is skipped. Block and Body are
// slices of data.
func Parse(data []byte) Split {
	data = bytes.TrimPrefix(data, []byte(bom))
	r := &lineReader{rest: [][]byte{data, []byte(sentinel)}}
	whole := -1 // the length of the block with its delimiter lines
	format := &adrg.Format{Start: "---", End: "---", UnmarshalDelims: true,
		Unmarshal: func(b []byte, _ any) error {
			whole = len(b)
			r.stop = true // the rest is the body: no need to copy it
			return nil
		}}
	rest, err := adrg.Parse(r, nil, format)
	if err != nil || whole < 0 {
		// Reading memory cannot fail, and the sentinel closes any block
		// that opens: there is no opening line.
		return Split{State: None, Body: data, BodyLine: 1}
	}
	end := r.n - len(rest) // of the closing line, in data and sentinel
	start := end - whole   // of the opening line, in data
	if end == len(data)+len(sentinel) {
		// The sentinel's "---" closed it.
		return Split{State: Unclosed, OpenLine: lineAt(data, start), Body: data[len(data):], BodyLine: lineAt(data, len(data))}
	}
	// The closing line is in data, but for the "\n" ending it when it is
	// the last line.
	open := start + bytes.IndexByte(data[start:], '\n') + 1
	closing := bytes.LastIndexByte(data[:end-1], '\n') + 1
	end = min(end, len(data))
	block := data[open:closing]
	return Split{State: Found, OpenLine: lineAt(data, start), Block: block, Body: data[end:], BodyLine: lineAt(data, end), lines: indexLines(block)}
}

// lineAt is the line of data on which offset i is.
func lineAt(data []byte, i int) int {
	return 1 + bytes.Count(data[:i], []byte("\n"))
}

// lineReader hands out its parts, a line at most per Read, counting what
// it hands out, and ends once stop is set: the library, which copies all
// it reads, then holds the frontmatter and no more.
type lineReader struct {
	rest [][]byte
	n    int
	stop bool
}

func (r *lineReader) Read(p []byte) (int, error) {
	for len(r.rest) > 0 && len(r.rest[0]) == 0 {
		r.rest = r.rest[1:]
	}
	if r.stop || len(r.rest) == 0 {
		return 0, io.EOF
	}
	b := r.rest[0]
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		b = b[:i+1]
	}
	n := copy(p, b)
	r.rest[0] = r.rest[0][n:]
	r.n += n
	return n, nil
}

// Line is the line of the document of line n of the block, as YAML
// parsers count lines (a CR, an LF and a CRLF each end one; yaml.v3 counts
// so), where only LF ends a line. Without a lone CR in the block it is
// OpenLine+n.
func (s Split) Line(n int) int {
	ix := s.lines
	if ix == nil {
		ix = indexLines(s.Block) // a Split not made by Parse
	}
	// Lines 1 to n are ended by the first n-1 breaks of the block, of
	// which the lone CRs end no line of the document.
	k := min(max(n-1, 0), ix.breaks)
	lone, _ := slices.BinarySearch(ix.loneCR, k+1)
	return s.OpenLine + 1 + k - lone
}

// A lineIndex is where the lines of a block break.
type lineIndex struct {
	breaks int   // line breaks, as a YAML parser counts them
	loneCR []int // which of them (the first is 1) are CRs with no LF after
}

func indexLines(b []byte) *lineIndex {
	ix := &lineIndex{}
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			ix.breaks++
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			ix.breaks++
			ix.loneCR = append(ix.loneCR, ix.breaks)
		}
	}
	return ix
}
