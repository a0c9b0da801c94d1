package frontmatter

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// surrogateEscape is a "\u" or "\U" escape naming a UTF-16 surrogate
// (U+D800 to U+DFFF).
var surrogateEscape = regexp.MustCompile(`\\(?:u|U0000)[dD][89a-fA-F][0-9a-fA-F]{2}`)

// A SurrogateError is an escape of a double-quoted scalar that names half
// of a UTF-16 surrogate pair without the other half: no character at all.
type SurrogateError struct {
	Line, Col int    // of the escape in the block, from 1; Col counts characters
	Escape    string // as written, such as `\uD83D`
}

func (e *SurrogateError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Col, e.Problem())
}

// Problem says what is wrong, without the position.
func (e *SurrogateError) Problem() string {
	v, _ := strconv.ParseUint(e.Escape[2:], 16, 32)
	half := "first"
	if v >= 0xDC00 {
		half = "second"
	}
	return fmt.Sprintf("%s is the %s half of a UTF-16 surrogate pair, written without the other half", e.Escape, half)
}

// JoinSurrogates returns block with each surrogate pair escape of its
// double-quoted scalars, "\uD83D\uDD2D" as JSON writes a character beyond
// U+FFFF, written as the one escape that yaml.v3 reads, "\U0001F52D".
// Such pairs are valid YAML 1.2, a superset of JSON, and other YAML
// parsers read them; yaml.v3 refuses them (go-yaml/yaml#279, open).
//
// Text outside double-quoted scalars (plain and single-quoted scalars,
// block scalars, comments), where a backslash escapes nothing, is left as
// it is: yaml.v3 itself tells where the double-quoted scalars are, from a
// copy of block in which every surrogate escape is replaced by a valid one
// of the same length. Every line stays where it is, so that positions
// yaml.v3 reports in the result are positions in block, but for the
// columns after a pair on its line, two to the left.
//
// block itself is returned when it holds no surrogate escape, or when it
// is not YAML that yaml.v3 reads (its own error then says why). An escape
// of a double-quoted scalar that names one half of a pair without the
// other is a [*SurrogateError].
func JoinSurrogates(block []byte) ([]byte, error) {
	escapes := surrogateEscape.FindAllIndex(block, -1)
	if escapes == nil {
		return block, nil
	}
	masked := bytes.Clone(block)
	for _, m := range escapes {
		copy(masked[m[1]-4:m[1]], "FFFD")
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(masked, &doc); err != nil {
		return block, nil
	}
	starts := lineStarts(block)
	pos := &positions{b: block, starts: starts}
	var quoted []int // offsets of the opening quotes
	seen := map[*yaml.Node]bool{}
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n == nil || seen[n] {
			return
		}
		seen[n] = true
		if n.Kind == yaml.ScalarNode && n.Style&yaml.DoubleQuotedStyle != 0 {
			if at, ok := pos.offset(n.Line, n.Column); ok {
				// The node starts at its anchor or tag, if any.
				if q := bytes.IndexByte(block[at:], '"'); q >= 0 {
					quoted = append(quoted, at+q)
				}
			}
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(&doc)
	slices.Sort(quoted)

	var out bytes.Buffer
	last := 0
	for _, open := range quoted {
		if open < last {
			continue
		}
		for i := open + 1; i < len(block); i++ {
			c := block[i]
			if c == '"' {
				break
			}
			if c != '\\' || i+1 >= len(block) {
				continue
			}
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[block[i+1]]
			if n == 0 || i+2+n > len(block) {
				i++ // a one-character escape, or one yaml.v3 will refuse
				continue
			}
			v, err := strconv.ParseUint(string(block[i+2:i+2+n]), 16, 32)
			if err != nil || v < 0xD800 || v > 0xDFFF {
				i += 1 + n
				continue
			}
			end := i + 2 + n
			if low, ok := lowSurrogate(block[end:]); ok && block[i+1] == 'u' && v < 0xDC00 {
				r := 0x10000 + (rune(v)-0xD800)<<10 + (low - 0xDC00)
				out.Write(block[last:i])
				fmt.Fprintf(&out, `\U%08X`, r)
				last = end + 6
				i = last - 1
				continue
			}
			line, col := positionOf(block, starts, i)
			return nil, &SurrogateError{Line: line, Col: col, Escape: string(block[i:end])}
		}
	}
	if last == 0 {
		return block, nil
	}
	out.Write(block[last:])
	return out.Bytes(), nil
}

// lowSurrogate reads the "\uDC00" to "\uDFFF" escape that b begins with.
func lowSurrogate(b []byte) (rune, bool) {
	if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
		return 0, false
	}
	v, err := strconv.ParseUint(string(b[2:6]), 16, 32)
	if err != nil || v < 0xDC00 || v > 0xDFFF {
		return 0, false
	}
	return rune(v), true
}

// lineStarts are the offsets at which the lines of b begin, as yaml.v3
// counts lines: CRLF, CR, LF, NEL, LS and PS each end one.
func lineStarts(b []byte) []int {
	starts := []int{0}
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '\r' && i+1 < len(b) && b[i+1] == '\n':
			size = 2
			fallthrough
		case r == '\r', r == '\n', r == 0x85, r == 0x2028, r == 0x2029:
			starts = append(starts, i+size)
		}
		i += size
	}
	return starts
}

// positions finds the offsets in b of lines and columns (from 1, in
// characters), given the offsets at which its lines start. A column is
// found by walking its line from the position found last when that is
// before it on the same line, from the line's start otherwise: the nodes
// of a document come in its order, and those of one long line (a flow
// list) cost one walk of the line, not one each.
type positions struct {
	b      []byte
	starts []int
	// The position found last, from 1; line 0 when none.
	line, col, at int
}

// offset is the offset of line and column; false when b has no such
// position.
func (p *positions) offset(line, col int) (int, bool) {
	if line < 1 || line > len(p.starts) {
		return 0, false
	}
	at, c := p.starts[line-1], 1
	if line == p.line && col >= p.col {
		at, c = p.at, p.col
	}
	for ; c < col && at < len(p.b); c++ {
		_, size := utf8.DecodeRune(p.b[at:])
		at += size
	}
	if c != col {
		return 0, false
	}
	p.line, p.col, p.at = line, col, at
	return at, true
}

// positionOf is the line and column (from 1, in characters) of offset at.
func positionOf(b []byte, starts []int, at int) (line, col int) {
	line = 1
	for line < len(starts) && starts[line] <= at {
		line++
	}
	return line, 1 + utf8.RuneCount(b[starts[line-1]:at])
}
