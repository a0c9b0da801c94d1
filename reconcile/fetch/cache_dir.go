package fetch

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/skillsync/skillsync/internal/bounded"
)

// A Store keeps the entries of an [Cache], each a small
// file by name. [DirStore] is the one skillsync uses; a test may keep
// entries in memory.
type Store interface {
	// Names lists the entries held, in no order.
	Names() ([]string, error)
	// Open opens an entry for reading.
	Open(name string) (io.ReadCloser, error)
	// Write stores data as the entry name, replacing any: a reader, even
	// in another process, sees the old entry or the new one whole.
	Write(name string, data []byte) error
	// Remove deletes an entry.
	Remove(name string) error
}

// DirStore is a [Store] in a folder: one file per entry, written to a
// temporary file and renamed into place.
type DirStore struct {
	dir string
}

// OpenDirStore returns the store of the folder dir, creating the folder if
// needed.
func OpenDirStore(dir string) (*DirStore, error) {
	if dir == "" {
		return nil, errors.New("no cache folder given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating cache folder: %w", err)
	}
	return &DirStore{dir: dir}, nil
}

// file is the path of an entry. Names come from the cache, which makes
// them of hex digits; anything else is refused rather than joined.
func (d *DirStore) file(name string) (string, error) {
	if name == "" || filepath.Base(name) != name || name == "." || name == ".." {
		return "", fmt.Errorf("cache entry name %q is not a file name", name)
	}
	return filepath.Join(d.dir, name), nil
}

// Names lists the regular files of the folder.
func (d *DirStore) Names() ([]string, error) {
	des, err := os.ReadDir(d.dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, de := range des {
		if de.Type().IsRegular() {
			out = append(out, de.Name())
		}
	}
	return out, nil
}

// Open opens the regular file of an entry: an *os.File, whose size a
// bounded read checks before reading. Anything else at its place is no
// entry, and opening it fails at once.
func (d *DirStore) Open(name string) (io.ReadCloser, error) {
	p, err := d.file(name)
	if err != nil {
		return nil, err
	}
	return bounded.Open(p)
}

// Write writes data to a temporary file of the folder and renames it over
// the entry's file.
func (d *DirStore) Write(name string, data []byte) error {
	final, err := d.file(name)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(d.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), final); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// Remove deletes the entry's file.
func (d *DirStore) Remove(name string) error {
	p, err := d.file(name)
	if err != nil {
		return err
	}
	return os.Remove(p)
}
