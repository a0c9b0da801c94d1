package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/reconcile"
)

func planCommand(e *env) *cli.Command {
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
			flagOut.def("also save the plan to FILE, for 'skillsync apply FILE'"),
			flagDetailedExitcode.def("exit 2 when the plan has changes"),
		}, commentFlags(), []cli.Flag{baseFlag()}),
		Action: func(c *cli.Context) error {
			o, err := readPlanning(c, e)
			if err != nil {
				return err
			}
			format, err := readFormat(c, "text", "markdown", "json")
			if err != nil {
				return err
			}
			return runPlan(c.Context, e, planOptions{
				planning:         o,
				format:           format,
				out:              flagOut.get(c),
				detailedExitcode: flagDetailedExitcode.get(c),
				base:             flagBase.get(c),
				github:           readGitHub(c),
			})
		},
	}
}

// planOptions are plan's settings.
type planOptions struct {
	planning         planningOptions
	format           string // text, markdown or json
	out              string // -out: save the plan there too
	detailedExitcode bool
	base             string // --base: split the plan against this branch
	github           githubOptions
}

func runPlan(ctx context.Context, e *env, o planOptions) error {
	ui := e.ui
	if o.out != "" {
		// Before any work: a plan that cannot be saved is wasted.
		if err := checkPlanOut("plan", o.out); err != nil {
			return err
		}
	}
	r, err := makePlan(ctx, e, o.planning, o.format != "json")
	if err != nil {
		publishFailure(ctx, e, o.planning, o.github, "plan", err)
		return err
	}
	if o.base != "" {
		if err := splitByBase(ctx, ui, r, o.planning.ref, o.base); err != nil {
			publishFailure(ctx, e, o.planning, o.github, "plan", err)
			return err
		}
	}
	if err := renderPlan(ui.stdout, r.plan, o.format, o.planning.color, "plan"); err != nil {
		return err
	}
	// Posted even with errors: reviewers need to see them.
	ghErr := publishPlan(ctx, ui, o.github, r.plan, "plan")
	if r.plan.HasErrors() {
		reportAlso(ui, ghErr)
		return planErrors(r.plan)
	}
	if o.out != "" {
		if err := savePlan(o.out, r); err != nil {
			return err
		}
		if o.format != "json" {
			ui.infof("%s", savedLine(r.plan, o.out))
		}
	}
	if ghErr != nil {
		return ghErr
	}
	if o.detailedExitcode && r.plan.HasChanges() {
		return errChanges
	}
	return nil
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
