package github

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A CommandGuard writes lines to a stream the runner of GitHub Actions
// reads, so that none of them is obeyed as a workflow command: the runner
// takes a line for one when it starts with "::" after spaces, or holds
// "##[" anywhere, and a plan's text could fake an annotation, mask words
// of the log or stop skillsync's own annotations. In such a line the
// colon that opens it is written \u003a, and the second # of "##[" \u0023:
// escapes a person reads, and JSON reads back as the characters. The
// guard changes no state of the runner (no stop-commands), so however the
// runner interleaves stdout and stderr, which it reads apart, no line of
// one stream can silence an annotation of the other. A line is held until
// it ends, or until [CommandGuard.Flush]. Annotations of skillsync's own
// go past the guard, through [CommandGuard.Own]. A CommandGuard is safe
// for concurrent use.
type CommandGuard struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte // the start of a line not ended yet
	out  []byte
}

// NewCommandGuard returns a CommandGuard that writes to w.
func NewCommandGuard(w io.Writer) *CommandGuard { return &CommandGuard{w: w} }

func (g *CommandGuard) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	end := bytes.LastIndexByte(p, '\n')
	if end < 0 {
		g.held = append(g.held, p...)
		return len(p), nil
	}
	data := p[:end+1]
	if len(g.held) > 0 {
		data = append(g.held, data...)
	}
	err := g.write(data)
	g.held = append(g.held[:0], p[end+1:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Own returns a writer of whole lines that the runner must obey,
// skillsync's own annotations, which it writes past the guard.
func (g *CommandGuard) Own() io.Writer { return ownLines{g} }

type ownLines struct{ g *CommandGuard }

// Write writes p, whole lines, before the line the guard holds back,
// which has not ended: in the middle of it, the runner would not read p.
func (o ownLines) Write(p []byte) (int, error) {
	o.g.mu.Lock()
	defer o.g.mu.Unlock()
	return o.g.w.Write(p)
}

// Flush writes the line held back, which has not ended.
func (g *CommandGuard) Flush() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.held) == 0 {
		return nil
	}
	err := g.write(g.held)
	g.held = g.held[:0]
	return err
}

// write writes whole lines, the last one perhaps not ended, in one write.
func (g *CommandGuard) write(data []byte) error {
	out := g.out[:0]
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line = data[:i+1]
		}
		data = data[len(line):]
		if !IsWorkflowCommand(string(line)) {
			out = append(out, line...)
			continue
		}
		out = appendDefused(out, line)
	}
	g.out = out
	_, err := g.w.Write(out)
	return err
}

// appendDefused appends line with what makes the runner obey it escaped:
// the first colon of the "::" that opens it, or a piece of it after a
// carriage return, and the second # of each "##[".
func appendDefused(out, line []byte) []byte {
	start := true // at the start of a piece, before its spaces end
	for i := 0; i < len(line); {
		switch {
		case line[i] == '\r':
			out = append(out, '\r')
			start = true
			i++
			continue
		case bytes.HasPrefix(line[i:], []byte("##[")):
			out = append(out, `#\u0023[`...)
			start = false
			i += 3
			continue
		}
		r, n := rune(line[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRune(line[i:])
		}
		if start && !unicode.IsSpace(r) {
			start = false
			if bytes.HasPrefix(line[i:], []byte("::")) {
				out = append(out, `\u003a`...)
				i++
				continue
			}
		}
		out = append(out, line[i:i+n]...)
		i += n
	}
	return out
}

// IsWorkflowCommand reports whether the runner of GitHub Actions would
// read line, or a piece of it after a carriage return (which ends a line
// for the runner), as a workflow command: "::" after leading white space
// (as .NET trims it: Unicode's, U+3000 included), or the older form "##["
// anywhere in it.
func IsWorkflowCommand(line string) bool {
	if strings.Contains(line, "##[") {
		return true
	}
	for piece := range strings.SplitSeq(line, "\r") {
		if strings.HasPrefix(strings.TrimLeftFunc(piece, unicode.IsSpace), "::") {
			return true
		}
	}
	return false
}
