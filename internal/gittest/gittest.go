// Package gittest writes git objects straight into a repository's
// storage, for tests that need trees no working tree makes: a tree listed
// many times over (a "tree bomb"), a blob at many paths.
package gittest

import (
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
)

// Objects writes objects into a storage, failing its test on any error.
type Objects struct {
	t testing.TB
	s storer.Storer
}

// New returns the writer of objects into s.
func New(t testing.TB, s storer.Storer) *Objects { return &Objects{t: t, s: s} }

func (w *Objects) save(o plumbing.EncodedObject) plumbing.Hash {
	w.t.Helper()
	h, err := w.s.SetEncodedObject(o)
	if err != nil {
		w.t.Fatal(err)
	}
	return h
}

// Blob writes a blob of content.
func (w *Objects) Blob(content string) plumbing.Hash {
	w.t.Helper()
	o := w.s.NewEncodedObject()
	o.SetType(plumbing.BlobObject)
	ow, err := o.Writer()
	if err == nil {
		_, err = ow.Write([]byte(content))
	}
	if err == nil {
		err = ow.Close()
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return w.save(o)
}

// Tree writes tr, whose entries must be in git's order.
func (w *Objects) Tree(tr object.Tree) plumbing.Hash {
	w.t.Helper()
	o := w.s.NewEncodedObject()
	if err := tr.Encode(o); err != nil {
		w.t.Fatal(err)
	}
	return w.save(o)
}

// Commit writes a commit of tree and points branch at it.
func (w *Objects) Commit(tree plumbing.Hash, branch plumbing.ReferenceName) plumbing.Hash {
	w.t.Helper()
	sig := object.Signature{Name: "hostile", Email: "hostile@example.com", When: time.Unix(1700000000, 0)}
	c := &object.Commit{Author: sig, Committer: sig, Message: "bomb", TreeHash: tree}
	o := w.s.NewEncodedObject()
	if err := c.Encode(o); err != nil {
		w.t.Fatal(err)
	}
	h := w.save(o)
	if err := w.s.SetReference(plumbing.NewHashReference(branch, h)); err != nil {
		w.t.Fatal(err)
	}
	return h
}
