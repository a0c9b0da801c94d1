package reconcile

import "slices"

// HasDrift reports whether the space differs from the repository, as drift
// reports it: p has changes or publishes, a supporting file differs or is
// absent in the space, or a skill of the repository is missing from the
// space. Apply can fix only the first two, so HasDrift can be true of a plan
// that [Plan.HasChanges] says is empty. A file that could not be checked
// ([FileUnchecked]) is not drift: whether it differs is unknown.
func (p *Plan) HasDrift() bool {
	return p.HasChanges() || len(p.Missing) > 0 ||
		slices.ContainsFunc(p.Files, func(f FileIssue) bool { return f.Status == FileDiffers || f.Status == FileAbsent })
}

// A DriftStatus is drift's verdict on a plan.
type DriftStatus int

const (
	// DriftNone: the space matches the repository.
	DriftNone DriftStatus = iota
	// DriftFound: the space differs from the repository ([Plan.HasDrift]).
	DriftFound
	// DriftError: the plan has errors of the repository's (an ambiguous
	// slug, a policy, the active limit...), so no verdict can be given.
	DriftError
)

// A DriftVerdict is what drift reports of a plan.
type DriftVerdict struct {
	Status DriftStatus
	// Unsyncable is true when the space differs only in what apply cannot
	// change: the plan has drift and no change.
	Unsyncable bool
}

// Drift is drift's verdict on p. A skill of the repository missing from
// the space is a plan error (apply must not run without it) but, to drift,
// it is drift like any other difference; any other error leaves no
// verdict.
func (p *Plan) Drift() DriftVerdict {
	for _, e := range p.Errors {
		if e.Code != CodeMissing {
			return DriftVerdict{Status: DriftError}
		}
	}
	if !p.HasDrift() {
		return DriftVerdict{Status: DriftNone}
	}
	return DriftVerdict{Status: DriftFound, Unsyncable: !p.HasChanges()}
}
