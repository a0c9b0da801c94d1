package bounded

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// A NotRegularError is a file that is no regular file: a FIFO, a device,
// a socket or a folder, which a read could wait on forever or never end.
type NotRegularError struct {
	Name string
	Mode fs.FileMode
}

func (e *NotRegularError) Error() string {
	what := "not a regular file"
	switch t := e.Mode.Type(); {
	case t&fs.ModeNamedPipe != 0:
		what = "a FIFO (named pipe)"
	case t&fs.ModeSocket != 0:
		what = "a socket"
	case t&fs.ModeDevice != 0:
		what = "a device"
	case t&fs.ModeDir != 0:
		what = "a folder"
	}
	return fmt.Sprintf("%s is not a regular file: it is %s", e.Name, what)
}

// Open opens the regular file name (or the one a link names) for reading.
// Anything else fails with a [*NotRegularError] before any read: opening a
// FIFO does not wait for a writer.
func Open(name string) (*os.File, error) {
	// O_NONBLOCK keeps the open of a FIFO from waiting; reads of a
	// regular file ignore it.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, &NotRegularError{Name: name, Mode: fi.Mode()}
	}
	return f, nil
}

// ReadFile reads the regular file name whole (see [Open]), or fails with
// a [*TooLargeError] when it holds more than limit bytes.
func ReadFile(name string, limit int64) ([]byte, error) {
	f, err := Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAll(f, limit)
}
