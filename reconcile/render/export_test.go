package render

import (
	"fmt"
	"io"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/planfile"
)

// What only the tests read: plans decoded without a saved plan's keys,
// one saved plan at a time, and bounds other than the files'.

// DecodePlan reads the JSON document of one target's plan ([JSON]),
// such as a saved plan. It accepts any format_version of this major
// (later minor versions only add fields, which it ignores), and rejects
// others with an error wrapping [errFormatVersion]. It also rejects
// actions and fields it does not know, since apply must never guess what
// a plan asks for.
func DecodePlan(r io.Reader) (*reconcile.Plan, error) {
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
// checks them. It reads at most [planfile.MaxBytes], failing with a
// [*reconcile.TooLargeError] past that.
func DecodePlans(r io.Reader) ([]*reconcile.Plan, error) {
	data, err := readPlan(r, "the plan", planfile.MaxBytes)
	if err != nil {
		return nil, err
	}
	ts, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	out := make([]*reconcile.Plan, len(ts))
	for i := range ts {
		out[i] = &ts[i].Plan
	}
	return out, nil
}

// WriteSavedPlan writes sp as the saved plan of one target, written by
// skillsync v1 ([WriteSavedPlans]).
func WriteSavedPlan(w io.Writer, sp *planfile.Saved) error {
	return WriteSavedPlans(w, "v1", []*planfile.Saved{sp})
}

func writeSavedPlan(w io.Writer, sp *planfile.Saved, max int64) error {
	return writeSavedPlans(w, "v1", []*planfile.Saved{sp}, max)
}

// ReadSavedPlan reads a plan written by [WriteSavedPlan]: [ReadSavedPlans]
// of a file that holds the plan of one target.
func ReadSavedPlan(r io.Reader) (*planfile.Saved, error) {
	sps, err := ReadSavedPlans(r)
	if err != nil {
		return nil, err
	}
	if len(sps) != 1 {
		return nil, fmt.Errorf("the saved plan holds the plans of %d targets", len(sps))
	}
	return sps[0], nil
}

func readSavedPlan(r io.Reader, max int64) (*planfile.Saved, error) {
	sps, err := readSavedPlans(r, max)
	if err != nil {
		return nil, err
	}
	return sps[0], nil
}

// Text writes one plan as [TargetsText] writes a list of one.
func Text(w io.Writer, p *reconcile.Plan, o TextOptions) error {
	return TargetsText(w, []*reconcile.Plan{p}, o)
}
