package main

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/spec"
)

// baseFlag is plan's --base: the branch a pull request merges into.
func baseFlag() cli.Flag {
	return &cli.StringFlag{Name: "base", Usage: "split the plan into the changes of this pull request and drift, against the merge base of `REF` (the target branch, such as origin/main) and HEAD"}
}

// splitByBase sets the Origin of every change of r.plan: "pr" when the
// pull request changes what the change is about, "drift" when the space
// was edited since the base. The base is the desired state at the merge
// base of ref and the revision planned (--ref, or HEAD).
//
// A ref that does not resolve is an error, never a silent fallback: a typo
// in --base would otherwise split the plan against the wrong commit. Only
// when both ends resolve and no merge base is found (a shallow clone, or
// unrelated histories) does the base fall back to head^1, with a warning.
func splitByBase(c *cli.Context, ui *ui, r *planRun, ref string) error {
	head := c.String("ref")
	if head == "" {
		head = "HEAD"
	}
	repo, err := git.PlainOpenWithOptions(r.root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return withHint(fmt.Errorf("--base needs a git repository: %w", err), "run plan --base in a git clone, or leave out --base")
	}
	a, err := resolveCommit(repo, ref)
	if err != nil {
		return err
	}
	b, err := resolveCommit(repo, head)
	if err != nil {
		return err
	}
	sha, nb := mergeBase(repo, a, b, ref, head)
	if nb != nil {
		fallback, err := firstParent(b)
		if err != nil {
			return withHint(nb, "%s, or leave out --base", nb.advice())
		}
		ui.warningf("%v: %s", nb, nb.advice())
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

// resolveCommit returns the commit rev names in repo. A name that does
// not resolve is an error with a hint: in CI it is most often a branch
// that the checkout did not fetch.
func resolveCommit(repo *git.Repository, rev string) (*object.Commit, error) {
	h, err := repo.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		branch := strings.TrimPrefix(rev, "origin/")
		fetch := "git fetch origin " + branch
		if branch == rev {
			fetch += " and pass --base origin/" + branch
		}
		return nil, withHint(fmt.Errorf("unknown ref %s", rev),
			"check the name (git branch -a lists the branches of this clone); in GitHub Actions fetch it first: actions/checkout with fetch-depth: 0, or %s", fetch)
	}
	c, err := repo.CommitObject(*h)
	if err != nil {
		return nil, withHint(fmt.Errorf("reading commit %s of %s: %w", shortSHA(h.String()), rev, err),
			"the clone lacks it: use actions/checkout with fetch-depth: 0, or leave out --base")
	}
	return c, nil
}

// noMergeBaseError reports that two commits of the clone have no merge
// base in it: the clone is shallow, or the histories are unrelated.
type noMergeBaseError struct {
	ref, head string
	shallow   bool
	err       error // from go-git's walk, nil when it found none
}

func (e *noMergeBaseError) Error() string {
	var msg string
	if e.shallow {
		msg = fmt.Sprintf("the merge base of %s and %s is not in this clone, which is shallow", e.ref, e.head)
	} else {
		msg = fmt.Sprintf("%s and %s have no common history in this clone", e.ref, e.head)
	}
	if e.err != nil {
		msg += fmt.Sprintf(" (%v)", e.err)
	}
	return msg
}

func (e *noMergeBaseError) Unwrap() error { return e.err }

// advice says what makes the merge base found.
func (e *noMergeBaseError) advice() string {
	if e.shallow {
		return "use actions/checkout with fetch-depth: 0 (or git fetch --unshallow)"
	}
	return "pass as --base the branch this one was made from"
}

// mergeBase returns the SHA of the merge base of a and b (named ref and
// head), or why the clone holds none.
func mergeBase(repo *git.Repository, a, b *object.Commit, ref, head string) (string, *noMergeBaseError) {
	bases, err := a.MergeBase(b)
	if err == nil && len(bases) > 0 {
		return bases[0].Hash.String(), nil
	}
	// go-git walks history without regard to .git/shallow: in a shallow
	// clone the walk ends at a missing parent, with an error or with none.
	shallow, serr := repo.Storer.Shallow()
	return "", &noMergeBaseError{ref: ref, head: head, shallow: serr == nil && len(shallow) > 0, err: err}
}

// firstParent returns the SHA of c^1, if the clone holds it: in a pull
// request's merge commit (actions/checkout's default) it is the target
// branch as merged into.
func firstParent(c *object.Commit) (string, error) {
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
// among the pull request's changes, with the app-edited fields named in
// DriftFields. A disable of a skill the repository no
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
			var drifted []string
			for _, f := range c.Fields {
				if fieldDiffers(f, b, h) {
					origin = reconcile.OriginPR
				} else {
					drifted = append(drifted, f)
				}
			}
			if origin == reconcile.OriginPR {
				c.DriftFields = drifted
			}
		}
		c.Origin = origin
	}
	// An agent to publish comes from the pull request when it put the
	// agent in agents.publish; listed there at the base, the draft was
	// changed in the app.
	for i := range p.Publish {
		a := &p.Publish[i]
		a.Origin = reconcile.OriginPR
		if slices.Contains(base.Config.Agents.Publish, a.ID) || slices.Contains(base.Config.Agents.Publish, a.Name) {
			a.Origin = reconcile.OriginDrift
		}
	}
}

func fieldDiffers(field string, a, b *fsrepo.Skill) bool {
	switch field {
	case reconcile.FieldName, reconcile.FieldDescription, reconcile.FieldInstructions, reconcile.FieldEnabled:
		return slices.Contains(spec.Differ(a.Fields(), b.Fields()), field)
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
