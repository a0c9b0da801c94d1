package vendored

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
)

// FormatVersion is the format_version of the JSON reports of outdated and
// update. A consumer rejects an unknown major version.
const FormatVersion = "1"

// States of a vendored skill, in a [Status] and a [SkillUpdate].
const (
	// StateCurrent: upstream's ref is at the locked commit.
	StateCurrent = "current"
	// StateUnchanged: upstream's ref moved, but the folder is the same
	// there; not outdated. Update moves the lock's commit.
	StateUnchanged = "unchanged"
	// StateOutdated: the folder changed upstream.
	StateOutdated = "outdated"
	// StateRemoved: upstream's ref no longer holds the folder.
	StateRemoved = "removed"
	// StateUpdated: update wrote upstream's changes.
	StateUpdated = "updated"
	// StateConflict: update found conflicts and wrote nothing.
	StateConflict = "conflict"
	// StateError: the skill could not be checked or updated.
	StateError = "error"
)

// Status is where one vendored skill stands against its upstream.
type Status struct {
	Slug   string `json:"slug"`
	Source string `json:"source"`
	Path   string `json:"path"`
	Ref    string `json:"ref"`
	Commit string `json:"commit"`           // the locked commit
	Latest string `json:"latest,omitempty"` // the commit the ref names upstream now
	State  string `json:"state"`
	Error  string `json:"error,omitempty"`
}

// Report is the result of [Outdated].
type Report struct {
	FormatVersion string   `json:"format_version"`
	Skills        []Status `json:"skills"`
}

// Outdated reports whether any skill's folder changed (or went) upstream.
func (r *Report) Outdated() bool {
	return slices.ContainsFunc(r.Skills, func(s Status) bool { return s.State == StateOutdated || s.State == StateRemoved })
}

// Failed reports whether any skill could not be checked.
func (r *Report) Failed() bool {
	return slices.ContainsFunc(r.Skills, func(s Status) bool { return s.State == StateError })
}

// ErrNotVendored is returned (wrapped) for a slug skillsync.lock does not
// hold.
var ErrNotVendored = errors.New("not vendored")

// lockedEntries reads skillsync.yaml and skillsync.lock of the repository
// at root, and returns them with the lock's entries of slugs, all of them
// when slugs is empty.
func lockedEntries(root string, slugs []string) (config.Config, fsrepo.Lock, []fsrepo.LockedSkill, error) {
	cfg, err := config.Read(root)
	if err != nil {
		return cfg, fsrepo.Lock{}, nil, err
	}
	lock, err := readLock(root)
	if err != nil {
		return cfg, lock, nil, err
	}
	if len(slugs) == 0 {
		return cfg, lock, lock.Skills, nil
	}
	var out []fsrepo.LockedSkill
	seen := map[string]bool{}
	for _, s := range slugs {
		e, ok := lock.Entry(s)
		if !ok {
			return cfg, lock, nil, fmt.Errorf("skill %q is %w (it has no entry in %s)", s, ErrNotVendored, fsrepo.LockFile)
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return cfg, lock, out, nil
}

// eachMoved asks the upstream of each source of entries, once, which
// commit each entry's ref names now. An entry whose folder in skillsDir
// is gone is failed, as validate fails it; one at its locked commit is
// current; for the others the source fetches those commits (with the
// locked ones, when bases is true, for a merge) and each is called, with
// the upstream, the entry's index and where its ref is now. An entry that
// cannot be checked is failed; the error returned is the context's.
func eachMoved(ctx context.Context, root, skillsDir string, entries []fsrepo.LockedSkill, bases bool, auth Auth,
	current func(i int), fail func(i int, err error), each func(u *upstream, i int, t *target)) error {
	for _, all := range bySource(entries) {
		if err := ctx.Err(); err != nil {
			return err
		}
		var group []int
		for _, i := range all {
			if err := folderGone(root, skillsDir, entries[i]); err != nil {
				fail(i, err)
			} else {
				group = append(group, i)
			}
		}
		if len(group) == 0 {
			continue
		}
		src, err := sourceOf(entries[group[0]].Source, root)
		var u *upstream
		if err == nil {
			u, err = openUpstream(ctx, src, auth)
		}
		if err != nil {
			for _, i := range group {
				fail(i, err)
			}
			continue
		}
		targets := map[int]*target{}
		var moved []*target
		var locked []plumbing.Hash
		for _, i := range group {
			t, err := u.resolve(entries[i].Ref)
			if err != nil {
				fail(i, err)
				continue
			}
			if t.commit.String() == entries[i].Commit {
				current(i)
				continue
			}
			targets[i] = &t
			moved = append(moved, &t)
			if bases {
				locked = append(locked, plumbing.NewHash(entries[i].Commit))
			}
		}
		if len(moved) == 0 {
			continue
		}
		if err := u.fetch(ctx, moved, locked); err != nil {
			for i := range targets {
				fail(i, err)
			}
			continue
		}
		for _, i := range group {
			if t := targets[i]; t != nil {
				each(u, i, t)
			}
		}
		u.close()
	}
	return nil
}

// folderGone is the error of a vendored skill e whose folder in skillsDir
// is not there, or nil.
func folderGone(root, skillsDir string, e fsrepo.LockedSkill) error {
	dir := path.Join(skillsDir, e.Slug)
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(dir))); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	from := e.Source
	if e.Path != "" {
		from += " (" + e.Path + ")"
	}
	lines := fmt.Sprintf("line %d", e.Line)
	if e.Lines > 1 {
		lines = fmt.Sprintf("lines %d-%d", e.Line, e.Line+e.Lines-1)
	}
	return fmt.Errorf("skill %q vendored from %s has no folder: %s is gone; restore it (git checkout -- %s), or delete its entry (%s) from %s",
		e.Slug, from, dir, dir, lines, fsrepo.LockFile)
}

// bySource groups entries by source, each source once, in the order of
// their first entry.
func bySource(entries []fsrepo.LockedSkill) [][]int {
	var groups [][]int
	at := map[string]int{}
	for i, e := range entries {
		g, ok := at[e.Source]
		if !ok {
			g = len(groups)
			at[e.Source] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	return groups
}

// OutdatedOptions say what [Outdated] checks.
type OutdatedOptions struct {
	// Slugs are the skills to check; all the lock holds when empty.
	Slugs []string
	// Auth gives each remote source's host its token, if any.
	Auth Auth
}

// Outdated checks the vendored skills of opts.Slugs (all when empty)
// against their upstreams: a skill is outdated when the commit its ref
// names now holds another folder than the one vendored. Each source is
// asked once; a remote one for its references, then, for the skills whose
// ref moved, for those commits at depth 1. A skill that cannot be checked
// is in the report with its error; the error returned is for the lock and
// slugs.
func Outdated(ctx context.Context, root string, opts OutdatedOptions) (*Report, error) {
	cfg, _, entries, err := lockedEntries(root, opts.Slugs)
	if err != nil {
		return nil, err
	}
	rep := &Report{FormatVersion: FormatVersion, Skills: make([]Status, len(entries))}
	for i, e := range entries {
		rep.Skills[i] = Status{Slug: e.Slug, Source: e.Source, Path: e.Path, Ref: e.Ref, Commit: e.Commit}
	}
	fail := func(i int, err error) {
		rep.Skills[i].State, rep.Skills[i].Error = StateError, err.Error()
	}
	current := func(i int) {
		rep.Skills[i].State, rep.Skills[i].Latest = StateCurrent, entries[i].Commit
	}
	err = eachMoved(ctx, root, cfg.SkillsDir, entries, false, opts.Auth, current, fail, func(u *upstream, i int, t *target) {
		st := &rep.Skills[i]
		st.Latest = t.commit.String()
		if st.Latest == entries[i].Commit {
			st.State = StateCurrent // the ref moved back meanwhile
			return
		}
		files, _, err := u.folder(t.commit, entries[i].Path)
		switch {
		case errors.Is(err, ErrNoFolder):
			st.State = StateRemoved
		case err != nil:
			fail(i, err)
		case hashedAs(files, cfg.ExcludeFiles, entries[i].Hash):
			st.State = StateUnchanged
		default:
			st.State = StateOutdated
		}
	})
	if err != nil {
		return nil, err
	}
	return rep, nil
}

// hashOf is the hash skillsync.lock records of files, the development
// files that excludeFiles and .skillignore exclude left out.
func hashOf(files map[string]file, excludeFiles []string) string {
	contents := make(map[string][]byte, len(files))
	for p, f := range files {
		contents[p] = f.data
	}
	return fsrepo.HashFiles(contents, excludeFiles)
}

// hashedAs reports whether files hash to hash, as hashOf does or, for a
// lock written before development files were excluded, with them.
func hashedAs(files map[string]file, excludeFiles []string, hash string) bool {
	if hashOf(files, excludeFiles) == hash {
		return true
	}
	sums := make(map[string][sha256.Size]byte, len(files))
	for p, f := range files {
		sums[p] = sha256.Sum256(f.data)
	}
	return fsrepo.FolderHash(sums) == hash
}
