package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile/journal"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/render"
)

// loadSavedPlans reads the plans saved by 'plan -out' (one per target)
// and refuses them if the space of any, or the repository, moved since
// they were made. With --target (or SKILLSYNC_TARGET), only those of the
// targets named are applied, each of which the file must hold.
func loadSavedPlans(ctx context.Context, e *env, o planningOptions, file string) ([]*planRun, error) {
	ui := e.ui
	f, err := os.Open(file)
	if err != nil {
		return nil, withHint(fmt.Errorf("reading plan: %w", err), "make one with: skillsync plan -out %s", file)
	}
	defer f.Close()
	sps, err := render.ReadSavedPlans(f)
	if errors.Is(err, render.ErrEarlierFormat) {
		return nil, withHint(fmt.Errorf("%s: %w", file, err), "run 'skillsync plan -out %s' again, review it, and apply the new plan", file)
	}
	if err != nil {
		return nil, withHint(fmt.Errorf("%s: %w", file, err), "apply takes a file saved by 'skillsync plan -out plan.json'; make one, review it, then: skillsync apply plan.json")
	}
	root, repo, diags, _, err := loadRepo(ctx, ui, o, false)
	if err != nil {
		return nil, err
	}
	printDiagnostics(ui, diags) // the saved plan has its own warnings
	sps, err = selectSaved(sps, repo.Config, o.conn, file)
	if err != nil {
		return nil, err
	}
	if len(sps) == 0 {
		return nil, withHint(fmt.Errorf("the saved plan %s holds no plan to apply", file), "make one with: skillsync plan -out %s", file)
	}
	// The targets of the file, resolved as skillsync.yaml, the flags and
	// the variables have them now: a plan for another space or service
	// is stale.
	oo := o
	if sps[0].Plan.Target != "" {
		oo.conn.flags.targets = nil
		for _, sp := range sps {
			oo.conn.flags.targets = append(oo.conn.flags.targets, sp.Plan.Target)
		}
	}
	ts, err := oo.targets(repo)
	if err != nil {
		return nil, err
	}
	order := map[string]int{} // the index in ts of each target
	for i, t := range ts {
		order[t.Name] = i
	}
	// In the order of skillsync.yaml, as a fresh plan is applied (staging
	// before production), whatever the order of the file.
	slices.SortStableFunc(sps, func(a, b *planfile.Saved) int { return order[a.Plan.Target] - order[b.Plan.Target] })
	var runs []*planRun
	var stale []string
	partly := 0 // changes applied already, of plans not applied whole
	for _, sp := range sps {
		t := ts[order[sp.Plan.Target]]
		cl, err := connect(e, o.conn, t)
		if err != nil {
			return nil, err
		}
		desired := repo.ForTarget(t.Name)
		chk, err := planfile.CheckSaved(ctx, cl, sp, t.Space, t.BaseURL, desired)
		if err != nil {
			return nil, fmt.Errorf("checking %s against %s: %w", file, t.where(), err)
		}
		for _, s := range chk.Stale {
			if len(sps) > 1 {
				s = "target " + t.Name + ": " + s
			}
			stale = append(stale, s)
		}
		partly += len(chk.Applied)
		r := &planRun{root: root, repo: desired, target: t, client: cl, par: o.conn.parallelism, plan: sp.Plan}
		if chk.AllApplied {
			for _, n := range chk.Notes {
				ui.warningf("%s: %s; run 'skillsync plan' for what is left to do", t.where(), n)
			}
			// Retried after it went through: nothing is left to do, and
			// nothing is sent.
			done := *sp.Plan
			done.Changes, done.Publish = nil, nil
			r.plan, r.appliedAlready = &done, true
			partly -= len(chk.Applied)
		}
		runs = append(runs, r)
	}
	if len(stale) > 0 {
		hint := fmt.Sprintf("run 'skillsync plan -out %s' again, review it, and apply the new plan", file)
		if partly > 0 {
			hint = fmt.Sprintf("an earlier apply of this plan went part of the way (%s already applied); %s: it holds what is left", names.Count(partly, "change", "changes"), hint)
		}
		return nil, withHint(fmt.Errorf("the saved plan %s is stale:\n  %s", file, strings.Join(stale, "\n  ")), "%s", hint)
	}
	return runs, nil
}

// selectSaved checks that the saved plans sps are for the targets of cfg
// (the one space of a skillsync.yaml without targets, or targets it
// names), and returns those --target (or SKILLSYNC_TARGET) selects, in
// the order of the file: all of them when none is named.
func selectSaved(sps []*planfile.Saved, cfg config.Config, cs connSettings, file string) ([]*planfile.Saved, error) {
	if sps[0].Plan.Target == "" {
		if len(cfg.Targets) > 0 {
			return nil, withHint(fmt.Errorf("the saved plan %s is for the one space of a %s without targets, and %s now has targets", file, config.FileName, config.FileName),
				"plan again: skillsync plan -out %s", file)
		}
		return sps, nil
	}
	var inFile []string
	for _, sp := range sps {
		if _, ok := cfg.Target(sp.Plan.Target); !ok {
			return nil, withHint(fmt.Errorf("the saved plan %s is for target %s, which %s does not have", file, sp.Plan.Target, config.FileName),
				"plan again: skillsync plan -out %s", file)
		}
		inFile = append(inFile, sp.Plan.Target)
	}
	names, _ := selectedTargets(cs.flags, cs.getenv)
	if len(names) == 0 {
		return sps, nil
	}
	want := map[string]bool{}
	for _, n := range names {
		if !slices.Contains(inFile, n) {
			err := fmt.Errorf("the saved plan %s holds no plan of target %s", file, visible.Quote(n))
			if best := suggest.Closest(n, inFile); best != "" {
				return nil, withHint(err, "did you mean %q? it holds the plans of: %s", best, strings.Join(inFile, ", "))
			}
			return nil, withHint(err, "it holds the plans of: %s; plan that target with: skillsync plan --target %s -out FILE", strings.Join(inFile, ", "), n)
		}
		want[n] = true
	}
	return slices.DeleteFunc(sps, func(sp *planfile.Saved) bool { return !want[sp.Plan.Target] }), nil
}

// stateIgnore is the .gitignore of a .skillsync folder that skillsync
// makes: what it keeps there is never to be committed.
const stateIgnore = "# written by skillsync: journals, saved plans and state, never committed\n*\n"

// makeStateDir makes dir when it is a .skillsync folder that does not
// exist yet in one that does, with a .gitignore that ignores all of it:
// plan -out .skillsync/plan.json works in a fresh clone, and git never
// sees the plan.
func makeStateDir(dir string) error {
	if filepath.Base(dir) != journal.StateDir {
		return nil
	}
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := os.Stat(filepath.Dir(dir)); err != nil {
		return nil // checkPlanOut says the folder is missing
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, ".gitignore"), []byte(stateIgnore), 0o644)
}

// outsideState reports whether the saved plan path lies in the repository
// at root but not under its .skillsync folder, where git would offer to
// commit it.
func outsideState(root, path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil || root == "" {
		return false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return first != journal.StateDir
}

// checkPlanOut refuses a -out path of cmd that holds something other than
// a saved plan: overwriting skillsync.yaml or a SKILL.md with a plan would
// lose it. A missing or empty file, or an earlier saved plan, may be
// (over)written.
func checkPlanOut(cmd, path string) error {
	dir := filepath.Dir(path)
	if err := makeStateDir(dir); err != nil {
		return withHint(fmt.Errorf("-out %s: %w", path, err), "name a file in a folder this user can write to")
	}
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return withHint(fmt.Errorf("-out %s: folder %s does not exist", path, dir), "create it first (mkdir -p %s), or name a file in an existing folder", dir)
	case err != nil:
		return withHint(fmt.Errorf("-out %s: %w", path, err), "name a file in a folder this user can read and write")
	case !di.IsDir():
		return withHint(fmt.Errorf("-out %s: %s is a file, not a folder", path, dir), "name a file in a folder, such as plan.json")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil // absent, or savePlan reports why it cannot be written
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.Size() == 0 {
		return nil
	}
	if fi.IsDir() {
		return withHint(fmt.Errorf("-out %s is a folder", path), "name a file, such as %s", filepath.Join(path, "plan.json"))
	}
	// A plan an earlier skillsync saved is a saved plan still.
	if _, err := render.ReadSavedPlans(f); err != nil && !errors.Is(err, render.ErrEarlierFormat) {
		return withHint(fmt.Errorf("-out %s: the file exists and is not a saved plan; %s will not overwrite it", path, cmd),
			"name a new file, such as plan.json")
	}
	return nil
}
