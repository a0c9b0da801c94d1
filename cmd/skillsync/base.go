package main

import (
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
)

// baseFlag is plan's --base: the branch a pull request merges into.
func baseFlag() cli.Flag {
	return &cli.StringFlag{Name: "base", Usage: "split the plan into the changes of this pull request and drift, against the merge base of `REF` (the target branch, such as origin/main) and HEAD"}
}

// splitByBase sets the Origin of every change of r.plan: "pr" when the
// pull request changes what the change is about, "drift" when the space
// was edited since the base. The base is the desired state at the merge
// base of ref and the revision planned (--ref, or HEAD).
func splitByBase(c *cli.Context, ui *ui, r *planRun, ref string) error {
	head := c.String("ref")
	if head == "" {
		head = "HEAD"
	}
	sha, err := mergeBase(r.root, ref, head)
	if err != nil {
		fallback, ferr := firstParent(r.root, head)
		if ferr != nil {
			return withHint(err, "use actions/checkout with fetch-depth: 0, or leave out --base")
		}
		ui.warningf("%v", err)
		ui.warningf("comparing with %s^1 (%s) instead, which is the base only for a merge commit such as a pull request's", head, shortSHA(fallback))
		sha = fallback
	}
	base, _, err := fsrepo.Load(c.Context, r.root, fsrepo.LoadOptions{Ref: sha})
	if err != nil {
		// At the base there may be no skillsync.yaml yet: the pull request
		// that adds skillsync. All of its plan is then its own.
		ui.warningf("reading the base %s: %v; every change is shown as from this pull request", shortSHA(sha), err)
		base = &fsrepo.Repo{}
	}
	setOrigins(r.plan, base, r.repo)
	return nil
}

// mergeBase returns the SHA of the merge base of ref and head in the git
// repository holding root.
func mergeBase(root, ref, head string) (string, error) {
	notHere := fmt.Errorf("the merge base of %s and %s is not in this clone (shallow?): use actions/checkout with fetch-depth: 0", ref, head)
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return "", fmt.Errorf("--base needs a git repository: %w", err)
	}
	commit := func(rev string) (*object.Commit, error) {
		h, err := repo.ResolveRevision(plumbing.Revision(rev))
		if err != nil {
			return nil, fmt.Errorf("%w (resolving %s: %v)", notHere, rev, err)
		}
		c, err := repo.CommitObject(*h)
		if err != nil {
			return nil, fmt.Errorf("%w (reading %s: %v)", notHere, rev, err)
		}
		return c, nil
	}
	a, err := commit(ref)
	if err != nil {
		return "", err
	}
	b, err := commit(head)
	if err != nil {
		return "", err
	}
	bases, err := a.MergeBase(b)
	if err != nil {
		return "", fmt.Errorf("%w (%v)", notHere, err)
	}
	if len(bases) == 0 {
		return "", notHere
	}
	return bases[0].Hash.String(), nil
}

// firstParent returns the SHA of head^1, if the clone holds it: in a pull
// request's merge commit (actions/checkout's default) it is the target
// branch as merged into.
func firstParent(root, head string) (string, error) {
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return "", err
	}
	h, err := repo.ResolveRevision(plumbing.Revision(head))
	if err != nil {
		return "", err
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return "", err
	}
	if c.NumParents() == 0 {
		return "", errors.New("no parent")
	}
	p, err := c.Parent(0)
	if err != nil {
		return "", err
	}
	return p.Hash.String(), nil
}

// setOrigins marks each change of p "pr" or "drift" by comparing the
// desired state at the base with the one planned.
//
// A change is "pr" when any field it changes differs between base and head,
// or when its skill is new in the pull request; otherwise the desired value
// did not move, so the space did: "drift". A change that is both (one field
// from the pull request, another edited in the app) is marked "pr", as
// merging the pull request applies all of it and reviewers must see it
// among the pull request's changes. A disable of a skill the repository no
// longer holds is "pr" when the base held it (the pull request removed
// it), else "drift" (a skill created in the app). Changes of policy in
// skillsync.yaml are not compared.
func setOrigins(p *reconcile.Plan, base, head *fsrepo.Repo) {
	bySlug := func(r *fsrepo.Repo) map[string]*fsrepo.Skill {
		m := make(map[string]*fsrepo.Skill, len(r.Skills))
		for i := range r.Skills {
			m[r.Skills[i].Slug] = &r.Skills[i]
		}
		return m
	}
	bs, hs := bySlug(base), bySlug(head)
	for i := range p.Changes {
		c := &p.Changes[i]
		b, inBase := bs[c.Slug]
		h, inHead := hs[c.Slug]
		origin := reconcile.OriginDrift
		switch {
		case !inHead:
			if inBase {
				origin = reconcile.OriginPR
			}
		case !inBase:
			origin = reconcile.OriginPR
		default:
			for _, f := range c.Fields {
				if fieldDiffers(f, b, h) {
					origin = reconcile.OriginPR
					break
				}
			}
		}
		c.Origin = origin
	}
}

func fieldDiffers(field string, a, b *fsrepo.Skill) bool {
	switch field {
	case reconcile.FieldName:
		return a.Name != b.Name
	case reconcile.FieldDescription:
		return a.Description != b.Description
	case reconcile.FieldInstructions:
		return a.Instructions != b.Instructions
	case reconcile.FieldEnabled:
		return a.Enabled != b.Enabled
	}
	// A field this version does not know: say the pull request changed it,
	// so that it is reviewed.
	return true
}

func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12]
	}
	return sha
}
