package reconcile

// TargetsSummary adds up the plans of the targets planned: the "summary"
// of the JSON document of plans.
type TargetsSummary struct {
	Targets     int `json:"targets"`
	WithChanges int `json:"with_changes"` // plans that change their space
	WithErrors  int `json:"with_errors"`  // plans apply refuses
	Update      int `json:"update"`
	Enable      int `json:"enable"`
	Disable     int `json:"disable"`
	Publish     int `json:"publish"`
}

// SummarizeTargets adds up plans.
func SummarizeTargets(plans []*Plan) TargetsSummary {
	s := TargetsSummary{Targets: len(plans)}
	for _, p := range plans {
		if p.HasChanges() {
			s.WithChanges++
		}
		if p.HasErrors() {
			s.WithErrors++
		}
		s.Update += p.Summary.Update
		s.Enable += p.Summary.Enable
		s.Disable += p.Summary.Disable
		s.Publish += p.Summary.Publish
	}
	return s
}

// CodeNoPlan is the code of the one error of a [FailedPlan].
const CodeNoPlan = "no-plan"

// FailedPlan is the plan of a target that could not be planned (its space
// could not be read, say) beside others that were: a plan with no change
// and the one error pr, saying why, so that every format shows it where
// the target's plan would be, and apply refuses it.
func FailedPlan(space, target, commit string, pr Problem) *Plan {
	p := &Plan{Target: target, Space: space, Commit: commit, Errors: []Problem{pr}}
	p.Normalize()
	return p
}

// Failed reports whether p is a [FailedPlan].
func (p *Plan) Failed() bool {
	return len(p.Errors) == 1 && p.Errors[0].Code == CodeNoPlan && len(p.Changes) == 0
}
