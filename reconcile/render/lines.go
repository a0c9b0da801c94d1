package render

import (
	"bytes"
	"io"
)

// lineFlushBytes is how much a [lineWriter] gathers before it writes.
const lineFlushBytes = 32 << 10

// A lineWriter gathers what a renderer writes and passes it on in writes
// of whole lines, a few kilobytes at a time: the renderers stream a plan of
// any size in little memory, and a filter of their output that looks at
// each write alone (the CLI's redaction of the token, say) never sees a
// line cut in two. A line longer than lineFlushBytes is written whole.
//
// The first error of w is kept: later writes do nothing, and [Flush]
// returns it.
type lineWriter struct {
	w   io.Writer
	buf []byte
	err error
}

func newLineWriter(w io.Writer) *lineWriter {
	return &lineWriter{w: w, buf: make([]byte, 0, lineFlushBytes+lineFlushBytes/4)}
}

// Write, WriteString and WriteByte gather; their error is that of an
// earlier write to w, which [lineWriter.Flush] returns too.
func (l *lineWriter) Write(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	l.buf = append(l.buf, p...)
	l.gathered()
	return len(p), nil
}

func (l *lineWriter) WriteString(s string) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	l.buf = append(l.buf, s...)
	l.gathered()
	return len(s), nil
}

func (l *lineWriter) WriteByte(c byte) error {
	if l.err != nil {
		return l.err
	}
	l.buf = append(l.buf, c)
	l.gathered()
	return nil
}

// gathered writes the lines gathered, while there are enough, in writes
// of at most lineFlushBytes or of one longer line.
func (l *lineWriter) gathered() {
	start := 0
	for len(l.buf)-start >= lineFlushBytes {
		chunk := l.buf[start:]
		end := bytes.LastIndexByte(chunk[:lineFlushBytes], '\n') + 1
		if end == 0 {
			// A line longer than lineFlushBytes: write it whole.
			i := bytes.IndexByte(chunk[lineFlushBytes:], '\n')
			if i < 0 {
				break // its end is yet to come
			}
			end = lineFlushBytes + i + 1
		}
		l.write(chunk[:end])
		start += end
	}
	if start == 0 {
		return
	}
	rest := copy(l.buf, l.buf[start:])
	l.buf = l.buf[:rest]
	if cap(l.buf) > 4*lineFlushBytes && rest < lineFlushBytes {
		// A long line grew the buffer: let it go.
		l.buf = append(make([]byte, 0, lineFlushBytes+lineFlushBytes/4), l.buf...)
	}
}

func (l *lineWriter) write(p []byte) {
	if len(p) == 0 || l.err != nil {
		return
	}
	_, l.err = l.w.Write(p)
}

// Flush writes what is gathered, a last line with no newline included,
// and returns the first error of the underlying writer.
func (l *lineWriter) Flush() error {
	l.write(l.buf)
	l.buf = l.buf[:0]
	return l.err
}

// writeLines writes s, a document rendered whole, as a [lineWriter] would.
func writeLines(w io.Writer, s string) error {
	l := newLineWriter(w)
	l.WriteString(s)
	return l.Flush()
}
