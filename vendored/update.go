package vendored

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/lint"
)

// UpdateOptions say what [Update] does.
type UpdateOptions struct {
	// Slugs are the skills to update; all the lock holds when empty.
	Slugs []string
	// Force writes a skill whose files conflict, taking upstream's
	// version of each conflicted file.
	Force bool
	// Auth gives each remote source's host its token, if any.
	Auth Auth
	// Judge, when set, judges what upstream changes (the files the
	// update would write) with the security rules before anything is
	// written: an error no waiver accepts leaves the skill as it is.
	Judge *lint.Judge
}

// SkillUpdate is what [Update] did to one vendored skill.
type SkillUpdate struct {
	Slug   string `json:"slug"`
	Source string `json:"source"`
	Path   string `json:"path"`
	Ref    string `json:"ref"`
	From   string `json:"from"`         // the locked commit before
	To     string `json:"to,omitempty"` // the commit the ref names upstream now
	State  string `json:"state"`
	// Files are the changes written (or, in conflict, that would have
	// been), sorted by path.
	Files []FileChange `json:"files"`
	// Conflicts are the files that do not merge. Nothing is written for
	// a skill with conflicts, unless forced.
	Conflicts []FileConflict `json:"conflicts"`
	// Log are upstream's commits after From up to To, newest first, as
	// far as they are known: a remote's history is fetched at depth 1,
	// so it holds To alone; a local repository's holds them all.
	Log []LogEntry `json:"log,omitempty"`
	// Notes say what of upstream's folder is not copied, and why.
	Notes []string `json:"notes,omitempty"`
	Error string   `json:"error,omitempty"`
	// Findings are what the security rules find in the files upstream
	// changes; an error among them leaves the skill as it is.
	Findings diag.Diagnostics `json:"findings,omitempty"`
}

// UpdateReport is the result of [Update].
type UpdateReport struct {
	FormatVersion string        `json:"format_version"`
	Skills        []SkillUpdate `json:"skills"`
}

// Failed reports whether any skill was left as it was for a conflict or
// an error.
func (r *UpdateReport) Failed() bool {
	return slices.ContainsFunc(r.Skills, func(s SkillUpdate) bool {
		return s.State == StateConflict || s.State == StateError || s.State == StateRemoved
	})
}

// Update brings upstream's changes into the vendored skills of opts.Slugs
// (all when empty): for each whose ref moved upstream, a three-way merge
// of its folder (see mergeFolder) between the locked commit, the local
// folder and the new commit, so that local edits survive. A skill with
// conflicts is reported file by file and left as it is, unless
// opts.Force. The lock's entry of each skill written takes the new commit
// and its folder's hash; skills are updated one by one, and one that
// fails leaves the others be. The error returned is for the lock and the
// slugs; a skill's own is in its [SkillUpdate].
func Update(ctx context.Context, root string, opts UpdateOptions) (*UpdateReport, error) {
	cfg, lock, entries, err := lockedEntries(root, opts.Slugs)
	if err != nil {
		return nil, err
	}
	rep := &UpdateReport{FormatVersion: FormatVersion, Skills: make([]SkillUpdate, len(entries))}
	for i, e := range entries {
		rep.Skills[i] = SkillUpdate{Slug: e.Slug, Source: e.Source, Path: e.Path, Ref: e.Ref, From: e.Commit,
			Files: []FileChange{}, Conflicts: []FileConflict{}}
	}
	changed := false
	fail := func(i int, err error) {
		rep.Skills[i].State, rep.Skills[i].Error = StateError, err.Error()
	}
	current := func(i int) {
		rep.Skills[i].State, rep.Skills[i].To = StateCurrent, entries[i].Commit
	}
	err = eachMoved(ctx, root, cfg.SkillsDir, entries, true, opts.Auth, current, fail, func(u *upstream, i int, t *target) {
		e, err := updateSkill(u, root, cfg, entries[i], t.commit, opts.Force, opts.Judge, &rep.Skills[i])
		if err != nil {
			fail(i, err)
			return
		}
		if e != nil {
			lock.Set(*e)
			changed = true
		}
	})
	if err != nil {
		return nil, err
	}
	if changed {
		if err := fsrepo.WriteLock(root, lock); err != nil {
			return rep, fmt.Errorf("the skills are written, but %w: restore it from git and run vendor update again", err)
		}
	}
	return rep, nil
}

// A LogEntry is one commit of upstream's history.
type LogEntry struct {
	Commit  string `json:"commit"`
	Summary string `json:"summary"` // the first line of its message
}

// maxLog is the most commits a [SkillUpdate] lists.
const maxLog = 50

// log returns the commits of u from to back to from (excluded), along
// first parents, newest first, as far as u holds them.
func (u *upstream) log(from, to plumbing.Hash) []LogEntry {
	var out []LogEntry
	for h := to; h != from && len(out) < maxLog && u.repo != nil; {
		c, err := u.repo.CommitObject(h)
		if err != nil {
			break // not fetched
		}
		summary, _, _ := strings.Cut(c.Message, "\n")
		out = append(out, LogEntry{Commit: h.String(), Summary: summary})
		if len(c.ParentHashes) == 0 {
			break
		}
		h = c.ParentHashes[0]
	}
	return out
}

// updateSkill merges upstream's changes from e.Commit to to into the
// local folder of e, fills in su, and returns e as the lock should now
// hold it (nil when it should not change).
func updateSkill(u *upstream, root string, cfg config.Config, e fsrepo.LockedSkill, to plumbing.Hash, force bool, j *lint.Judge, su *SkillUpdate) (*fsrepo.LockedSkill, error) {
	su.To = to.String()
	if su.To == e.Commit {
		su.State = StateCurrent
		return nil, nil
	}
	dir := path.Join(cfg.SkillsDir, e.Slug)
	base, _, err := u.folder(plumbing.NewHash(e.Commit), e.Path)
	if err != nil {
		if !u.hasCommit(plumbing.NewHash(e.Commit)) {
			return nil, fmt.Errorf("the locked commit %s is not in %s any more (its history was rewritten?): vendor the skill again to start from the new history", fsrepo.ShortCommit(e.Commit), u.src)
		}
		return nil, fmt.Errorf("reading the folder at the locked commit: %w", err)
	}
	if h := hashOf(base, cfg.ExcludeFiles); !hashedAs(base, cfg.ExcludeFiles, e.Hash) {
		return nil, fmt.Errorf("%s at the locked commit %s hashes to %s, not to the %s that %s holds (line %d): the lock was edited, or the source is not the one vendored from; nothing is written",
			displayDir(e.Path), fsrepo.ShortCommit(e.Commit), h, e.Hash, fsrepo.LockFile, e.Line)
	}
	theirs, notes, err := u.folder(to, e.Path)
	if errors.Is(err, ErrNoFolder) {
		su.State = StateRemoved
		su.Error = fmt.Sprintf("upstream removed %s at %s: the skill is left as it is; delete its folder and its entry in %s to stop vendoring it",
			displayDir(e.Path), fsrepo.ShortCommit(su.To), fsrepo.LockFile)
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	su.Notes = notes
	su.Log = u.log(plumbing.NewHash(e.Commit), to)
	next := e
	next.Commit, next.Hash = su.To, hashOf(theirs, cfg.ExcludeFiles)
	ours, err := readLocalFolder(root, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, folderGone(root, cfg.SkillsDir, e)
	}
	if err != nil {
		return nil, err
	}
	raw := ours
	ours, crlf := storedForm(ours, base, theirs)
	m := mergeFolder(base, ours, theirs, force)
	su.Files, su.Conflicts = m.changes, m.conflicts
	if len(m.conflicts) > 0 && !force {
		su.State = StateConflict
		return nil, nil
	}
	writes := map[string]fsrepo.FileData{}
	for p, f := range m.files {
		if crlf[p] {
			f.data = bytes.ReplaceAll(bytes.ReplaceAll(f.data, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		}
		if o, ok := raw[p]; !ok || !bytes.Equal(o.data, f.data) || o.exec != f.exec {
			writes[p] = fsrepo.FileData{Data: f.data, Exec: f.exec}
		}
	}
	if j != nil && len(writes) > 0 {
		delta := make(map[string][]byte, len(writes))
		for p, f := range writes {
			delta[p] = f.Data
		}
		su.Findings = fsrepo.JudgeFiles(j, cfg, e.Slug, delta)
		if fsrepo.SecurityErrors(su.Findings) {
			su.State = StateError
			su.Error = fmt.Sprintf("%v: %s is left as it is; waive a finding in %s if it is intended", ErrInsecureSkill, dir, config.FileName)
			return nil, nil
		}
	}
	var remove []string
	for p := range raw {
		if _, ok := m.files[p]; !ok {
			remove = append(remove, p)
		}
	}
	// The local files as read are what the merge took for ours: one that
	// changes before it is written over is refused, not lost.
	opts := fsrepo.WriteOptions{Force: force, HeadBlob: func(rel string) ([]byte, bool) {
		if p, inDir := strings.CutPrefix(rel, dir+"/"); inDir {
			o, ok := raw[p]
			return o.data, ok
		}
		return nil, false
	}}
	if len(writes) > 0 || len(remove) > 0 {
		w := fsrepo.NewSkillWriter(root, cfg.SkillsDir, opts)
		w.AddExact(e.Slug, writes, remove)
		if _, err := w.Write(); err != nil {
			return nil, err
		}
	}
	// The folder as merged, when it keeps local edits: validate then
	// takes it as vendored, not as modified.
	next.Local = ""
	if h := hashOf(m.files, cfg.ExcludeFiles); h != next.Hash {
		next.Local = h
	}
	su.State = StateUpdated
	if next.Hash == e.Hash {
		su.State = StateUnchanged // upstream moved on elsewhere
	}
	return &next, nil
}

// storedForm is ours with each text file that a checkout wrote with CRLF
// line endings, where upstream's has none, as git stores it (see
// [fsrepo.StoredText]), and the paths of those files, which are written
// back with CRLF: git for Windows checks text files out so.
func storedForm(ours, base, theirs map[string]file) (map[string]file, map[string]bool) {
	out := make(map[string]file, len(ours))
	crlf := map[string]bool{}
	for p, o := range ours {
		out[p] = o
		lf := fsrepo.StoredText(p, o.data)
		if len(lf) == len(o.data) {
			continue
		}
		up, ok := base[p]
		if !ok {
			up, ok = theirs[p]
		}
		if ok && !bytes.Contains(up.data, []byte("\r\n")) {
			out[p] = file{data: lf, exec: o.exec}
			crlf[p] = true
		}
	}
	return out, crlf
}
