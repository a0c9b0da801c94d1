package bounded

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadAll(t *testing.T) {
	for _, tc := range []struct {
		in    string
		limit int64
		err   string
	}{
		{"", 0, ""},
		{"abc", 3, ""},
		{"abcd", 3, "more than the limit of 3 bytes"},
		{"a", 0, "more than the limit of 0 bytes"},
	} {
		// One byte at a time, so that the limit falls between reads.
		data, err := ReadAll(io.LimitReader(&oneByte{strings.NewReader(tc.in)}, 1<<20), tc.limit)
		var tl *TooLargeError
		switch {
		case tc.err == "" && (err != nil || string(data) != tc.in):
			t.Errorf("%q within %d: %q, %v", tc.in, tc.limit, data, err)
		case tc.err != "" && (!errors.As(err, &tl) || tl.Limit != tc.limit || err.Error() != tc.err):
			t.Errorf("%q within %d: %v, want %q", tc.in, tc.limit, err, tc.err)
		}
	}
}

// TestFileTooLargeUnread: a file whose size is over the limit fails with
// its size, and nothing of it is read.
func TestFileTooLargeUnread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big")
	if err := os.WriteFile(path, []byte("0123456789"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ReadAll(f, 4)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 10 || err.Error() != "10 bytes, more than the limit of 4" {
		t.Errorf("a file of 10 bytes within 4: %v", err)
	}
	if off, _ := f.Seek(0, io.SeekCurrent); off != 0 {
		t.Errorf("read %d bytes of a file known to be too large", off)
	}
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(len(p), 1)]) }
