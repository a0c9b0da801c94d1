package vendored

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/names"
)

// from says where a skill comes from: the source, the folder in it, and
// the ref asked for.
func from(source, dir, ref string) string {
	s := source
	if dir != "" {
		s += " " + dir
	}
	if ref != "" {
		s += " @ " + ref
	}
	return s
}

// WriteText writes what Add did, for people.
func (a *Added) WriteText(w io.Writer) {
	e := a.Skill
	fmt.Fprintf(w, "Vendored %s from %s at %s into %s: %d %s.\n",
		e.Slug, from(e.Source, e.Path, e.Ref), fsrepo.ShortCommit(e.Commit), a.Dir, len(a.Files), names.Plural(len(a.Files), "file", "files"))
}

// WriteText writes the report, a line per skill and a summary, for people.
func (r *Report) WriteText(w io.Writer) {
	counts := map[string]int{}
	for _, s := range r.Skills {
		counts[s.State]++
		where := from(s.Source, s.Path, s.Ref)
		switch s.State {
		case StateCurrent:
			fmt.Fprintf(w, "%s: current at %s (%s)\n", s.Slug, fsrepo.ShortCommit(s.Commit), where)
		case StateUnchanged:
			fmt.Fprintf(w, "%s: current: upstream moved %s -> %s, but not the folder (%s)\n", s.Slug, fsrepo.ShortCommit(s.Commit), fsrepo.ShortCommit(s.Latest), where)
		case StateOutdated:
			fmt.Fprintf(w, "%s: outdated: %s -> %s (%s)\n", s.Slug, fsrepo.ShortCommit(s.Commit), fsrepo.ShortCommit(s.Latest), where)
		case StateRemoved:
			fmt.Fprintf(w, "%s: removed upstream: the folder is gone at %s (%s)\n", s.Slug, fsrepo.ShortCommit(s.Latest), where)
		default:
			fmt.Fprintf(w, "%s: error: %s\n", s.Slug, s.Error)
		}
	}
	var parts []string
	for _, c := range []struct{ state, label string }{
		{StateOutdated, "outdated"}, {StateRemoved, "removed upstream"}, {StateError, "not checked"},
	} {
		if n := counts[c.state]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, c.label))
		}
	}
	if n := counts[StateCurrent] + counts[StateUnchanged]; n > 0 {
		parts = append(parts, fmt.Sprintf("%d current", n))
	}
	if len(r.Skills) == 0 {
		fmt.Fprintln(w, "No vendored skills.")
		return
	}
	fmt.Fprintf(w, "Vendored: %s.\n", strings.Join(parts, ", "))
}

// changeMarks are the marks of the files of an update, as in a plan.
var changeMarks = map[string]string{
	ChangeAdded: "+", ChangeRemoved: "-", ChangeUpdated: "~", ChangeMerged: "~", ChangeMode: "~", ChangeUpstream: "!",
}

var changeNotes = map[string]string{
	ChangeMerged:   " (merged with your edits)",
	ChangeMode:     " (executable bit)",
	ChangeUpstream: " (in conflict: replaced by upstream's version)",
}

// WriteText writes the report, the files of each skill and each conflict
// with its lines, for people.
func (r *UpdateReport) WriteText(w io.Writer) {
	updated, conflicts, failed := 0, 0, 0
	for _, s := range r.Skills {
		switch s.State {
		case StateCurrent:
			fmt.Fprintf(w, "%s: current at %s\n", s.Slug, fsrepo.ShortCommit(s.From))
		case StateUnchanged:
			// The hash is over the files' content: an executable bit
			// upstream changed leaves it, and is written all the same.
			what := "the folder"
			if len(s.Files) > 0 {
				what = "the files' content"
			}
			fmt.Fprintf(w, "%s: upstream moved %s -> %s, but not %s: the lock follows\n", s.Slug, fsrepo.ShortCommit(s.From), fsrepo.ShortCommit(s.To), what)
		case StateUpdated:
			updated++
			fmt.Fprintf(w, "%s: updated %s -> %s\n", s.Slug, fsrepo.ShortCommit(s.From), fsrepo.ShortCommit(s.To))
		case StateConflict:
			conflicts++
			fmt.Fprintf(w, "%s: %d %s in conflict from %s to %s; nothing written\n", s.Slug, len(s.Conflicts),
				names.Plural(len(s.Conflicts), "file", "files"), fsrepo.ShortCommit(s.From), fsrepo.ShortCommit(s.To))
		case StateRemoved:
			failed++
			fmt.Fprintf(w, "%s: %s\n", s.Slug, s.Error)
		default:
			failed++
			fmt.Fprintf(w, "%s: error: %s\n", s.Slug, s.Error)
		}
		if s.State == StateUpdated || s.State == StateUnchanged {
			for _, f := range s.Files {
				fmt.Fprintf(w, "  %s %s%s\n", changeMarks[f.Change], f.Path, changeNotes[f.Change])
			}
			for _, n := range s.Notes {
				fmt.Fprintf(w, "  note: %s\n", n)
			}
		}
		for _, c := range s.Conflicts {
			fmt.Fprintf(w, "  conflict: %s: %s\n", c.Path, c.Reason)
			for _, h := range c.Hunks {
				fmt.Fprintf(w, "    here %s, upstream %s (%s at %s):\n", h.Ours, h.Theirs, h.Base, fsrepo.ShortCommit(s.From))
				writeHunkLines(w, "here:    ", h.OursLines)
				writeHunkLines(w, "upstream:", h.TheirsLines)
			}
		}
	}
	if len(r.Skills) == 0 {
		fmt.Fprintln(w, "No vendored skills.")
		return
	}
	fmt.Fprintf(w, "Vendor update: %d updated, %d in conflict, %d failed.\n", updated, conflicts, failed)
}

// maxHunkLines is how many lines of each side of a conflict the text
// report shows; the JSON report has them all.
const maxHunkLines = 8

// writeHunkLines writes one side's lines of a conflict, the first after
// label.
func writeHunkLines(w io.Writer, label string, lines []string) {
	if len(lines) == 0 {
		fmt.Fprintf(w, "      %s (no lines)\n", label)
		return
	}
	pad := strings.Repeat(" ", len(label))
	for i, l := range lines {
		if i == maxHunkLines {
			fmt.Fprintf(w, "      %s ... and %d more %s\n", pad, len(lines)-i, names.Plural(len(lines)-i, "line", "lines"))
			return
		}
		lead := pad
		if i == 0 {
			lead = label
		}
		fmt.Fprintf(w, "      %s %s\n", lead, l)
	}
}
