package fsrepo

import (
	"bytes"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/spec"
)

// WriteOptions say how a [SkillWriter] treats files already on disk.
type WriteOptions struct {
	// Force overwrites local files that differ from git's HEAD. It never
	// allows a path through a symlink or out of the skills folder.
	Force bool
	// HeadBlob returns the content of a file (slash-separated, relative to
	// the repository root) in git's HEAD, and whether HEAD has it. When nil,
	// HEAD is read with go-git from the repository holding the root; outside
	// git no file has a HEAD version.
	HeadBlob func(relPath string) ([]byte, bool)
}

// A PathProblem is a path a [SkillWriter] will not write, and why.
type PathProblem struct {
	Path   string // slash-separated, relative to the repository root
	Reason string
}

// RefusedError is returned by [SkillWriter.Write] when any file cannot be
// written safely; nothing at all has been written then.
type RefusedError struct {
	// Unsafe paths break the files endpoint's rules, leave the skills
	// folder, or pass through a symlink (which is never followed).
	Unsafe []PathProblem
	// Modified files hold local work: they differ from git's HEAD (or are
	// not in it) and from what would be written. [WriteOptions.Force]
	// overwrites them.
	Modified []string
}

func (e *RefusedError) Error() string {
	var b strings.Builder
	b.WriteString("nothing was written")
	if len(e.Unsafe) > 0 {
		fmt.Fprintf(&b, "\n%d unsafe %s, never written:", len(e.Unsafe), names.Plural(len(e.Unsafe), "path", "paths"))
		for _, p := range e.Unsafe {
			fmt.Fprintf(&b, "\n  %s: %s", p.Path, p.Reason)
		}
	}
	if len(e.Modified) > 0 {
		fmt.Fprintf(&b, "\n%d local %s from git HEAD and would be overwritten:", len(e.Modified), names.Plural(len(e.Modified), "file differs", "files differ"))
		for _, p := range e.Modified {
			fmt.Fprintf(&b, "\n  %s", p)
		}
	}
	return b.String()
}

// SkillWriter writes skill folders into a repository's skills folder, all
// or nothing: [SkillWriter.Write] checks every file first (the path rules,
// every component for a symlink, local changes against git's HEAD) and
// writes only when all pass, each file atomically (a temporary file renamed
// over the target in the same folder). A file git reads for itself, or
// whose name a checkout on Windows or macOS cannot hold, is skipped, and
// reported in [SkillWritten.Skipped] (see [Unwritable]).
type SkillWriter struct {
	root      string
	skillsDir string
	opts      WriteOptions
	skills    []pendingSkill
	problems  []PathProblem
}

type pendingSkill struct {
	slug  string
	files map[string][]byte
	// exact skills (see AddExact) are written byte for byte, with their
	// executable bits, and have files to remove.
	exact  bool
	exec   map[string]bool
	remove []string
	// skipped are the files given that are not written (see [Unwritable]).
	skipped []PathProblem
}

// FileData is a file that [SkillWriter.AddExact] writes: its content, and
// whether it is executable.
type FileData struct {
	Data []byte
	Exec bool
}

// NewSkillWriter returns a writer into root/skillsDir; skillsDir is
// slash-separated and relative to root, as in [Config].
func NewSkillWriter(root, skillsDir string, opts WriteOptions) *SkillWriter {
	return &SkillWriter{root: root, skillsDir: skillsDir, opts: opts}
}

// Add queues the files of the skill folder slug, by path relative to the
// folder (SKILL.md included). Problems with the slug or the paths are
// reported by Write, with all the others. A SKILL.md already there is
// merged with the new one by [skillmd.Merge]: its other frontmatter keys are
// kept, and it is left as it is when it already says the same.
func (w *SkillWriter) Add(slug string, files map[string][]byte) {
	w.add(pendingSkill{slug: slug, files: files})
}

// AddExact queues the files of the skill folder slug to be written as
// given, byte for byte (SKILL.md too: it is never merged with the one on
// disk), executable or not as each says, and the files of remove deleted,
// with the folders their deletion leaves empty. Paths are relative to the
// folder. Vendoring writes so the folders it copies from upstream: their
// paths need only be safe to write, not ones the files endpoint takes.
// Removing a file that differs from git's HEAD is refused, as overwriting
// one is, unless [WriteOptions.Force].
func (w *SkillWriter) AddExact(slug string, files map[string]FileData, remove []string) {
	p := pendingSkill{slug: slug, files: make(map[string][]byte, len(files)), exact: true,
		exec: map[string]bool{}, remove: append([]string(nil), remove...)}
	for rel, f := range files {
		p.files[rel] = f.Data
		if f.Exec {
			p.exec[rel] = true
		}
	}
	sort.Strings(p.remove)
	w.add(p)
}

func (w *SkillWriter) add(p pendingSkill) {
	slug, files := p.slug, p.files
	dir := w.skillsDir + "/" + slug // as given, not cleaned: a ".." shows
	switch {
	case !names.URLSafe(slug):
		w.problem(dir, "the folder name is not a URL-safe slug (letters, digits, '-', '.', '_', '~')")
		return
	case strings.HasPrefix(slug, "."):
		w.problem(dir, "a folder name beginning with '.' is not read as a skill")
		return
	case len(slug) > maxNameBytes:
		w.problem(dir, tooLong("folder", slug))
		return
	case unportable(slug) != "":
		w.problem(dir, unportable(slug))
		return
	}
	for _, s := range w.skills {
		if s.slug == slug {
			w.problem(dir, "the skill is given twice")
			return
		}
	}
	ok := true
	rels := slices.Collect(maps.Keys(files))
	skip := Unwritable(rels) // of the files written only
	for _, rel := range p.remove {
		if _, both := files[rel]; both {
			w.problem(dir+"/"+rel, "the file is given both to write and to remove")
			ok = false
		}
		rels = append(rels, rel)
	}
	for _, rel := range rels {
		check := spec.CheckFilePath
		if p.exact {
			check = CheckLocalPath
		}
		if err := check(rel); err != nil {
			w.problem(dir+"/"+rel, skillmd.RuleMessage(err))
			ok = false
		} else if names.InGitDir(rel) {
			w.problem(dir+"/"+rel, "a path inside a .git folder is never written: git would take it for a repository and run the commands its config names")
			ok = false
		} else if why := longName(rel); why != "" {
			w.problem(dir+"/"+rel, why)
			ok = false
		}
	}
	if !ok {
		return
	}
	if len(skip) > 0 {
		kept := make(map[string][]byte, len(files))
		for rel, data := range files {
			if why, skipped := skip[rel]; skipped {
				p.skipped = append(p.skipped, PathProblem{Path: dir + "/" + rel, Reason: why})
			} else {
				kept[rel] = data
			}
		}
		sort.Slice(p.skipped, func(i, j int) bool { return p.skipped[i].Path < p.skipped[j].Path })
		p.files, files = kept, kept
	}
	for rel := range files {
		for parent := path.Dir(rel); parent != "."; parent = path.Dir(parent) {
			if _, clash := files[parent]; clash {
				w.problem(path.Join(dir, rel), fmt.Sprintf("%s is also given as a file", path.Join(dir, parent)))
				ok = false
			}
		}
	}
	if ok {
		w.skills = append(w.skills, p)
	}
}

// CheckLocalPath says why rel, a slash-separated path inside a folder, is
// not one that [SkillWriter.AddExact] writes on every system git runs on,
// or returns nil: it must be valid UTF-8 of 1 to 4096 bytes, relative,
// with no empty, "." or ".." segment, and hold no control character, no
// '\' and none of the characters Windows forbids in names (<>:"|?*).
func CheckLocalPath(rel string) error {
	bad := func(why string) error { return fmt.Errorf("path %q %s", rel, why) }
	switch {
	case rel == "" || len(rel) > 4096:
		return bad("must be 1 to 4096 bytes long")
	case !utf8.ValidString(rel):
		return bad("is not valid UTF-8")
	}
	for _, r := range rel {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(`\<>:"|?*`, r) {
			return bad(fmt.Sprintf("holds %q, which is not written: git for Windows and some file systems cannot hold it", r))
		}
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return bad(`must not have empty, "." or ".." segments`)
		}
	}
	return nil
}

// maxNameBytes is the longest file or folder name that [SkillWriter]
// writes: one that every common file system holds. The API's paths may
// have longer names. A file system with a shorter limit is asked before
// any write (see inspect).
const maxNameBytes = 255

// longName says which name of the slash-separated path rel is too long to
// write, or "" when none is.
func longName(rel string) string {
	names := strings.Split(rel, "/")
	for i, name := range names {
		if len(name) > maxNameBytes {
			if i == len(names)-1 {
				return tooLong("file", name)
			}
			return tooLong("folder", name)
		}
	}
	return ""
}

func tooLong(what, name string) string {
	return fmt.Sprintf("the %s name is %d bytes long; file systems hold names of at most %d bytes", what, len(name), maxNameBytes)
}

func (w *SkillWriter) problem(p, reason string) {
	w.problems = append(w.problems, PathProblem{Path: p, Reason: reason})
}

// SkillWritten is what [SkillWriter.Write] did to one skill folder.
type SkillWritten struct {
	Slug      string
	Dir       string   // the folder, slash-separated, relative to the root
	Written   []string // files created or replaced, relative to the folder, sorted
	Unchanged []string // files that already held the content, sorted
	Removed   []string // files removed (see AddExact), sorted
	// Skipped are the files given that are not written, and why (see
	// [Unwritable]), by path relative to the root, sorted.
	Skipped []PathProblem
}

// A write is one file to write, or to remove, after the checks.
type write struct {
	dir    string // the skill folder, relative to the root, slash-separated
	rel    string // relative to dir, slash-separated
	data   []byte
	mode   fs.FileMode
	remove bool
}

// execMode is perm with its executable bits set where it is readable, as
// git checks out an executable file, or cleared.
func execMode(perm fs.FileMode, exec bool) fs.FileMode {
	if exec {
		return perm | (perm&0o444)>>2
	}
	return perm &^ 0o111
}

// Write checks every queued file and, when all pass, writes those whose
// content differs. On any problem it returns a [*RefusedError] naming every
// problem, and writes nothing.
func (w *SkillWriter) Write() ([]SkillWritten, error) {
	refused := &RefusedError{Unsafe: append([]PathProblem(nil), w.problems...)}
	if d := w.skillsDir; d == "" || !filepath.IsLocal(filepath.FromSlash(d)) || path.Clean(d) != d || strings.Contains(d, `\`) {
		refused.Unsafe = append(refused.Unsafe, PathProblem{Path: d, Reason: "the skills folder must be a folder inside the repository"})
		return nil, refused
	}
	if fi, err := os.Stat(w.root); err != nil {
		return nil, fmt.Errorf("writing skills: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("writing skills: %s is not a folder", w.root)
	}
	head, err := w.headIDs()
	if err != nil {
		return nil, err
	}

	var results []SkillWritten
	var writes []write
	seen := map[string]bool{}
	// unsafe records a path refused, once however many files it blocks.
	unsafe := func(p *PathProblem) {
		if key := p.Path + "\x00" + p.Reason; !seen[key] {
			seen[key] = true
			refused.Unsafe = append(refused.Unsafe, *p)
		}
	}
	listings := map[string][]string{} // folder: its names on disk, for diskTwin
	for _, s := range w.skills {
		res := SkillWritten{Slug: s.slug, Dir: path.Join(w.skillsDir, s.slug), Skipped: s.skipped}
		for _, rel := range slices.Sorted(maps.Keys(s.files)) {
			data := s.files[rel]
			full := path.Join(res.Dir, rel)
			st, problem := inspect(w.root, full)
			if problem == nil {
				problem = diskTwin(w.root, full, listings)
			}
			if problem != nil {
				unsafe(problem)
				continue
			}
			if st.exists {
				local, err := readLocal(filepath.Join(w.root, filepath.FromSlash(full)), data)
				if err != nil {
					return nil, fmt.Errorf("writing skills: %s: %w", full, err)
				}
				if s.exact && st.info.Mode().Perm() != execMode(st.info.Mode().Perm(), s.exec[rel]) {
					local.same = false // the executable bit changes
				}
				if rel == skillmd.FileName && !s.exact && local.data != nil && len(local.data) <= MaxSkillMDBytes {
					// Keep what skillsync does not own: the other
					// frontmatter keys, and the file as it is when it
					// already says the same.
					data = skillmd.Merge(local.data, data)
					local.same = bytes.Equal(local.data, data)
				}
				if local.same {
					res.Unchanged = append(res.Unchanged, rel)
					continue
				}
				if committed, ok := head(full); (!ok || committed != local.id) && !w.opts.Force {
					refused.Modified = append(refused.Modified, full)
					continue
				}
			}
			mode := fs.FileMode(0o644)
			if st.exists {
				mode = st.info.Mode().Perm()
			}
			if s.exact {
				mode = execMode(mode, s.exec[rel])
			}
			writes = append(writes, write{dir: res.Dir, rel: rel, data: data, mode: mode})
			res.Written = append(res.Written, rel)
		}
		for _, rel := range s.remove {
			full := path.Join(res.Dir, rel)
			st, problem := inspect(w.root, full)
			if problem != nil {
				unsafe(problem)
				continue
			}
			if !st.exists {
				continue // already gone
			}
			local, err := readLocal(filepath.Join(w.root, filepath.FromSlash(full)), nil)
			if err != nil {
				return nil, fmt.Errorf("writing skills: %s: %w", full, err)
			}
			if committed, ok := head(full); (!ok || committed != local.id) && !w.opts.Force {
				refused.Modified = append(refused.Modified, full)
				continue
			}
			writes = append(writes, write{dir: res.Dir, rel: rel, remove: true})
			res.Removed = append(res.Removed, rel)
		}
		results = append(results, res)
	}
	if len(refused.Unsafe) > 0 || len(refused.Modified) > 0 {
		sort.Slice(refused.Unsafe, func(i, j int) bool { return refused.Unsafe[i].Path < refused.Unsafe[j].Path })
		sort.Strings(refused.Modified)
		return nil, refused
	}

	r, err := os.OpenRoot(w.root)
	if err != nil {
		return nil, fmt.Errorf("writing skills: %w", err)
	}
	defer r.Close()
	for _, wr := range writes {
		do := writeFile
		if wr.remove {
			do = removeFile
		}
		if err := do(r, wr); err != nil {
			return results, err
		}
	}
	return results, nil
}

type fileState struct {
	exists bool
	info   fs.FileInfo // of the last component, when it exists
}

// inspect looks at every component of rel (slash-separated, relative to
// root) with Lstat, never following a symlink: a symlink anywhere, a file
// where a folder belongs, or a folder where the file belongs is a problem.
func inspect(root, rel string) (fileState, *PathProblem) {
	parts := strings.Split(rel, "/")
	cur := root
	for i, p := range parts {
		cur = filepath.Join(cur, p)
		at := strings.Join(parts[:i+1], "/")
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			// What is left is to be created in the folder that holds
			// cur: ask it whether it takes their names, so that one too
			// long for its file system is refused before any write, not
			// halfway through them.
			for j := i + 1; j < len(parts); j++ {
				_, err := os.Lstat(filepath.Join(filepath.Dir(cur), parts[j]))
				if err != nil && !errors.Is(err, fs.ErrNotExist) {
					return fileState{}, &PathProblem{Path: strings.Join(parts[:j+1], "/"), Reason: lstatReason(err)}
				}
			}
			return fileState{}, nil
		}
		if err != nil {
			return fileState{}, &PathProblem{Path: at, Reason: lstatReason(err)}
		}
		last := i == len(parts)-1
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			return fileState{}, &PathProblem{Path: at, Reason: "is a symlink, which is never followed; make it a real folder or file, or remove it"}
		case !last && !fi.IsDir():
			return fileState{}, &PathProblem{Path: at, Reason: "is a file where a folder is needed"}
		case last && !fi.Mode().IsRegular():
			return fileState{}, &PathProblem{Path: at, Reason: "is not a regular file"}
		case last:
			return fileState{exists: true, info: fi}, nil
		}
	}
	return fileState{}, nil
}

// diskTwin returns the problem of the slash-separated path rel (relative
// to root) when a folder or file on its way is not on disk by that name
// but by one that differs only in case: a file system that ignores case
// would write over it, and one that does not would hold both, which a
// checkout on Windows or macOS cannot. listings caches each folder's names.
func diskTwin(root, rel string, listings map[string][]string) *PathProblem {
	parts := strings.Split(rel, "/")
	for i := range parts {
		parent := strings.Join(parts[:i], "/")
		names, ok := listings[parent]
		if !ok {
			des, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(parent)))
			if err != nil {
				return nil // not there yet: nothing below it either
			}
			for _, de := range des {
				names = append(names, de.Name())
			}
			listings[parent] = names
		}
		if slices.Contains(names, parts[i]) {
			continue
		}
		want := foldName(parts[i])
		for _, name := range names {
			if foldName(name) == want {
				at := strings.Join(parts[:i+1], "/")
				return &PathProblem{Path: at, Reason: fmt.Sprintf("differs only in case from %s, already there: a checkout on Windows or macOS holds only one of them",
					path.Join(parent, name))}
			}
		}
		return nil
	}
	return nil
}

// lstatReason says why a path cannot be looked at.
func lstatReason(err error) string {
	if errors.Is(err, syscall.ENAMETOOLONG) {
		return "is too long a name for the file system"
	}
	return err.Error()
}

// writeFile writes one file through r, the repository opened as a root,
// atomically: a temporary file in the same folder renamed over it.
func writeFile(r *os.Root, wr write) error {
	full := path.Join(wr.dir, wr.rel)
	sub := path.Dir(full)
	if err := r.MkdirAll(sub, 0o755); err != nil {
		return fmt.Errorf("writing %s: %w", full, err)
	}
	// The temporary name is short: it fits in any folder the file does.
	var rnd [6]byte
	rand.Read(rnd[:])
	tmp := path.Join(sub, ".skillsync-"+hex.EncodeToString(rnd[:]))
	f, err := r.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, wr.mode)
	if err != nil {
		return fmt.Errorf("writing %s: %w", full, err)
	}
	_, err = f.Write(wr.data)
	if err == nil {
		err = f.Chmod(wr.mode) // the umask may have narrowed it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Rename(tmp, full)
	}
	if err != nil {
		r.Remove(tmp)
		return fmt.Errorf("writing %s: %w", full, err)
	}
	return nil
}

// removeFile removes one file through r, the repository opened as a
// root, then the folders of the skill folder it leaves empty.
func removeFile(r *os.Root, wr write) error {
	if err := r.Remove(path.Join(wr.dir, wr.rel)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing %s: %w", path.Join(wr.dir, wr.rel), err)
	}
	for sub := path.Dir(wr.rel); sub != "."; sub = path.Dir(sub) {
		if r.Remove(path.Join(wr.dir, sub)) != nil {
			break // not empty
		}
	}
	return nil
}

// localFile is what the writer learns of a file already on disk before
// writing over it.
type localFile struct {
	data []byte // the content, when it is small enough to hold
	id   plumbing.Hash
	same bool // it holds what is to be written
}

// readLocal reads the file name as the loader does: whole up to the
// loader's bounds (MaxSkillMDBytes, MaxCompareBytes), as a stream past
// them, hashed as git hashes it, and compared with data.
func readLocal(name string, data []byte) (localFile, error) {
	var e entry
	h := sha1.New()
	if err := readWorkFile(name, &e, h); err != nil {
		return localFile{}, err
	}
	lf := localFile{data: e.data}
	copy(lf.id[:], h.Sum(nil))
	if e.large {
		sum := sha256.Sum256(data)
		lf.same = e.size == int64(len(data)) && e.sha256 == hex.EncodeToString(sum[:])
	} else {
		lf.same = bytes.Equal(e.data, data)
	}
	return lf, nil
}

// headIDs returns the git object id of each file (slash-separated,
// relative to the root) in HEAD, and whether HEAD has it: from
// [WriteOptions.HeadBlob] when set, else from the tree of HEAD, whose
// entries name the ids of their blobs without reading them.
func (w *SkillWriter) headIDs() (func(string) (plumbing.Hash, bool), error) {
	if blob := w.opts.HeadBlob; blob != nil {
		return func(rel string) (plumbing.Hash, bool) {
			data, ok := blob(rel)
			return plumbing.Hash(blobHash(data)), ok
		}, nil
	}
	return gitHead(w.root)
}

// gitHead returns the object ids of files in the HEAD commit of the git
// repository holding root; outside git, or before the first commit, no
// file is in HEAD.
func gitHead(root string) (func(string) (plumbing.Hash, bool), error) {
	none := func(string) (plumbing.Hash, bool) { return plumbing.ZeroHash, false }
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	gr, prefix, err := openGit(abs, false)
	if err != nil || gr == nil {
		return none, err
	}
	ref, err := gr.Head()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return none, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading HEAD: %w", err)
	}
	commit, err := gr.CommitObject(ref.Hash())
	if err != nil {
		return nil, fmt.Errorf("reading HEAD commit: %w", err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, fmt.Errorf("reading HEAD commit: %w", err)
	}
	return func(rel string) (plumbing.Hash, bool) {
		e, err := tree.FindEntry(path.Join(prefix, rel))
		if err != nil || !e.Mode.IsFile() || e.Mode == filemode.Symlink {
			return plumbing.ZeroHash, false
		}
		return e.Hash, true
	}, nil
}
