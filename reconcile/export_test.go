package reconcile

import (
	"fmt"
	"io"
	"slices"
)

// What only the tests read: plans decoded without a saved plan's keys,
// one saved plan at a time, bounds other than the files', and the
// mutations of a journal whose answers never came.

// DecodePlan reads the JSON document of one target's plan ([RenderJSON]),
// such as a saved plan. It accepts any format_version of this major
// (later minor versions only add fields, which it ignores), and rejects
// others with an error wrapping [ErrFormatVersion]. It also rejects
// actions and fields it does not know, since apply must never guess what
// a plan asks for.
func DecodePlan(r io.Reader) (*Plan, error) {
	plans, err := DecodePlans(r)
	if err != nil {
		return nil, err
	}
	if len(plans) != 1 {
		return nil, fmt.Errorf("decoding plan: the document holds the plans of %d targets; read it with DecodePlans", len(plans))
	}
	return plans[0], nil
}

// DecodePlans reads the JSON document of the plans of any number of
// targets and returns its plans, in their order, checked as DecodePlan
// checks them. It reads at most [MaxSavedPlanBytes], failing with a
// [*TooLargeError] past that.
func DecodePlans(r io.Reader) ([]*Plan, error) {
	data, err := readPlan(r, "the plan", MaxSavedPlanBytes)
	if err != nil {
		return nil, err
	}
	ts, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	out := make([]*Plan, len(ts))
	for i := range ts {
		out[i] = &ts[i].Plan
	}
	return out, nil
}

// WriteSavedPlan writes sp as the saved plan of one target, written by
// skillsync v1 ([WriteSavedPlans]).
func WriteSavedPlan(w io.Writer, sp *SavedPlan) error {
	return WriteSavedPlans(w, "v1", []*SavedPlan{sp})
}

func writeSavedPlan(w io.Writer, sp *SavedPlan, max int64) error {
	return writeSavedPlans(w, "v1", []*SavedPlan{sp}, max)
}

// ReadSavedPlan reads a plan written by [WriteSavedPlan]: [ReadSavedPlans]
// of a file that holds the plan of one target.
func ReadSavedPlan(r io.Reader) (*SavedPlan, error) {
	sps, err := ReadSavedPlans(r)
	if err != nil {
		return nil, err
	}
	if len(sps) != 1 {
		return nil, fmt.Errorf("the saved plan holds the plans of %d targets", len(sps))
	}
	return sps[0], nil
}

func readSavedPlan(r io.Reader, max int64) (*SavedPlan, error) {
	sps, err := readSavedPlans(r, max)
	if err != nil {
		return nil, err
	}
	return sps[0], nil
}

// Unfinished returns the started entries of es (in the order of
// [ReadJournal]) that no outcome line follows: mutations whose request may
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
		if e.Outcome == OutcomeSkipped {
			continue // no request: nothing it could close
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
