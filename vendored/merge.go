package vendored

import (
	"bytes"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/diff3"
)

// A FileChange is what an update does to one file of the local folder.
type FileChange struct {
	Path   string `json:"path"` // in the skill folder, slash-separated
	Change string `json:"change"`
}

// Changes of a [FileChange].
const (
	ChangeAdded    = "added"    // new upstream
	ChangeUpdated  = "updated"  // changed upstream, not here: upstream's version
	ChangeMerged   = "merged"   // changed upstream and here: both changes
	ChangeRemoved  = "removed"  // removed upstream, not changed here
	ChangeMode     = "mode"     // upstream made it executable, or stopped
	ChangeUpstream = "upstream" // in conflict, replaced by upstream's version (--force)
)

// A FileConflict is a file that upstream and the local folder both
// changed in ways that do not merge.
type FileConflict struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	// Hunks are the regions both sides changed, for a text file: their
	// lines at the locked commit (base), here (ours) and upstream
	// (theirs).
	Hunks []Hunk `json:"hunks,omitempty"`
}

// A Hunk is a region of a text file that both sides changed: where it is
// on each side, and its lines there (without their line ends), so that
// the conflict can be resolved from the report alone.
type Hunk struct {
	diff3.Conflict
	BaseLines   []string `json:"base_lines"`
	OursLines   []string `json:"ours_lines"`
	TheirsLines []string `json:"theirs_lines"`
}

// hunks gives each conflict of a merge of base, ours and theirs its lines.
func hunks(cs []diff3.Conflict, base, ours, theirs []byte) []Hunk {
	lb, lo, lt := textLines(base), textLines(ours), textLines(theirs)
	out := make([]Hunk, len(cs))
	for i, c := range cs {
		out[i] = Hunk{Conflict: c, BaseLines: linesOf(lb, c.Base), OursLines: linesOf(lo, c.Ours), TheirsLines: linesOf(lt, c.Theirs)}
	}
	return out
}

// textLines splits text into lines without their ends ("\n", "\r\n").
func textLines(data []byte) []string {
	s := strings.TrimSuffix(string(data), "\n")
	if s == "" && len(data) == 0 {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// linesOf is the lines of r (1-based), never nil, so JSON shows [].
func linesOf(lines []string, r diff3.Range) []string {
	from, to := max(r.Start-1, 0), r.Start-1+r.Count
	if r.Count <= 0 || from >= len(lines) {
		return []string{}
	}
	return append([]string{}, lines[from:min(to, len(lines))]...)
}

// Reasons of a [FileConflict].
const (
	ConflictContent      = "both changed the same lines"
	ConflictAddAdd       = "added here and upstream, with different content"
	ConflictDeletedHere  = "deleted here, changed upstream"
	ConflictDeletedThere = "changed here, deleted upstream"
	ConflictBinary       = "a binary file changed here and upstream"
	ConflictTooLarge     = "changed here and upstream, in too many lines to merge"
)

// folderMerge is the three-way merge of a vendored folder. Its changes
// and conflicts are never nil, so that JSON shows [].
type folderMerge struct {
	files     map[string]file // the folder after the merge
	changes   []FileChange
	conflicts []FileConflict
}

// mergeFolder merges, file by file, the upstream changes from base (the
// folder at the locked commit) to theirs (at the new commit) into ours
// (the local folder). A file one side left as it was takes the other
// side's version, added or removed included; a text file both changed is
// merged line by line (see package diff3). What does not merge is a
// conflict; with force, the file takes upstream's version and says so.
// The executable bit merges the same way, on its own.
func mergeFolder(base, ours, theirs map[string]file, force bool) folderMerge {
	var paths []string
	for _, m := range []map[string]file{base, ours, theirs} {
		paths = slices.AppendSeq(paths, maps.Keys(m))
	}
	slices.Sort(paths)

	res := folderMerge{files: map[string]file{}, changes: []FileChange{}, conflicts: []FileConflict{}}
	for _, p := range slices.Compact(paths) {
		b, bok := base[p]
		o, ook := ours[p]
		t, tok := theirs[p]
		same := func(x file, xok bool, y file, yok bool) bool {
			return xok == yok && (!xok || bytes.Equal(x.data, y.data))
		}
		var data []byte
		exists, change := false, ""
		switch {
		case same(o, ook, t, tok):
			data, exists = o.data, ook
		case same(b, bok, o, ook):
			data, exists = t.data, tok
			switch {
			case !tok:
				change = ChangeRemoved
			case !ook:
				change = ChangeAdded
			default:
				change = ChangeUpdated
			}
		case same(b, bok, t, tok):
			data, exists = o.data, ook
		default:
			c := FileConflict{Path: p}
			switch {
			case !bok:
				c.Reason = ConflictAddAdd
			case !ook:
				c.Reason = ConflictDeletedHere
			case !tok:
				c.Reason = ConflictDeletedThere
			case fsrepo.IsBinary(p, b.data) || fsrepo.IsBinary(p, o.data) || fsrepo.IsBinary(p, t.data):
				c.Reason = ConflictBinary
			default:
				m, err := diff3.Merge(b.data, o.data, t.data)
				switch {
				case errors.Is(err, diff3.ErrTooLarge):
					c.Reason = ConflictTooLarge
				case len(m.Conflicts) > 0:
					c.Reason, c.Hunks = ConflictContent, hunks(m.Conflicts, b.data, o.data, t.data)
				default:
					data, exists, change = m.Text, true, ChangeMerged
				}
			}
			if c.Reason != "" {
				res.conflicts = append(res.conflicts, c)
				if !force {
					continue
				}
				data, exists, change = t.data, tok, ChangeUpstream
			}
		}
		if !exists {
			if ook { // removed upstream, or taken from upstream over a conflict
				res.changes = append(res.changes, FileChange{Path: p, Change: change})
			}
			continue
		}
		// The executable bit: upstream's change, unless changed here.
		exec := o.exec
		switch {
		case !ook:
			exec = t.exec
		case tok && bok && o.exec == b.exec:
			exec = t.exec
		case tok && !bok && change == ChangeUpstream:
			exec = t.exec
		}
		if change == "" && ook && exec != o.exec {
			change = ChangeMode
		}
		res.files[p] = file{data: data, exec: exec}
		if change != "" {
			res.changes = append(res.changes, FileChange{Path: p, Change: change})
		}
	}
	return res
}
