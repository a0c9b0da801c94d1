package forge_test

import (
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/forge/forgetest"
)

// lister lists the folders of repo by tree id, as GitHub does, counting
// the folders it was asked for.
type lister struct {
	repo *forgetest.Repo
	mu   sync.Mutex
	dirs []string
}

func (l *lister) list(_ context.Context, dir, id string) ([]forge.TreeEntry, error) {
	l.mu.Lock()
	l.dirs = append(l.dirs, dir)
	l.mu.Unlock()
	entries, _ := l.repo.Tree(id)
	out := make([]forge.TreeEntry, 0, len(entries))
	for _, e := range entries {
		out = append(out, forge.TreeEntry{Name: e.Name, Mode: e.Mode, ID: e.ID})
	}
	return out, nil
}

func TestChanges(t *testing.T) {
	seed := map[string]*forgetest.File{
		"README.md":                    {Content: "# skills\n"},
		"skillsync.yaml":               {Content: "space: ab12\n"},
		"skills/sql-style/SKILL.md":    {Content: "---\nname: SQL style\n---\nUse CTEs.\n"},
		"skills/sql-style/run.sh":      {Content: "#!/bin/sh\n", Mode: filemode.Executable},
		"skills/sql-style/logo.png":    {Content: "\x89PNG\r\n\x1a\n\x00\x00"},
		"skills/only/SKILL.md":         {Content: "alone\n"},
		"skills/linked/SKILL.md":       {Content: "../sql-style/SKILL.md", Mode: filemode.Symlink},
		"vendor/upstream/sub/deep.txt": {Content: "deep\n"},
	}
	type want struct {
		paths []string        // of the edits, in order
		modes map[string]uint // after, by path
		err   string
	}
	tests := []struct {
		name  string
		files map[string]forge.FileChange
		want  want
	}{
		{
			name: "an edit keeps an executable executable",
			files: map[string]forge.FileChange{
				"skills/sql-style/run.sh": {Content: []byte("#!/bin/sh\necho hi\n")},
			},
			want: want{paths: []string{"skills/sql-style/run.sh"}, modes: map[string]uint{"skills/sql-style/run.sh": 0o100755}},
		},
		{
			name: "a new file in a new folder is regular; binary bytes are kept",
			files: map[string]forge.FileChange{
				"skills/new-one/SKILL.md": {Content: []byte("new\r\n")},
				"skills/new-one/img.bin":  {Content: []byte{0, 0xff, '\r', '\n'}},
			},
			want: want{paths: []string{"skills/new-one/SKILL.md", "skills/new-one/img.bin"}, modes: map[string]uint{"skills/new-one/SKILL.md": 0o100644, "skills/new-one/img.bin": 0o100644}},
		},
		{
			name: "what the base holds already is no edit",
			files: map[string]forge.FileChange{
				"skillsync.yaml":          {Content: []byte("space: ab12\n")},
				"skills/gone/SKILL.md":    {Delete: true},
				"skills/sql-style/run.sh": {Content: []byte("#!/bin/sh\n"), Mode: forge.ExecutableMode},
				"README.md":               {Content: []byte("# skills\n\n")},
			},
			want: want{paths: []string{"README.md"}, modes: map[string]uint{"README.md": 0o100644}},
		},
		{
			name: "a mode alone, and a deletion that empties folders",
			files: map[string]forge.FileChange{
				"skills/sql-style/run.sh":      {Content: []byte("#!/bin/sh\n"), Mode: forge.RegularMode},
				"vendor/upstream/sub/deep.txt": {Delete: true},
				"skills/only/SKILL.md":         {Delete: true},
			},
			want: want{paths: []string{"skills/only/SKILL.md", "skills/sql-style/run.sh", "vendor/upstream/sub/deep.txt"}, modes: map[string]uint{"skills/sql-style/run.sh": 0o100644}},
		},
		{
			name:  "a symbolic link is not written through",
			files: map[string]forge.FileChange{"skills/linked/SKILL.md": {Content: []byte("x")}},
			want:  want{err: "skills/linked/SKILL.md is a symbolic link in the base branch"},
		},
		{
			name:  "a folder is not a file",
			files: map[string]forge.FileChange{"skills/sql-style": {Delete: true}},
			want:  want{err: "skills/sql-style is a folder in the base branch"},
		},
		{
			name:  "a file is not a folder",
			files: map[string]forge.FileChange{"README.md/x": {Content: []byte("x")}},
			want:  want{err: "README.md is a file in the base branch, not a folder"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			repo := forgetest.NewRepo()
			head := repo.CommitFiles("main", "seed", seed)
			base, _ := repo.Commit(head)
			l := &lister{repo: repo}
			cs, err := forge.Changes(context.Background(), base.Tree, tt.files, l.list)
			if tt.want.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want.err) {
					t.Fatalf("error %v, want one saying %q", err, tt.want.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var paths []string
			var edits []forgetest.TreeEdit
			for _, e := range cs.Edits {
				paths = append(paths, e.Path)
				if m, ok := tt.want.modes[e.Path]; ok && uint(e.Mode) != m {
					t.Errorf("%s: mode %o, want %o", e.Path, e.Mode, m)
				}
				if !e.Delete && e.Content == nil && e.OldMode == e.Mode {
					t.Errorf("%s: an edit with no new content and the same mode", e.Path)
				}
				if !e.Delete && e.Content != nil && string(e.Content) != string(tt.files[e.Path].Content) {
					t.Errorf("%s: content %q, want %q", e.Path, e.Content, tt.files[e.Path].Content)
				}
				te := forgetest.TreeEdit{Path: e.Path, Delete: e.Delete, Mode: e.Mode, ID: e.Blob}
				if e.Content != nil {
					te.ID = repo.PutBlob(e.Content)
				}
				edits = append(edits, te)
			}
			if !slices.Equal(paths, tt.want.paths) {
				t.Errorf("edits of %q, want %q", paths, tt.want.paths)
			}
			// The tree skillsync computes is the one git makes of the edits.
			got, err := repo.EditTree(base.Tree, edits)
			if err != nil {
				t.Fatal(err)
			}
			if cs.Tree != got {
				t.Errorf("tree %s, want git's %s", cs.Tree, got)
			}
			// Only the folders on the paths are read, each once.
			for _, d := range l.dirs {
				if d != "" && !slices.ContainsFunc(slices.Collect(maps.Keys(tt.files)), func(p string) bool { return strings.HasPrefix(p, d+"/") }) {
					t.Errorf("listed %q, which holds no changed file", d)
				}
			}
			if sorted := slices.Sorted(slices.Values(l.dirs)); len(slices.Compact(sorted)) != len(l.dirs) {
				t.Errorf("listed some folder twice: %q", l.dirs)
			}
		})
	}
}

// TestChangesOfAnEmptyRoot: deleting the last file leaves git's empty
// tree.
func TestChangesOfAnEmptyRoot(t *testing.T) {
	repo := forgetest.NewRepo()
	head := repo.CommitFiles("main", "seed", map[string]*forgetest.File{"a/b.txt": {Content: "b"}})
	base, _ := repo.Commit(head)
	cs, err := forge.Changes(context.Background(), base.Tree, map[string]forge.FileChange{"a/b.txt": {Delete: true}}, (&lister{repo: repo}).list)
	if err != nil {
		t.Fatal(err)
	}
	if cs.Tree != forgetest.EmptyTree || len(cs.Edits) != 1 {
		t.Errorf("tree %s with %d edits, want the empty tree with 1", cs.Tree, len(cs.Edits))
	}
}

func TestTreeIDRefusesABadID(t *testing.T) {
	if _, err := forge.TreeID([]forge.TreeEntry{{Name: "a", Mode: filemode.Regular, ID: "xyz"}}); err == nil || !strings.Contains(err.Error(), `"a"`) {
		t.Errorf("error %v, want one naming the entry", err)
	}
}
