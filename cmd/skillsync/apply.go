package main

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/journal"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/render"
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
		Flags: slices.Concat(planFlags(), remoteFlags(), []cli.Flag{
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
			if c.NArg() > 1 {
				return withHint(fmt.Errorf("apply takes at most one plan file, got %d arguments", c.NArg()), "flags go before the file: skillsync apply --auto-approve plan.json")
			}
			return runApply(c.Context, e, applyOptions{
				planning:    o,
				view:        newApplyView(e.ui, flagFormat.get(c), o.color),
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
	view        applyView
	autoApprove bool
	journal     string // --journal; "" for one under .skillsync/journal/
	keepGoing   bool   // --keep-going: a failed target does not stop the next
	planFile    string // the saved plan to apply; "" to plan afresh
}

func runApply(ctx context.Context, e *env, o applyOptions) error {
	var runs []*planRun
	var err error
	if o.planFile != "" {
		runs, err = loadSavedPlans(ctx, e, o.planning, o.planFile)
	} else {
		runs, err = makePlans(ctx, e, o.planning, o.view.progress())
	}
	if err != nil {
		notifyFailure(ctx, e, o.planning, notify.ApplyFailed, err)
		return err
	}
	if len(runs) > 1 && o.journal != "" {
		// Before anything is applied: each target needs a journal of
		// its own.
		var names []string
		for _, r := range runs {
			names = append(names, r.target.Name)
		}
		return withHint(fmt.Errorf("--%s names one file, and %d targets are selected (%s)", flagJournal, len(runs), strings.Join(names, ", ")),
			"leave out --%s: each target's journal then goes to .skillsync/journal/<time>-<target>.jsonl; or select one target with --%s", flagJournal, flagTarget)
	}
	if err := o.view.plans(runs, o.planFile); err != nil {
		return err
	}
	// Under GitHub Actions the job summary gets the plan, and below it,
	// once applied, the result.
	if err := publishPlans(ctx, e, githubOptions{}, runs, "apply"); err != nil {
		return err
	}
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
	}
	out, err := applyRuns(ctx, e.ui, o.view, runs, o.journal, o.keepGoing)
	notifyApply(ctx, e, out)
	return err
}

// Statuses of a target in the outcome of an apply.
const (
	targetApplied    = "applied"
	targetUnchanged  = "unchanged"   // its plan had no change
	targetFailed     = "failed"      // its plan had errors, or a step failed
	targetNotStarted = "not_started" // a target before it failed, or the apply was interrupted
)

// targetOutcome is what became of one target of an apply.
type targetOutcome struct {
	run     *planRun
	status  string
	journal string            // where its apply was journaled; "" when none was
	res     *reconcile.Result // nil when its apply did not start
	err     error             // why it failed
}

// applyRuns applies the plans of runs one after another, in the order of
// skillsync.yaml, each with its own journal: journalPath when given (for one
// target), else a new one under .skillsync/journal/. A target that fails
// (its plan has errors, or a step of it failed) stops the later ones
// unless keepGoing. The view is handed every outcome, then the error says
// what failed; the outcomes are returned with it.
func applyRuns(ctx context.Context, ui *ui, v applyView, runs []*planRun, journalPath string, keepGoing bool) ([]targetOutcome, error) {
	out := make([]targetOutcome, len(runs))
	stopped := false
	now := time.Now()
	for i, r := range runs {
		oc := &out[i]
		*oc = targetOutcome{run: r, status: targetUnchanged}
		switch {
		case stopped:
			oc.status = targetNotStarted
		case r.plan.HasErrors():
			oc.status, oc.err = targetFailed, planErrors(r.plan)
			if r.err != nil {
				oc.err = r.err
			}
		case r.plan.HasChanges() && ctx.Err() != nil:
			// Interrupted after the target before it ended: nothing of
			// this one was started, and it has no journal.
			oc.status, stopped = targetNotStarted, true
		case r.plan.HasChanges():
			path := cmp.Or(journalPath, journal.TargetPath(r.root, now, r.target.Name))
			v.applying(r)
			oc.status = targetApplied
			oc.res, oc.err = applyTarget(ctx, ui, v, r, path)
			if oc.res != nil {
				oc.journal = path
			}
			if oc.err != nil {
				oc.status = targetFailed
			}
		}
		var crash *bug.Error
		if oc.status == targetFailed && (!keepGoing || errors.As(oc.err, &crash) || errors.Is(oc.err, errInterrupted)) {
			stopped = true
		}
	}
	if err := v.done(out); err != nil {
		return out, err
	}
	if err := applyError(ui, out); err != nil || ctx.Err() == nil {
		return out, err
	}
	if slices.ContainsFunc(out, func(oc targetOutcome) bool { return oc.status == targetNotStarted }) {
		return out, errInterrupted
	}
	return out, nil
}

// applyError is the error of an apply whose outcomes are out: for one
// target, its own; for several, one that names those that failed and
// those not started, after saying on stderr why each that failed before
// a step started did.
func applyError(ui *ui, out []targetOutcome) error {
	if len(out) == 1 {
		return out[0].err
	}
	var failed, notStarted []string
	for _, oc := range out {
		var crash *bug.Error
		switch {
		case errors.As(oc.err, &crash), errors.Is(oc.err, errInterrupted):
			return oc.err // the last target started
		case oc.status == targetFailed:
			failed = append(failed, oc.run.target.Name)
			if oc.res == nil && oc.run.plan.HasChanges() && !oc.run.plan.HasErrors() {
				reportAlso(ui, oc.err)
			}
		case oc.status == targetNotStarted:
			notStarted = append(notStarted, oc.run.target.Name)
		}
	}
	if len(failed) == 0 {
		return nil
	}
	err := fmt.Errorf("%s did not apply: %s", names.Count(len(failed), "target", "targets"), strings.Join(failed, ", "))
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
		groups[oc.status] = append(groups[oc.status], oc.run.target.Name)
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

// applyDocument is the JSON document of apply --format json: what became
// of each target, in the envelope of the plans' document.
func applyDocument(out []targetOutcome) any {
	type target struct {
		Target       string                 `json:"target"`
		Space        string                 `json:"space"`
		Status       string                 `json:"status"`
		Journal      string                 `json:"journal,omitempty"`
		Steps        []reconcile.StepResult `json:"steps"`
		Counts       reconcile.Counts       `json:"counts"`
		Interrupted  bool                   `json:"interrupted"`
		JournalError string                 `json:"journal_error,omitempty"`
		Error        string                 `json:"error,omitempty"`
	}
	type summary struct {
		Targets    int `json:"targets"`
		Applied    int `json:"applied"`
		Unchanged  int `json:"unchanged"`
		Failed     int `json:"failed"`
		NotStarted int `json:"not_started"`
	}
	doc := struct {
		FormatVersion string   `json:"format_version"`
		Summary       summary  `json:"summary"`
		Targets       []target `json:"targets"`
	}{FormatVersion: render.FormatVersion, Targets: make([]target, len(out))}
	byStatus := map[string]int{}
	for i, oc := range out {
		t := target{Target: oc.run.target.Name, Space: oc.run.target.Space, Status: oc.status, Journal: oc.journal, Steps: []reconcile.StepResult{}}
		if oc.res != nil {
			if oc.res.Steps != nil {
				t.Steps = oc.res.Steps
			}
			t.Counts, t.Interrupted, t.JournalError = oc.res.Counts(), oc.res.Interrupted, oc.res.JournalError
		}
		if oc.err != nil {
			t.Error = oc.err.Error()
		}
		doc.Targets[i] = t
		byStatus[oc.status]++
	}
	doc.Summary = summary{Targets: len(out), Applied: byStatus[targetApplied], Unchanged: byStatus[targetUnchanged],
		Failed: byStatus[targetFailed], NotStarted: byStatus[targetNotStarted]}
	return doc
}

// confirm asks on a terminal before cmd (apply or restore) changes the
// spaces of runs, and refuses without one: an unattended apply must say
// so with --auto-approve. Once confirmed, the plans are checked again
// ([recheck]): an app edit made while the prompt waited would otherwise
// be overwritten unjournaled.
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
	line, err := ask(ctx, ui, prompt, in, fmt.Sprintf("\nApply these changes to %s? Only 'yes' will be accepted: ", strings.Join(where, ", ")))
	if err != nil {
		return err
	}
	if line == "" {
		return errors.New("apply cancelled: no answer")
	}
	if strings.TrimSpace(line) != "yes" {
		return withHint(errors.New("apply cancelled"), "nothing was changed")
	}
	return recheck(ctx, runs)
}

// ask writes question on w, and reads the answer typed at the terminal
// in: a line, or "" when it is closed first. It returns errInterrupted as
// soon as ctx ends: Ctrl-C at the prompt sends SIGINT, which ends ctx,
// while the read itself would go on waiting for Enter.
func ask(ctx context.Context, ui *ui, w io.Writer, in io.Reader, question string) (string, error) {
	fprintf(w, "%s", question)
	ui.flush()
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
	var err error
	select {
	case line := <-got:
		return line, nil
	case err = <-crashed:
	case <-ctx.Done():
		err = errInterrupted
	}
	fprintf(w, "\n") // after the "^C" the terminal shows
	return "", err
}

// recheck refuses the plans of runs if a skill one touches moved since it
// was made; nothing is applied then.
func recheck(ctx context.Context, runs []*planRun) error {
	var stale []string
	for _, r := range runs {
		sp := &planfile.Saved{Plan: r.plan, BaseURL: r.target.BaseURL}
		got, err := planfile.CheckStale(ctx, r.client, sp, r.target.Space, r.target.BaseURL, r.repo)
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

// applyTarget applies r.plan, journaling every mutation in journalPath,
// and shows the result in v. The result is nil when nothing could be
// started.
func applyTarget(ctx context.Context, ui *ui, v applyView, r *planRun, journalPath string) (*reconcile.Result, error) {
	if err := checkJournalOwner(journalPath, r.target.Space, r.plan.Target); err != nil {
		return nil, err
	}
	j, err := journal.Open(journalPath)
	if errors.Is(err, journal.ErrStateDirLink) {
		return nil, withHint(fmt.Errorf("opening journal: %w", err), "nothing was applied; remove the link (skillsync makes the folder itself), or pass --journal FILE to journal elsewhere")
	}
	if err != nil {
		return nil, withHint(fmt.Errorf("opening journal: %w", err), "pass --journal FILE to write it elsewhere")
	}
	defer j.Close()
	j.Secrets = ui.secrets.Found
	var pr *progressLine
	if v.progress() {
		pr = ui.progress("applying")
	}
	// Only the default journal folder is looked in: a --journal FILE
	// elsewhere is the caller's to keep.
	accepted, err := journal.RecentAccepted(filepath.Join(r.root, journal.StateDir, "journal"), time.Now().Add(-journal.AcceptedWindow))
	if err != nil {
		ui.warningf("%v; writes the service accepted earlier may be sent again", err)
	}
	res, err := reconcile.Apply(ctx, r.client, r.target.Space, r.plan, reconcile.ApplyOptions{
		Parallelism: r.par,
		Journal:     j,
		Progress:    pr.update,
		Accepted:    accepted,
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
	v.result(res, journalPath)
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

// checkJournalOwner refuses to append the apply of space (target) to the
// journal at path when it holds another space's or target's lines:
// restore undoes one at a time, and would refuse the file whole.
func checkJournalOwner(path, space, target string) error {
	f, err := bounded.Open(path)
	if err != nil {
		return nil // none yet; or journal.Open says what is wrong with it
	}
	defer f.Close()
	entries, _ := journal.Read(f) // journal.Open refuses a damaged one
	for i, e := range entries {
		if e.Space != space || e.Target != target {
			return withHint(fmt.Errorf("journal %s holds the changes of %s (line %d), not of %s: restore takes one space's journal at a time",
				path, journalOwner(e.Space, e.Target), i+1, journalOwner(space, target)),
				"name another journal file for this target, or leave out --journal for a new one under %s/journal/", journal.StateDir)
		}
	}
	return nil
}

// journalOwner names the space (and target) of a journal's lines.
func journalOwner(space, target string) string {
	if target == "" {
		return "space " + space
	}
	return fmt.Sprintf("target %s of space %s", target, space)
}

// applyFailed is the error of an apply where steps failed, with what to do
// about the first failure the service explained.
func applyFailed(res *reconcile.Result) error {
	n := res.Counts()
	if res.JournalError != "" && n.Failed+n.Skipped == 0 {
		// Each step's started line, with what it replaced, was written
		// before its request: only outcome lines are missing.
		return withHint(fmt.Errorf("all %d steps applied, but writing their outcome to the journal failed: %s", len(res.Steps), res.JournalError),
			"the space matches the plan, and the journal still holds what each step replaced, so restore can undo it; make room for the journal before the next apply")
	}
	err := fmt.Errorf("%d of %d steps did not apply; the space does not match the plan", n.Failed+n.Skipped, len(res.Steps))
	if res.JournalError != "" {
		return withHint(fmt.Errorf("%w: writing the journal failed: %s", err, res.JournalError), "apply stopped so that every change stays restorable; fix the journal's folder or pass --journal FILE")
	}
	for _, s := range res.Steps {
		if s.Outcome == reconcile.OutcomeFailed {
			if h := hintForStatus(s.Status, call(s.Action), time.Time{}); h != "" {
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
		case reconcile.OutcomeAccepted:
			fprintf(ui.stdout, "  accepted %s: %s: %s\n", visible.Line(s.Slug), s.Action, visible.Line(s.Reason))
		default:
			fprintf(ui.stdout, "  skipped %s: %s: %s\n", visible.Line(s.Slug), s.Action, visible.Line(s.Reason))
		}
	}
	fprintf(ui.stdout, "\n%s\n", render.ResultLine(res))
}
