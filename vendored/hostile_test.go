package vendored

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/gittest"
)

// commitTree commits, on the upstream's main branch, the tree that make
// builds with store (of a tree) and blob (of a file's content), under
// skills/bomb beside a SKILL.md.
func (u *testUpstream) commitTree(make func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree) {
	t, s := u.t, u.repo.Storer
	t.Helper()
	objs := gittest.New(t, s)
	store, blob := objs.Tree, objs.Blob
	bomb := make(store, blob)
	bomb.Entries = append([]object.TreeEntry{{Name: "SKILL.md", Mode: filemode.Regular, Hash: blob(pdfSkill)}}, bomb.Entries...)
	skills := store(object.Tree{Entries: []object.TreeEntry{{Name: "bomb", Mode: filemode.Dir, Hash: store(bomb)}}})
	root := store(object.Tree{Entries: []object.TreeEntry{{Name: "skills", Mode: filemode.Dir, Hash: skills}}})
	objs.Commit(root, plumbing.Main)
}

// TestAddHostileFolder: git stores a tree or a file once however many
// trees list it, so that an upstream of a few kilobytes may hold a folder
// of a million files (ten levels of ten folders, each level one tree), or
// of gigabytes (one large file at many paths). Vendoring such a folder
// read, held and wrote all of it; it is refused, and nothing is written.
func TestAddHostileFolder(t *testing.T) {
	for _, tc := range []struct {
		name string
		tree func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree
		want error
		msg  string
	}{
		{"a million files", func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree {
			sub := store(object.Tree{Entries: []object.TreeEntry{{Name: "f.md", Mode: filemode.Regular, Hash: blob("x\n")}}})
			for range 6 {
				var tr object.Tree
				for k := range 10 {
					tr.Entries = append(tr.Entries, object.TreeEntry{Name: fmt.Sprintf("d%d", k), Mode: filemode.Dir, Hash: sub})
				}
				sub = store(tr)
			}
			return object.Tree{Entries: []object.TreeEntry{{Name: "sub", Mode: filemode.Dir, Hash: sub}}}
		}, fsrepo.ErrTreeTooLarge, "more than 200000 files and folders"},
		{"a large file at many paths", func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree {
			big := blob(strings.Repeat("A line of a large reference file.\n", 1<<20/34))
			var tr object.Tree
			for k := range 300 {
				tr.Entries = append(tr.Entries, object.TreeEntry{Name: fmt.Sprintf("r%03d.md", k), Mode: filemode.Regular, Hash: big})
			}
			return tr
		}, nil, "skills/bomb at "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := newUpstream(t)
			up.commitTree(tc.tree)
			root := newRoot(t)
			before := snapshot(t, root)
			_, err := Add(context.Background(), root, AddOptions{Source: up.dir, Path: "skills/bomb"})
			if err == nil || (tc.want != nil && !errors.Is(err, tc.want)) || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("vendoring %s: %v; want an error saying %q", tc.name, err, tc.msg)
			}
			if tc.want == nil && (err == nil || !strings.Contains(err.Error(), fmt.Sprintf("holds more than the %d bytes a vendored folder may hold", MaxFolderBytes))) {
				t.Errorf("vendoring %s: %v; want the bound of a folder", tc.name, err)
			}
			if after := snapshot(t, root); !reflect.DeepEqual(before, after) {
				t.Error("a refused add changed the files of the repository")
			}
		})
	}
}

// TestTopFoldersLinear: the skill folders of an upstream inside no other
// are found by looking each up among the folders that hold it. Each was
// compared with every folder found before, building a path to compare
// with each: 20,000 skill folders, which a tree of 200 folders of 100
// listed cost 200 million comparisons and as many allocations.
func TestTopFoldersLinear(t *testing.T) {
	got := topFolders([]string{"skills/b/nested", "skills/a", "skills/a-b", "skills/a/x", "skills/b", "docs/skills/c"})
	want := []string{"docs/skills/c", "skills/a", "skills/a-b", "skills/b"}
	if !slices.Equal(got, want) {
		t.Errorf("topFolders = %q, want %q", got, want)
	}
	if got := topFolders([]string{"a", "", "b/c"}); !slices.Equal(got, []string{""}) {
		t.Errorf("topFolders with the root = %q, want only the root", got)
	}
	const n = 2000
	dirs := make([]string, n)
	for i := range dirs {
		dirs[i] = fmt.Sprintf("skills/a-folder-name-longer-than-32-bytes-%05d", i)
	}
	allocs := testing.AllocsPerRun(3, func() { topFolders(slices.Clone(dirs)) })
	if allocs > 2*n {
		t.Errorf("%.0f allocations to find the top of %d folders", allocs, n)
	}
}

// BenchmarkTopFolders finds the top skill folders among n, none inside
// another, as vendor add does for an upstream without --path.
func BenchmarkTopFolders(b *testing.B) {
	for _, n := range []int{2500, 5000, 10000, 20000} {
		dirs := make([]string, n)
		for i := range dirs {
			dirs[i] = fmt.Sprintf("skills/a-folder-name-longer-than-32-bytes-%05d", i)
		}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				topFolders(slices.Clone(dirs))
			}
		})
	}
}
