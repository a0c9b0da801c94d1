package reconciletest

import (
	"os"
	"path/filepath"
	"testing"
)

// SparseFile makes a file of size zero bytes, written sparse, and opens
// it: a file over a bound costs no disk and, if the bound holds, no read.
func SparseFile(t testing.TB, name string, size int64) *os.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, size); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}
