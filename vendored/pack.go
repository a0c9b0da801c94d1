package vendored

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Bounds on what a fetch from a remote source holds: at depth 1, the
// objects of a whole commit, not of the folder vendored alone. go-git
// inflates each object of a pack whole in memory as it indexes it, so
// that these are checked first, as the pack is read.
const (
	// MaxFetchBytes is the most a fetch holds, its objects inflated (a
	// delta counted with the object it makes), and the largest pack kept
	// on disk for one.
	MaxFetchBytes = 1 << 30
	// MaxFetchObjects is the most objects a fetch holds: go-git keeps a
	// few hundred bytes of each while it indexes them.
	MaxFetchObjects = 500_000
)

// A fetchLimitError is a fetch past [MaxFileBytes] in one object, or
// past [MaxFetchBytes] or [MaxFetchObjects].
type fetchLimitError struct{ msg string }

func (e *fetchLimitError) Error() string { return e.msg }

// fetchStore is the storage a remote source is fetched into: a go-git
// repository in a temporary folder, whose packs are checked against the
// bounds above before go-git reads them. [fetchStore.Remove] removes it.
type fetchStore struct {
	*filesystem.Storage
	dir string
	src Source
}

func newFetchStore(src Source) (*fetchStore, error) {
	dir, err := os.MkdirTemp("", "skillsync-vendor-*")
	if err != nil {
		return nil, fmt.Errorf("fetching %s: %w", src, err)
	}
	// A small cache: the folder's files are read once each, and objects
	// over LargeObjectThreshold are streamed, never cached.
	s := filesystem.NewStorageWithOptions(osfs.New(dir), cache.NewObjectLRU(16*cache.MiByte),
		filesystem.Options{ExclusiveAccess: true, LargeObjectThreshold: 1 << 20})
	return &fetchStore{Storage: s, dir: dir, src: src}, nil
}

// Remove closes the storage and removes its folder.
func (s *fetchStore) Remove() {
	s.Storage.Close()
	os.RemoveAll(s.dir)
}

// PackfileWriter returns the writer go-git writes a fetched pack to: it
// keeps the pack in a temporary file, refusing one over MaxFetchBytes, and
// when closed checks each object's size (see checkPack) before handing the
// pack to the storage.
func (s *fetchStore) PackfileWriter() (io.WriteCloser, error) {
	f, err := os.CreateTemp(s.dir, "fetched-*.pack")
	if err != nil {
		return nil, err
	}
	return &packSpool{f: f, store: s}, nil
}

type packSpool struct {
	f     *os.File
	store *fetchStore
	n     int64
	err   error // the first error; Close then stores nothing
}

func (p *packSpool) Write(b []byte) (int, error) {
	if p.err != nil {
		return 0, p.err
	}
	if p.n += int64(len(b)); p.n > MaxFetchBytes {
		p.err = &fetchLimitError{fmt.Sprintf("%s sent a pack of more than %d bytes, the most skillsync fetches: vendor from a local clone instead (git clone %s, then skillsync vendor add with its path)",
			p.store.src, MaxFetchBytes, p.store.src)}
		return 0, p.err
	}
	n, err := p.f.Write(b)
	if err != nil {
		p.err = err
	}
	return n, err
}

func (p *packSpool) Close() error {
	defer os.Remove(p.f.Name())
	defer p.f.Close()
	if p.err != nil {
		return p.err
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	if err := checkPack(p.f, p.store.src); err != nil {
		return err
	}
	if _, err := p.f.Seek(0, io.SeekStart); err != nil {
		return err
	}
	return packfile.WritePackfileToObjectStorage(p.store.Storage, p.f)
}

// checkPack reads the pack r from src as go-git would index it, object by
// object, and refuses one that declares more than MaxFileBytes (a delta:
// that makes an object of more), or more than MaxFetchObjects objects or
// MaxFetchBytes all told. No object is held whole but deltas, each at most
// MaxFileBytes: what go-git then indexes is bounded.
func checkPack(r io.Reader, src Source) error {
	local := fmt.Sprintf("vendor from a local clone instead (git clone %s, then skillsync vendor add with its path)", src)
	sc := packfile.NewScanner(r)
	_, count, err := sc.Header()
	if err != nil {
		return fmt.Errorf("%s sent a pack that cannot be read: %w", src, err)
	}
	if count > MaxFetchObjects {
		return &fetchLimitError{fmt.Sprintf("%s sent a pack of %d objects, more than the %d skillsync fetches: %s", src, count, MaxFetchObjects, local)}
	}
	tooLarge := func(size int64) error {
		return &fetchLimitError{fmt.Sprintf("the commit fetched from %s holds an object of %d bytes, more than the %d of a vendored file: skillsync does not fetch it, "+
			"whether or not it lies in the folder vendored; %s", src, size, MaxFileBytes, local)}
	}
	var total int64
	var delta bytes.Buffer
	for range count {
		oh, err := sc.NextObjectHeader()
		if err != nil {
			return fmt.Errorf("%s sent a pack that cannot be read: %w", src, err)
		}
		size := oh.Length
		if size > MaxFileBytes {
			return tooLarge(size)
		}
		w := io.Discard
		if oh.Type == plumbing.OFSDeltaObject || oh.Type == plumbing.REFDeltaObject {
			delta.Reset()
			w = &delta
		}
		if _, _, err := sc.NextObject(w); err != nil {
			return fmt.Errorf("%s sent a pack that cannot be read: %w", src, err)
		}
		if w == &delta {
			// What is inflated counts, and what the delta makes.
			target, err := deltaTargetSize(delta.Bytes())
			if err != nil {
				return fmt.Errorf("%s sent a pack that cannot be read: %w", src, err)
			}
			if target > MaxFileBytes {
				return tooLarge(target)
			}
			size += target
		}
		if total += size; total > MaxFetchBytes {
			return &fetchLimitError{fmt.Sprintf("the commit fetched from %s holds more than %d bytes, the most skillsync fetches: %s", src, MaxFetchBytes, local)}
		}
	}
	return nil
}

// deltaTargetSize reads the size of the object that a delta makes: the
// second of the two sizes that start it, in git's varint form.
func deltaTargetSize(d []byte) (int64, error) {
	var size int64
	for range 2 {
		size = 0
		for shift := uint(0); ; shift += 7 {
			if len(d) == 0 || shift > 56 {
				return 0, errors.New("a delta's header is cut short or too long")
			}
			c := d[0]
			d = d[1:]
			size |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				break
			}
		}
	}
	return size, nil
}
