package fsrepo

import (
	"context"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/lint"
)

// ErrNotGit is returned (wrapped) when a revision is asked for outside a git
// repository.
var ErrNotGit = errors.New("not inside a git repository")

// LoadOptions says what [Load] reads.
type LoadOptions struct {
	// Ref is a git revision (a branch, a tag, a SHA, HEAD~1) to read
	// instead of the working tree; "" reads the working tree.
	Ref string
	// Judge, when set, is called once skillsync.yaml is read, and the
	// judge it returns applies the security rules to every skill folder,
	// valid or not; its findings are diagnostics. Nil leaves them out.
	Judge func(config.Config) *lint.Judge
}

// Load reads the repository whose root (the folder holding skillsync.yaml)
// is root, from the working tree or from opts.Ref, and validates it.
//
// The error is for what stops the loading itself: an unreadable or invalid
// skillsync.yaml, I/O and git failures, a cancelled ctx. Every problem of
// the skills is a [diag.Diagnostic], and all of them are reported.
//
// Repo.Skills holds every skill folder found, valid or not, so that callers
// know which slugs the repository manages; a skill with an error diagnostic
// has Invalid set and holds what could be parsed. The planner must never
// apply an Invalid skill (plan and apply refuse to run while
// Diagnostics.HasErrors).
//
// Memory stays bounded whatever the repository holds. A SKILL.md over
// MaxSkillMDBytes, or a supporting file over MaxCompareBytes, is hashed as
// a stream and not kept: the SKILL.md is an error diagnostic, the file is
// File.TooLarge. A git object is measured before it is inflated, and read
// once however many paths list it. A git tree of more than MaxTreeEntries
// files and folders, or with a path over MaxTreePathBytes, is an error
// ([ErrTreeTooLarge]).
//
// Results are the same for the same content whether it is read from the
// working tree or from a commit. In the working tree, Repo.Commit is HEAD's
// commit and Repo.Dirty says whether the skills folder differs from it
// (untracked and ignored files count, since they would be loaded); outside
// git, Commit is "" and Dirty false. For a revision, Commit is the commit
// read and Dirty is false.
func Load(ctx context.Context, root string, opts LoadOptions) (*Repo, diag.Diagnostics, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, nil, err
	}
	gr, top, err := openGit(abs, true)
	if err != nil {
		return nil, nil, err
	}
	if gr != nil {
		defer closeGit(gr)
	}
	if opts.Ref != "" {
		if gr == nil {
			return nil, nil, fmt.Errorf("reading revision %q: %s is %w", opts.Ref, abs, ErrNotGit)
		}
		return withConfigWarnings(loadRevision(ctx, abs, gr, top, opts))
	}
	cfg, err := config.Read(abs)
	if err != nil {
		return nil, nil, err
	}
	return withConfigWarnings(loadWorkTree(ctx, abs, cfg, gr, top, opts.checks(cfg)))
}

// openGit opens the git repository holding dir, if any, and returns the
// path of dir inside its working tree ("" at the top), slash-separated.
// With keep, the files of git's packs stay open once read, until
// closeGit; go-git otherwise opens a pack again for every object.
func openGit(dir string, keep bool) (*git.Repository, string, error) {
	r, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", fmt.Errorf("opening git repository at %s: %w", dir, err)
	}
	if r, err = reopen(r, keep); err != nil {
		return nil, "", fmt.Errorf("opening git repository at %s: %w", dir, err)
	}
	wt, err := r.Worktree()
	if err != nil {
		return r, "", nil // bare: revisions only, read from the top
	}
	top, err1 := filepath.EvalSymlinks(wt.Filesystem.Root())
	d, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return r, "", nil
	}
	rel, err := filepath.Rel(top, d)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return r, "", nil
	}
	if rel == "." {
		rel = ""
	}
	return r, filepath.ToSlash(rel), nil
}

// reopen reopens r over the same files, reading objects over maxKeptBytes
// as streams, as go-git otherwise inflates every object it reads whole
// into memory. keep is openGit's.
func reopen(r *git.Repository, keep bool) (*git.Repository, error) {
	st, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return r, nil
	}
	s := filesystem.NewStorageWithOptions(st.Filesystem(), cache.NewObjectLRUDefault(),
		filesystem.Options{LargeObjectThreshold: maxKeptBytes, KeepDescriptors: keep})
	wt, err := r.Worktree()
	if err != nil {
		return git.Open(s, nil) // bare
	}
	return git.Open(s, wt.Filesystem)
}

// closeGit closes the files that the storage of r keeps open.
func closeGit(r *git.Repository) {
	if st, ok := r.Storer.(*filesystem.Storage); ok {
		st.Close() // files only read: closing them cannot lose data
	}
}

// An entry is a file of a skill folder, read from the working tree or a
// git tree: a regular file with its content, or a symlink with its target.
type entry struct {
	rel  string // relative to the skill folder, slash-separated
	link bool
	data []byte // nil for a large file
	// large is set for a file over maxKeptBytes, read as a stream (see
	// readContent) and never held whole.
	large  bool
	size   int64
	sha256 string // hex digest of a large file's content
	head   []byte // the first bytes of a large file, to tell binary from text
	exec   bool   // a file of the working tree that its owner may execute
}

// maxKeptBytes is the largest file whose content a load keeps: the larger
// of the limits beyond which SKILL.md and supporting files are not read
// whole.
const maxKeptBytes = max(MaxSkillMDBytes, MaxCompareBytes)

// sniffLen is how much of a file tells binary from text (see [IsBinary]).
const sniffLen = 8000

// readContent reads a file of size bytes from r into e: whole when it is at
// most maxKeptBytes, as a stream otherwise, keeping its SHA-256 and first
// bytes. gitHash, when not nil, is fed the file's git blob form, to tell
// its object id. A file whose length is not size changed while it was
// read, which is an error.
func readContent(r io.Reader, size int64, e *entry, gitHash hash.Hash) error {
	if gitHash != nil {
		gitHash.Write([]byte("blob " + strconv.FormatInt(size, 10) + "\x00"))
	}
	if size <= maxKeptBytes {
		buf := make([]byte, size+1) // one byte more, to find none there
		data := buf[:size]
		if _, err := io.ReadFull(r, data); errors.Is(err, io.ErrUnexpectedEOF) {
			return errChanged
		} else if err != nil {
			return err
		}
		if n, _ := r.Read(buf[size:]); n > 0 {
			return errChanged
		}
		if gitHash != nil {
			gitHash.Write(data)
		}
		e.data = data
		return nil
	}
	sum := sha256.New()
	var w io.Writer = sum
	if gitHash != nil {
		w = io.MultiWriter(sum, gitHash)
	}
	head := make([]byte, sniffLen) // size > maxKeptBytes > sniffLen
	if _, err := io.ReadFull(r, head); errors.Is(err, io.ErrUnexpectedEOF) {
		return errChanged
	} else if err != nil {
		return err
	}
	w.Write(head)
	n, err := io.Copy(w, io.LimitReader(r, size-sniffLen+1))
	if err != nil {
		return err
	}
	if n != size-sniffLen {
		return errChanged
	}
	e.large, e.size, e.sha256, e.head = true, size, hex.EncodeToString(sum.Sum(nil)), head
	return nil
}

// errChanged is a file that changed while it was read.
var errChanged = errors.New("the file changed while it was read; try again")

// A folder is a top-level entry of the skills folder.
type folder struct {
	slug    string
	isLink  bool // the folder itself is a symlink (never followed)
	entries []entry
	// excluded are the development files dropExcluded took out of entries.
	excluded []entry
	// When the loader asks for them: the git ids of the folder's files
	// by path in it, and the id of the tree git would commit of it, zero
	// when it holds no file, as git keeps no empty folder.
	ids  map[string]plumbing.Hash
	tree plumbing.Hash
}

func loadWorkTree(ctx context.Context, root string, cfg config.Config, gr *git.Repository, prefix string, c checks) (*Repo, diag.Diagnostics, error) {
	repo := &Repo{Root: root, Config: cfg}
	dir := filepath.Join(root, filepath.FromSlash(cfg.SkillsDir))
	// A repository whose skills folder cannot be read holds no skill: d
	// says why, and HEAD's commit is still told.
	noSkills := func(d diag.Diagnostic) (*Repo, diag.Diagnostics, error) {
		var err error
		if gr != nil {
			repo.Commit, repo.Dirty, err = dirtyAgainstHead(gr, prefix, cfg.SkillsDir, nil, nil)
		}
		return repo, diag.Diagnostics{d}, err
	}
	// The skills folder, and every folder on the way to it, must be a real
	// folder: through a symlink, it could lie outside the repository.
	if link := symlinkOnPath(root, cfg.SkillsDir); link != "" {
		return noSkills(diag.Diagnostic{Path: link, Severity: diag.SeverityError, Code: "skills-dir-symlink",
			Message: fmt.Sprintf("skills folder %q is reached through the symlink %q, which is never followed", cfg.SkillsDir, link),
			Hint:    "make it a real folder of the repository, or set skillsDir in " + config.FileName + " to the real one"})
	}
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		return noSkills(missingSkillsDir(cfg.SkillsDir))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading skills folder: %w", err)
	}
	inGit := gr != nil
	var folders []*folder
	var top []object.TreeEntry // the entries of the skills folder, as git would commit them
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || SkipsFile(name) {
			continue
		}
		switch t := de.Type(); {
		case t.IsDir():
			folders = append(folders, &folder{slug: name})
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(filepath.Join(dir, name))
			if err != nil {
				return nil, nil, err
			}
			folders = append(folders, &folder{slug: name, isLink: true})
			top = append(top, object.TreeEntry{Name: name, Mode: filemode.Symlink, Hash: blobHash([]byte(target))})
		case t.IsRegular() && inGit:
			h, e := sha1.New(), entry{rel: name}
			if err := readWorkFile(filepath.Join(dir, name), &e, h); err != nil {
				return nil, nil, fmt.Errorf("reading skills folder: %w", err)
			}
			top = append(top, object.TreeEntry{Name: name, Mode: gitMode(&e), Hash: plumbing.Hash(h.Sum(nil))})
		}
	}
	err = bug.Each(ctx, len(folders), loadWorkers(), func(_ context.Context, i int) error {
		f := folders[i]
		if f.isLink {
			return nil
		}
		if inGit {
			f.ids = map[string]plumbing.Hash{}
		}
		var err error
		f.tree, err = f.read(filepath.Join(dir, f.slug), "")
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	lock, lds, err := ReadLock(root)
	if err != nil {
		return nil, nil, err
	}
	ds, err := buildRepo(ctx, repo, c, folders, lock, lds)
	if err != nil {
		return nil, nil, err
	}
	if inGit {
		for _, f := range folders {
			if !f.tree.IsZero() {
				top = append(top, object.TreeEntry{Name: f.slug, Mode: filemode.Dir, Hash: f.tree})
			}
		}
		repo.Commit, repo.Dirty, err = dirtyAgainstHead(gr, prefix, cfg.SkillsDir, top, folders)
		if err != nil {
			return nil, nil, err
		}
	}
	return repo, ds, nil
}

// read reads the files of sub, a folder of the skill folder dir ("" or a
// slash-separated path ending in "/"), and of its folders, and returns
// the id of sub as a git tree when f.ids is kept. Symlinks are read,
// never followed: their target is the entry's data.
func (f *folder) read(dir, sub string) (plumbing.Hash, error) {
	des, err := os.ReadDir(filepath.Join(dir, filepath.FromSlash(sub)))
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("reading skill folder: %w", err)
	}
	var tree []object.TreeEntry
	for _, de := range des {
		rel := sub + de.Name()
		if de.IsDir() {
			id, err := f.read(dir, rel+"/")
			if err != nil {
				return plumbing.ZeroHash, err
			}
			if !id.IsZero() {
				tree = append(tree, object.TreeEntry{Name: de.Name(), Mode: filemode.Dir, Hash: id})
			}
			continue
		}
		if SkipsFile(de.Name()) {
			continue
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		e := entry{rel: rel}
		file := object.TreeEntry{Name: de.Name()} // as git would commit it, when f.ids is kept
		switch t := de.Type(); {
		case t&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return plumbing.ZeroHash, fmt.Errorf("reading skill folder: %w", err)
			}
			e.link, e.data = true, []byte(filepath.ToSlash(target))
			file.Mode, file.Hash = filemode.Symlink, blobHash(e.data)
		case t.IsRegular():
			var h hash.Hash
			if f.ids != nil {
				h = sha1.New()
			}
			if err := readWorkFile(p, &e, h); err != nil {
				return plumbing.ZeroHash, fmt.Errorf("reading skill folder: %s: %w", p, err)
			}
			file.Mode = gitMode(&e)
			if h != nil {
				file.Hash = plumbing.Hash(h.Sum(nil))
			}
		default:
			continue // sockets, devices: never part of a skill, and git cannot hold them
		}
		f.entries = append(f.entries, e)
		if f.ids != nil {
			f.ids[rel] = file.Hash
			tree = append(tree, file)
		}
	}
	if len(tree) == 0 {
		return plumbing.ZeroHash, nil
	}
	return hashTree(tree), nil
}

// readWorkFile reads the regular file name of the working tree into e (see
// readContent), sized first.
func readWorkFile(name string, e *entry, gitHash hash.Hash) error {
	// O_NONBLOCK keeps os from registering the file with the poller; a
	// regular file is read the same with it.
	f, err := os.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	e.exec = fi.Mode()&0o100 != 0
	return readContent(f, fi.Size(), e, gitHash)
}

// gitMode is the mode git commits the regular file e of the working tree
// with: it keeps the owner's execute bit only.
func gitMode(e *entry) filemode.FileMode {
	if e.exec {
		return filemode.Executable
	}
	return filemode.Regular
}

// blobHash is the git object id of a blob holding data.
func blobHash(data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write([]byte("blob " + strconv.Itoa(len(data)) + "\x00"))
	h.Write(data)
	var sum plumbing.Hash
	h.Sum(sum[:0])
	return sum
}

// dirtyAgainstHead reports whether the working tree's skills folder
// differs from HEAD's in the content of a file that the loader reads. top
// holds the entries of the folder as git would commit them, its skill
// folders already hashed, and folders their files. Where top is what HEAD
// holds, no tree of HEAD is read.
func dirtyAgainstHead(gr *git.Repository, prefix, skillsDir string, top []object.TreeEntry, folders []*folder) (string, bool, error) {
	head, err := gr.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", len(top) > 0, nil // no commit yet
	}
	if err != nil {
		return "", false, fmt.Errorf("reading HEAD: %w", err)
	}
	commit, err := gr.CommitObject(head.Hash())
	if err != nil {
		return "", false, fmt.Errorf("reading HEAD commit: %w", err)
	}
	id := commit.Hash.String()
	headID, ok, err := skillsTreeID(commit, prefix, skillsDir)
	if err != nil || !ok {
		return id, len(top) > 0, err
	}
	if hashTree(top) == headID {
		return id, false, nil
	}
	// The trees differ; perhaps only in what the loader leaves out (a
	// committed .DS_Store, a file's mode): compare the files it reads.
	work := map[string]plumbing.Hash{}
	for _, e := range top {
		if e.Mode != filemode.Dir {
			work[e.Name] = e.Hash
		}
	}
	for _, f := range folders {
		for rel, blob := range f.ids {
			work[f.slug+"/"+rel] = blob
		}
	}
	tree, err := object.GetTree(gr.Storer, headID)
	if err != nil {
		return "", false, fmt.Errorf("reading %s in commit %s: %w", skillsDir, id, err)
	}
	n := 0
	w := NewTreeWalker(gr.Storer, tree)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", false, fmt.Errorf("reading %s in commit %s: %w", skillsDir, id, err)
		}
		if !e.Mode.IsFile() || skipTreePath(name) {
			continue
		}
		if blob, ok := work[name]; !ok || blob != e.Hash {
			return id, true, nil
		}
		n++
	}
	return id, n != len(work), nil
}

// skipTreePath reports paths of a skills folder that are not read: hidden
// top-level entries and files operating systems leave behind.
func skipTreePath(p string) bool {
	return strings.HasPrefix(p, ".") || SkipsFile(p)
}

// skillsTreeID returns the id of the tree of the skills folder in commit,
// and false when the commit has none.
func skillsTreeID(commit *object.Commit, prefix, skillsDir string) (plumbing.Hash, bool, error) {
	tree, err := commit.Tree()
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("reading commit %s: %w", commit.Hash, err)
	}
	p := path.Join(prefix, skillsDir)
	if p == "." || p == "" {
		return tree.Hash, true, nil
	}
	e, err := tree.FindEntry(p)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return plumbing.ZeroHash, false, nil
	}
	if err != nil {
		return plumbing.ZeroHash, false, fmt.Errorf("reading %s in commit %s: %w", p, commit.Hash, err)
	}
	return e.Hash, e.Mode == filemode.Dir, nil
}

func loadRevision(ctx context.Context, root string, gr *git.Repository, prefix string, opts LoadOptions) (*Repo, diag.Diagnostics, error) {
	ref := opts.Ref
	h, err := gr.ResolveRevision(plumbing.Revision(ref))
	if err != nil {
		// go-git's causes ("reference not found", "EOF" past the first
		// commit) say nothing more than this.
		return nil, nil, fmt.Errorf("revision %q: %w in the repository at %s", ref, ErrUnknownRevision, root)
	}
	commit, err := gr.CommitObject(*h)
	if err != nil {
		return nil, nil, fmt.Errorf("reading commit %s (%s): %w", h, ref, err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, nil, fmt.Errorf("reading commit %s (%s): %w", h, ref, err)
	}
	cfgPath := path.Join(prefix, config.FileName)
	cf, err := tree.File(cfgPath)
	if errors.Is(err, object.ErrFileNotFound) {
		return nil, nil, fmt.Errorf("%w at %s in revision %q (%s)", config.ErrNotFound, cfgPath, ref, ShortCommit(commit.Hash.String()))
	}
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s in %s: %w", cfgPath, ref, err)
	}
	if err := config.CheckSize(cf.Size); err != nil {
		return nil, nil, fmt.Errorf("%s in revision %q: %w", cfgPath, ref, err)
	}
	data, err := cf.Contents()
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s in %s: %w", cfgPath, ref, err)
	}
	cfg, err := config.Parse([]byte(data))
	if err != nil {
		return nil, nil, err
	}
	c := opts.checks(cfg)
	repo := &Repo{Root: root, Config: cfg, Commit: commit.Hash.String()}
	stID, ok, err := skillsTreeID(commit, prefix, cfg.SkillsDir)
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return repo, diag.Diagnostics{missingSkillsDir(cfg.SkillsDir)}, nil
	}
	st, err := object.GetTree(gr.Storer, stID)
	if err != nil {
		return nil, nil, fmt.Errorf("reading %s in commit %s: %w", path.Join(prefix, cfg.SkillsDir), commit.Hash, err)
	}

	// go-git's object storage is read here from one goroutine only; the
	// parsing that follows runs in parallel.
	bySlug := map[string]*folder{}
	var folders []*folder
	// blobs holds the content of each blob read, by its id: a blob that
	// git stores once is read once, however many paths list it.
	blobs := map[plumbing.Hash]entry{}
	w := NewTreeWalker(gr.Storer, st)
	defer w.Close()
	for {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		name, e, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, fmt.Errorf("reading %s in commit %s: %w", cfg.SkillsDir, commit.Hash, err)
		}
		if skipTreePath(name) {
			continue
		}
		slug, rel, nested := strings.Cut(name, "/")
		if !nested {
			if e.Mode == filemode.Symlink {
				folders = append(folders, &folder{slug: slug, isLink: true})
			}
			continue // a tree is a skill folder when it has files; other files are not skills
		}
		if !e.Mode.IsFile() {
			continue // submodules
		}
		f := bySlug[slug]
		if f == nil {
			f = &folder{slug: slug}
			bySlug[slug] = f
			folders = append(folders, f)
		}
		ent, read := blobs[e.Hash]
		if !read {
			// The size is in the object's header: a blob is measured
			// before it is inflated, as a small object may inflate to
			// gigabytes.
			size, err := gr.Storer.EncodedObjectSize(e.Hash)
			if err == nil {
				err = readBlob(gr, e.Hash, size, &ent)
			}
			if err != nil {
				return nil, nil, fmt.Errorf("reading %s in commit %s: %w", name, commit.Hash, err)
			}
			blobs[e.Hash] = ent
		}
		ent.rel, ent.link = rel, e.Mode == filemode.Symlink
		f.entries = append(f.entries, ent)
	}
	lock, lds, err := revisionLock(tree, prefix, ref)
	if err != nil {
		return nil, nil, err
	}
	ds, err := buildRepo(ctx, repo, c, folders, lock, lds)
	if err != nil {
		return nil, nil, err
	}
	return repo, ds, nil
}

// revisionLock reads skillsync.lock from tree, the tree of the commit of
// ref, as [ReadLock] reads it from the working tree.
func revisionLock(tree *object.Tree, prefix, ref string) (Lock, diag.Diagnostics, error) {
	name := path.Join(prefix, LockFile)
	lf, err := tree.File(name)
	if errors.Is(err, object.ErrFileNotFound) {
		return Lock{}, nil, nil
	}
	if err != nil {
		return Lock{}, nil, fmt.Errorf("reading %s in %s: %w", name, ref, err)
	}
	if lf.Size > maxLockBytes {
		return Lock{}, diag.Diagnostics{lockDiag(0, "%s is over %d bytes and is not read", LockFile, maxLockBytes)}, nil
	}
	data, err := lf.Contents()
	if err != nil {
		return Lock{}, nil, fmt.Errorf("reading %s in %s: %w", name, ref, err)
	}
	lock, ds := ParseLock([]byte(data))
	return lock, ds, nil
}

// buildRepo sets repo.Skills to the skills of folders, and returns their
// diagnostics: those of the skills, of the lock (lds, the lock's own,
// else those of the vendored folders it names) and of the development
// files left out.
func buildRepo(ctx context.Context, repo *Repo, c checks, folders []*folder, lock Lock, lds diag.Diagnostics) (diag.Diagnostics, error) {
	dir := repo.Config.SkillsDir
	xds := dropExcluded(dir, repo.Config.ExcludeFiles, folders)
	if len(lds) == 0 {
		lds = checkVendored(dir, lock, folders)
	}
	skills, ds, err := buildSkills(ctx, dir, c, folders)
	if err != nil {
		return nil, err
	}
	ds = slices.Concat(ds, lds, xds)
	ds.Sort()
	repo.Skills = skills
	return ds, nil
}

// readBlob reads the blob id of size bytes into e (see readContent).
func readBlob(gr *git.Repository, id plumbing.Hash, size int64, e *entry) error {
	blob, err := gr.BlobObject(id)
	if err != nil {
		return err
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	return readContent(r, size, e, nil)
}

// symlinkOnPath returns the first element of rel (slash-separated, inside
// root) that is a symlink, as a slash-separated path relative to root, or
// "" if there is none. Elements that do not exist end the walk.
func symlinkOnPath(root, rel string) string {
	cur := root
	done := ""
	for _, elem := range strings.Split(rel, "/") {
		if elem == "" || elem == "." {
			continue
		}
		cur = filepath.Join(cur, elem)
		done = path.Join(done, elem)
		fi, err := os.Lstat(cur)
		if err != nil {
			return ""
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return done
		}
	}
	return ""
}

func missingSkillsDir(dir string) diag.Diagnostic {
	return diag.Diagnostic{Path: dir, Severity: diag.SeverityError, Code: "skills-dir-missing",
		Message: fmt.Sprintf("skills folder %q not found", dir),
		Hint:    "create it with one folder per skill, or set skillsDir in " + config.FileName}
}

// loadWorkers is how many skill folders a load reads, or checks, at once:
// one a CPU, and at least 4, as reading files waits on the disk.
func loadWorkers() int { return max(runtime.GOMAXPROCS(0), 4) }

// maxOthersNamed bounds the other skills of a name that the diagnostic of
// each names, so that the diagnostics of n skills of one name grow as n,
// not n².
const maxOthersNamed = 5

// otherPaths names the skills of idx but skills[i], up to maxOthersNamed
// of them, then how many more there are.
func otherPaths(skills []Skill, idx []int, i int) string {
	var others []string
	for _, j := range idx {
		if j == i {
			continue
		}
		if len(others) == maxOthersNamed {
			more := len(idx) - 1 - maxOthersNamed
			if more == 1 {
				return strings.Join(others, ", ") + " and 1 other skill"
			}
			return strings.Join(others, ", ") + fmt.Sprintf(" and %d other skills", more)
		}
		others = append(others, skills[j].Path)
	}
	return strings.Join(others, ", ")
}

// checks are the rules beyond the service's that judge each skill folder.
type checks struct {
	lint  lint.Config // the levels of the content rules, and the waivers
	judge *lint.Judge // the security rules; nil leaves them out
	// whole is set for the checks of every skill of a repository: a
	// waiver that accepts no finding is reported.
	whole bool
}

// checks are the checks of a load of a repository configured by cfg.
func (o LoadOptions) checks(cfg config.Config) checks {
	c := checks{lint: cfg.Lint, whole: true}
	if o.Judge != nil {
		c.judge = o.Judge(cfg)
	}
	return c
}

// buildSkills makes the skills of the folders, sorted by slug, and checks
// the rules that span skills; c holds the rules beyond the service's. The
// error is ctx's, or a bug's.
func buildSkills(ctx context.Context, skillsDir string, c checks, folders []*folder) ([]Skill, diag.Diagnostics, error) {
	sort.Slice(folders, func(i, j int) bool { return folders[i].slug < folders[j].slug })
	type result struct {
		sk     *Skill
		ds     diag.Diagnostics
		name   nameInfo
		waived []int
	}
	results := make([]result, len(folders))
	err := bug.Each(ctx, len(folders), loadWorkers(), func(_ context.Context, i int) error {
		sk, ds, ni, waived := buildSkill(skillsDir, c, folders[i])
		folders[i].entries = nil // let the contents go as soon as possible
		results[i] = result{sk, ds, ni, waived}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	var all diag.Diagnostics
	slugs := make([]string, len(folders))
	for i, f := range folders {
		slugs[i] = f.slug
	}
	twins := caseTwins(slugs) // slugs are sorted, as caseTwins needs
	for _, slug := range slugs {
		if twin, ok := twins[slug]; ok {
			all = append(all, diag.Diagnostic{Path: path.Join(skillsDir, slug), Severity: diag.SeverityError, Code: "path-unportable",
				Message: twin.reason(skillsDir), Hint: portHint})
		}
	}
	var skills []Skill
	var names []nameInfo
	byName := map[string][]int{}
	waived := make([]bool, len(c.lint.Waivers))
	for _, r := range results {
		all = append(all, r.ds...)
		for _, i := range r.waived {
			waived[i] = true
		}
		if r.sk == nil {
			continue
		}
		if r.sk.Name != "" {
			k := strings.ToLower(r.sk.Name)
			byName[k] = append(byName[k], len(skills))
		}
		skills = append(skills, *r.sk)
		names = append(names, r.name)
	}
	// Two skills with one name confuse the AI, which picks skills by name
	// and description, and the people reading the space.
	for _, idx := range byName {
		if len(idx) < 2 {
			continue
		}
		for _, i := range idx {
			ni := names[i]
			all = append(all, diag.Diagnostic{Path: skills[i].Path, Line: ni.line, Col: ni.col, Severity: diag.SeverityWarning,
				Code: "name-duplicate", Message: fmt.Sprintf("name %s is also the name of %s", visible.Quote(skills[i].Name), otherPaths(skills, idx, i)),
				Hint: "give each skill a distinct name"})
		}
	}
	if c.judge != nil && c.whole {
		all = append(all, unusedWaivers(c.lint.Waivers, waived, skills)...)
	}
	all.Sort()
	return skills, all, nil
}

// unusedWaivers are the warnings of the waivers that accepted no finding
// of skills: the file they accepted changed, and its findings are
// reported again, or the finding is gone.
func unusedWaivers(ws []lint.Waiver, used []bool, skills []Skill) diag.Diagnostics {
	var ds diag.Diagnostics
	for i, w := range ws {
		if used[i] {
			continue
		}
		why := "the file it accepted changed (its findings are reported again, to be judged anew) or the finding is gone"
		if !slices.ContainsFunc(skills, func(s Skill) bool { return s.Slug == w.Skill }) {
			why = fmt.Sprintf("there is no skill %s", visible.Quote(w.Skill))
		}
		ds = append(ds, diag.Diagnostic{Path: config.FileName, Line: w.Line, Col: 1, Severity: diag.SeverityWarning, Code: "waiver-unused",
			Message: fmt.Sprintf("waiver of rule %s for skill %s (hash %s) accepts no finding: %s", w.Rule, w.Skill, w.Hash, why),
			Hint:    "remove the waiver; if a finding it accepted is reported again, review it and waive its new hash"})
	}
	return ds
}

// ErrUnknownRevision is returned (wrapped) by [Load] for a LoadOptions.Ref
// that names no commit of the repository.
var ErrUnknownRevision = errors.New("no such branch, tag or commit")
