package vendored

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/storage/memory"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/names"
)

// MaxFileBytes is the largest file vendored: far larger than any file a
// skill's instructions point an agent at, and a bound on what a folder
// holds in memory.
const MaxFileBytes = 32 << 20

// MaxFolderBytes is the most a vendored folder holds, all its files told:
// git stores a file once however many paths list it, so that a folder of
// a few kilobytes in git may be terabytes on disk; vendoring it would
// read and write them all.
const MaxFolderBytes = 256 << 20

// upstream is a source repository opened for reading: a local one
// directly; a remote one through the references it advertises and, once
// fetched, a copy of the commits asked for, at depth 1, in a temporary
// folder that close removes.
type upstream struct {
	src   Source
	acc   access          // remote: the token its host gets, if any
	repo  *git.Repository // local: the repository; remote: what was fetched (nil before)
	store *fetchStore     // remote: where repo is kept (nil before)

	refs map[plumbing.ReferenceName]plumbing.Hash // remote: advertised, tags peeled to commits
	head plumbing.ReferenceName                   // remote: the branch HEAD names
}

func openUpstream(ctx context.Context, src Source, auth Auth) (*upstream, error) {
	u := &upstream{src: src}
	if !src.Remote() {
		// A bare repository (a mirror) is opened where it is; go-git's
		// detection looks for a .git folder only.
		bare := isBareRepository(src.dir)
		r, err := git.PlainOpenWithOptions(src.dir, &git.PlainOpenOptions{DetectDotGit: !bare, EnableDotGitCommonDir: true})
		if errors.Is(err, git.ErrRepositoryNotExists) {
			return nil, fmt.Errorf("source %s is not a git repository (no .git in it or above it)", src)
		}
		if err != nil {
			return nil, fmt.Errorf("opening source %s: %w", src, err)
		}
		u.repo = r
		return u, nil
	}
	u.acc = auth.access(src)
	rem := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: "origin", URLs: []string{src.url}})
	refs, err := rem.ListContext(ctx, &git.ListOptions{PeelingOption: git.AppendPeeled, Auth: u.acc.transportAuth()})
	if err != nil {
		return nil, u.remoteError(err)
	}
	u.refs = map[plumbing.ReferenceName]plumbing.Hash{}
	var headTarget plumbing.ReferenceName
	var headHash plumbing.Hash
	for _, r := range refs {
		switch {
		case r.Name() == plumbing.HEAD && r.Type() == plumbing.SymbolicReference:
			headTarget = r.Target()
		case r.Name() == plumbing.HEAD:
			headHash = r.Hash()
		case r.Type() == plumbing.HashReference:
			if name, peeled := strings.CutSuffix(r.Name().String(), "^{}"); peeled {
				u.refs[plumbing.ReferenceName(name)] = r.Hash()
			} else if _, seen := u.refs[r.Name()]; !seen {
				u.refs[r.Name()] = r.Hash()
			}
		}
	}
	u.head = headTarget
	if u.head == "" && !headHash.IsZero() {
		// No symref: the branch at HEAD's commit, main or master first.
		var names []string
		for name, h := range u.refs {
			if h == headHash && name.IsBranch() {
				names = append(names, name.String())
			}
		}
		sort.Slice(names, func(i, j int) bool { return branchRank(names[i]) < branchRank(names[j]) })
		if len(names) > 0 {
			u.head = plumbing.ReferenceName(names[0])
		}
	}
	return u, nil
}

// isBareRepository reports whether dir looks like a bare git repository:
// a HEAD file and an objects folder, and no .git.
func isBareRepository(dir string) bool {
	if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
		return false
	}
	head, err1 := os.Stat(filepath.Join(dir, "HEAD"))
	objects, err2 := os.Stat(filepath.Join(dir, "objects"))
	return err1 == nil && err2 == nil && head.Mode().IsRegular() && objects.IsDir()
}

func branchRank(name string) string {
	switch name {
	case "refs/heads/main":
		return "0"
	case "refs/heads/master":
		return "1"
	}
	return "2" + name
}

// remoteError is the error of a request to a remote source: what the
// server said is dropped for an answer about access, which names the
// variables of the host's token, and hidden of the token otherwise.
func (u *upstream) remoteError(err error) error {
	var limit *fetchLimitError
	status := 0
	switch {
	case errors.As(err, &limit):
		return limit
	case errors.Is(err, transport.ErrRepositoryNotFound):
		status = http.StatusNotFound
	case errors.Is(err, transport.ErrAuthenticationRequired):
		status = http.StatusUnauthorized
	case errors.Is(err, transport.ErrAuthorizationFailed):
		status = http.StatusForbidden
	case errors.Is(err, transport.ErrEmptyRemoteRepository):
		return fmt.Errorf("the repository at %s is empty", u.src)
	default:
		return u.acc.hide(fmt.Errorf("reading %s: %w", u.src, err))
	}
	e := &AuthError{Source: u.src.String(), Status: status, Variables: u.acc.variables}
	if c := u.acc.cred; c != nil {
		e.Sent, e.User = c.variable, c.user
	}
	return e
}

// A target is what a ref resolves to: a commit, and the reference that
// named it, by which a remote one is fetched ("" for a commit given by
// its id).
type target struct {
	name   plumbing.ReferenceName
	commit plumbing.Hash
}

// resolve says which commit ref names in the source now: a branch, a tag,
// a commit id, or "" for HEAD (the default branch). A local source takes
// any revision git does (HEAD~2, a short id).
func (u *upstream) resolve(ref string) (target, error) {
	if !u.src.Remote() {
		if ref == "" {
			h, err := u.repo.Head()
			if err != nil {
				return target{}, fmt.Errorf("source %s: reading HEAD: %w", u.src, err)
			}
			return target{name: h.Name(), commit: h.Hash()}, nil
		}
		h, err := u.repo.ResolveRevision(plumbing.Revision(ref))
		if err != nil {
			return target{}, fmt.Errorf("source %s has no branch, tag or commit %q", u.src, ref)
		}
		c, err := peel(u.repo, *h)
		if err != nil {
			return target{}, fmt.Errorf("source %s: %q: %w", u.src, ref, err)
		}
		return target{commit: c}, nil
	}
	if ref == "" {
		h, ok := u.refs[u.head]
		if u.head == "" || !ok {
			return target{}, fmt.Errorf("%s advertises no default branch: give one with --ref", u.src)
		}
		return target{name: u.head, commit: h}, nil
	}
	for _, name := range []plumbing.ReferenceName{plumbing.NewBranchReferenceName(ref), plumbing.NewTagReferenceName(ref), plumbing.ReferenceName(ref)} {
		if h, ok := u.refs[name]; ok {
			return target{name: name, commit: h}, nil
		}
	}
	if len(ref) == 40 && isHex(ref) {
		return target{commit: plumbing.NewHash(strings.ToLower(ref))}, nil
	}
	if len(ref) >= 4 && isHex(ref) {
		return target{}, fmt.Errorf("%s has no branch or tag %q; to pin a commit of a remote repository, give its full 40-character id", u.src, ref)
	}
	return target{}, fmt.Errorf("%s has no branch or tag %q (branches: %s)", u.src, ref, u.branches())
}

func (u *upstream) branches() string {
	var names []string
	for name := range u.refs {
		if name.IsBranch() {
			names = append(names, name.Short())
		}
	}
	sort.Strings(names)
	if len(names) > 8 {
		names = append(names[:8], "...")
	}
	return strings.Join(names, ", ")
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// peel is the commit that h, a commit or a tag, names.
func peel(r *git.Repository, h plumbing.Hash) (plumbing.Hash, error) {
	for range 8 {
		if _, err := r.CommitObject(h); err == nil {
			return h, nil
		}
		tag, err := r.TagObject(h)
		if err != nil {
			return plumbing.ZeroHash, fmt.Errorf("%s is not a commit", h)
		}
		h = tag.Target
	}
	return plumbing.ZeroHash, fmt.Errorf("%s: tags of tags too deep", h)
}

// fetch makes the commits of targets readable: a remote source's are
// fetched at depth 1 into memory, in one request. A target named by a
// reference is fetched by that name; its commit is then the one fetched,
// should the reference have moved since it was resolved. commits are
// wanted by id: the locked commits, for a merge base. A server that will
// not give a commit by id is asked instead for the whole history of the
// references.
func (u *upstream) fetch(ctx context.Context, targets []*target, commits []plumbing.Hash) error {
	if !u.src.Remote() {
		return nil
	}
	var specs []config.RefSpec
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			specs = append(specs, config.RefSpec(s))
		}
	}
	for _, t := range targets {
		if t.name != "" {
			add("+" + t.name.String() + ":" + fetchedRef(t.name).String())
		} else {
			commits = append(commits, t.commit)
		}
	}
	byID := len(specs)
	for _, c := range commits {
		add(c.String() + ":" + commitRef(c).String())
	}
	r, store, err := u.fetchSpecs(ctx, specs, 1)
	var limit *fetchLimitError
	if err != nil && len(specs) > byID && !errors.As(err, &limit) {
		// Not every server gives a commit by its id: the history of
		// the references holds the locked commits, unless rewritten.
		full := append([]config.RefSpec(nil), specs[:byID]...)
		if len(full) == 0 {
			full = []config.RefSpec{"+refs/heads/*:refs/skillsync/refs/heads/*"}
		}
		r, store, err = u.fetchSpecs(ctx, full, 0)
	}
	if err != nil {
		return u.remoteError(err)
	}
	u.close()
	u.repo, u.store = r, store
	for _, t := range targets {
		if t.name == "" {
			continue
		}
		ref, err := r.Reference(fetchedRef(t.name), true)
		if err != nil {
			return fmt.Errorf("%s: %s was not fetched: %w", u.src, t.name.Short(), err)
		}
		if t.commit, err = peel(r, ref.Hash()); err != nil {
			return fmt.Errorf("%s: %s: %w", u.src, t.name.Short(), err)
		}
	}
	return nil
}

// fetchSpecs fetches specs at depth into a new store (see fetchStore),
// which it removes when it fails.
func (u *upstream) fetchSpecs(ctx context.Context, specs []config.RefSpec, depth int) (*git.Repository, *fetchStore, error) {
	store, err := newFetchStore(u.src)
	if err != nil {
		return nil, nil, err
	}
	r, err := git.Init(store, nil)
	if err == nil {
		var rem *git.Remote
		rem, err = r.CreateRemoteAnonymous(&config.RemoteConfig{Name: "anonymous", URLs: []string{u.src.url}})
		if err == nil {
			err = rem.FetchContext(ctx, &git.FetchOptions{RemoteName: "anonymous", RefSpecs: specs, Depth: depth, Tags: git.NoTags,
				Auth: u.acc.transportAuth()})
		}
	}
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		store.Remove()
		return nil, nil, err
	}
	return r, store, nil
}

// close removes what was fetched of a remote source; u is not read after.
func (u *upstream) close() {
	if u.store != nil {
		u.store.Remove()
		u.store = nil
	}
}

func fetchedRef(name plumbing.ReferenceName) plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/skillsync/" + name.String())
}

func commitRef(c plumbing.Hash) plumbing.ReferenceName {
	return plumbing.ReferenceName("refs/skillsync/commits/" + c.String())
}

// hasCommit reports whether the source's copy holds commit c.
func (u *upstream) hasCommit(c plumbing.Hash) bool {
	if u.repo == nil {
		return false
	}
	_, err := u.repo.CommitObject(c)
	return err == nil
}

// A file is a file of a vendored folder: its content, and whether it is
// executable.
type file struct {
	data []byte
	exec bool
}

// ErrNoFolder is returned (wrapped) when the folder asked for is not in
// the commit.
var ErrNoFolder = errors.New("no such folder")

// folder reads the files of the folder dir ("" for the root) at commit c:
// its regular files at any depth, but those of .git folders and those
// [fsrepo.SkipsFile] leaves out; a symlink to a file of the folder is read
// as that file (the loader follows such links too, and the writer writes
// no symlink), and one leading anywhere else is an error. Submodules
// cannot be copied: they are named in the notes returned.
func (u *upstream) folder(c plumbing.Hash, dir string) (map[string]file, []string, error) {
	commit, err := u.repo.CommitObject(c)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading commit %s: %w", u.src, c, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: reading commit %s: %w", u.src, c, err)
	}
	if dir != "" {
		tree, err = tree.Tree(dir)
		if errors.Is(err, object.ErrDirectoryNotFound) || errors.Is(err, plumbing.ErrObjectNotFound) {
			if _, ferr := commit.File(dir); ferr == nil {
				return nil, nil, fmt.Errorf("%s: %s is a file: give the skill's folder, %s: %w", u.src, dir, path.Dir(dir), ErrNoFolder)
			}
			return nil, nil, fmt.Errorf("%s has no folder %s at %s: %w", u.src, dir, fsrepo.ShortCommit(c.String()), ErrNoFolder)
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: reading %s at %s: %w", u.src, dir, c, err)
		}
	}
	entries := map[string]object.TreeEntry{}
	var notes []string
	w := fsrepo.NewTreeWalker(u.repo.Storer, tree)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: reading %s at %s: %w", u.src, dir, c, err)
		}
		switch {
		case e.Mode == filemode.Dir:
		case names.InGitDir(name) || fsrepo.SkipsFile(name):
		case e.Mode == filemode.Submodule:
			notes = append(notes, fmt.Sprintf("%s is a submodule, which is not copied", path.Join(dir, name)))
		default:
			entries[name] = e
		}
	}
	files := make(map[string]file, len(entries))
	blobs := map[plumbing.Hash][]byte{} // each read once, however many paths list it
	total := 0
	// What the writer would skip is never copied, hashed nor merged, so
	// that the lock's hash is the folder's as written.
	skip := fsrepo.Unwritable(slices.Collect(maps.Keys(entries)))
	for _, name := range slices.Sorted(maps.Keys(entries)) {
		if why, ok := skip[name]; ok {
			notes = append(notes, fmt.Sprintf("%s is not copied: %s", path.Join(dir, name), why))
			continue
		}
		e, err := u.follow(entries, name, dir)
		if err != nil {
			return nil, nil, err
		}
		data, ok := blobs[e.Hash]
		if !ok {
			if data, err = u.blob(e.Hash, path.Join(dir, name)); err != nil {
				return nil, nil, err
			}
			blobs[e.Hash] = data
		}
		if total += len(data); total > MaxFolderBytes {
			where := "folder " + dir
			if dir == "" {
				where = "the root folder"
			}
			return nil, nil, fmt.Errorf("%s: the %s at %s holds more than the %d bytes a vendored folder may hold (past %d files)",
				u.src, where, fsrepo.ShortCommit(c.String()), MaxFolderBytes, len(files)+1)
		}
		files[name] = file{data: data, exec: e.Mode == filemode.Executable}
	}
	return files, notes, nil
}

// follow returns the entry of a regular file that name is or, through
// symlinks inside the folder, leads to.
func (u *upstream) follow(entries map[string]object.TreeEntry, name, dir string) (object.TreeEntry, error) {
	cur := name
	for range 9 {
		e := entries[cur]
		if e.Mode != filemode.Symlink {
			return e, nil
		}
		target, err := u.blob(e.Hash, path.Join(dir, cur))
		if err != nil {
			return e, err
		}
		t := string(target)
		next := path.Join(path.Dir(cur), t)
		if path.IsAbs(t) || next == ".." || strings.HasPrefix(next, "../") || strings.Contains(t, `\`) {
			return e, fmt.Errorf("%s: symlink %s leads outside the folder (to %q), which is never copied", u.src, path.Join(dir, name), t)
		}
		if _, ok := entries[next]; !ok {
			return e, fmt.Errorf("%s: symlink %s leads to %q, which is not a file of the folder", u.src, path.Join(dir, name), t)
		}
		cur = next
	}
	return object.TreeEntry{}, fmt.Errorf("%s: symlink %s: too many levels of symlinks", u.src, path.Join(dir, name))
}

// blob reads a blob, measured before it is inflated.
func (u *upstream) blob(h plumbing.Hash, name string) ([]byte, error) {
	size, err := u.repo.Storer.EncodedObjectSize(h)
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", u.src, name, err)
	}
	if size > MaxFileBytes {
		return nil, fmt.Errorf("%s: %s is %d bytes, over the %d a vendored file may be", u.src, name, size, MaxFileBytes)
	}
	b, err := u.repo.BlobObject(h)
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", u.src, name, err)
	}
	r, err := b.Reader()
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", u.src, name, err)
	}
	defer r.Close()
	data, err := bounded.ReadAll(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: reading %s: %w", u.src, name, err)
	}
	return data, nil
}

// skillFolders lists the folders of commit c holding a SKILL.md, but for
// those inside another such folder (a skill's own files), sorted; "" is
// the root.
func (u *upstream) skillFolders(c plumbing.Hash) ([]string, error) {
	commit, err := u.repo.CommitObject(c)
	if err != nil {
		return nil, fmt.Errorf("%s: reading commit %s: %w", u.src, c, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("%s: reading commit %s: %w", u.src, c, err)
	}
	var dirs []string
	w := fsrepo.NewTreeWalker(u.repo.Storer, tree)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: reading commit %s: %w", u.src, c, err)
		}
		if path.Base(name) == skillmd.FileName && e.Mode.IsFile() && !names.InGitDir(name) {
			d := path.Dir(name)
			if d == "." {
				d = ""
			}
			dirs = append(dirs, d)
		}
	}
	return topFolders(dirs), nil
}

// topFolders are the folders of dirs ("" for the root) that are inside
// no other of them, sorted. Each is looked for among the folders that
// hold it, not compared with every other: a repository may hold a
// hundred thousand skill folders.
func topFolders(dirs []string) []string {
	sort.Strings(dirs)
	var top []string
	tops := map[string]bool{}
	for _, d := range dirs {
		if tops[""] {
			break // the root is a skill folder: every other is inside it
		}
		inside := tops[d]
		for i := strings.LastIndexByte(d, '/'); i > 0 && !inside; i = strings.LastIndexByte(d[:i], '/') {
			inside = tops[d[:i]]
		}
		if !inside {
			top = append(top, d)
			tops[d] = true
		}
	}
	return top
}
