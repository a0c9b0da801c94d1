package fsrepo

import (
	"fmt"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// A NotRepoError is a folder in no git repository that can be opened.
type NotRepoError struct {
	Err error // go-git's
}

func (e *NotRepoError) Error() string { return e.Err.Error() }

func (e *NotRepoError) Unwrap() error { return e.Err }

// An UnknownRefError is a revision that names no commit of the clone. In
// CI it is most often a branch that the checkout did not fetch.
type UnknownRefError struct {
	Ref string
}

func (e *UnknownRefError) Error() string { return "unknown ref " + e.Ref }

// A NoMergeBaseError reports that two commits of the clone have no merge
// base in it: the clone is shallow, or the histories are unrelated.
type NoMergeBaseError struct {
	Ref, Head string
	Shallow   bool
	Err       error // from go-git's walk, nil when it found none
}

func (e *NoMergeBaseError) Error() string {
	var msg string
	if e.Shallow {
		msg = fmt.Sprintf("the merge base of %s and %s is not in this clone, which is shallow", e.Ref, e.Head)
	} else {
		msg = fmt.Sprintf("%s and %s have no common history in this clone", e.Ref, e.Head)
	}
	if e.Err != nil {
		msg += fmt.Sprintf(" (%v)", e.Err)
	}
	return msg
}

func (e *NoMergeBaseError) Unwrap() error { return e.Err }

// Advice says what makes the merge base found.
func (e *NoMergeBaseError) Advice() string {
	if e.Shallow {
		return "use actions/checkout with fetch-depth: 0 (or git fetch --unshallow)"
	}
	return "pass as --base the branch this one was made from"
}

// MergeBase returns the SHA of the merge base of the revisions ref and head
// (branch names, tags, SHAs, HEAD~1) in the git repository holding root:
// where a pull request from head into ref branched off. It fails with a
// [*NotRepoError] or an [*UnknownRefError] for either revision, and with
// a [*NoMergeBaseError] when the clone holds no merge base; [FirstParent]
// is then the base of a merge commit.
func MergeBase(root, ref, head string) (string, error) {
	r, err := openRepo(root)
	if err != nil {
		return "", err
	}
	a, err := resolveCommit(r, ref)
	if err != nil {
		return "", err
	}
	b, err := resolveCommit(r, head)
	if err != nil {
		return "", err
	}
	bases, err := a.MergeBase(b)
	if err == nil && len(bases) > 0 {
		return bases[0].Hash.String(), nil
	}
	// go-git walks history without regard to .git/shallow: in a shallow
	// clone the walk ends at a missing parent, with an error or with none.
	shallow, serr := r.Storer.Shallow()
	return "", &NoMergeBaseError{Ref: ref, Head: head, Shallow: serr == nil && len(shallow) > 0, Err: err}
}

// FirstParent returns the SHA of the first parent of the revision rev in
// the git repository holding root, if the clone holds it: in a pull
// request's merge commit (actions/checkout's default) it is the target
// branch as merged into.
func FirstParent(root, rev string) (string, error) {
	r, err := openRepo(root)
	if err != nil {
		return "", err
	}
	c, err := resolveCommit(r, rev)
	if err != nil {
		return "", err
	}
	if c.NumParents() == 0 {
		return "", fmt.Errorf("%s has no parent", rev)
	}
	p, err := c.Parent(0)
	if err != nil {
		return "", err
	}
	return p.Hash.String(), nil
}

// openRepo opens the git repository holding root, as [Load] does.
func openRepo(root string) (*git.Repository, error) {
	r, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, &NotRepoError{Err: err}
	}
	return r, nil
}

// resolveCommit returns the commit rev names in r. go-git reads that
// commit as it resolves rev, so a rev it resolves names a commit it can read.
func resolveCommit(r *git.Repository, rev string) (*object.Commit, error) {
	h, err := r.ResolveRevision(plumbing.Revision(rev))
	if err != nil {
		return nil, &UnknownRefError{Ref: rev}
	}
	c, err := r.CommitObject(*h)
	if err != nil {
		return nil, fmt.Errorf("reading commit %s of %s: %w", ShortCommit(h.String()), rev, err)
	}
	return c, nil
}
