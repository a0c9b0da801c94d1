package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/reconcile"
)

func driftCommand(e *env) *cli.Command {
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

With --pr (GitHub or GitLab) the app's edits of each target that drifted
are written into its skill folders as 'skillsync pull' writes them (its
own enabled states into skillsync.yaml's overrides) on the branch
skillsync/drift/TARGET, and proposed as one pull (merge) request with the
drift report as its description; later runs update it, and close it once
the space is back in sync. Merging it adopts the edits; closing it leaves
them for the next apply to revert. See docs/drift.md.

With --watch it runs until stopped: every --interval it lists each
target's skills (one request per 100 skills) and, only for a target whose
list or repository moved, drifts it as a scheduled run would (report,
--issue, --pr, notifications), reading only what changed through the
cache. --self-heal then applies the repository over the app's edits,
with apply's safety rules. --listen serves /healthz and Prometheus
/metrics. See docs/watch.md.

Examples:
   skillsync drift
   skillsync drift --format markdown > drift.md
   skillsync drift --issue       # in a scheduled GitHub or GitLab job: one issue per space
   skillsync drift --pr          # ... and the app's edits as one pull request per target
   skillsync drift --out drift.json

Exit codes: 0 in sync, 1 error, 2 drift found, 130 interrupted.`,
		Flags: slices.Concat(planFlags(), remoteFlags(), []cli.Flag{
			formatFlag("text", "markdown", "json"),
			flagOut.def("also save the plan to FILE, written last: its presence says drift finished"),
			flagPropose.def("propose the app's edits as one pull (merge) request per target that drifted, updated on later runs and closed once in sync (needs contents and pull-requests write permission)"),
			flagPRBase.def("the branch drift pull requests merge into (default: the branch the CI job runs on)"),
			flagWatch.def("run until stopped (SIGINT, SIGTERM): every --interval, list each space's skills, and drift only the targets that moved"),
			&cli.StringFlag{Name: string(flagInterval), Usage: "with --watch, the time between rounds, such as 30s or 5m", Value: "1m"},
			flagListen.def("with --watch, serve /healthz and /metrics (Prometheus) on `ADDR`, such as :9090"),
			flagSelfHeal.def("with --watch, apply the repository over the app's edits (as apply --auto-approve would, with its safety rules)"),
			flagIssue.def("open one issue per space when drift is found, update it on later runs, close it when in sync (needs GITHUB_TOKEN with issues: write, or GITLAB_TOKEN with the api scope under GitLab CI)"),
			githubRepoFlag(),
		}),
		Action: func(c *cli.Context) error {
			o, err := readPlanning(c, e)
			if err != nil {
				return err
			}
			do := driftOptions{planShown: readPlanShown(c, e, o, "drift"), propose: flagPropose.get(c), prBase: flagPRBase.get(c)}
			if !flagWatch.get(c) {
				for _, f := range []string{string(flagListen), string(flagSelfHeal), string(flagInterval)} {
					if c.IsSet(f) {
						return withHint(fmt.Errorf("--%s is a flag of drift --watch", f), "add --watch, or leave out --%s", f)
					}
				}
				return runDrift(c.Context, e, do)
			}
			interval, err := time.ParseDuration(flagInterval.get(c))
			if err != nil {
				return withHint(fmt.Errorf("--%s: %w", flagInterval, err), "give a duration such as 30s, 5m or 1h")
			}
			return runWatch(c.Context, e, watchOptions{drift: do, interval: interval, listen: flagListen.get(c), selfHeal: flagSelfHeal.get(c), format: flagFormat.get(c)})
		},
	}
}

// driftOptions are drift's settings.
type driftOptions struct {
	planShown        // its --out is saved last of all
	propose   bool   // --pr: the app's edits as pull requests
	prBase    string // --pr-base
}

func runDrift(ctx context.Context, e *env, o driftOptions) error {
	ui := e.ui
	runs, closed, err := o.show(ctx, e, "drift", "")
	if err != nil {
		return err
	}
	ghErr := publishPlans(ctx, e, o.github, runs, "drift")
	if o.propose {
		ghErr = firstError(ui, ghErr, proposeDrifts(ctx, e, o.github, o.prBase, runs))
	}
	notifyPlans(ctx, e, runs, "drift")
	found := false
	verdictUnknown := func(r *planRun) bool { return r.plan.Drift().Status == reconcile.DriftError }
	for _, r := range runs {
		switch {
		case verdictUnknown(r):
			reportAlso(ui, ghErr)
			return plansErrors(ui, runs, verdictUnknown)
		case r.plan.Drift().Status == reconcile.DriftFound:
			found = true
		}
	}
	if o.out != "" {
		if err := savePlans(ui, o.view.say, closed, o.out, runs); err != nil {
			return err
		}
	}
	if ghErr != nil {
		return ghErr
	}
	if !found {
		return nil
	}
	o.view.unsyncable(runs)
	return errChanges
}
