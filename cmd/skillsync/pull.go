package main

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/reconcile/pull"
)

func pullCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "pull",
		Usage:     "write the space's skills into the repository",
		ArgsUsage: "[SLUG...]",
		Description: `Writes the skills of the space into the skills folder, one folder per skill
named by its slug: SKILL.md (name, description, "enabled: false" when the
skill is disabled, and the instructions as the body) and the supporting
files that the instructions refer to by a relative path (markdown links, and
file paths in code such as scripts/extract.py), read through the files
endpoint. Only text files can be read; binary files are skipped with a
warning. With SLUG arguments, only those skills are pulled.

Pull bootstraps a repository: when no skillsync.yaml is found (in --dir, or
in the current folder or any folder above it, never above the root of the
git working tree holding the current folder), it writes into --dir or the
current folder and creates skillsync.yaml with the service address and the
space. The token is never written. So 'git init' in a new folder, even one
inside another skills repository, starts a repository of its own.

A SKILL.md already there keeps its other frontmatter keys (license,
allowed-tools, metadata, ...), and is left untouched when its name,
description, enabled and instructions already match the space.

Pull never writes outside the skills folder nor through a symlink, and never
overwrites a file that differs from git's HEAD (uncommitted work) unless
--force. When it refuses, it names every such file and writes nothing.

Each skill written is then judged by the security rules, as validate judges
it (less what lint.waivers accepts): what they find is listed under the
skill, and in the JSON output as its "findings". An error exits 1: the
skill is written all the same, as the space holds it already, to be read
before it is committed.

Examples:
   export SKILLSYNC_TOKEN=...
   skillsync pull --base-url https://tenant.example.com --space ab12
   skillsync pull pdf-processing code-review
   skillsync pull --force
   skillsync pull --format json > pulled.json

Exit codes: 0 success, 1 error (when pull refuses, nothing is written; when
the security rules find an error in what it wrote, it is written), 130
interrupted.`,
		Flags: slices.Concat([]cli.Flag{
			flagDir.def(withEnv("repository root (default: nearest folder upward holding skillsync.yaml, within the git working tree, else the current folder)", envDir)),
			flagForce.def("overwrite local files that differ from git's HEAD"),
			formatFlag("text", "json"),
		}, oneTargetRemoteFlags()),
		Action: func(c *cli.Context) error {
			cs, err := resolveConn(readConnFlags(c), e)
			if err != nil {
				return err
			}
			return runPull(c.Context, e, pullOptions{
				dir:    resolveDir(flagDir.get(c), e.getenv),
				conn:   cs,
				slugs:  c.Args().Slice(),
				force:  flagForce.get(c),
				format: flagFormat.get(c),
			})
		},
	}
}

// pullOptions are pull's settings.
type pullOptions struct {
	dir    string // --dir or SKILLSYNC_DIR; "" to look upward, else the current folder
	conn   connSettings
	slugs  []string // only these skills; all when empty
	force  bool
	format string // text or json
}

func runPull(ctx context.Context, e *env, o pullOptions) error {
	root, hasConfig, err := pullRoot(o.dir)
	if err != nil {
		return err
	}
	cfg := config.Default()
	if hasConfig {
		if cfg, err = config.Read(root); err != nil {
			return err
		}
	}
	t, err := o.conn.target(cfg, "pull")
	if err != nil {
		return err
	}
	cl, err := connect(e, o.conn, t)
	if err != nil {
		return err
	}
	ui := e.ui
	space := t.Space
	// A target's pull keeps in SKILL.md the enabled state the targets
	// share; where the target's differs, it goes to its override.
	var shared map[string]bool
	var exclude func(string) bool
	if t.Name != "" {
		tc, _ := cfg.Target(t.Name)
		for _, slug := range o.slugs {
			if tc.Excludes(slug) {
				return withHint(fmt.Errorf("target %s excludes %s: it does not manage that skill", t.Name, slug),
					"pull it from a target that manages it, or take it out of targets.%s.exclude in %s", t.Name, config.FileName)
			}
		}
		exclude = tc.Excludes
		repo, _, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{})
		if err != nil {
			return err
		}
		shared = map[string]bool{}
		for _, s := range repo.Skills {
			if !s.Invalid {
				shared[s.Slug] = s.Enabled
			}
		}
	}
	j := judge(ui.secrets, e.getenv, o.conn.flags.tokenFile, nil)(cfg)
	pr := ui.progress("reading skills")
	rep, err := pull.Skills(ctx, cl, space, pull.Options{
		Root:        root,
		Config:      cfg,
		WriteConfig: !hasConfig,
		BaseURL:     t.BaseURL,
		Slugs:       o.slugs,
		Force:       o.force,
		Parallelism: o.conn.parallelism,
		Progress:    pr.update,
		Enabled:     shared,
		Exclude:     exclude,
		Secrets:     ui.secrets.Found,
	})
	pr.done()
	if rep != nil {
		if jerr := judgePulled(j, root, cfg, rep); jerr != nil && err == nil {
			err = jerr
		}
	}
	if err := reportPull(ui, space, rep, err, o.format); err != nil {
		return err
	}
	if t.Name != "" {
		if err := writeOverrides(ui, root, cfg, t.Name, rep, shared); err != nil {
			return err
		}
	}
	return pulledFindingsError(rep)
}

// judgePulled sets on each skill that rep says pull wrote what the
// security rules find in it, less what cfg's waivers accept: its SKILL.md
// and the files written, read back as they now are.
func judgePulled(j *lint.Judge, root string, cfg config.Config, rep *pull.Report) error {
	for i := range rep.Skills {
		s := &rep.Skills[i]
		if s.Status != pull.Written {
			continue
		}
		files := map[string][]byte{}
		for _, rel := range append([]string{skillmd.FileName}, s.Files...) {
			p := filepath.Join(root, filepath.FromSlash(s.Dir), filepath.FromSlash(rel))
			data, err := bounded.ReadFile(p, fsrepo.MaxCompareBytes)
			var large *bounded.TooLargeError
			if errors.As(err, &large) {
				continue // validate reports it; pull judges what fits a skill
			}
			if err != nil {
				return fmt.Errorf("judging what pull wrote: %w", err)
			}
			files[rel] = data
		}
		s.Findings = fsrepo.JudgeFiles(j, cfg, s.Slug, files)
		errs, warns := s.Findings.Count()
		rep.Summary.SecurityErrors += errs
		rep.Summary.SecurityWarnings += warns
	}
	return nil
}

// pulledFindingsError is the error of a pull that wrote skills holding
// an error of the security rules: they are written, as the space holds
// them already, and must be looked at before they are committed.
func pulledFindingsError(rep *pull.Report) error {
	if rep == nil || rep.Summary.SecurityErrors == 0 {
		return nil
	}
	return withHint(fmt.Errorf("the security rules find %s in what pull wrote: %s",
		names.Count(rep.Summary.SecurityErrors, "error", "errors"), strings.Join(findingSlugs(rep, true), ", ")),
		"the skills are written, as the space holds them: read what is listed above before you commit; remove it in the app and pull again, or if it is intended waive each finding in %s (lint.waivers, see docs/security.md)", config.FileName)
}

// findingSlugs are the skills of rep with findings, or with errors only.
func findingSlugs(rep *pull.Report, errorsOnly bool) []string {
	var out []string
	for _, s := range rep.Skills {
		if errs, _ := s.Findings.Count(); errs > 0 || !errorsOnly && len(s.Findings) > 0 {
			out = append(out, s.Slug)
		}
	}
	return out
}

// writeOverrides records in skillsync.yaml, as target's overrides, the
// enabled states of the skills pulled that differ from the state the
// targets share (shared, by slug): those that differ from SKILL.md and
// are not yet the target's, and those whose override the space changed.
func writeOverrides(ui *ui, root string, cfg config.Config, target string, rep *pull.Report, shared map[string]bool) error {
	states := overrideStates(cfg, target, rep, shared, nil)
	if len(states) == 0 {
		return nil
	}
	slugs := slices.Sorted(maps.Keys(states))
	if err := config.SetTargetEnabled(root, target, states); err != nil {
		list := make([]string, len(slugs))
		for i, slug := range slugs {
			list[i] = fmt.Sprintf("%s: %t", slug, states[slug])
		}
		return withHint(err, "the skills were pulled; add to targets.%s.enabled in %s by hand: %s", target, config.FileName, strings.Join(list, ", "))
	}
	for _, slug := range slugs {
		ui.infof("%s: targets.%s.enabled.%s: %t (the space's state; %s keeps the one the targets share)", config.FileName, target, slug, states[slug], path.Join(cfg.SkillsDir, slug, skillmd.FileName))
	}
	return nil
}

// pullRoot is the repository root pull writes into: dir (from --dir or
// SKILLSYNC_DIR), else the nearest folder upward holding skillsync.yaml
// (never above the root of the git working tree, see [fsrepo.FindRoot]),
// else the current folder. hasConfig says whether skillsync.yaml is there
// already.
func pullRoot(dir string) (root string, hasConfig bool, err error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", false, err
		}
		fi, err := os.Stat(abs)
		if err != nil {
			return "", false, withHint(fmt.Errorf("--dir: %w", err), "create the folder first, or point --dir at the repository root")
		}
		if !fi.IsDir() {
			return "", false, withHint(fmt.Errorf("--dir %s is not a folder", dir), "point --dir at the repository root")
		}
		_, err = os.Lstat(filepath.Join(abs, config.FileName))
		return abs, err == nil, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", false, err
	}
	root, err = config.FindRoot(wd)
	if errors.Is(err, config.ErrNotFound) {
		return wd, false, nil
	}
	return root, err == nil, err
}

// reportPull prints what pull did (rep) in format, or why it failed (err).
func reportPull(ui *ui, space string, rep *pull.Report, err error, format string) error {
	if rep != nil {
		for _, msg := range rep.Warnings {
			ui.warningf("%s", msg)
		}
	}
	var (
		refused *fsrepo.RefusedError
		unknown *pull.UnknownSlugsError
		shared  *pull.SharedSlugsError
		leaked  *pull.SecretsError
	)
	switch {
	case errors.As(err, &refused):
		var hints []string
		if len(refused.Unsafe) > 0 {
			hints = append(hints, "pull never writes outside the skills folder nor through a symlink, nor git's own files or names a Windows or macOS checkout cannot hold: replace a symlink named above with a real folder or remove it, or pull only the other skills by naming their slugs")
		}
		if len(refused.Modified) > 0 {
			hints = append(hints, "commit or stash those changes first, or pass --force to overwrite them")
		}
		return withHint(fmt.Errorf("refusing to pull: %w", err), "%s", strings.Join(hints, "\n"))
	case errors.As(err, &unknown):
		return withHint(err, "%s", unknown.Advice())
	case errors.As(err, &leaked):
		written := *rep // what was written is reported, its warnings said once
		written.Warnings = nil
		if err := reportPull(ui, space, &written, nil, format); err != nil {
			return err
		}
		return withHint(err, hintSecretInSpace)
	case errors.As(err, &shared):
		return withHint(err, "%s", shared.Advice())
	case err != nil:
		return err
	}

	if format == "json" {
		return writeJSON(ui, rep)
	}
	for _, s := range rep.Skills {
		switch s.Status {
		case pull.Skipped:
			fprintf(ui.stdout, "skipped   %s: %s\n", visible.Line(s.Dir), visible.Line(s.Reason))
		case pull.Written:
			fprintf(ui.stdout, "wrote     %s (%s)\n", visible.Line(s.Dir), visible.Line(strings.Join(s.Files, ", ")))
		default:
			fprintf(ui.stdout, "unchanged %s\n", visible.Line(s.Dir))
		}
		for _, n := range s.NotRead {
			fprintf(ui.stdout, "          not read: %s (SKILL.md line %d): %s\n", visible.Line(n.Path), n.Line, visible.Line(n.Reason))
		}
		for _, d := range s.Findings {
			fprintf(ui.stdout, "          %s\n", visible.Line(d.String()))
			fprintf(ui.stdout, "            hint: %s\n", visible.Line(d.Hint))
		}
	}
	if rep.ConfigWritten {
		fprintf(ui.stdout, "wrote     %s\n", config.FileName)
	}
	n := rep.Summary.Pulled
	fprintf(ui.stdout, "Pulled %d %s from space %s: %d written, %d unchanged, %d skipped.\n",
		n, names.Plural(n, "skill", "skills"), space, rep.Summary.Written, rep.Summary.Unchanged, rep.Summary.Skipped)
	if e, w := rep.Summary.SecurityErrors, rep.Summary.SecurityWarnings; e+w > 0 {
		var what []string
		if e > 0 {
			what = append(what, names.Count(e, "error", "errors"))
		}
		if w > 0 {
			what = append(what, names.Count(w, "warning", "warnings"))
		}
		fprintf(ui.stdout, "The security rules find %s in what pull wrote (%s, above): review %s before you commit.\n",
			strings.Join(what, " and "), visible.Line(strings.Join(findingSlugs(rep, false), ", ")), names.Plural(e+w, "it", "them"))
	}
	if rep.Unfound > 0 {
		ui.infof("%s that instructions mention, but do not link, %s not in the space: taken for examples, not pulled",
			names.Count(rep.Unfound, "path", "paths"), names.Plural(rep.Unfound, "is", "are"))
	}
	if rep.Summary.SecurityErrors == 0 {
		ui.hintf("run 'skillsync plan' to check that the repository matches the space, then commit")
	}
	return nil
}
