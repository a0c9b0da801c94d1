package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/skillsync/skillsync/reconcile"
)

// loadSavedPlan reads a plan saved by 'plan -out' and refuses it if the space
// or the repository moved since it was made.
func loadSavedPlan(ctx context.Context, e *env, o planningOptions, file string) (*planRun, error) {
	ui := e.ui
	f, err := os.Open(file)
	if err != nil {
		return nil, withHint(fmt.Errorf("reading plan: %w", err), "make one with: skillsync plan -out %s", file)
	}
	defer f.Close()
	sp, err := reconcile.ReadSavedPlan(f)
	if err != nil {
		return nil, withHint(fmt.Errorf("%s: %w", file, err), "apply takes a file saved by 'skillsync plan -out plan.json'; make one, review it, then: skillsync apply plan.json")
	}
	root, repo, diags, err := loadRepo(ctx, ui, o)
	if err != nil {
		return nil, err
	}
	printDiagnostics(ui, diags) // the saved plan has its own warnings
	t, err := o.target(repo)
	if err != nil {
		return nil, err
	}
	cl, err := connect(e, o, t)
	if err != nil {
		return nil, err
	}
	stale, err := reconcile.CheckStale(ctx, cl, sp, t.Space, t.BaseURL, repo)
	if err != nil {
		return nil, fmt.Errorf("checking %s against the space: %w", file, err)
	}
	if len(stale) > 0 {
		return nil, withHint(fmt.Errorf("the saved plan %s is stale:\n  %s", file, strings.Join(stale, "\n  ")),
			"run 'skillsync plan -out %s' again, review it, and apply the new plan", file)
	}
	return &planRun{root: root, repo: repo, target: t, client: cl, par: o.conn.parallelism, plan: sp.Plan}, nil
}

// checkPlanOut refuses a -out path of cmd that holds something other than
// a saved plan: overwriting skillsync.yaml or a SKILL.md with a plan would
// lose it. A missing or empty file, or an earlier saved plan, may be
// (over)written.
func checkPlanOut(cmd, path string) error {
	dir := filepath.Dir(path)
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
	if _, err := reconcile.ReadSavedPlan(f); err != nil {
		return withHint(fmt.Errorf("-out %s: the file exists and is not a saved plan; %s will not overwrite it", path, cmd),
			"name a new file, such as plan.json")
	}
	return nil
}
