package reconcile

import (
	"bytes"
	"fmt"
	"io"
)

// FormatVersionTargets is the format_version of the JSON document that
// holds the plans of several targets ([RenderTargetsJSON]):
//
//	{"format_version": "2", "targets": [PLAN, ...], "summary": {...}}
//
// where each PLAN is a plan of format_version 1, with its "target". A
// reader of one plan (format_version 1) rejects it by its major version,
// rather than reading it as a plan that changes nothing.
const FormatVersionTargets = "2"

// TargetsSummary adds up the plans of several targets.
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

// targetsDoc is the document of [RenderTargetsJSON]; Targets is written
// a plan at a time.
type targetsDoc struct {
	FormatVersion string         `json:"format_version"`
	Targets       []struct{}     `json:"targets"`
	Summary       TargetsSummary `json:"summary"`
}

// RenderTargetsJSON writes the plans of several targets as one document
// of format_version 2 ([FormatVersionTargets]): each plan as [RenderJSON]
// writes it, in "targets", and their sum in "summary". Like RenderJSON it
// writes as it goes, a change at a
// time, in writes of whole lines, and its bytes are those of an indenting
// json.Encoder encoding the whole document at once.
func RenderTargetsJSON(w io.Writer, plans []*Plan) error {
	lw := newLineWriter(w)
	err := writeTargetsDoc(lw, plans, SummarizeTargets(plans), func(_ int, p *Plan) any { return p })
	if err != nil {
		return err
	}
	return lw.Flush()
}

// writeTargetsDoc writes the document of format_version 2 whose targets
// are the objects skel makes of plans, given the index of each
// ([writePlanObject]).
func writeTargetsDoc(lw *lineWriter, plans []*Plan, sum TargetsSummary, skel func(i int, p *Plan) any) error {
	head, err := encodeIndented(&targetsDoc{FormatVersion: FormatVersionTargets, Targets: []struct{}{}, Summary: sum}, "")
	if err != nil {
		return err
	}
	mark := []byte("\n  \"targets\": []")
	at := bytes.Index(head, mark)
	if at < 0 {
		return fmt.Errorf("encoding plans: no targets array in %s", head)
	}
	at += len(mark) - len("[]")
	lw.Write(head[:at])
	if len(plans) == 0 {
		lw.WriteString("[]")
	} else {
		lw.WriteString("[\n")
		for i, p := range plans {
			lw.WriteString("    ")
			if err := writePlanObject(lw, p, "    ", func(cp *Plan) any { return skel(i, cp) }); err != nil {
				return err
			}
			if i < len(plans)-1 {
				lw.WriteByte(',')
			}
			lw.WriteByte('\n')
		}
		lw.WriteString("  ]")
	}
	lw.Write(head[at+len("[]"):])
	return nil
}

// CodeNoPlan is the code of the one error of a [FailedPlan].
const CodeNoPlan = "no-plan"

// FailedPlan is the plan of a target that could not be planned (its space
// could not be read, say) beside others that were: a plan with no change
// and the one error pr, saying why, so that every format shows it where
// the target's plan would be, and apply refuses it.
func FailedPlan(space, target, commit string, pr Problem) *Plan {
	p := &Plan{FormatVersion: FormatVersion, Target: target, Space: space, Commit: commit, Errors: []Problem{pr}}
	p.normalize()
	return p
}

// TargetsSummaryLine is the last line of the text plans of several
// targets: [SummaryLine] of their sum.
func TargetsSummaryLine(s TargetsSummary) string {
	if s.WithChanges == 0 {
		return "No changes."
	}
	return fmt.Sprintf("Plan: %d to update, %d to enable, %d to disable.", s.Update, s.Enable, s.Disable)
}
