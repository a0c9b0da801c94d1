// Package forgetest is the git repository that the fakes of GitHub
// (githubtest) and GitLab (gitlabtest) hold: blobs, trees and commits
// with the ids git gives them, and branches, in memory, so that a client
// that writes through a host's API can be checked against the files and
// history a real host would then hold. It is safe for concurrent use.
package forgetest

import (
	"cmp"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillsync/skillsync/internal/forge"
)

// An Entry is an entry of a tree.
type Entry struct {
	Name string
	Mode filemode.FileMode
	ID   string
}

// Type is the kind of object the entry names, as the hosts' APIs say
// it: "tree", "commit" (a submodule) or "blob".
func (e Entry) Type() string {
	return cmp.Or(map[filemode.FileMode]string{filemode.Dir: "tree", filemode.Submodule: "commit"}[e.Mode], "blob")
}

// A Commit is a commit object.
type Commit struct {
	ID      string
	Tree    string
	Parents []string
	Message string
}

// A File is a file of a tree, for seeding and checking a repository.
type File struct {
	Content string
	Mode    filemode.FileMode // filemode.Regular when zero
}

// A TreeEdit sets or removes one path of a tree.
type TreeEdit struct {
	Path   string
	Delete bool
	Mode   filemode.FileMode
	ID     string // of the blob (or submodule commit) at Path
}

// Repo is a git repository in memory.
type Repo struct {
	mu       sync.Mutex
	blobs    map[string][]byte
	trees    map[string][]Entry
	commits  map[string]Commit
	branches map[string]string
	seq      int64 // the seconds of the next commit's date
}

// NewRepo returns a repository with no commit and no branch.
func NewRepo() *Repo {
	return &Repo{blobs: map[string][]byte{}, trees: map[string][]Entry{}, commits: map[string]Commit{}, branches: map[string]string{}}
}

// EmptyTree is the id of the tree with no entries.
const EmptyTree = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"

// PutBlob stores content and returns its id.
func (r *Repo) PutBlob(content []byte) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	id := forge.BlobID(content)
	r.blobs[id] = slices.Clone(content)
	return id
}

// Blob returns the content of blob id.
func (r *Repo) Blob(id string) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b, ok := r.blobs[id]
	return slices.Clone(b), ok
}

// putTree stores entries as a tree and returns its id.
func (r *Repo) putTree(entries []Entry) string {
	t := object.Tree{}
	for _, e := range entries {
		t.Entries = append(t.Entries, object.TreeEntry{Name: e.Name, Mode: e.Mode, Hash: plumbing.NewHash(e.ID)})
	}
	sort.Sort(object.TreeEntrySorter(t.Entries))
	var o plumbing.MemoryObject
	if err := t.Encode(&o); err != nil {
		panic(err) // names are checked by EditTree
	}
	sorted := make([]Entry, len(t.Entries))
	for i, e := range t.Entries {
		sorted[i] = Entry{Name: e.Name, Mode: e.Mode, ID: e.Hash.String()}
	}
	id := o.Hash().String()
	r.trees[id] = sorted
	return id
}

// Tree returns the entries of tree id, in git's order.
func (r *Repo) Tree(id string) ([]Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if id == EmptyTree {
		return []Entry{}, true
	}
	t, ok := r.trees[id]
	return slices.Clone(t), ok
}

// Lookup returns the entry at path p of tree id ("" for the tree
// itself, as a folder).
func (r *Repo) Lookup(id, p string) (Entry, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := Entry{Mode: filemode.Dir, ID: id}
	if p == "" {
		return cur, true
	}
	for seg := range strings.SplitSeq(p, "/") {
		if cur.Mode != filemode.Dir {
			return Entry{}, false
		}
		i := slices.IndexFunc(r.trees[cur.ID], func(e Entry) bool { return e.Name == seg })
		if i < 0 {
			return Entry{}, false
		}
		cur = r.trees[cur.ID][i]
	}
	return cur, true
}

// EditTree returns the id of the tree that base (EmptyTree for none)
// becomes with edits made in order: folders are made as needed, and a
// folder left empty is removed. It refuses to remove what is not there
// and to write through a file.
func (r *Repo) EditTree(base string, edits []TreeEdit) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.trees[base]; !ok && base != EmptyTree {
		return "", fmt.Errorf("no tree %s", base)
	}
	root := base
	for _, e := range edits {
		if e.Path == "" || path.Clean(e.Path) != e.Path || strings.HasPrefix(e.Path, "/") || strings.ContainsRune(e.Path, 0) {
			return "", fmt.Errorf("invalid path %q", e.Path)
		}
		var err error
		if root, err = r.edit(root, strings.Split(e.Path, "/"), e); err != nil {
			return "", err
		}
	}
	return root, nil
}

// edit returns the tree that tree id becomes with e made at the path
// segs under it; EmptyTree when nothing is left.
func (r *Repo) edit(id string, segs []string, e TreeEdit) (string, error) {
	entries := slices.Clone(r.trees[id])
	i := slices.IndexFunc(entries, func(x Entry) bool { return x.Name == segs[0] })
	if len(segs) == 1 {
		switch {
		case e.Delete && i < 0:
			return "", fmt.Errorf("%s does not exist", e.Path)
		case e.Delete:
			entries = slices.Delete(entries, i, i+1)
		case i >= 0 && entries[i].Mode == filemode.Dir:
			return "", fmt.Errorf("%s is a folder", e.Path)
		default:
			ne := Entry{Name: segs[0], Mode: e.Mode, ID: e.ID}
			if i >= 0 {
				entries[i] = ne
			} else {
				entries = append(entries, ne)
			}
		}
	} else {
		sub := EmptyTree
		if i >= 0 {
			if entries[i].Mode != filemode.Dir {
				return "", fmt.Errorf("%s: %s is a file", e.Path, segs[0])
			}
			sub = entries[i].ID
		} else if e.Delete {
			return "", fmt.Errorf("%s does not exist", e.Path)
		}
		nsub, err := r.edit(sub, segs[1:], e)
		if err != nil {
			return "", err
		}
		switch {
		case nsub == EmptyTree && i >= 0:
			entries = slices.Delete(entries, i, i+1)
		case nsub == EmptyTree:
		case i >= 0:
			entries[i].ID = nsub
		default:
			entries = append(entries, Entry{Name: segs[0], Mode: filemode.Dir, ID: nsub})
		}
	}
	if len(entries) == 0 {
		return EmptyTree, nil
	}
	return r.putTree(entries), nil
}

// NewCommit stores a commit of tree on parents and returns its id. Each
// commit is dated a second after the one before, so that two commits of
// one tree and parents differ, as two made by a host do.
func (r *Repo) NewCommit(tree string, parents []string, message string) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.trees[tree]; !ok && tree != EmptyTree {
		return "", fmt.Errorf("no tree %s", tree)
	}
	for _, p := range parents {
		if _, ok := r.commits[p]; !ok {
			return "", fmt.Errorf("no commit %s", p)
		}
	}
	r.seq++
	sig := object.Signature{Name: "skillsync fake", Email: "fake@example.com", When: time.Unix(1700000000+r.seq, 0).UTC()}
	c := object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: plumbing.NewHash(tree)}
	for _, p := range parents {
		c.ParentHashes = append(c.ParentHashes, plumbing.NewHash(p))
	}
	var o plumbing.MemoryObject
	if err := c.Encode(&o); err != nil {
		return "", err
	}
	id := o.Hash().String()
	r.commits[id] = Commit{ID: id, Tree: tree, Parents: slices.Clone(parents), Message: message}
	return id, nil
}

// Commit returns commit id.
func (r *Repo) Commit(id string) (Commit, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.commits[id]
	c.Parents = slices.Clone(c.Parents)
	return c, ok
}

// IsAncestor reports whether commit a is b or one of its ancestors.
func (r *Repo) IsAncestor(a, b string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	todo, seen := []string{b}, map[string]bool{}
	for len(todo) > 0 {
		c := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		if c == a {
			return true
		}
		if !seen[c] {
			seen[c] = true
			todo = append(todo, r.commits[c].Parents...)
		}
	}
	return false
}

// Branch returns the commit branch name points at.
func (r *Repo) Branch(name string) (string, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.branches[name]
	return id, ok
}

// Branches returns the names of the branches, sorted.
func (r *Repo) Branches() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Sorted(maps.Keys(r.branches))
}

// SetBranch points branch name at commit id, making it if need be.
func (r *Repo) SetBranch(name, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.branches[name] = id
}

// DeleteBranch removes branch name, reporting whether it was there.
func (r *Repo) DeleteBranch(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, ok := r.branches[name]
	delete(r.branches, name)
	return ok
}

// CommitFiles commits files on top of branch (a new branch when it has
// none): each file written, or removed when nil. It returns the commit's
// id, and panics on a path the tree refuses, as seeding a test's
// repository wrongly is the test's bug.
func (r *Repo) CommitFiles(branch, message string, files map[string]*File) string {
	base, parents := EmptyTree, []string(nil)
	if head, ok := r.Branch(branch); ok {
		c, _ := r.Commit(head)
		base, parents = c.Tree, []string{head}
	}
	var edits []TreeEdit
	for _, p := range slices.Sorted(maps.Keys(files)) {
		f := files[p]
		if f == nil {
			edits = append(edits, TreeEdit{Path: p, Delete: true})
			continue
		}
		mode := f.Mode
		if mode == filemode.Empty {
			mode = filemode.Regular
		}
		edits = append(edits, TreeEdit{Path: p, Mode: mode, ID: r.PutBlob([]byte(f.Content))})
	}
	tree, err := r.EditTree(base, edits)
	if err != nil {
		panic(fmt.Sprintf("forgetest: committing on %s: %v", branch, err))
	}
	id, err := r.NewCommit(tree, parents, message)
	if err != nil {
		panic(fmt.Sprintf("forgetest: committing on %s: %v", branch, err))
	}
	r.SetBranch(branch, id)
	return id
}

// Files returns every file of commit id, by path.
func (r *Repo) Files(id string) map[string]File {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]File{}
	var walk func(dir, tree string)
	walk = func(dir, tree string) {
		for _, e := range r.trees[tree] {
			p := path.Join(dir, e.Name)
			if e.Mode == filemode.Dir {
				walk(p, e.ID)
				continue
			}
			out[p] = File{Content: string(r.blobs[e.ID]), Mode: e.Mode}
		}
	}
	walk("", r.commits[id].Tree)
	return out
}

// Proposed returns files with changes made, as the branch of a
// proposal of changes on top of files must hold them.
func Proposed(files map[string]File, changes map[string]forge.FileChange) map[string]File {
	out := maps.Clone(files)
	for p, fc := range changes {
		if fc.Delete {
			delete(out, p)
			continue
		}
		mode := out[p].Mode
		switch {
		case fc.Mode == forge.ExecutableMode:
			mode = filemode.Executable
		case fc.Mode == forge.RegularMode || mode == filemode.Empty:
			mode = filemode.Regular
		}
		out[p] = File{Content: string(fc.Content), Mode: mode}
	}
	return out
}

// CheckProposal fails t unless branch head is one commit on top of
// branch base's head holding exactly its files with changes made. It
// returns the commit head points at.
func (r *Repo) CheckProposal(t testing.TB, base, head string, changes map[string]forge.FileChange) string {
	t.Helper()
	id, ok := r.Branch(head)
	if !ok {
		t.Fatalf("no branch %s", head)
	}
	baseID, _ := r.Branch(base)
	c, _ := r.Commit(id)
	if len(c.Parents) != 1 || c.Parents[0] != baseID {
		t.Errorf("the commit of %s has parents %q, want %s's head %s alone", head, c.Parents, base, baseID)
	}
	if got, want := r.Files(id), Proposed(r.Files(baseID), changes); !maps.Equal(got, want) {
		t.Errorf("%s holds\n%v\nwant\n%v", head, got, want)
	}
	return id
}
