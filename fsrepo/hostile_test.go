package fsrepo

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/gittest"
	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/skillsync/skillsync/lint"
)

// Hostile repositories: inputs shaped so that work which rescans what it
// has read, or reports every pair of items, grows with the square of
// their size. A repository is read in bounded time and memory only if
// every such path is linear. The tests hold the work (its allocations,
// which the same input always makes alike, or its CPU time) to linear
// growth; the benchmarks below show the time, at sizes n, 2n, 4n and 8n.

// hostileSkillMD is a SKILL.md whose frontmatter holds n more keys, each
// written as line(i).
func hostileSkillMD(n int, line func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("---\nname: hostile\ndescription: A skill of a hostile repository.\n")
	for i := range n {
		b.WriteString(line(i))
	}
	b.WriteString("---\n\n# Hostile\n")
	return []byte(b.String())
}

// plainKey is a key that skillsync keeps and ignores.
func plainKey(i int) string { return fmt.Sprintf("k%d: v\n", i) }

// sameNameFolders are n skill folders whose SKILL.md files give one name.
func sameNameFolders(n int) []*folder {
	md := []byte("---\nname: Same\ndescription: One of many skills of one name.\n---\n\n# Same\n")
	fs := make([]*folder, n)
	for i := range fs {
		fs[i] = &folder{slug: fmt.Sprintf("same-%05d", i), entries: []entry{{rel: skillmd.FileName, data: md}}}
	}
	return fs
}

// TestSameNameLinear: each skill of a name other skills have too is a
// warning naming some of them. Each named all the others: 4,000 folders
// of one name made 2.2 GB of warnings, where git holds them in a few
// hundred bytes (one tree, 4,000 times).
func TestSameNameLinear(t *testing.T) {
	for n, want := range map[int]string{
		3: `name "Same" is also the name of skills/same-00000/SKILL.md, skills/same-00002/SKILL.md`,
		7: `name "Same" is also the name of skills/same-00000/SKILL.md, skills/same-00002/SKILL.md, skills/same-00003/SKILL.md, skills/same-00004/SKILL.md, skills/same-00005/SKILL.md and 1 other skill`,
		9: `name "Same" is also the name of skills/same-00000/SKILL.md, skills/same-00002/SKILL.md, skills/same-00003/SKILL.md, skills/same-00004/SKILL.md, skills/same-00005/SKILL.md and 3 other skills`,
	} {
		_, ds, err := buildSkills(context.Background(), "skills", checks{}, sameNameFolders(n))
		if err != nil {
			t.Fatal(err)
		}
		var dups []string
		for _, d := range ds {
			if d.Code == "name-duplicate" {
				dups = append(dups, d.Message)
			}
		}
		if len(dups) != n || dups[1] != want {
			t.Errorf("%d skills of one name: %d warnings name-duplicate, the second %q; want %d, the second %q", n, len(dups), dups[1], n, want)
		}
	}
	lineartest.Allocs(t, 500, func(n int) { buildSkills(context.Background(), "skills", checks{}, sameNameFolders(n)) })
}

// A hostileShape is an input of size n, made by make, which run reads.
type hostileShape struct {
	name string
	n    int // the largest size benchmarked; n/8, n/4 and n/2 too
	make func(n int) func()
}

// benchShapes benchmarks each shape at n/8, n/4, n/2 and n.
func benchShapes(b *testing.B, shapes []hostileShape) {
	for _, s := range shapes {
		for _, k := range []int{1, 2, 4, 8} {
			run := s.make(s.n * k / 8)
			b.Run(fmt.Sprintf("%s/n=%d", s.name, s.n*k/8), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					run()
				}
			})
		}
	}
}

// BenchmarkSkillFoldersHostile builds the skills of hostile folders: n
// folders whose skills have one name; a SKILL.md of n keys not of the
// Agent Skills format, linted under its profile; a folder of n files and
// n symlinks that lead to none; a folder of n scripts, each in a folder of
// its own that SKILL.md names, with n links to missing files.
func BenchmarkSkillFoldersHostile(b *testing.B) {
	benchShapes(b, []hostileShape{
		{"same-name", 4000, func(n int) func() {
			return func() { buildSkills(context.Background(), "skills", checks{}, sameNameFolders(n)) }
		}},
		{"unknown-keys", 8000, func(n int) func() {
			f := &folder{slug: "hostile", entries: []entry{{rel: skillmd.FileName, data: hostileSkillMD(n, plainKey)}}}
			return func() { buildSkill("skills", checks{lint: lint.Config{Profile: lint.ProfileAgentSkills}}, f) }
		}},
		{"dangling-links", 8000, func(n int) func() {
			f := danglingLinks(n)
			return func() { buildSkill("skills", checks{}, f) }
		}},
		{"folders-named", 4000, func(n int) func() {
			f := namedFolders(n)
			lc := lint.Config{Rules: map[string]lint.Level{lint.RuleLinkMissing: lint.LevelWarning, lint.RuleFileUnreferenced: lint.LevelWarning}}
			return func() { buildSkill("skills", checks{lint: lc}, f) }
		}},
	})
}

// danglingLinks is a skill folder of n text files and n symlinks that
// lead to no file.
func danglingLinks(n int) *folder {
	es := []entry{{rel: skillmd.FileName, data: []byte(validMD)}}
	for i := range n {
		es = append(es, entry{rel: fmt.Sprintf("docs/f%d.md", i), data: []byte("text")},
			entry{rel: fmt.Sprintf("l%d.md", i), link: true, data: []byte("nowhere.md")})
	}
	return &folder{slug: "big", entries: es}
}

// TestDanglingLinksListFoldersOnce: a symlink that leads to no file is
// an error, saying whether it leads to a folder. Every entry was searched
// for one under the link's target, for each link: 8,000 links among
// 8,000 files took 2.3 s. The folders are listed once.
func TestDanglingLinksListFoldersOnce(t *testing.T) {
	resolveAll := func(f *folder) map[string]int {
		byRel := map[string]*entry{}
		for i := range f.entries {
			byRel[f.entries[i].rel] = &f.entries[i]
		}
		fe := &folderEntries{byRel: byRel}
		codes := map[string]int{}
		for _, e := range f.entries {
			fe.resolve(e.rel, "skills/big", func(p, code, hint, format string, args ...any) { codes[code]++ })
		}
		return codes
	}
	f := danglingLinks(1000)
	f.entries = append(f.entries, entry{rel: "to-docs", link: true, data: []byte("docs")},
		entry{rel: "to-doc", link: true, data: []byte("doc")})
	if codes := resolveAll(f); codes["symlink-dangling"] != 1001 || codes["symlink-folder"] != 1 {
		t.Errorf("errors by code: %v; want 1001 symlink-dangling and 1 symlink-folder", codes)
	}
	fe := &folderEntries{byRel: map[string]*entry{"docs/f1.md": {}}}
	for p, want := range map[string]bool{"docs": true, "doc": false, "docs/f1.md": false, "": false, ".": false} {
		if got := fe.isDir(p); got != want {
			t.Errorf("isDir(%q) = %t, want %t", p, got, want)
		}
	}
	folders := map[int]*folder{250: danglingLinks(250), 4000: danglingLinks(4000)}
	lineartest.Time(t, 250, func(n int) { resolveAll(folders[n]) })
}

// namedFolders is a skill folder of n scripts, each in a folder that
// SKILL.md names, and n links to missing files.
func namedFolders(n int) *folder {
	var body strings.Builder
	body.WriteString("---\nname: big\ndescription: Names many folders.\n---\n\n")
	es := []entry{{}}
	for i := range n {
		fmt.Fprintf(&body, "See [the guide](missing/m%d.md), run d%d/ and d%d/ again.\n", i, i, i)
		es = append(es, entry{rel: fmt.Sprintf("d%d/f%d.py", i, i), data: []byte("print()\n")})
	}
	es[0] = entry{rel: skillmd.FileName, data: []byte(body.String())}
	return &folder{slug: "big", entries: es}
}

// gitBomb makes dir a git repository whose branch main holds a
// skillsync.yaml and skill x, whose folder sub nests depth levels of ten
// folders, each level one tree listed ten times: 10^depth copies of the
// tree leaf, in a repository of a few kilobytes. With worktree, the
// working tree holds the commit but for sub, as a checkout writes it when
// leaf is the empty tree.
func gitBomb(t testing.TB, dir string, depth int, leaf func(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree, worktree bool) {
	t.Helper()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	s := r.Storer
	objs := gittest.New(t, s)
	store, blob := objs.Tree, objs.Blob
	sub := store(leaf(store, blob))
	for range depth {
		var tr object.Tree
		for k := range 10 {
			tr.Entries = append(tr.Entries, object.TreeEntry{Name: fmt.Sprintf("d%d", k), Mode: filemode.Dir, Hash: sub})
		}
		sub = store(tr)
	}
	const cfg = "space: ab12\n"
	skill := store(object.Tree{Entries: []object.TreeEntry{
		{Name: skillmd.FileName, Mode: filemode.Regular, Hash: blob(validMD)},
		{Name: "sub", Mode: filemode.Dir, Hash: sub},
	}})
	skills := store(object.Tree{Entries: []object.TreeEntry{{Name: "x", Mode: filemode.Dir, Hash: skill}}})
	root := store(object.Tree{Entries: []object.TreeEntry{ // in git's order: "skills/" before "skillsync.yaml"
		{Name: "skills", Mode: filemode.Dir, Hash: skills},
		{Name: config.FileName, Mode: filemode.Regular, Hash: blob(cfg)},
	}})
	objs.Commit(root, "refs/heads/main")
	if err := s.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, "refs/heads/main")); err != nil {
		t.Fatal(err)
	}
	// Packed, as a clone holds it: go-git opens a loose object's file
	// for each read, even of one it has cached.
	gitRun(t, dir, "repack", "-adq")
	if worktree {
		writeFrom(t, filepath.Join(dir, config.FileName), strings.NewReader(cfg))
		writeFrom(t, filepath.Join(dir, "skills", "x", skillmd.FileName), strings.NewReader(validMD))
	}
}

// oneFile is a tree of one file.
func oneFile(store func(object.Tree) plumbing.Hash, blob func(string) plumbing.Hash) object.Tree {
	return object.Tree{Entries: []object.TreeEntry{{Name: "f.md", Mode: filemode.Regular, Hash: blob("A file of the bomb.\n")}}}
}

// emptyTree is the tree of no entry.
func emptyTree(func(object.Tree) plumbing.Hash, func(string) plumbing.Hash) object.Tree {
	return object.Tree{}
}

// TestGitBomb: a tree listed many times by the trees above it is stored
// once, so that a repository of a few kilobytes holds a million files; a
// load of it read every one (100,000 in 4.4 s, each level ten times the
// one above). A walk of a git tree stops past MaxTreeEntries files and
// folders, naming the folder and the commit; the working tree's HEAD is
// walked within the same bound.
func TestGitBomb(t *testing.T) {
	dir := t.TempDir()
	gitBomb(t, dir, 6, oneFile, false)
	_, _, err := Load(context.Background(), dir, LoadOptions{Ref: "main"})
	if !errors.Is(err, ErrTreeTooLarge) || !strings.Contains(err.Error(), "reading skills in commit ") ||
		!strings.Contains(err.Error(), "more than 200000 files and folders") {
		t.Errorf("loading a bomb of 10^6 files: %v; want %v", err, ErrTreeTooLarge)
	}

	dir = t.TempDir()
	gitBomb(t, dir, 6, emptyTree, true)
	_, _, err = Load(context.Background(), dir, LoadOptions{})
	if !errors.Is(err, ErrTreeTooLarge) {
		t.Errorf("loading a working tree whose HEAD is a bomb of 10^6 folders: %v; want %v", err, ErrTreeTooLarge)
	}
}

// TestTreeWalkerLongPath: a walk stops at a path longer than a file
// system holds. Each level of a deep tree adds its name to the path of
// every entry below it: without a bound, 1,024 levels (the most go-git
// walks) of long names make paths of megabytes, and a walk that builds
// them costs the square of the tree.
func TestTreeWalkerLongPath(t *testing.T) {
	s := memory.NewStorage()
	store := func(tr object.Tree) plumbing.Hash {
		o := s.NewEncodedObject()
		if err := tr.Encode(o); err != nil {
			t.Fatal(err)
		}
		h, err := s.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	name := strings.Repeat("n", 250)
	h := store(object.Tree{})
	for range 100 {
		h = store(object.Tree{Entries: []object.TreeEntry{{Name: name, Mode: filemode.Dir, Hash: h}}})
	}
	root, err := object.GetTree(s, h)
	if err != nil {
		t.Fatal(err)
	}
	w := NewTreeWalker(s, root)
	defer w.Close()
	for n := 1; ; n++ {
		p, _, err := w.Next()
		if err != nil {
			if !errors.Is(err, ErrTreeTooLarge) || n != 17 || !strings.Contains(err.Error(), "a path of 4266 bytes, longer than the 4096") {
				t.Errorf("entry %d: %v; want %v at entry 17, the first of a path over 4096 bytes", n, err, ErrTreeTooLarge)
			}
			break
		}
		if len(p) != 251*n-1 {
			t.Fatalf("entry %d: a path of %d bytes", n, len(p))
		}
	}
}

// BenchmarkLoadGitBomb loads a revision whose skill folder holds 10^depth
// files through depth levels of shared trees (see gitBomb), in a
// repository of a few kilobytes: from depth 5 (211,111 files and folders)
// it is refused.
func BenchmarkLoadGitBomb(b *testing.B) {
	for depth := 2; depth <= 6; depth++ {
		dir := b.TempDir()
		gitBomb(b, dir, depth, oneFile, false)
		b.Run(fmt.Sprintf("depth=%d", depth), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _, err := Load(context.Background(), dir, LoadOptions{Ref: "main"})
				if (err != nil) != (depth >= 5) {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkChangedTargets tells which of n targets (of as many spaces) a
// change of nothing changes, as `skillsync targets --changed` does.
func BenchmarkChangedTargets(b *testing.B) {
	for _, n := range []int{config.MaxTargets / 8, config.MaxTargets / 4, config.MaxTargets / 2, config.MaxTargets} {
		text := "targets:\n"
		for i := range n {
			text += fmt.Sprintf("  t%d: {space: s%04x}\n", i, i)
		}
		cfg, err := config.Parse([]byte(text))
		if err != nil {
			b.Fatal(err)
		}
		repo := &Repo{Config: cfg}
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				ChangedTargets(repo, repo)
			}
		})
	}
}
