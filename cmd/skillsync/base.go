package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
)

// splitByBase sets the Origin of every change of the plan of each run
// (each target's, against the target's desired state at the base): "pr" when the
// pull request changes what the change is about, "drift" when the space
// was edited since the base. The base is the desired state at the merge
// base of ref and the revision planned (head, from --ref; "" for HEAD).
//
// A ref that does not resolve is an error, never a silent fallback: a typo
// in --base would otherwise split the plan against the wrong commit. Only
// when both ends resolve and no merge base is found (a shallow clone, or
// unrelated histories) does the base fall back to head^1, with a warning.
func splitByBase(ctx context.Context, ui *ui, runs []*planRun, head, ref string) error {
	r := runs[0]
	if head == "" {
		head = "HEAD"
	}
	sha, err := fsrepo.MergeBase(r.root, ref, head)
	var nb *fsrepo.NoMergeBaseError
	if errors.As(err, &nb) {
		fallback, ferr := fsrepo.FirstParent(r.root, head)
		if ferr != nil {
			return withHint(nb, "%s, or leave out --base", nb.Advice())
		}
		ui.warningf("%v: %s", nb, nb.Advice())
		ui.warningf("comparing with %s^1 (%s) instead, which is the base only for a merge commit such as a pull request's", head, fsrepo.ShortCommit(fallback))
		sha, err = fallback, nil
	}
	if err != nil {
		return baseError(err)
	}
	base, _, err := fsrepo.Load(ctx, r.root, fsrepo.LoadOptions{Ref: sha})
	if err != nil {
		// At the base there may be no skillsync.yaml yet: the pull request
		// that adds skillsync. All of its plan is then its own.
		ui.warningf("reading the base %s: %v; every change is shown as from this pull request", fsrepo.ShortCommit(sha), err)
		base = &fsrepo.Repo{}
	}
	for _, r := range runs {
		if r.err == nil {
			reconcile.SetOrigins(r.plan, base.ForTarget(r.target.Name), r.repo)
		}
	}
	return nil
}

// baseError gives an error of fsrepo.MergeBase its hint: in CI a ref that
// does not resolve is most often a branch that the checkout did not fetch.
func baseError(err error) error {
	var (
		notRepo *fsrepo.NotRepoError
		unknown *fsrepo.UnknownRefError
	)
	switch {
	case errors.As(err, &notRepo):
		return withHint(fmt.Errorf("--base needs a git repository: %w", notRepo.Err), "run plan --base in a git clone, or leave out --base")
	case errors.As(err, &unknown):
		branch := strings.TrimPrefix(unknown.Ref, "origin/")
		fetch := "git fetch origin " + branch
		if branch == unknown.Ref {
			fetch += " and pass --base origin/" + branch
		}
		return withHint(err,
			"check the name (git branch -a lists the branches of this clone); in GitHub Actions fetch it first: actions/checkout with fetch-depth: 0, or %s", fetch)
	}
	return err
}
