package vendored

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/lint"
)

// AddOptions say what [Add] vendors.
type AddOptions struct {
	// Source is an https URL or the path of a git repository (or of a
	// folder in one), as given.
	Source string
	// Path is the skill's folder in the source, slash-separated; "" finds
	// it: the root when it holds a SKILL.md, else the one folder that
	// does.
	Path string
	// Ref is the branch, tag or commit to copy; "" for the source's HEAD
	// (its default branch).
	Ref string
	// As names the local folder (the skill's slug); "" for the name of the
	// upstream folder (of the repository, for its root).
	As string
	// Force writes a skill that has validation errors, but none of the
	// security rules: only a waiver accepts those.
	Force bool
	// Auth gives a remote source's host its token, if any.
	Auth Auth
	// Judge, when set, judges upstream's folder with the security rules
	// before anything is written.
	Judge *lint.Judge
}

// Added is a skill [Add] vendored.
type Added struct {
	Skill fsrepo.LockedSkill // its entry in skillsync.lock
	Dir   string             // its folder, slash-separated, relative to the repository root
	Files []string           // its files, relative to Dir, sorted
	// Diagnostics are the skill's problems, as validate reports them.
	Diagnostics diag.Diagnostics
	// Notes say what was not copied (submodules).
	Notes []string
}

// ErrInvalidSkill is returned by [Add] for a skill with validation errors,
// which plan and apply would refuse: nothing is written (unless
// AddOptions.Force). The diagnostics are in the [Added] returned with it.
var ErrInvalidSkill = errors.New("the skill has errors that validate and plan refuse")

// ErrInsecureSkill is returned by [Add] and reported by [Update] for
// upstream content in which the security rules find an error that no
// waiver of skillsync.yaml accepts: nothing is written, even with Force.
var ErrInsecureSkill = errors.New("the security rules find errors in upstream's content")

// A LockError is a skillsync.lock that cannot be read: vendoring stops
// until it is fixed.
type LockError struct {
	Diagnostics diag.Diagnostics
}

func (e *LockError) Error() string {
	var b strings.Builder
	b.WriteString(fsrepo.LockFile + " is invalid")
	for _, d := range e.Diagnostics {
		b.WriteString("\n  " + d.String())
	}
	return b.String()
}

func readLock(root string) (fsrepo.Lock, error) {
	l, ds, err := fsrepo.ReadLock(root)
	if err != nil {
		return fsrepo.Lock{}, err
	}
	if len(ds) > 0 {
		return fsrepo.Lock{}, &LockError{Diagnostics: ds}
	}
	return l, nil
}

// Add copies a skill folder from a git repository into the skills folder
// of the repository at root, and records where it came from in
// skillsync.lock. It writes nothing when the folder would hold a skill
// with validation errors (unless opts.Force), when the local folder
// exists, or when the slug is already vendored (then it is [Update]'s).
func Add(ctx context.Context, root string, opts AddOptions) (*Added, error) {
	cfg, err := config.Read(root)
	if err != nil {
		return nil, err
	}
	lock, err := readLock(root)
	if err != nil {
		return nil, err
	}
	workDir, err := os.Getwd() // a relative Source counts from here
	if err != nil {
		return nil, err
	}
	src, err := ParseSource(opts.Source, root, workDir)
	if err != nil {
		return nil, err
	}
	dir, err := cleanPath(opts.Path)
	if err != nil {
		return nil, err
	}
	u, err := openUpstream(ctx, src, opts.Auth)
	if err != nil {
		return nil, err
	}
	defer u.close()
	if !src.Remote() {
		// A folder inside a repository: the repository is the source,
		// the folder the path in it.
		top, sub, err := worktreeTop(u, src.dir)
		if err != nil {
			return nil, err
		}
		if sub != "" {
			dir = path.Join(sub, dir)
			if src, err = ParseSource(relativeLike(opts.Source, top, workDir), root, workDir); err != nil {
				return nil, err
			}
			u.src = src
		}
	}
	t, err := u.resolve(opts.Ref)
	if err != nil {
		return nil, err
	}
	if err := u.fetch(ctx, []*target{&t}, nil); err != nil {
		return nil, err
	}
	if dir, err = chooseFolder(u, t.commit, dir); err != nil {
		return nil, err
	}
	files, notes, err := u.folder(t.commit, dir)
	if err != nil {
		return nil, err
	}

	slug := opts.As
	if slug == "" {
		slug = path.Base(dir)
		if dir == "" {
			slug = src.repoName()
		}
	}
	if err := fsrepo.CheckFolderName(slug); err != nil {
		return nil, fmt.Errorf("folder name %q: %v; name it with --as", slug, err)
	}
	local := path.Join(cfg.SkillsDir, slug)
	if prev, ok := lock.Entry(slug); ok {
		return nil, fmt.Errorf("skill %q is already vendored from %s at %s (%s line %d): skillsync vendor update %s brings in upstream's changes; to vendor another skill under this name, remove this one first",
			slug, prev.Source, fsrepo.ShortCommit(prev.Commit), fsrepo.LockFile, prev.Line, slug)
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(local))); err == nil {
		return nil, fmt.Errorf("%s already exists: vendor the skill under another folder name with --as", local)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}

	contents := make(map[string][]byte, len(files))
	writes := make(map[string]fsrepo.FileData, len(files))
	for p, f := range files {
		contents[p] = f.data
		writes[p] = fsrepo.FileData{Data: f.data, Exec: f.exec}
	}
	added := &Added{Dir: local, Files: slices.Sorted(maps.Keys(files)), Notes: notes}
	_, ds, err := fsrepo.CheckFolder(cfg, slug, contents, opts.Judge)
	if err != nil {
		return nil, err
	}
	added.Diagnostics = ds
	if fsrepo.SecurityErrors(ds) {
		return added, ErrInsecureSkill
	}
	if ds.HasErrors() && !opts.Force {
		return added, ErrInvalidSkill
	}
	w := fsrepo.NewSkillWriter(root, cfg.SkillsDir, fsrepo.WriteOptions{})
	w.AddExact(slug, writes, nil)
	if _, err := w.Write(); err != nil {
		return nil, err
	}
	added.Skill = fsrepo.LockedSkill{Slug: slug, Source: src.Spec, Path: dir, Ref: opts.Ref,
		Commit: t.commit.String(), Hash: fsrepo.HashFiles(contents, cfg.ExcludeFiles)}
	lock.Set(added.Skill)
	if err := fsrepo.WriteLock(root, lock); err != nil {
		return nil, fmt.Errorf("%s is written, but %w: remove the folder and vendor it again", local, err)
	}
	return added, nil
}

// cleanPath checks a folder of a source repository as given with --path.
func cleanPath(p string) (string, error) {
	if given := filepath.ToSlash(p); strings.HasPrefix(given, "/") || filepath.IsAbs(p) {
		return "", fmt.Errorf("path %q is absolute: give the folder inside the source repository, as in skills/pdf", p)
	}
	p = strings.Trim(strings.TrimPrefix(filepath.ToSlash(p), "./"), "/")
	if p == "" || p == "." {
		return "", nil
	}
	if c := path.Clean(p); c != p || c == ".." || strings.HasPrefix(c, "../") {
		return "", fmt.Errorf("path %q must be a folder of the source repository, as in skills/pdf", p)
	}
	return p, nil
}

// worktreeTop returns the top of the working tree of a local source
// opened from dir, and dir's path inside it ("" at the top, and for a
// bare repository).
func worktreeTop(u *upstream, dir string) (string, string, error) {
	wt, err := u.repo.Worktree()
	if err != nil {
		return dir, "", nil // bare
	}
	top, err1 := filepath.EvalSymlinks(wt.Filesystem.Root())
	d, err2 := filepath.EvalSymlinks(dir)
	if err1 != nil || err2 != nil {
		return dir, "", nil
	}
	rel, err := filepath.Rel(top, d)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return dir, "", nil
	}
	return wt.Filesystem.Root(), filepath.ToSlash(rel), nil
}

// relativeLike gives top as given was given: absolute, or relative to
// workDir.
func relativeLike(given, top, workDir string) string {
	if filepath.IsAbs(filepath.FromSlash(given)) {
		return top
	}
	wd, err1 := filepath.EvalSymlinks(workDir)
	t, err2 := filepath.EvalSymlinks(top)
	if err1 != nil || err2 != nil {
		return top
	}
	if rel, err := filepath.Rel(wd, t); err == nil {
		return rel
	}
	return top
}

// chooseFolder checks the folder asked for, or finds the skill's folder
// when none was (dir is "").
func chooseFolder(u *upstream, commit plumbing.Hash, dir string) (string, error) {
	folders, err := u.skillFolders(commit)
	if err != nil {
		return "", err
	}
	if dir == "" {
		switch {
		case len(folders) == 0:
			return "", fmt.Errorf("%s holds no %s at %s: it has no skill to vendor", u.src, skillmd.FileName, fsrepo.ShortCommit(commit.String()))
		case folders[0] == "" || len(folders) == 1:
			return folders[0], nil
		}
		return "", fmt.Errorf("%s holds %d skills; choose one with --path:\n  %s", u.src, len(folders), listFolders(folders))
	}
	var below []string
	for _, f := range folders {
		if f == dir {
			return dir, nil
		}
		if strings.HasPrefix(f, dir+"/") {
			below = append(below, f)
		}
	}
	if len(below) > 0 {
		return "", fmt.Errorf("%s has no %s in %s, but holds %d skills below it; choose one with --path:\n  %s",
			u.src, skillmd.FileName, displayDir(dir), len(below), listFolders(below))
	}
	if _, _, err := u.folder(commit, dir); errors.Is(err, ErrNoFolder) {
		return "", err
	}
	return "", fmt.Errorf("%s has no %s in %s at %s: it is not a skill folder", u.src, skillmd.FileName, displayDir(dir), fsrepo.ShortCommit(commit.String()))
}

func displayDir(dir string) string {
	return cmp.Or(dir, "its root")
}

func listFolders(fs []string) string {
	const most = 20
	more := ""
	if len(fs) > most {
		more = fmt.Sprintf("\n  ... and %d more", len(fs)-most)
		fs = fs[:most]
	}
	return strings.Join(fs, "\n  ") + more
}

// readLocalFolder reads the vendored folder dir (relative to root): its
// regular files, but those [fsrepo.SkipsFile] leaves out. A symlink in it
// is an error: vendoring writes none, and never follows one.
func readLocalFolder(root, dir string) (map[string]file, error) {
	base := filepath.Join(root, filepath.FromSlash(dir))
	fi, err := os.Lstat(base)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", dir)
	}
	files := map[string]file{}
	err = filepath.WalkDir(base, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(base, p)
		rel = filepath.ToSlash(rel)
		switch t := de.Type(); {
		case t.IsDir():
			return nil
		case t&fs.ModeSymlink != 0:
			return fmt.Errorf("%s/%s is a symlink, which vendoring never follows: make it a file", dir, rel)
		case !t.IsRegular() || fsrepo.SkipsFile(rel):
			return nil
		}
		data, err := bounded.ReadFile(p, MaxFileBytes)
		var tl *bounded.TooLargeError
		if errors.As(err, &tl) {
			return fmt.Errorf("%s/%s is over the %d bytes a vendored file may be", dir, rel, MaxFileBytes)
		}
		if err != nil {
			return err
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		files[rel] = file{data: data, exec: info.Mode().Perm()&0o100 != 0}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", dir, err)
	}
	return files, nil
}
