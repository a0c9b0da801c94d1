package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/reconcile"
)

// loadSavedPlan reads a plan saved by 'plan -out' and refuses it if the space
// or the repository moved since it was made.
func loadSavedPlan(c *cli.Context, ui *ui, file string) (*planRun, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, withHint(fmt.Errorf("reading plan: %w", err), "make one with: skillsync plan -out %s", file)
	}
	defer f.Close()
	sp, err := reconcile.ReadSavedPlan(f)
	if err != nil {
		return nil, withHint(fmt.Errorf("%s: %w", file, err), "make a fresh plan with: skillsync plan -out %s", file)
	}
	root, repo, err := loadRepo(c.Context, c, ui)
	if err != nil {
		return nil, err
	}
	t, cl, par, err := connect(c, ui, repo)
	if err != nil {
		return nil, err
	}
	stale, err := reconcile.CheckStale(c.Context, cl, sp, t.Space, t.BaseURL, repo)
	if err != nil {
		return nil, fmt.Errorf("checking %s against the space: %w", file, err)
	}
	if len(stale) > 0 {
		return nil, withHint(fmt.Errorf("the saved plan %s is stale:\n  %s", file, strings.Join(stale, "\n  ")),
			"run 'skillsync plan -out %s' again, review it, and apply the new plan", file)
	}
	return &planRun{root: root, repo: repo, target: t, client: cl, par: par, plan: sp.Plan}, nil
}
