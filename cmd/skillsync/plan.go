package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/reconcile/journal"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/render"
)

func planCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "plan",
		Usage: "show what apply would change in the space",
		Description: `Reads the repository and the live space and shows, skill by skill, what
apply would change (~ update, + enable, - disable) and what the API cannot
do (missing skills, supporting files). Nothing is changed.

With --format sarif, stdout is a SARIF 2.1.0 log of what the security rules
find in the skills the plan changes (and of every error), for code
scanning, as validate --format sarif writes for the whole repository.

Examples:
   skillsync plan
   skillsync plan --format markdown > plan.md
   skillsync plan --format sarif > skillsync.sarif
   skillsync plan -out plan.json --detailed-exitcode
   skillsync plan --comment      # in a pull/merge request job: one comment per space
   skillsync plan --base origin/main   # this pull request's changes apart from drift

Exit codes: 0 success (with --detailed-exitcode: no changes), 1 error
(including a plan with errors), 2 changes present (only with
--detailed-exitcode), 130 interrupted.`,
		Flags: slices.Concat(planFlags(), remoteFlags(), []cli.Flag{
			formatFlag("text", "markdown", "json", "sarif"),
			flagOut.def("also save the plan to FILE, for 'skillsync apply FILE'"),
			flagDetailedExitcode.def("exit 2 when the plan has changes"),
			flagComment.def("post the plan as one comment per space on the pull request (GitHub Actions) or merge request (GitLab CI), updated in place; none while there is nothing to review, and an earlier one becomes a short No changes (needs GITHUB_TOKEN with pull-requests: write, or GITLAB_TOKEN with the api scope)"),
			githubRepoFlag(),
			flagPR.def("pull request or merge request `N` to comment on (default: the pipeline's)"),
			flagBase.def("split the plan into the changes of this pull request and drift, against the merge base of `REF` (the target branch, such as origin/main) and HEAD"),
		}),
		Action: func(c *cli.Context) error {
			o, err := readPlanning(c, e)
			if err != nil {
				return err
			}
			return runPlan(c.Context, e, planOptions{
				planShown:        readPlanShown(c, e, o, "plan"),
				detailedExitcode: flagDetailedExitcode.get(c),
				base:             flagBase.get(c),
			})
		},
	}
}

// planOptions are plan's settings.
type planOptions struct {
	planShown
	detailedExitcode bool
	base             string // --base: split the plan against this branch
}

// planShown are the settings plan and drift share: what they plan, how
// they show it, where they save it and what they post.
type planShown struct {
	planning planningOptions
	view     planView
	out      string // -out: save the plans there too
	github   githubOptions
}

// readPlanShown reads the settings that plan and drift (kind) share.
func readPlanShown(c *cli.Context, e *env, o planningOptions, kind string) planShown {
	return planShown{planning: o, view: newPlanView(e.ui, flagFormat.get(c), o.color, kind), out: flagOut.get(c), github: readGitHub(c)}
}

// show makes the plans of plan or drift (kind), split against base when
// it is given, and shows them. An -out it would not write is refused
// before any work; a failure to plan is said where the plans would have
// gone. closed says that stdout was closed before the plans were all
// written (plan -out FILE | head): what follows must still be done.
func (o planShown) show(ctx context.Context, e *env, kind, base string) (runs []*planRun, closed bool, err error) {
	if o.out != "" {
		if err := checkPlanOut(kind, o.out); err != nil {
			return nil, false, err
		}
	}
	runs, err = makePlans(ctx, e, o.planning, o.view.progress())
	if err == nil && base != "" {
		err = splitByBase(ctx, e.ui, runs, o.planning.ref, base)
	}
	if err != nil {
		publishFailure(ctx, e, o.planning, o.github, kind, err)
		notifyFailure(ctx, e, o.planning, notify.PlanError, err)
		return nil, false, err
	}
	err = o.view.plans(runs)
	if errors.Is(err, syscall.EPIPE) {
		return runs, true, nil
	}
	return runs, false, err
}

func runPlan(ctx context.Context, e *env, o planOptions) error {
	ui := e.ui
	runs, closed, err := o.show(ctx, e, "plan", o.base)
	if err != nil {
		return err
	}
	// Posted even with errors: reviewers need to see them.
	ghErr := publishPlans(ctx, e, o.github, runs, "plan")
	notifyPlans(ctx, e, runs, "plan")
	if err := plansErrors(ui, runs, func(r *planRun) bool { return r.plan.HasErrors() }); err != nil {
		reportAlso(ui, ghErr)
		return err
	}
	if o.out != "" {
		if err := savePlans(ui, o.view.say, closed, o.out, runs); err != nil {
			return err
		}
		if outsideState(runs[0].root, o.out) {
			ui.hintf("a saved plan holds the full text of the skills: keep %s out of git, or save plans under %s/, which skillsync has git ignore", o.out, journal.StateDir)
		}
	}
	if ghErr != nil {
		return ghErr
	}
	if o.detailedExitcode && slices.ContainsFunc(runs, func(r *planRun) bool { return r.plan.HasChanges() }) {
		return errChanges
	}
	return nil
}

// savedLine says where the plans of runs were saved, and how to apply
// them.
func savedLine(runs []*planRun, path string) string {
	what := "the plan"
	if len(runs) > 1 {
		what = fmt.Sprintf("the plans of %d targets", len(runs))
	}
	if slices.ContainsFunc(runs, func(r *planRun) bool { return r.plan.HasErrors() }) {
		return fmt.Sprintf("saved %s to %s", what, path) // apply refuses it
	}
	return fmt.Sprintf("saved %s to %s; apply it with: skillsync apply %s", what, path, path)
}

// hintSecretInSpace is what to do about a secret of this process found
// in a skill of the space.
const hintSecretInSpace = "remove the value from each skill named in the app, and rotate the token: whoever can read the space has read it"

// savePlans writes the saved plan of runs atomically, so that an
// interrupted plan never leaves half a file for apply to read, then says
// where with say. A plan holding a secret of this process is not written
// at all.
func savePlans(ui *ui, say func(string, ...any), closed bool, path string, runs []*planRun) error {
	sps := make([]*planfile.Saved, len(runs))
	for i, r := range runs {
		sps[i] = &planfile.Saved{Plan: r.plan, BaseURL: r.target.BaseURL}
	}
	if err := planfile.CheckSecrets(sps, ui.secrets.Found); err != nil {
		return withHint(fmt.Errorf("saving plan to %s: %w", path, err), hintSecretInSpace)
	}
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
	if err := render.WriteSavedPlans(tmp, buildVersion(), sps); err != nil {
		tmp.Close()
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("saving plan to %s: %w", path, err)
	}
	// When stdout was closed, the line that the plan was saved goes to
	// stderr, so that it is never lost.
	if closed {
		ui.warningf("stdout was closed before the plan was all printed; %s", savedLine(runs, path))
	} else {
		say("%s", savedLine(runs, path))
	}
	return nil
}
