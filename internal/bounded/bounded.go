// Package bounded reads an input whole only up to a limit: a file or an
// answer larger than any real one fails with a [*TooLargeError] before
// it fills memory. Every such read of skillsync goes through it.
package bounded

import (
	"fmt"
	"io"
	"io/fs"
)

// A TooLargeError is an input over its limit.
type TooLargeError struct {
	Size  int64 // the input's size, when its Stat told it before any read; else 0
	Limit int64 // in bytes
}

func (e *TooLargeError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("%d bytes, more than the limit of %d", e.Size, e.Limit)
	}
	return fmt.Sprintf("more than the limit of %d bytes", e.Limit)
}

// ReadAll reads r to its end, as io.ReadAll does, or fails with a
// [*TooLargeError] once r holds more than limit bytes (see [NewReader]).
func ReadAll(r io.Reader, limit int64) ([]byte, error) {
	return io.ReadAll(NewReader(r, limit))
}

// NewReader returns a reader of r that fails with a [*TooLargeError] once
// more than limit bytes came from r: an input of limit bytes reads whole.
// When r is a regular file (it has a Stat method, as an *os.File does)
// larger than limit, the first read fails, reading nothing.
func NewReader(r io.Reader, limit int64) io.Reader {
	b := &reader{r: r, limit: limit}
	if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > limit {
			b.err = &TooLargeError{Size: fi.Size(), Limit: limit}
		}
	}
	return b
}

type reader struct {
	r     io.Reader
	limit int64
	n     int64 // bytes read
	err   error // set once the limit is passed
}

func (b *reader) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	// One byte past the limit tells an input of limit bytes from a larger one.
	if room := b.limit + 1 - b.n; int64(len(p)) > room {
		p = p[:room]
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	if b.n > b.limit {
		b.err = &TooLargeError{Limit: b.limit}
		return 0, b.err
	}
	return n, err
}

// Size spells a limit of n bytes in the unit it was chosen in: GiB, MiB
// or bytes.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
