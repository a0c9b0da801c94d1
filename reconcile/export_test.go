package reconcile

import (
	"slices"
)

// What only the tests read: the mutations of a journal whose answers
// never came.

// Unfinished returns the started entries of es (in the order of
// the journal file) that no outcome line follows: mutations whose request may
// have been applied, the process having ended before their answer was
// journaled. An outcome line closes the latest open started line of the
// same space, id, slug and action, so a journal appended by several applies
// pairs each apply's lines with each other.
func Unfinished(es []JournalEntry) []JournalEntry {
	type key struct {
		space, id, slug string
		action          Action
	}
	open := make(map[key][]int) // indexes into es of started lines, oldest first
	for i, e := range es {
		if e.Outcome == OutcomeSkipped && e.Request == nil {
			continue // an older version's line of its own: nothing it could close
		}
		k := key{e.Space, e.ID, e.Slug, e.Action}
		if e.Outcome == OutcomeStarted {
			open[k] = append(open[k], i)
			continue
		}
		if n := len(open[k]); n > 0 {
			open[k] = open[k][:n-1]
		}
	}
	var idx []int
	for _, is := range open {
		idx = append(idx, is...)
	}
	slices.Sort(idx)
	var out []JournalEntry
	for _, j := range idx {
		out = append(out, es[j])
	}
	return out
}
