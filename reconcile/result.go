package reconcile

import "slices"

// An Outcome is what became of one step of an apply.
type Outcome string

// Outcomes of a [StepResult].
const (
	OutcomeApplied Outcome = "applied"
	OutcomeFailed  Outcome = "failed"
	OutcomeSkipped Outcome = "skipped"
	// OutcomeAccepted is a write the service took (a 202, or a 2xx with
	// no skill) that reads did not show within the client's wait: neither
	// applied nor failed yet.
	OutcomeAccepted Outcome = "accepted"
)

// StepResult is what became of one request of an apply.
type StepResult struct {
	// Slug and ID name the skill; for a publish, Slug is the agent's name
	// and ID its id.
	Slug   string `json:"slug"`
	ID     string `json:"id"`
	Action Action `json:"action"`
	// Fields are the fields an update sent.
	Fields  []string `json:"fields,omitempty"`
	Outcome Outcome  `json:"outcome"`
	// Reason is, for a failure, the service's answer ("409 Conflict: space
	// ab12 already has 40 active skills") or the client's error; for a
	// skip, why the step was not run.
	Reason string `json:"reason,omitempty"`
	// Status is the HTTP status of a failure the service answered.
	Status int `json:"status,omitempty"`
	// Mismatch says how a response differed from the request, which makes
	// the step failed though the service answered 200.
	Mismatch string `json:"mismatch,omitempty"`
}

// Result is the outcome of an [Apply], step by step, in the order the
// phases ran: disables, updates, enables, publishes, each in plan order.
type Result struct {
	// Target is the target of skillsync.yaml applied; "" for the one
	// space of a skillsync.yaml without targets.
	Target string       `json:"target,omitempty"`
	Space  string       `json:"space"`
	Steps  []StepResult `json:"steps"`
	// Interrupted is set when the context was cancelled before every step
	// had finished: the steps not started are skipped "interrupted", and
	// any still without an answer when the grace period ran out are failed.
	Interrupted bool `json:"interrupted"`
	// JournalError is set when the journal could not be written; apply
	// then starts no further step, since what it changes could not be
	// restored.
	JournalError string `json:"journal_error,omitempty"`
}

// Counts are the numbers of steps of a [Result] by outcome.
type Counts struct {
	Applied int `json:"applied"`
	Failed  int `json:"failed"`
	Skipped int `json:"skipped"`
	// Accepted are writes the service took that reads did not show yet.
	Accepted int `json:"accepted,omitempty"`
}

// Counts counts the steps of r by outcome.
func (r *Result) Counts() Counts {
	var n Counts
	for _, s := range r.Steps {
		switch s.Outcome {
		case OutcomeApplied:
			n.Applied++
		case OutcomeFailed:
			n.Failed++
		case OutcomeAccepted:
			n.Accepted++
		default:
			n.Skipped++
		}
	}
	return n
}

// Failed reports whether any step failed or was skipped for a reason other
// than an interrupt or an accepted write it waits for, or the journal
// failed: the space does not match the plan. Accepted writes are not
// failures: the service took them.
func (r *Result) Failed() bool {
	return r.JournalError != "" || slices.ContainsFunc(r.Steps, func(s StepResult) bool {
		return s.Outcome == OutcomeFailed || (s.Outcome == OutcomeSkipped && s.Reason != reasonInterrupted && s.Reason != reasonAwaitsAccepted)
	})
}

// reasonInterrupted is the Reason of a step skipped because apply was
// interrupted: the one skip that does not make a [Result] failed.
const reasonInterrupted = "interrupted"

// reasonAwaitsAccepted is the Reason of an enable skipped because its
// update was accepted but does not show yet: it is not a failure either.
const reasonAwaitsAccepted = "update accepted by the service, not visible yet: run apply again once it shows"
