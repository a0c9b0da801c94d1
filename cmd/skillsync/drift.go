package main

import (
	"github.com/skillsync/skillsync/reconcile"
	"github.com/urfave/cli/v2"
)

func driftCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:  "drift",
		Usage: "report whether the space differs from the repository (read-only)",
		Description: `Plans like 'skillsync plan' and never changes the space: run it on a schedule
to catch edits made in the app behind git's back. With --format markdown the
report is fit for an issue body.

Drift is anything by which the space differs from the repository: what apply
would change (updates, enables, disables, agents to publish), and what it
cannot (a supporting file that differs or is absent in the space, a skill of
the repository missing from the space, drift even where 'missing: error'
makes it a plan error). So drift can exit 2 on a plan that
says "No changes.": those differences are made in the app, and the text
report then says so on stderr ("Not possible through the API: ..."). A file
the API cannot read (a binary file) is reported but is not drift.

With --out FILE drift saves the plan as 'plan -out' does, to keep or to
apply (which puts the space back as the repository has it), last of all:
a script that finds FILE knows drift got to the end, so exit 2 without it
is a crash (such as running out of memory), never drift.

Examples:
   skillsync drift
   skillsync drift --format markdown > drift.md
   skillsync drift --issue       # in a scheduled job: one issue per space
   skillsync drift --out drift.json

Exit codes: 0 in sync, 1 error, 2 drift found, 130 interrupted.`,
		Flags: flags(planFlags(), remoteFlags(), []cli.Flag{
			formatFlag("text", "markdown", "json"),
			&cli.StringFlag{Name: "out", Usage: "also save the plan to FILE, written last: its presence says drift finished"},
		}, issueFlags()),
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, "text", "markdown", "json")
			if err != nil {
				return err
			}
			out := c.String("out")
			if out != "" {
				if err := checkPlanOut("drift", out); err != nil {
					return err
				}
			}
			r, err := makePlan(c, ui, format != "json")
			if err != nil {
				publishFailure(c, ui, "drift", err)
				return err
			}
			if err := renderPlan(ui.stdout, r.plan, format, useColor(c, ui), "drift"); err != nil {
				return err
			}
			ghErr := publishPlan(c, ui, r.plan, "drift")
			// A skill missing from the space is a plan error (apply must
			// not run without it) but, to drift, it is drift: exit 2, as
			// for any other difference. Other errors are the repository's.
			if r.plan.HasErrors() && !onlyMissingErrors(r.plan) {
				reportAlso(ui, ghErr)
				return planErrors(r.plan)
			}
			if out != "" {
				if err := savePlan(out, r); err != nil {
					return err
				}
				if format != "json" {
					ui.infof("%s", savedLine(r.plan, out))
				}
			}
			if ghErr != nil {
				return ghErr
			}
			if r.plan.HasDrift() {
				if u := reconcile.UnsyncableLine(r.plan); u != "" && !r.plan.HasChanges() && format == "text" {
					// The plan above ends "No changes."; say why this is drift.
					ui.infof("drift: %s Make these changes in the app or in the repository.", u)
				}
				return errChanges
			}
			return nil
		},
	}
}

// onlyMissingErrors reports whether every error of p is a skill of the
// repository missing from the space.
func onlyMissingErrors(p *reconcile.Plan) bool {
	for _, e := range p.Errors {
		if e.Code != reconcile.CodeMissing {
			return false
		}
	}
	return true
}
