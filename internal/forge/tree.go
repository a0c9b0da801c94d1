package forge

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"golang.org/x/sync/errgroup"
)

// A TreeEntry is an entry of a folder of a git tree, as a host lists it.
type TreeEntry struct {
	Name string
	Mode filemode.FileMode // 040000 for a folder, 100644 for a file...
	ID   string            // the object's id, in hex
}

// ListFolder lists the folder dir of a commit ("" for its root), whose
// tree is id: GitHub reads a tree by id, GitLab a folder by path. It
// must be safe for concurrent use.
type ListFolder func(ctx context.Context, dir, id string) ([]TreeEntry, error)

// An Edit is what a proposal does to one file of the base commit.
type Edit struct {
	Path string
	// Delete removes the file.
	Delete bool
	// Created says the base has no file at Path.
	Created bool
	// Content is the new content, nil when it is the base's (the edit
	// changes the mode only) or with Delete.
	Content []byte
	// Blob is the id of the file's content after the edit.
	Blob string
	// Mode and OldMode are the file's mode after and before the edit
	// (filemode.Empty when Created).
	Mode, OldMode filemode.FileMode
}

// A Changeset is what a proposal does to a base commit: the edits of its
// files, and the root tree they make.
type Changeset struct {
	// Edits are the files that change, by path. A change the base already
	// holds is none.
	Edits []Edit
	// Tree is the id of the root tree with every edit made: the head
	// branch holds the proposal when its commit has this tree.
	Tree string
}

// maxParallel is how many folders of one depth are listed at once.
const maxParallel = 8

// Changes reads, through list, the folders of the commit whose root tree
// is root that hold the files of a proposal (and no others), and returns
// the edits the files make to it and the tree they make. It refuses to
// write through what is not a plain file in the base: a folder, a
// symbolic link, a submodule, or a file standing where a folder must be.
func Changes(ctx context.Context, root string, files map[string]FileChange, list ListFolder) (Changeset, error) {
	folders, err := readFolders(ctx, root, slices.Collect(maps.Keys(files)), list)
	if err != nil {
		return Changeset{}, err
	}
	var cs Changeset
	for _, p := range slices.Sorted(maps.Keys(files)) {
		e, ok, err := edit(p, files[p], folders[dirOf(p)])
		if err != nil {
			return Changeset{}, err
		}
		if ok {
			cs.Edits = append(cs.Edits, e)
		}
	}
	cs.Tree, err = hashFolders(folders)
	return cs, err
}

// readFolders lists every folder that holds one of paths, depth by depth
// from the root, each depth's folders at once. A folder the base does
// not have is empty.
func readFolders(ctx context.Context, root string, paths []string, list ListFolder) (map[string]map[string]TreeEntry, error) {
	var levels [][]string
	seen := map[string]bool{}
	for _, p := range paths {
		for d := dirOf(p); !seen[d]; d = dirOf(d) {
			seen[d] = true
			depth := depthOf(d)
			for len(levels) <= depth {
				levels = append(levels, nil)
			}
			levels[depth] = append(levels[depth], d)
			if d == "" {
				break
			}
		}
	}
	folders := map[string]map[string]TreeEntry{}
	for _, level := range levels {
		slices.Sort(level)
		listed := make([][]TreeEntry, len(level))
		g, gctx := errgroup.WithContext(ctx)
		g.SetLimit(maxParallel)
		for i, d := range level {
			id := root
			if d != "" {
				parent := folders[dirOf(d)]
				e, ok := parent[path.Base(d)]
				if !ok {
					continue // a new folder
				}
				if e.Mode != filemode.Dir {
					return nil, fmt.Errorf("%s is a file in the base branch, not a folder: a proposal cannot write into it", d)
				}
				id = e.ID
			}
			g.Go(func() error {
				entries, err := list(gctx, d, id)
				listed[i] = entries
				return err
			})
		}
		if err := g.Wait(); err != nil {
			return nil, err
		}
		for i, d := range level {
			f := make(map[string]TreeEntry, len(listed[i]))
			for _, e := range listed[i] {
				f[e.Name] = e
			}
			folders[d] = f
		}
	}
	return folders, nil
}

// edit makes fc, the change of the file at p, in folder, the folder of
// p; ok is false when folder already holds it.
func edit(p string, fc FileChange, folder map[string]TreeEntry) (e Edit, ok bool, err error) {
	name := path.Base(p)
	old, exists := folder[name]
	if exists && old.Mode != filemode.Regular && old.Mode != filemode.Executable && old.Mode != filemode.Deprecated {
		return Edit{}, false, fmt.Errorf("%s is %s in the base branch, not a file: a proposal writes and deletes plain files only", p, describeMode(old.Mode))
	}
	e = Edit{Path: p, Created: !exists, OldMode: old.Mode}
	if fc.Delete {
		if !exists {
			return Edit{}, false, nil
		}
		delete(folder, name)
		e.Delete = true
		return e, true, nil
	}
	switch {
	case fc.Mode == ExecutableMode:
		e.Mode = filemode.Executable
	case fc.Mode == RegularMode || !exists:
		e.Mode = filemode.Regular
	default:
		e.Mode = old.Mode
	}
	e.Blob = BlobID(fc.Content)
	if exists && old.ID == e.Blob && old.Mode == e.Mode {
		return Edit{}, false, nil
	}
	if !exists || old.ID != e.Blob {
		e.Content = fc.Content
		if e.Content == nil {
			e.Content = []byte{}
		}
	}
	folder[name] = TreeEntry{Name: name, Mode: e.Mode, ID: e.Blob}
	return e, true, nil
}

func describeMode(m filemode.FileMode) string {
	return cmp.Or(map[filemode.FileMode]string{
		filemode.Dir:       "a folder",
		filemode.Symlink:   "a symbolic link",
		filemode.Submodule: "a submodule",
	}[m], fmt.Sprintf("an entry of mode %o", uint32(m)))
}

// hashFolders returns the id of the root tree that folders make, the
// deepest first: a folder left empty is no entry of its parent, as git
// keeps no empty tree.
func hashFolders(folders map[string]map[string]TreeEntry) (string, error) {
	dirs := slices.Collect(maps.Keys(folders))
	slices.SortFunc(dirs, func(a, b string) int { return depthOf(b) - depthOf(a) })
	for _, d := range dirs {
		if d == "" {
			continue
		}
		parent, name := folders[dirOf(d)], path.Base(d)
		if len(folders[d]) == 0 {
			delete(parent, name)
			continue
		}
		id, err := TreeID(slices.Collect(maps.Values(folders[d])))
		if err != nil {
			return "", err
		}
		parent[name] = TreeEntry{Name: name, Mode: filemode.Dir, ID: id}
	}
	return TreeID(slices.Collect(maps.Values(folders[""])))
}

// TreeID is the id git gives the tree of entries, in any order.
func TreeID(entries []TreeEntry) (string, error) {
	t := object.Tree{Entries: make([]object.TreeEntry, 0, len(entries))}
	for _, e := range entries {
		if !plumbing.IsHash(e.ID) {
			return "", fmt.Errorf("the tree entry %q has no object id of git's: %q", e.Name, e.ID)
		}
		t.Entries = append(t.Entries, object.TreeEntry{Name: e.Name, Mode: e.Mode, Hash: plumbing.NewHash(e.ID)})
	}
	sort.Sort(object.TreeEntrySorter(t.Entries))
	var o plumbing.MemoryObject
	if err := t.Encode(&o); err != nil {
		return "", err
	}
	return o.Hash().String(), nil
}

// BlobID is the id git gives a file of content.
func BlobID(content []byte) string {
	return plumbing.ComputeHash(plumbing.BlobObject, content).String()
}

// dirOf is the folder of p, "" for the root.
func dirOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}

func depthOf(d string) int {
	if d == "" {
		return 0
	}
	return strings.Count(d, "/") + 1
}
