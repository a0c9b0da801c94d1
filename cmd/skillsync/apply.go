package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
)

func applyCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "apply",
		Usage:     "make the space match the repository",
		ArgsUsage: "[PLAN_FILE]",
		Description: `Without a file, plans afresh, shows the plan and asks for confirmation
(on a terminal; in CI pass --auto-approve). With a file saved by
'skillsync plan -out FILE', applies exactly that plan, and refuses it if the
repository changed since, or a skill the plan changes moved in the space (or,
for a plan that enables skills, the active count did), or its changes are not
those the repository and the space give (the file was edited). Skills of the
space the plan does not touch may change meanwhile: the plan leaves them alone.

Apply disables first, then updates, then enables, so the space never has more
than 40 active skills. Each update reads its skill right before writing it: a
skill edited in the app since the plan read it is left as the app has it, and
reported (plan again to see the edit); the rest applies, and apply exits 1. Every mutation is journaled under .skillsync/journal/
or in --journal FILE, one JSON line each: a "started" line with the request
and the text it replaces, written before the request is sent, and a "result"
line with the outcome. A started line with no result marks a request whose
fate is unknown (the process died mid-way); the next plan shows the truth.

Examples:
   skillsync apply
   skillsync apply --auto-approve
   skillsync apply --auto-approve plan.json

Exit codes: 0 applied (or nothing to do), 1 error or any step failed,
130 interrupted (requests in flight finish and are journaled).`,
		Flags: flags(planFlags(), remoteFlags(), []cli.Flag{
			formatFlag("text", "json"),
			flagAutoApprove.def("apply without asking for confirmation"),
			flagJournal.def("journal FILE (default: .skillsync/journal/<time>.jsonl in the repository, <time>-<target>.jsonl for a target); with one target only"),
			flagKeepGoing.def("with several targets: go on to the next target when one fails"),
		}),
		Action: func(c *cli.Context) error {
			o, err := readPlanning(c, e)
			if err != nil {
				return err
			}
			format, err := readFormat(c, "text", "json")
			if err != nil {
				return err
			}
			if c.NArg() > 1 {
				return withHint(fmt.Errorf("apply takes at most one plan file, got %d arguments", c.NArg()), "flags go before the file: skillsync apply --auto-approve plan.json")
			}
			return runApply(c.Context, e, applyOptions{
				planning:    o,
				format:      format,
				autoApprove: flagAutoApprove.get(c),
				journal:     flagJournal.get(c),
				keepGoing:   flagKeepGoing.get(c),
				planFile:    c.Args().First(),
			})
		},
	}
}

// applyOptions are apply's settings.
type applyOptions struct {
	planning    planningOptions
	format      string // text or json
	autoApprove bool
	journal     string // --journal; "" for one under .skillsync/journal/
	keepGoing   bool   // --keep-going: a failed target does not stop the next
	planFile    string // the saved plan to apply; "" to plan afresh
}

func runApply(ctx context.Context, e *env, o applyOptions) error {
	ui := e.ui
	var runs []*planRun
	var err error
	if o.planFile != "" {
		runs, err = loadSavedPlans(ctx, e, o.planning, o.planFile)
	} else {
		runs, err = makePlans(ctx, e, o.planning, o.format != "json")
	}
	if err != nil {
		return err
	}
	if len(runs) > 1 && o.journal != "" {
		// Before anything is applied: each target needs a journal of
		// its own.
		return withHint(fmt.Errorf("--%s names one file, and %d targets are selected (%s)", flagJournal, len(runs), strings.Join(targetNames(targetsOf(runs)), ", ")),
			"leave out --%s: each target's journal then goes to .skillsync/journal/<time>-<target>.jsonl; or select one target with --%s", flagJournal, flagTarget)
	}
	// A saved plan was reviewed when it was made: as terraform apply
	// PLANFILE, apply shows only what it does with it.
	switch {
	case o.format != "text":
	case o.planFile != "":
		for _, r := range runs {
			if r.appliedAlready {
				fprintf(ui.stdout, "The saved plan %s was applied already to %s: the space holds every change it makes. Nothing to do.\n", o.planFile, r.target.where())
				continue
			}
			fprintf(ui.stdout, "Applying the saved plan %s to %s. %s\n", o.planFile, r.target.where(), reconcile.SummaryLine(r.plan))
		}
	default:
		if err := renderPlans(ui.planOut("text", o.planning.color), runs, "text", o.planning.color, "plan"); err != nil {
			return err
		}
	}
	// Under GitHub Actions the job summary gets the plan, and below it,
	// once applied, the result.
	if err := publishPlans(ctx, e, githubOptions{}, runs, "apply"); err != nil {
		return err
	}
	if len(runs) > 1 {
		return applyTargets(ctx, e, o, runs)
	}
	r := runs[0]
	if r.plan.HasErrors() {
		return planErrors(r.plan)
	}
	if !r.plan.HasChanges() {
		if o.format == "json" {
			return writeJSON(ui, &reconcile.Result{Target: r.target.Name, Space: r.target.Space})
		}
		return nil
	}
	if !o.autoApprove && o.planFile == "" {
		if err := confirm(ctx, e, "apply", runs, "pass --auto-approve to apply without asking (as in CI), or apply a reviewed plan file"); err != nil {
			return err
		}
		// The prompt may have stayed open for a while: an edit made in the
		// app meanwhile would be overwritten unjournaled.
		if err := recheck(ctx, runs); err != nil {
			return err
		}
	}
	return applyPlan(ctx, ui, r, o.journal, o.format)
}

// targetsOf are the targets of runs.
func targetsOf(runs []*planRun) []targetSettings {
	ts := make([]targetSettings, len(runs))
	for i, r := range runs {
		ts[i] = r.target
	}
	return ts
}

// Statuses of a target in the summary of an apply of several.
const (
	targetApplied    = "applied"
	targetUnchanged  = "unchanged"   // its plan had no change
	targetFailed     = "failed"      // its plan had errors, or a step failed
	targetNotStarted = "not_started" // a target before it failed
)

// targetOutcome is what became of one target of an apply of several, as
// apply --format json reports it.
type targetOutcome struct {
	Target  string            `json:"target"`
	Space   string            `json:"space"`
	Status  string            `json:"status"`
	Journal string            `json:"journal,omitempty"`
	Result  *reconcile.Result `json:"result,omitempty"`
	Error   string            `json:"error,omitempty"`
}

// applyTargets applies the plans of several targets one after another,
// in the order of skillsync.yaml, each with its own journal. A target
// that fails (its plan has errors, or a step of it failed) stops the
// later ones unless --keep-going; the summary says which targets were
// applied, which failed and which were not started.
func applyTargets(ctx context.Context, e *env, o applyOptions, runs []*planRun) error {
	ui := e.ui
	var todo []*planRun
	for _, r := range runs {
		if r.plan.HasChanges() && !r.plan.HasErrors() {
			todo = append(todo, r)
		}
	}
	if len(todo) > 0 && !o.autoApprove && o.planFile == "" {
		if err := confirm(ctx, e, "apply", todo, "pass --auto-approve to apply without asking (as in CI), or apply a reviewed plan file"); err != nil {
			return err
		}
		if err := recheck(ctx, todo); err != nil {
			return err
		}
	}
	out := make([]targetOutcome, len(runs))
	stopped, interrupted := false, false
	var crashed error
	now := time.Now()
	for i, r := range runs {
		oc := &out[i]
		*oc = targetOutcome{Target: r.target.Name, Space: r.target.Space}
		switch {
		case stopped:
			oc.Status = targetNotStarted
			continue
		case r.plan.HasErrors():
			oc.Status = targetFailed
			oc.Error = fmt.Sprintf("the plan has %s", count(len(r.plan.Errors), "error", "errors"))
			if r.err != nil {
				oc.Error = r.err.Error()
			}
		case !r.plan.HasChanges():
			oc.Status = targetUnchanged
			continue
		default:
			oc.Journal = reconcile.TargetJournalPath(r.root, now, r.target.Name)
			if o.format == "text" {
				fprintf(ui.stdout, "\nApplying %s:\n", r.target.where())
			}
			res, err := applyTarget(ctx, ui, r, oc.Journal, o.format)
			oc.Result = res
			oc.Status = targetApplied
			if res == nil && err != nil {
				oc.Journal = "" // never opened
			}
			if err != nil {
				oc.Status, oc.Error = targetFailed, err.Error()
				var crash *bug.Error
				switch {
				case errors.As(err, &crash):
					crashed = err
				case errors.Is(err, errInterrupted):
					interrupted = true
				}
				if o.format == "text" && res == nil {
					reportAlso(ui, err)
				}
			}
		}
		if oc.Status == targetFailed && (!o.keepGoing || crashed != nil || interrupted) {
			stopped = true
		}
	}
	if o.format == "json" {
		if err := writeJSON(ui, struct {
			FormatVersion string          `json:"format_version"`
			Targets       []targetOutcome `json:"targets"`
		}{"2", out}); err != nil {
			return err
		}
	} else {
		fprintf(ui.stdout, "\n%s\n", targetsLine(out))
	}
	switch {
	case crashed != nil:
		return crashed
	case interrupted:
		return errInterrupted
	}
	var failed, notStarted []string
	for _, oc := range out {
		switch oc.Status {
		case targetFailed:
			failed = append(failed, oc.Target)
		case targetNotStarted:
			notStarted = append(notStarted, oc.Target)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	err := fmt.Errorf("%s did not apply: %s", count(len(failed), "target", "targets"), strings.Join(failed, ", "))
	if len(notStarted) > 0 {
		return withHint(fmt.Errorf("%w; not started: %s", err, strings.Join(notStarted, ", ")),
			"fix the first failure, then apply again (already applied targets plan no change); --%s goes on past a failed target", flagKeepGoing)
	}
	return withHint(err, "see each target's steps above; run 'skillsync plan' to see what is left to do")
}

// targetsLine sums up an apply of several targets: "Targets: 1 applied
// (staging), 1 failed (prod), 1 not started (eu)."
func targetsLine(out []targetOutcome) string {
	groups := map[string][]string{}
	for _, oc := range out {
		groups[oc.Status] = append(groups[oc.Status], oc.Target)
	}
	var parts []string
	for _, g := range []struct{ status, word string }{
		{targetApplied, "applied"}, {targetUnchanged, "unchanged"}, {targetFailed, "failed"}, {targetNotStarted, "not started"},
	} {
		if names := groups[g.status]; len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", len(names), g.word, strings.Join(names, ", ")))
		}
	}
	return "Targets: " + strings.Join(parts, ", ") + "."
}

// confirm asks on a terminal before cmd (apply or restore) changes the
// spaces of runs, and refuses without one: an unattended apply must say
// so with --auto-approve.
func confirm(ctx context.Context, e *env, cmd string, runs []*planRun, noTerminalHint string) error {
	ui := e.ui
	in, ok := e.stdin.(*os.File)
	if !ok || !isTerminal(in) || (!ui.stdoutTTY && !ui.stderrTTY) {
		return withHint(fmt.Errorf("%s needs confirmation, and there is no terminal to ask on", cmd), "%s", noTerminalHint)
	}
	// Ask where the person is looking: stdout may be piped to a log.
	prompt := ui.stdout
	if !ui.stdoutTTY {
		prompt = ui.stderr
	}
	where := make([]string, len(runs))
	for i, r := range runs {
		where[i] = r.target.where()
	}
	fprintf(prompt, "\nApply these changes to %s? Only 'yes' will be accepted: ", strings.Join(where, ", "))
	ui.flush()
	line, err := readAnswer(ctx, in)
	if err != nil {
		fprintf(prompt, "\n") // after the "^C" the terminal shows
		return err
	}
	if line == "" {
		return errors.New("apply cancelled: no answer")
	}
	if strings.TrimSpace(line) != "yes" {
		return withHint(errors.New("apply cancelled"), "nothing was changed")
	}
	return nil
}

// readAnswer reads a line typed at the terminal in, or "" when it is
// closed first. It returns errInterrupted as soon as ctx ends: Ctrl-C at
// the prompt sends SIGINT, which ends ctx, while the read itself would go
// on waiting for Enter.
func readAnswer(ctx context.Context, in io.Reader) (string, error) {
	got := make(chan string, 1)
	crashed := make(chan error, 1)
	go func() {
		var line string
		err := bug.Call(func() error {
			line, _ = bufio.NewReader(in).ReadString('\n')
			return nil
		})
		if err != nil {
			crashed <- err
			return
		}
		got <- line
	}()
	select {
	case line := <-got:
		return line, nil
	case err := <-crashed:
		return "", err
	case <-ctx.Done():
		return "", errInterrupted
	}
}

// recheck refuses the plans of runs if a skill one touches moved since it
// was made; nothing is applied then.
func recheck(ctx context.Context, runs []*planRun) error {
	var stale []string
	for _, r := range runs {
		sp := &reconcile.SavedPlan{Plan: r.plan, ToolVersion: buildVersion(), BaseURL: r.target.BaseURL}
		got, err := reconcile.CheckStale(ctx, r.client, sp, r.target.Space, r.target.BaseURL, r.repo)
		if err != nil {
			return fmt.Errorf("checking the plan against %s: %w", r.target.where(), err)
		}
		for _, s := range got {
			if len(runs) > 1 {
				s = "target " + r.target.Name + ": " + s
			}
			stale = append(stale, s)
		}
	}
	if len(stale) > 0 {
		return withHint(fmt.Errorf("the space changed while the plan waited for confirmation:\n  %s", strings.Join(stale, "\n  ")),
			"nothing was applied; run 'skillsync apply' again to see the new plan")
	}
	return nil
}

// applyPlan applies r.plan, journaling every mutation, and reports per
// step, in format.
func applyPlan(ctx context.Context, ui *ui, r *planRun, journalPath, format string) error {
	if journalPath == "" {
		journalPath = reconcile.TargetJournalPath(r.root, time.Now(), r.target.Name)
	}
	res, err := applyTarget(ctx, ui, r, journalPath, format)
	if res != nil && format == "json" {
		if err := writeJSON(ui, res); err != nil {
			return err
		}
	}
	return err
}

// applyTarget applies r.plan, journaling every mutation in journalPath,
// and, but in format json, reports per step. The result is nil when
// nothing could be started.
func applyTarget(ctx context.Context, ui *ui, r *planRun, journalPath, format string) (*reconcile.Result, error) {
	j, err := reconcile.OpenJournal(journalPath)
	if errors.Is(err, reconcile.ErrStateDirLink) {
		return nil, withHint(fmt.Errorf("opening journal: %w", err), "nothing was applied; remove the link (skillsync makes the folder itself), or pass --journal FILE to journal elsewhere")
	}
	if err != nil {
		return nil, withHint(fmt.Errorf("opening journal: %w", err), "pass --journal FILE to write it elsewhere")
	}
	defer j.Close()
	var pr *progressLine
	if format != "json" {
		pr = ui.progress("applying")
	}
	res, err := reconcile.Apply(ctx, r.client, r.target.Space, r.plan, reconcile.ApplyOptions{
		Parallelism: r.par,
		Journal:     j,
		Progress:    pr.update,
	})
	pr.done()
	if res == nil {
		return nil, err
	}
	// Past here err can only be a bug, reported after what was applied.
	crashed := err
	if ui.github.Actions {
		publishResult(ui, res)
	}
	if format != "json" {
		writeResult(ui, res)
		ui.infof("journal: %s", journalPath)
	}
	switch {
	case crashed != nil:
		return res, crashed
	case res.Interrupted:
		return res, errInterrupted
	case res.Failed():
		return res, applyFailed(res)
	}
	return res, nil
}

// applyFailed is the error of an apply where steps failed, with what to do
// about the first failure the service explained.
func applyFailed(res *reconcile.Result) error {
	n := res.Counts()
	err := fmt.Errorf("%d of %d steps did not apply; the space does not match the plan", n.Failed+n.Skipped, len(res.Steps))
	if res.JournalError != "" {
		return withHint(fmt.Errorf("%w: writing the journal failed: %s", err, res.JournalError), "apply stopped so that every change stays restorable; fix the journal's folder or pass --journal FILE")
	}
	for _, s := range res.Steps {
		if s.Outcome == reconcile.OutcomeFailed {
			if h := hintForStatus(s.Status, s.Action == reconcile.ActionEnable); h != "" {
				return withHint(err, "%s", h)
			}
		}
	}
	return withHint(err, "see the steps above; run 'skillsync plan' to see what is left to do")
}

// writeJSON writes v as indented JSON, what no one can see in it as \u
// escapes: its values stay as they are for machines, and a person sees them.
func writeJSON(ui *ui, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := ui.stdout.Write(visible.EscapeJSON(b.Bytes()))
	return err
}

// writeResult prints one line per step and a closing count.
func writeResult(ui *ui, res *reconcile.Result) {
	fprintf(ui.stdout, "\n")
	for _, s := range res.Steps {
		switch s.Outcome {
		case reconcile.OutcomeApplied:
			fprintf(ui.stdout, "  ok      %s: %s\n", visible.Line(s.Slug), s.Action)
		case reconcile.OutcomeFailed:
			reason := s.Reason
			if s.Mismatch != "" {
				reason = strings.TrimSpace(reason + " " + s.Mismatch)
			}
			fprintf(ui.stdout, "  FAILED  %s: %s: %s\n", visible.Line(s.Slug), s.Action, visible.Line(reason))
		default:
			fprintf(ui.stdout, "  skipped %s: %s: %s\n", visible.Line(s.Slug), s.Action, visible.Line(s.Reason))
		}
	}
	fprintf(ui.stdout, "\n%s\n", reconcile.ResultLine(res))
}
