package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/vendored"
)

func vendorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "vendor",
		Usage: "copy skills from git repositories and keep them current (skillsync.lock)",
		Description: `Vendoring copies a skill folder from a git repository (an https URL, or a
local clone's path, read with no git binary) into the skills folder, and
records where it came from in skillsync.lock: source, path, ref, the commit
copied, and a hash of the folder's files that find, sort and sha256sum
recompute (see the README). validate warns when a vendored folder differs
from its lock, and fails when the lock names a folder that is gone.

A private https source takes a token from the environment, sent to its
host only and never written: SKILLSYNC_GIT_TOKEN_<HOST>, HOST the source's
host in upper case with "." as "_", "-" as "__", and "_PORT" for a port
other than the default (git.example.com:8443 is GIT_EXAMPLE_COM_8443);
else GITHUB_TOKEN on GitHub's host, GITLAB_TOKEN or CI_JOB_TOKEN on
GitLab's. SKILLSYNC_GIT_USER_<HOST> sets the user name sent with it.

Examples:
   skillsync vendor add https://github.com/anthropics/skills --path skills/pdf
   skillsync vendor outdated
   skillsync vendor update pdf

Exit codes: 0 success, 1 error, 2 (outdated) an upstream changed.`,
		Subcommands: []*cli.Command{
			vendorAddCommand(e),
			vendorOutdatedCommand(e),
			vendorUpdateCommand(e),
		},
	}
}

func vendorAddCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "add",
		Usage:     "copy a skill folder from a git repository and lock it",
		ArgsUsage: "SOURCE",
		Description: `Copies the skill folder at --path in SOURCE, at --ref (a branch, tag or
commit; default: the repository's default branch), into the skills folder,
named --as (default: the folder's own name), and adds its entry to
skillsync.lock. SOURCE is an https URL (fetched at depth 1) or the path of a
local git repository. Without --path, the repository's root is the skill
when it holds a SKILL.md, else its only skill folder.

Nothing is written when the skill has errors that validate and plan would
refuse (unless --force), when the folder exists, or when the name is
already vendored (vendor update brings in upstream's changes).

Examples:
   skillsync vendor add https://github.com/anthropics/skills --path skills/pdf
   skillsync vendor add --ref v1.2.0 --as pdf-forms ../skills-clone --path skills/pdf

Exit codes: 0 vendored, 1 error (nothing written).`,
		Flags: []cli.Flag{
			dirFlag(),
			flagPath.def("the skill's folder in SOURCE, such as skills/pdf (default: the root, or its only skill)"),
			flagRef.def("the branch, tag or commit to copy (default: the source's default branch)"),
			flagAs.def("the local folder's name, the skill's slug (default: the source folder's name)"),
			flagForce.def("vendor a skill that has validation errors"),
		},
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return withHint(errors.New("skillsync vendor add needs one source"), "e.g. skillsync vendor add https://github.com/anthropics/skills --path skills/pdf")
			}
			// "vendor add URL --path skills/pdf", as the README writes it:
			// urfave/cli stops reading flags at SOURCE, so the ones after
			// it are read here, and win.
			rest, err := flagsAfter(c)
			if err != nil {
				return err
			}
			if len(rest) > 0 {
				return withHint(fmt.Errorf("skillsync vendor add takes one source, got %q and %q", c.Args().First(), rest),
					"e.g. skillsync vendor add https://github.com/anthropics/skills --path skills/pdf")
			}
			return runVendorAdd(c.Context, e, vendorAddOptions{
				dir:    resolveDir(flagDir.get(c), e.getenv),
				source: c.Args().First(),
				path:   flagPath.get(c),
				ref:    flagRef.get(c),
				as:     flagAs.get(c),
				force:  flagForce.get(c),
			})
		},
	}
}

// flagsAfter parses the arguments after the first with the flags of c's
// command, as urfave/cli parses those before it, and sets each given on c
// over its value there. It returns the arguments left.
func flagsAfter(c *cli.Context) ([]string, error) {
	set := flag.NewFlagSet(c.Command.Name, flag.ContinueOnError)
	set.SetOutput(io.Discard)
	for _, f := range c.Command.Flags {
		if err := f.Apply(set); err != nil {
			return nil, err
		}
	}
	if err := set.Parse(c.Args().Tail()); err != nil {
		return nil, usageError(c, err, false)
	}
	var err error
	set.Visit(func(f *flag.Flag) { err = cmp.Or(err, c.Set(f.Name, f.Value.String())) })
	return set.Args(), err
}

func vendorOutdatedCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "outdated",
		Usage:     "report the vendored skills whose folder changed upstream",
		ArgsUsage: "[SLUG...]",
		Description: `Asks each source whether the folder of each vendored skill (of SLUG...,
all by default) changed at its ref since the locked commit. A ref that
moved while the folder stayed the same is not outdated. Read-only: run it
on a schedule, as drift.

Examples:
   skillsync vendor outdated
   skillsync vendor outdated --format json

Exit codes: 0 all current, 1 error (a skill could not be checked),
2 a folder changed or was removed upstream.`,
		Flags: []cli.Flag{
			dirFlag(),
			formatFlag("text", "json"),
		},
		Action: func(c *cli.Context) error {
			return runVendorOutdated(c.Context, e, vendorOutdatedOptions{
				dir:    resolveDir(flagDir.get(c), e.getenv),
				slugs:  c.Args().Slice(),
				format: flagFormat.get(c),
			})
		},
	}
}

func vendorUpdateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:      "update",
		Usage:     "merge upstream's changes into the vendored skills, keeping local edits",
		ArgsUsage: "[SLUG...]",
		Description: `For each vendored skill (of SLUG..., all by default) whose ref moved
upstream, merges upstream's changes since the locked commit into the local
folder, three ways, so that local edits survive, and moves its lock entry
to the new commit. A file both sides changed in the same lines is a
conflict, reported with its lines; nothing is written for that skill
unless --force, which takes upstream's version of each conflicted file.
What upstream changes is judged by the security rules first: an error no
waiver accepts leaves the skill as it is (with --pr, nothing is pushed nor
proposed for its upstream).

Examples:
   skillsync vendor update
   skillsync vendor update pdf
   skillsync vendor update --force pdf
   skillsync vendor update --pr        # in a scheduled job: one pull request per upstream

Exit codes: 0 updated (or current), 1 error or conflict (that skill is
left as it was).`,
		Flags: []cli.Flag{
			dirFlag(),
			flagForce.def("write skills with conflicts, taking upstream's version of each conflicted file"),
			formatFlag("text", "json"),
			flagPropose.def("propose the update as one pull (merge) request per upstream that moved, with upstream's log, updated when it moves again; the working tree is left as it is"),
			flagPRBase.def("the branch the pull requests merge into (default: the branch the CI job runs on)"),
		},
		Action: func(c *cli.Context) error {
			return runVendorUpdate(c.Context, e, vendorUpdateOptions{
				dir:     resolveDir(flagDir.get(c), e.getenv),
				slugs:   c.Args().Slice(),
				force:   flagForce.get(c),
				format:  flagFormat.get(c),
				propose: flagPropose.get(c),
				prBase:  flagPRBase.get(c),
			})
		},
	}
}

// vendorAddOptions are vendor add's settings.
type vendorAddOptions struct {
	dir    string // --dir or SKILLSYNC_DIR; "" to look upward
	source string // an https URL or a local path, as given
	path   string // --path
	ref    string // --ref
	as     string // --as
	force  bool
}

func runVendorAdd(ctx context.Context, e *env, o vendorAddOptions) error {
	ui := e.ui
	root, err := findRepo(o.dir)
	if err != nil {
		return err
	}
	j, err := vendorJudge(e, root)
	if err != nil {
		return err
	}
	added, err := vendored.Add(ctx, root, vendored.AddOptions{Source: o.source, Path: o.path, Ref: o.ref, As: o.as, Force: o.force, Auth: gitAuth(e), Judge: j})
	if errors.Is(err, vendored.ErrInsecureSkill) {
		writeDiagnostics(ui, added.Diagnostics)
		return withHint(fmt.Errorf("not vendored: %w; nothing is written", err),
			"read what they find above; if it is intended, waive each finding in skillsync.yaml (lint.waivers, see docs/security.md) and vendor again")
	}
	if errors.Is(err, vendored.ErrInvalidSkill) {
		writeDiagnostics(ui, added.Diagnostics)
		errs, _ := added.Diagnostics.Count()
		return withHint(fmt.Errorf("not vendored: %s would hold a skill with %s, which validate and plan refuse; nothing is written",
			added.Dir, names.Count(errs, "error", "errors")),
			"vendor another ref or folder, or pass --force to vendor it as it is and fix it here")
	}
	if err != nil {
		return vendorError(ui, err, o.source)
	}
	writeDiagnostics(ui, added.Diagnostics)
	added.WriteText(ui.stdout)
	for _, n := range added.Notes {
		ui.warningf("%s", n)
	}
	ui.hintf("commit %s and %s; 'skillsync plan' shows what the skill changes in the space", added.Dir, fsrepo.LockFile)
	return nil
}

// vendorOutdatedOptions are vendor outdated's settings.
type vendorOutdatedOptions struct {
	dir    string
	slugs  []string // only these skills; all when empty
	format string   // text or json
}

func runVendorOutdated(ctx context.Context, e *env, o vendorOutdatedOptions) error {
	ui := e.ui
	root, err := findRepo(o.dir)
	if err != nil {
		return err
	}
	rep, err := vendored.Outdated(ctx, root, vendored.OutdatedOptions{Slugs: o.slugs, Auth: gitAuth(e)})
	if err != nil {
		return vendorError(ui, err, "")
	}
	if o.format == "json" {
		if err := writeJSON(ui, rep); err != nil {
			return err
		}
	} else {
		rep.WriteText(ui.stdout)
	}
	switch {
	case rep.Failed():
		return withHint(errors.New("some vendored skills could not be checked (see above)"),
			"check each source's address and the network, or vendor from a local clone; the lock is unchanged")
	case rep.Outdated():
		if o.format != "json" {
			ui.hintf("'skillsync vendor update' merges upstream's changes with your edits")
		}
		notifyOutdated(ctx, e, root, rep)
		return errChanges
	}
	return nil
}

// vendorUpdateOptions are vendor update's settings.
type vendorUpdateOptions struct {
	dir     string
	slugs   []string // only these skills; all when empty
	force   bool
	format  string // text or json
	propose bool   // --pr
	prBase  string // --pr-base
}

func runVendorUpdate(ctx context.Context, e *env, o vendorUpdateOptions) error {
	ui := e.ui
	root, err := findRepo(o.dir)
	if err != nil {
		return err
	}
	if o.propose {
		return proposeVendorUpdates(ctx, e, root, o)
	}
	j, err := vendorJudge(e, root)
	if err != nil {
		return err
	}
	rep, err := vendored.Update(ctx, root, vendored.UpdateOptions{Slugs: o.slugs, Force: o.force, Auth: gitAuth(e), Judge: j})
	switch {
	case rep != nil && o.format == "json":
		if jerr := writeJSON(ui, rep); jerr != nil && err == nil {
			err = jerr
		}
	case rep != nil:
		for _, s := range rep.Skills {
			writeDiagnostics(ui, s.Findings)
		}
		rep.WriteText(ui.stdout)
	}
	if err != nil {
		return vendorError(ui, err, "")
	}
	var conflicted []string
	failed := false
	for _, s := range rep.Skills {
		switch s.State {
		case vendored.StateConflict:
			conflicted = append(conflicted, s.Slug)
		case vendored.StateError, vendored.StateRemoved:
			failed = true
		}
	}
	switch {
	case len(conflicted) > 0:
		slugs := strings.Join(conflicted, " ")
		return withHint(fmt.Errorf("%s %s %s not updated: upstream's changes conflict with local edits, so nothing is written for %s",
			names.Plural(len(conflicted), "skill", "skills"), slugs, names.Plural(len(conflicted), "was", "were"), names.Plural(len(conflicted), "it", "them")),
			"make the lines named above agree with upstream's, then run 'skillsync vendor update %s' again; or 'skillsync vendor update --force %s' takes upstream's version of each conflicted file (your edits stay in git's history)", slugs, slugs)
	case failed:
		return withHint(errors.New("some vendored skills could not be updated (see above)"), "the other skills are updated; fix what is named above and run 'skillsync vendor update' again")
	}
	if rep.Failed() {
		return errSilent
	}
	updated := slices.ContainsFunc(rep.Skills, func(s vendored.SkillUpdate) bool { return s.State == vendored.StateUpdated })
	if !o.force && o.format != "json" && updated {
		ui.hintf("review with 'git diff', then 'skillsync plan'; commit the folders and %s", fsrepo.LockFile)
	}
	return nil
}

// vendorError gives the errors of the vendored package a hint: a lock
// that cannot be read, a slug the lock does not hold, a source that
// cannot be reached.
func vendorError(ui *ui, err error, source string) error {
	var lockErr *vendored.LockError
	switch {
	case errors.As(err, &lockErr):
		for _, d := range lockErr.Diagnostics {
			ui.infof("%s", d)
		}
		return withHint(fmt.Errorf("%s is invalid (%s above): vendoring stops until it is fixed", fsrepo.LockFile, names.Count(len(lockErr.Diagnostics), "error", "errors")),
			"%s is written by skillsync vendor: restore it from git ('git checkout -- %s'), or fix the lines named", fsrepo.LockFile, fsrepo.LockFile)
	case errors.Is(err, vendored.ErrNoFolder):
		return withHint(err, "check --path: the skill's folder in the source repository, such as skills/pdf; without --path, vendor add lists the skills the source holds")
	case errors.Is(err, vendored.ErrNotVendored):
		return withHint(err, "'skillsync vendor outdated' lists the vendored skills; 'skillsync vendor add' vendors a new one")
	case errors.Is(err, context.Canceled), errors.Is(err, errInterrupted):
		return err
	case remote.NetFailureOf(err) != remote.NetOther:
		return withHint(err, "could not reach %s: check its address and this machine's network (and proxy), or vendor from a local clone by giving its path", cmp.Or(source, "the source"))
	}
	return err
}
