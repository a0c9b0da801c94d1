package fsrepo

import (
	"cmp"
	"crypto/sha1"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Bounds on a git tree that skillsync walks. Git stores a tree once
// however many trees list it, so a tree of a few kilobytes may list more
// files than any walk ends. A tree within these bounds is read in bounded
// time, whatever the objects behind it.
const (
	// MaxTreeEntries is the most files and folders walked in one tree,
	// well above what the largest repository of the model holds.
	MaxTreeEntries = 200_000
	// MaxTreePathBytes is the longest path walked: the longest a file
	// system takes (PATH_MAX), which a checkout of the tree would need.
	MaxTreePathBytes = 4096
)

// ErrTreeTooLarge is wrapped by the error of a walk of a git tree beyond
// [MaxTreeEntries] or [MaxTreePathBytes].
var ErrTreeTooLarge = errors.New("git tree too large")

// treeTooLargeError says how a tree is too large, and is [ErrTreeTooLarge].
type treeTooLargeError struct{ msg string }

func (e *treeTooLargeError) Error() string        { return e.msg }
func (e *treeTooLargeError) Is(target error) bool { return target == ErrTreeTooLarge }

// A TreeWalker walks a git tree, subtrees included, as go-git's recursive
// [object.TreeWalker] does, but fails with [ErrTreeTooLarge] past
// [MaxTreeEntries] entries or at a path of more than [MaxTreePathBytes].
// A subtree listed many times is read from the storage once.
type TreeWalker struct {
	w   *object.TreeWalker
	err error // of reading the root
	n   int   // entries returned
}

// NewTreeWalker returns a walker of every entry of t, at any depth, whose
// objects s holds.
func NewTreeWalker(s storer.EncodedObjectStorer, t *object.Tree) *TreeWalker {
	root, err := object.GetTree(&treeCache{EncodedObjectStorer: s, trees: map[plumbing.Hash]plumbing.EncodedObject{}}, t.Hash)
	if err != nil {
		return &TreeWalker{err: err}
	}
	return &TreeWalker{w: object.NewTreeWalker(root, true, nil)}
}

// Next returns the next entry and its path in the tree, io.EOF after the
// last.
func (w *TreeWalker) Next() (string, object.TreeEntry, error) {
	if w.err != nil {
		return "", object.TreeEntry{}, w.err
	}
	name, e, err := w.w.Next()
	if err != nil {
		return name, e, err
	}
	if w.n++; w.n > MaxTreeEntries {
		return "", object.TreeEntry{}, &treeTooLargeError{fmt.Sprintf(
			"the tree holds more than %d files and folders, the most skillsync reads of one", MaxTreeEntries)}
	}
	if len(name) > MaxTreePathBytes {
		return "", object.TreeEntry{}, &treeTooLargeError{fmt.Sprintf(
			"the tree holds a path of %d bytes, longer than the %d of any file system (%.40q...)", len(name), MaxTreePathBytes, name)}
	}
	return name, e, nil
}

// Close releases the walker.
func (w *TreeWalker) Close() {
	if w.w != nil {
		w.w.Close()
	}
}

// treeCache reads each tree object of a walk from the storage once: go-git
// reads it again (opening its file) for each path at which it is listed.
type treeCache struct {
	storer.EncodedObjectStorer
	trees map[plumbing.Hash]plumbing.EncodedObject
}

func (c *treeCache) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if t != plumbing.TreeObject {
		return c.EncodedObjectStorer.EncodedObject(t, h)
	}
	if o, ok := c.trees[h]; ok {
		return o, nil
	}
	o, err := c.EncodedObjectStorer.EncodedObject(t, h)
	if err == nil {
		c.trees[h] = o
	}
	return o, err
}

// hashTree is the id of the git tree of entries, which it sorts: the
// SHA-1 of "tree <size>\x00" and each entry as its octal mode, a space,
// its name, a NUL and its id.
func hashTree(entries []object.TreeEntry) plumbing.Hash {
	slices.SortFunc(entries, gitOrder)
	var body []byte
	for _, e := range entries {
		body = strconv.AppendUint(body, uint64(e.Mode), 8)
		body = append(body, ' ')
		body = append(body, e.Name...)
		body = append(body, 0)
		body = append(body, e.Hash[:]...)
	}
	h := sha1.New()
	h.Write([]byte("tree " + strconv.Itoa(len(body)) + "\x00"))
	h.Write(body)
	return plumbing.Hash(h.Sum(nil))
}

// gitOrder orders the entries of a tree as git does: by name, byte by
// byte, a folder's name ending in a slash.
func gitOrder(a, b object.TreeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := strings.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(nameAfter(a, n), nameAfter(b, n))
}

// nameAfter is what follows the first n bytes of e's name in gitOrder:
// the next byte, else a folder's slash, else nothing (-1).
func nameAfter(e object.TreeEntry, n int) int {
	switch {
	case n < len(e.Name):
		return int(e.Name[n])
	case e.Mode == filemode.Dir:
		return '/'
	}
	return -1
}
