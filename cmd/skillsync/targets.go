package main

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
)

func targetsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "targets",
		Usage: "list the targets of skillsync.yaml, or those a change touches (no network)",
		Description: `Lists the targets of skillsync.yaml in file order: one line each in text,
or with --format json a document ready for a CI matrix:

   {"include": [{"target": "prod", "space": "pr01", "baseURL": "https://..."}]}

A skillsync.yaml without targets lists its one space, with target "".

With --changed, only the targets whose desired state differs between the
merge base of --base REF and HEAD, and the working tree: those whose own
settings or whose skills (as the target manages them) changed. When the
settings every target shares changed (anything outside targets:), all are.

Examples:
   skillsync targets
   skillsync targets --format json --changed --base origin/main

Exit codes: 0 success (also when no target changed), 1 error.`,
		Flags: []cli.Flag{
			dirFlag(),
			formatFlag("text", "json"),
			flagChanged.def("list only the targets whose desired state differs from --base"),
			flagBase.def("with --changed: compare with the merge base of `REF` (the target branch, such as origin/main) and HEAD"),
		},
		Action: func(c *cli.Context) error {
			return runTargets(c.Context, e, targetsOptions{dir: resolveDir(flagDir.get(c), e.getenv), format: flagFormat.get(c),
				changed: flagChanged.get(c), base: flagBase.get(c)})
		},
	}
}

// targetsOptions are the settings of the targets command.
type targetsOptions struct {
	dir, format string
	changed     bool   // --changed: only the targets changed since base
	base        string // --base REF
}

// targetEntry is a target as the targets command lists it: an item of a
// CI matrix's include.
type targetEntry struct {
	Target  string `json:"target"`
	Space   string `json:"space"`
	BaseURL string `json:"baseURL,omitempty"`
}

func runTargets(ctx context.Context, e *env, o targetsOptions) error {
	ui := e.ui
	switch {
	case o.changed && o.base == "":
		return withHint(errors.New("--changed needs --base REF"), "name the branch the change goes to, such as: skillsync targets --changed --base origin/main")
	case !o.changed && o.base != "":
		return withHint(errors.New("--base is for --changed"), "add --changed to list only the targets changed since %s", o.base)
	}
	root, err := findRepo(o.dir)
	if err != nil {
		return err
	}
	head, diags, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{})
	if err != nil {
		return err
	}
	registerTokens(ui.secrets, head.Config, e.getenv, "")
	dropEchoingHints(ui, head, diags)
	if diags.HasErrors() {
		printDiagnostics(ui, diags)
		return withHint(&invalidRepoError{diags: diags}, "fix the errors above; 'skillsync validate' lists them again")
	}
	cfg := head.Config
	entries := []targetEntry{}
	if len(cfg.Targets) == 0 {
		entries = append(entries, targetEntry{Space: cfg.Space, BaseURL: cfg.BaseURL})
	}
	for _, t := range cfg.Targets {
		tc, _ := cfg.ForTarget(t.Name)
		entries = append(entries, targetEntry{Target: t.Name, Space: tc.Space, BaseURL: tc.BaseURL})
	}
	if o.changed {
		sha, err := fsrepo.MergeBase(root, o.base, "HEAD")
		if err != nil {
			var nb *fsrepo.NoMergeBaseError
			if errors.As(err, &nb) {
				return withHint(nb, "%s", nb.Advice())
			}
			return baseError(err)
		}
		base, _, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{Ref: sha})
		if err != nil {
			// No skillsync.yaml at the base: everything is new.
			ui.warningf("reading the base %s: %v; every target is listed as changed", fsrepo.ShortCommit(sha), err)
			base = nil
		}
		changed := fsrepo.ChangedTargets(base, head)
		entries = slices.DeleteFunc(entries, func(t targetEntry) bool { return !slices.Contains(changed, t.Target) })
	}
	if o.format == "json" {
		return writeJSON(ui, struct {
			Include []targetEntry `json:"include"`
		}{entries})
	}
	for _, t := range entries {
		line := "space " + t.Space
		if t.Target != "" {
			line = fmt.Sprintf("%s\tspace %s", t.Target, t.Space)
		}
		if t.BaseURL != "" {
			line += "\t" + t.BaseURL
		}
		fprintf(ui.stdout, "%s\n", line)
	}
	return nil
}
