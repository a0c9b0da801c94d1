package main

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
)

// TestApplyFailedJournalOnly: when every step applied and only the journal
// could not be written (a full disk), the error says so, and never that
// the space does not match the plan.
func TestApplyFailedJournalOnly(t *testing.T) {
	const full = "writing journal j.jsonl: write j.jsonl: no space left on device"
	res := &reconcile.Result{JournalError: full, Steps: []reconcile.StepResult{
		{Slug: "a", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied},
		{Slug: "b", Action: reconcile.ActionEnable, Outcome: reconcile.OutcomeApplied},
	}}
	err := applyFailed(res)
	if want := "all 2 steps applied, but writing their outcome to the journal failed: " + full; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if h := hintFor(err); !strings.Contains(h, "the space matches the plan") || !strings.Contains(h, "restore can undo it") {
		t.Errorf("hint %q", h)
	}

	// A step the journal stopped is another matter: the space differs.
	res.Steps = append(res.Steps, reconcile.StepResult{Slug: "c", Action: reconcile.ActionDisable, Outcome: reconcile.OutcomeSkipped, Reason: "not started: the journal could not be written"})
	if err := applyFailed(res); err == nil || !strings.HasPrefix(err.Error(), "1 of 3 steps did not apply; the space does not match the plan: writing the journal failed: ") {
		t.Errorf("with a step not sent: %v", err)
	}
}
