package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/reconcile"
)

func planCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "show what apply would change in the space",
		Description: `Reads the repository and the live space and shows, skill by skill, what
apply would change (~ update, + enable, - disable) and what the API cannot
do (missing skills, supporting files). Nothing is changed.

Examples:
   skillsync plan
   skillsync plan --format markdown > plan.md
   skillsync plan -out plan.json --detailed-exitcode
   skillsync plan --comment      # in a pull_request job: one comment per space
   skillsync plan --base origin/main   # this pull request's changes apart from drift

Exit codes: 0 success (with --detailed-exitcode: no changes), 1 error
(including a plan with errors), 2 changes present (only with
--detailed-exitcode), 130 interrupted.`,
		Flags: flags(planFlags(), remoteFlags(), []cli.Flag{
			formatFlag("text", "markdown", "json"),
			&cli.StringFlag{Name: "out", Usage: "also save the plan to FILE, for 'skillsync apply FILE'"},
			&cli.BoolFlag{Name: "detailed-exitcode", Usage: "exit 2 when the plan has changes"},
		}, commentFlags(), []cli.Flag{baseFlag()}),
		Action: func(c *cli.Context) error {
			format, err := checkFormat(c, "text", "markdown", "json")
			if err != nil {
				return err
			}
			if out := c.String("out"); out != "" {
				// Before any work: a plan that cannot be saved is wasted.
				if err := checkPlanOut("plan", out); err != nil {
					return err
				}
			}
			r, err := makePlan(c, ui, format != "json")
			if err != nil {
				publishFailure(c, ui, "plan", err)
				return err
			}
			if ref := c.String("base"); ref != "" {
				if err := splitByBase(c, ui, r, ref); err != nil {
					publishFailure(c, ui, "plan", err)
					return err
				}
			}
			if err := renderPlan(ui.stdout, r.plan, format, useColor(c, ui), "plan"); err != nil {
				return err
			}
			// Posted even with errors: reviewers need to see them.
			ghErr := publishPlan(c, ui, r.plan, "plan")
			if r.plan.HasErrors() {
				reportAlso(ui, ghErr)
				return planErrors(r.plan)
			}
			if out := c.String("out"); out != "" {
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
			if c.Bool("detailed-exitcode") && r.plan.HasChanges() {
				return errChanges
			}
			return nil
		},
	}
}

// savedLine says where the plan p was saved, and how to apply it.
func savedLine(p *reconcile.Plan, path string) string {
	if p.HasErrors() {
		return fmt.Sprintf("saved the plan to %s", path) // apply refuses it
	}
	return fmt.Sprintf("saved the plan to %s; apply it with: skillsync apply %s", path, path)
}

// savePlan writes the saved plan atomically, so an interrupted plan never
// leaves half a file for apply to read.
func savePlan(path string, r *planRun) error {
	sp := &reconcile.SavedPlan{Plan: r.plan, ToolVersion: buildVersion(), BaseURL: r.target.BaseURL}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".skillsync-plan-*")
	if err != nil {
		// The temporary file's name means nothing to the user.
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return withHint(fmt.Errorf("saving plan to %s: cannot create a file in %s: %w", path, filepath.Dir(path), err),
			"name a file in a folder this user can write to")
	}
	defer os.Remove(tmp.Name())
	if err := reconcile.WriteSavedPlan(tmp, sp); err != nil {
		tmp.Close()
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	return nil
}
