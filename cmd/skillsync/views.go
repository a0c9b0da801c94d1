package main

import (
	"io"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/render"
)

// The views of plan, drift, apply and restore: each command makes one from
// --format before any work, hands it what it found or did, and never asks
// which format it is writing. One target is a list of one: a view is
// handed every target's run at once.

// A planView shows what plan or drift found.
type planView interface {
	// progress reports whether a progress line may show on stderr.
	progress() bool
	// plans writes the plans of runs.
	plans(runs []*planRun) error
	// say tells a person, on stderr, something that stdout does not.
	say(format string, args ...any)
	// unsyncable says, on stderr, why a drift whose plans change nothing
	// is drift all the same.
	unsyncable(runs []*planRun)
}

// newPlanView is the view of format for the command kind, "plan" or
// "drift", whose plans are titled "skillsync KIND".
func newPlanView(ui *ui, format string, color bool, kind string) planView {
	switch format {
	case "json":
		return planJSON{forMachines{ui}}
	case "sarif":
		return planSARIF{forMachines{ui}}
	case "markdown":
		return planMarkdown{forPeople{ui}, "skillsync " + kind}
	}
	return planText{forPeople{ui}, color, "skillsync " + kind}
}

// forPeople is what the views for people share: a progress line, and
// what stdout does not say, on stderr.
type forPeople struct{ ui *ui }

func (forPeople) progress() bool                   { return true }
func (v forPeople) say(format string, args ...any) { v.ui.infof(format, args...) }

// forMachines is what the views for machines share: stdout holds their
// one document, and stderr nothing but errors.
type forMachines struct{ ui *ui }

func (forMachines) progress() bool        { return false }
func (forMachines) say(string, ...any)    {}
func (forMachines) unsyncable([]*planRun) {}

// planText writes plans for a terminal or a CI log.
type planText struct {
	forPeople
	color bool
	title string
}

func (v planText) plans(runs []*planRun) error {
	return render.TargetsText(v.ui.textOut(v.color), plans(runs), render.TextOptions{Color: v.color, Title: v.title})
}

func (v planText) unsyncable(runs []*planRun) {
	for _, r := range runs {
		if !r.plan.Drift().Unsyncable {
			continue
		}
		line := render.UnsyncableLine(r.plan)
		// The plan above ends "No changes."; say why this is drift.
		if len(runs) == 1 {
			v.ui.infof("drift: %s Make these changes in the app or in the repository.", line)
		} else {
			v.ui.infof("drift: %s: %s Make these changes in the app or in the repository.", r.target.where(), line)
		}
	}
}

// planMarkdown writes each plan as the markdown of its comment, one after
// another.
type planMarkdown struct {
	forPeople
	title string
}

func (v planMarkdown) plans(runs []*planRun) error {
	for i, r := range runs {
		if i > 0 {
			fprintf(v.ui.stdout, "\n")
		}
		if err := render.Markdown(v.ui.stdout, r.plan, render.MarkdownOptions{Title: v.title}); err != nil {
			return err
		}
	}
	return nil
}

func (v planMarkdown) unsyncable([]*planRun) {} // the markdown says it

// planJSON writes the plans as one JSON document, and nothing else.
type planJSON struct{ forMachines }

func (v planJSON) plans(runs []*planRun) error { return render.JSON(v.ui.stdout, plans(runs)) }

// planSARIF writes the findings of the plans as one SARIF log, and
// nothing else: those of the repository's files, which code scanning
// places on lines of the checkout; a finding in the space's copy of a
// skill lies in no file of it.
type planSARIF struct{ forMachines }

func (v planSARIF) plans(runs []*planRun) error {
	var diags diag.Diagnostics
	seen := map[reconcile.Finding]bool{} // targets share the repository's files
	for _, r := range runs {
		for _, f := range r.plan.Findings {
			if f.InSpace || seen[f] {
				continue
			}
			seen[f] = true
			d := diag.Diagnostic{Path: f.Path, Line: f.Line, Col: f.Col, Message: f.Message, Hint: f.Hint, Code: f.Rule,
				Match: f.Match, Decoded: f.Decoded, Hash: f.Hash}
			if err := d.Severity.UnmarshalText([]byte(f.Severity)); err != nil {
				return err
			}
			diags = append(diags, d)
		}
	}
	diags.Sort()
	return writeSARIF(v.ui, runs[0].root, diags)
}

// textOut is where text for a terminal goes: a coloured text carries
// escapes of skillsync's own, and shows the text of the space and the
// repository visibly itself (see [render.Text]); any other goes
// through stdout, which shows control characters.
func (ui *ui) textOut(color bool) io.Writer {
	if color {
		return ui.stdoutOwn
	}
	return ui.stdout
}

// An applyView shows what apply or restore does.
type applyView interface {
	// progress reports whether a progress line may show on stderr.
	progress() bool
	// plans shows the plans of runs before they are applied: those of a
	// saved plan file, when file names one, were reviewed already.
	plans(runs []*planRun, file string) error
	// applying is said before the steps of r start.
	applying(r *planRun)
	// result shows the steps of one target's apply, journaled in journal.
	result(res *reconcile.Result, journal string)
	// done shows what became of every target; the command's error, if
	// any, comes after.
	done(out []targetOutcome) error
	// say tells a person, on stderr, something that stdout does not.
	say(format string, args ...any)
}

// newApplyView is the view of format for apply and restore.
func newApplyView(ui *ui, format string, color bool) applyView {
	if format == "json" {
		return applyJSON{forMachines{ui}}
	}
	return &applyText{forPeople: forPeople{ui}, color: color}
}

// applyText shows the plan, then each step as it is applied.
type applyText struct {
	forPeople
	color   bool
	several bool // of the runs shown: each target's steps are headed by its name
}

func (v *applyText) plans(runs []*planRun, file string) error {
	v.several = len(runs) > 1
	if file == "" {
		return render.TargetsText(v.ui.textOut(v.color), plans(runs), render.TextOptions{Color: v.color, Title: "skillsync plan"})
	}
	// As terraform apply PLANFILE, only what is done with it.
	for _, r := range runs {
		if r.appliedAlready {
			fprintf(v.ui.stdout, "The saved plan %s was applied already to %s: the space holds every change it makes. Nothing to do.\n", file, r.target.where())
			continue
		}
		fprintf(v.ui.stdout, "Applying the saved plan %s to %s. %s\n", file, r.target.where(), render.SummaryLine(r.plan))
	}
	return nil
}

func (v *applyText) applying(r *planRun) {
	if v.several {
		fprintf(v.ui.stdout, "\nApplying %s:\n", r.target.where())
	}
}

func (v *applyText) result(res *reconcile.Result, journal string) {
	writeResult(v.ui, res)
	v.ui.infof("journal: %s", journal)
}

func (v *applyText) done(out []targetOutcome) error {
	if v.several {
		fprintf(v.ui.stdout, "\n%s\n", targetsLine(out))
	}
	return nil
}

// applyJSON writes what became of every target as one JSON document, once
// apply is over, and nothing else.
type applyJSON struct{ forMachines }

func (v applyJSON) plans([]*planRun, string) error   { return nil }
func (v applyJSON) applying(*planRun)                {}
func (v applyJSON) result(*reconcile.Result, string) {}
func (v applyJSON) done(out []targetOutcome) error   { return writeJSON(v.ui, applyDocument(out)) }
