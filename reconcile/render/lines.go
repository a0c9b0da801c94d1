package render

import (
	"bufio"
	"io"
)

// bufferBytes is how much a renderer gathers before it writes: a plan of
// any size streams in writes of this size.
const bufferBytes = 32 << 10

// newBuffered buffers what a renderer writes to w. Its first error is
// kept: later writes do nothing, and Flush returns it.
func newBuffered(w io.Writer) *bufio.Writer { return bufio.NewWriterSize(w, bufferBytes) }

// writeLines writes s, a document rendered whole, as the renderers that
// stream write theirs.
func writeLines(w io.Writer, s string) error {
	b := newBuffered(w)
	b.WriteString(s)
	return b.Flush()
}
