package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/journal"
)

func restoreCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "restore",
		Usage:     "undo an apply: put back what its journal says it overwrote",
		ArgsUsage: "JOURNAL",
		Description: `Reads the journal an apply wrote and plans putting every skill it changed
back as it was before: the fields each update sent, and the enabled flag of
each enable or disable. Fields the apply did not touch, and skills it did not
change, are left as they are; so is a field changed again in the space since
(neither the value the apply wrote nor the one it replaced), with a warning.
The repository still says what the apply wrote: revert that in git too, or
the next apply writes it again. The plan is shown and, once confirmed, applied
like any other (disables first, the 40-active limit kept, a journal of its
own written next to the one restored), so a restore can itself be restored.

Lines of requests that failed or never got an answer count too: they may
have taken effect, and a field that did not change plans no change. A
journal that several applies appended to puts each field back as it was
before the first of them changed it. An agent publish cannot be undone
through the API; restore says so.

Examples:
   skillsync restore .skillsync/journal/20261122T101500.000Z.jsonl
   skillsync restore --auto-approve journal.jsonl

Exit codes: 0 restored (or nothing to restore), 1 error or any step failed,
130 interrupted.`,
		Flags: slices.Concat([]cli.Flag{dirFlag(), noColorFlag(),
			flagForce.def("allow disabling more than maxDisablePercent of the skills restored"),
		}, oneTargetRemoteFlags(), []cli.Flag{
			formatFlag("text", "json"),
			flagAutoApprove.def("restore without asking for confirmation"),
			flagJournal.def("journal `FILE` of the restore (default: a new file next to the one restored)"),
		}),
		Action: func(c *cli.Context) error {
			cs, err := resolveConn(readConnFlags(c), e)
			if err != nil {
				return err
			}
			src, err := oneArg(c, "journal file", "skillsync restore --auto-approve .skillsync/journal/FILE.jsonl (journals are under .skillsync/journal/ of the repository)")
			if err != nil {
				return err
			}
			return runRestore(c.Context, e, restoreOptions{
				dir:         resolveDir(flagDir.get(c), e.getenv),
				force:       flagForce.get(c),
				conn:        cs,
				view:        newApplyView(e.ui, flagFormat.get(c), useColor(flagNoColor.get(c), e.getenv, e.ui)),
				autoApprove: flagAutoApprove.get(c),
				journal:     flagJournal.get(c),
				src:         src,
			})
		},
	}
}

// restoreOptions are restore's settings.
type restoreOptions struct {
	dir         string // --dir or SKILLSYNC_DIR; "" to look upward, and go on without one
	force       bool
	conn        connSettings
	view        applyView
	autoApprove bool
	journal     string // --journal: the restore's own; "" for one next to src
	src         string // the journal to restore
}

func runRestore(ctx context.Context, e *env, o restoreOptions) error {
	ui := e.ui
	rs, err := readRestore(ui, o.src)
	if err != nil {
		return err
	}
	r, err := planRestore(ctx, e, o, rs)
	if err != nil {
		return err
	}
	runs := []*planRun{r}
	if err := o.view.plans(runs, ""); err != nil {
		return err
	}
	switch {
	case r.plan.HasErrors():
	case !r.plan.HasChanges():
		o.view.say("nothing to restore: the space already holds what %s replaced", o.src)
	case !o.autoApprove:
		if err := confirm(ctx, e, "restore", runs, "pass --auto-approve to restore without asking"); err != nil {
			return err
		}
	}
	path := o.journal
	if path == "" {
		path = filepath.Join(filepath.Dir(o.src), filepath.Base(journal.TargetPath("", time.Now(), "")))
	}
	if _, err := applyRuns(ctx, ui, o.view, runs, path, false); err != nil {
		return err
	}
	if r.plan.HasChanges() {
		ui.hintf("the repository still says what the restored apply wrote: revert that change in git too, or the next apply writes it again")
	}
	return nil
}

// readRestore reads the journal at path and what undoing it takes. A last
// line cut short (a crash, a full disk) is a warning: the whole lines
// before it are restored.
func readRestore(ui *ui, path string) (*journal.Restore, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, withHint(fmt.Errorf("reading journal: %w", err), "name a journal file written by apply; they are under .skillsync/journal/ of the repository")
	}
	defer f.Close()
	entries, err := journal.Read(f)
	var torn *journal.TornError
	switch {
	case errors.As(err, &torn):
		ui.warningf("%s: %v; restoring from the %s before it", path, err, names.Count(len(entries), "whole line", "whole lines"))
	case err != nil:
		return nil, withHint(fmt.Errorf("%s: %w", path, err), "restore reads the journal of an apply, one JSON object a line; only a last line cut short is passed over")
	}
	rs, err := journal.PlanRestore(entries)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rs, nil
}

// planRestore reads the skills rs changed from the space and plans putting
// them back. The space is the journal's unless --space, SKILLSYNC_SPACE or
// skillsync.yaml names one, which must then be the same.
func planRestore(ctx context.Context, e *env, o restoreOptions, rs *journal.Restore) (*planRun, error) {
	root, cfg, err := optionalConfig(o.dir)
	if err != nil {
		return nil, err
	}
	if cfg.Space == "" && len(cfg.Targets) == 0 {
		cfg.Space = rs.Space
	}
	// The journal of a target's apply says which target to restore,
	// unless --target (or SKILLSYNC_TARGET) does.
	conn := o.conn
	if _, ok := cfg.Target(rs.Target); ok && len(conn.flags.targets) == 0 && conn.getenv(envTarget) == "" {
		conn.flags.targets = []string{rs.Target}
	}
	t, err := conn.target(cfg, "restore") // its maxDisablePercent guards a restore too
	if err != nil {
		return nil, err
	}
	if rs.Target != "" && t.Name != "" && t.Name != rs.Target {
		return nil, withHint(fmt.Errorf("the journal is of target %s, not %s", rs.Target, t.Name), "restore it into its own target: pass --target %s", rs.Target)
	}
	if t.Space != rs.Space {
		return nil, withHint(fmt.Errorf("the journal is of space %s, not %s", rs.Space, t.Space), "restore it into its own space: pass --space %s", rs.Space)
	}
	t.Policy.Force = o.force
	cl, err := connect(e, o.conn, t)
	if err != nil {
		return nil, err
	}
	var pr *progressLine
	if o.view.progress() {
		pr = e.ui.progress("fetching skills")
	}
	par := o.conn.parallelism
	live, err := fetch.Space(ctx, cl, t.Space, rs.Wanted(), fetch.Options{Parallelism: par, Progress: pr.update})
	pr.done()
	if err != nil {
		return nil, fmt.Errorf("reading space %s: %w", t.Space, err)
	}
	plan := journal.RestorePlan(rs, live, t.Policy)
	plan.Target = t.Name
	return &planRun{root: root, target: t, client: cl, par: par, plan: plan}, nil
}
