package github

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	gh "github.com/google/go-github/v92/github"

	"github.com/skillsync/skillsync/internal/forge"
)

// MaxTitleChars is the longest issue or pull request title GitHub
// accepts.
const MaxTitleChars = 256

// Propose makes p a pull request: the branch p.Head one commit on top of
// p.Base's head holding exactly p.Files (made through the git data API:
// blobs, a tree on the base's, a commit, the ref force-updated), and one
// open pull request from it titled p.Title with p.Body, opened when none
// is, edited when one of skillsync's is. A pull request is skillsync's
// when its body starts with p.Marker and it is by whom the token posts
// as; another open one from p.Head is an error wrapping
// [forge.ErrBranchTaken], and nothing is pushed. Proposing what the
// branch already holds makes no commit (ProposalUnchanged unless the
// title or body changed); a change the base already holds whole is an
// error wrapping [forge.ErrNothingToPropose]. Should the base move
// while the commit is made, it is made again on the new head, once.
//
// The title, body and commit message are redacted of the token, the
// title and body cut to GitHub's limits; a file holding the token is
// refused. The workflow's token needs `permissions: { contents: write,
// pull-requests: write }`, and GITHUB_TOKEN the repository's setting
// "Allow GitHub Actions to create and approve pull requests".
func (c *Client) Propose(ctx context.Context, p forge.Proposal) (forge.Outcome, error) {
	p, err := forge.Prepare(p, c.redactor, "the GitHub token", MaxTitleChars, func(body string) string {
		return c.fitBody(withMarker(p.Marker, body), "pull request description")
	})
	if err != nil {
		return forge.Outcome{}, err
	}
	return forge.Propose(ctx, proposer{c}, p)
}

// Withdraw closes the open pull request of skillsync's from w.Head (see
// [Client.Propose]), commenting w.Reason first, then deletes the branch.
// With no such pull request it does nothing (ProposalNone); another's
// from w.Head is an error wrapping [forge.ErrBranchTaken].
func (c *Client) Withdraw(ctx context.Context, w forge.Withdrawal) (forge.Outcome, error) {
	return forge.Withdraw(ctx, proposer{c}, w, c.redactor)
}

// proposer is GitHub's side of forge.Propose and forge.Withdraw.
type proposer struct{ c *Client }

func request(pr *gh.PullRequest) forge.Request {
	return forge.Request{Number: int64(pr.GetNumber()), Ref: fmt.Sprintf("#%d", pr.GetNumber()), URL: pr.GetHTMLURL(),
		Title: pr.GetTitle(), Body: pr.GetBody(), Base: pr.GetBase().GetRef()}
}

// Requests returns the open pull requests from head that skillsync
// opened for marker, oldest first, and an error wrapping
// forge.ErrBranchTaken when another's comes from head.
func (h proposer) Requests(ctx context.Context, head, marker string) ([]forge.Request, error) {
	c := h.c
	opts := &gh.PullRequestListOptions{State: "open", Head: c.owner + ":" + head, Sort: "created", Direction: "asc",
		ListOptions: gh.ListOptions{PerPage: 100}}
	list := func() ([]*gh.PullRequest, *gh.Response, error) {
		return c.gh.PullRequests.List(ctx, c.owner, c.repo, opts)
	}
	var found []forge.Request
	for pr, err := range scan(c, &opts.ListOptions, list) {
		if err != nil {
			return nil, c.wrap(err, proposalWrite, "", fmt.Sprintf("listing the pull requests from %s in %s/%s", head, c.owner, c.repo))
		}
		if pr.GetHead().GetRef() != head {
			continue // a server that ignored the filter
		}
		ours := strings.HasPrefix(pr.GetBody(), marker)
		if ours {
			if ours, err = c.postedByUs(ctx, pr.GetUser()); err != nil {
				return nil, err
			}
		}
		if !ours {
			return nil, &Error{Host: host, Op: "proposing on branch " + head,
				Message: fmt.Sprintf("%s, by %s, comes from %s and is not skillsync's", prName(pr.GetNumber()), pr.GetUser().GetLogin(), head),
				Hint:    fmt.Sprintf("skillsync never pushes to a branch another pull request comes from: close %s, or rename its branch", prName(pr.GetNumber())),
				Err:     forge.ErrBranchTaken}
		}
		found = append(found, request(pr))
	}
	return found, nil
}

func (h proposer) Open(ctx context.Context, p forge.Proposal) (forge.Request, error) {
	c := h.c
	pr, _, err := c.gh.PullRequests.Create(ctx, c.owner, c.repo, gh.CreatePullRequest{Title: &p.Title, Head: p.Head, Base: p.Base, Body: &p.Body})
	if pullExists(err) {
		return forge.Request{}, forge.ErrRequestExists
	}
	if err != nil {
		return forge.Request{}, c.wrap(err, proposalWrite, "", fmt.Sprintf("opening a pull request from %s into %s in %s/%s", p.Head, p.Base, c.owner, c.repo))
	}
	return request(pr), nil
}

// pullExists reports whether err is GitHub refusing a second open pull
// request from one branch into another.
func pullExists(err error) bool {
	var resp *gh.ErrorResponse
	if !errors.As(err, &resp) || forge.StatusOf(resp.Response) != http.StatusUnprocessableEntity {
		return false
	}
	return slices.ContainsFunc(resp.Errors, func(d gh.Error) bool {
		return strings.HasPrefix(d.Message, "A pull request already exists")
	})
}

func (h proposer) Edit(ctx context.Context, r forge.Request, p forge.Proposal) (forge.Request, error) {
	c, n := h.c, int(r.Number)
	pr, _, err := c.gh.PullRequests.Edit(ctx, c.owner, c.repo, n, &gh.PullRequest{Title: &p.Title, Body: &p.Body, Base: &gh.PullRequestBranch{Ref: &p.Base}})
	if err != nil {
		return forge.Request{}, c.wrap(err, proposalWrite, prName(n), "updating "+prName(n))
	}
	return request(pr), nil
}

func (h proposer) Close(ctx context.Context, r forge.Request, why string) error {
	c, n := h.c, int(r.Number)
	if _, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, n, gh.IssueCommentRequest{Body: why}); err != nil {
		return c.wrap(err, proposalWrite, prName(n), "commenting on "+prName(n))
	}
	if _, _, err := c.gh.PullRequests.Edit(ctx, c.owner, c.repo, n, &gh.PullRequest{State: new("closed")}); err != nil {
		return c.wrap(err, proposalWrite, prName(n), "closing "+prName(n))
	}
	return nil
}

func (h proposer) DeleteBranch(ctx context.Context, branch string) error {
	c := h.c
	if _, err := c.gh.Git.DeleteRef(ctx, c.owner, c.repo, "heads/"+branch); err != nil && !refMissing(err) {
		return c.wrapRef(err, branch, fmt.Sprintf("deleting branch %s of %s/%s", branch, c.owner, c.repo))
	}
	return nil
}

// Push makes p.Head one commit on top of p.Base's head holding p.Files:
// a commit on the base's head as it was read, pushed only if the base
// has not moved meanwhile, so that the branch is not left on an older
// base.
func (h proposer) Push(ctx context.Context, p forge.Proposal) (string, bool, error) {
	c := h.c
	baseID, err := c.branchHead(ctx, p.Base)
	if err != nil {
		return "", false, err
	}
	if baseID == "" {
		return "", false, &Error{Host: host, Op: "proposing on branch " + p.Head,
			Message: fmt.Sprintf("the base branch %s does not exist in %s/%s", p.Base, c.owner, c.repo),
			Hint:    "check the base branch's name, and that the job may read the repository (`permissions: { contents: write }`)"}
	}
	base, err := c.gitCommit(ctx, baseID)
	if err != nil {
		return "", false, err
	}
	cs, err := forge.Changes(ctx, base.GetTree().GetSHA(), p.Files, c.listFolder)
	if err != nil {
		return "", false, fmt.Errorf("proposing on branch %s: %w", p.Head, err)
	}
	if len(cs.Edits) == 0 {
		return "", false, fmt.Errorf("proposing on branch %s: %w", p.Head, forge.ErrNothingToPropose)
	}
	headID, err := c.branchHead(ctx, p.Head)
	if err != nil {
		return "", false, err
	}
	if headID != "" {
		head, err := c.gitCommit(ctx, headID)
		if err != nil {
			return "", false, err
		}
		if len(head.Parents) == 1 && head.Parents[0].GetSHA() == baseID && head.GetTree().GetSHA() == cs.Tree {
			return headID, false, nil
		}
	}
	commit, err := c.commitEdits(ctx, base, cs.Edits, p.Message)
	if err != nil {
		return "", false, err
	}
	if now, err := c.branchHead(ctx, p.Base); err != nil {
		return "", false, err
	} else if now != baseID {
		return "", false, &Error{Host: host, Op: "proposing on branch " + p.Head,
			Message: fmt.Sprintf("the base branch %s kept moving while the change was committed on it", p.Base),
			Hint:    "run the job again when nothing else is pushing to " + p.Base, Err: forge.ErrBaseMoved}
	}
	op := fmt.Sprintf("pushing branch %s of %s/%s", p.Head, c.owner, c.repo)
	if headID == "" {
		_, _, err = c.gh.Git.CreateRef(ctx, c.owner, c.repo, gh.CreateRef{Ref: "refs/heads/" + p.Head, SHA: commit})
	}
	if headID != "" || refExists(err) {
		_, _, err = c.gh.Git.UpdateRef(ctx, c.owner, c.repo, "heads/"+p.Head, gh.UpdateRef{SHA: commit, Force: new(true)})
	}
	if err != nil {
		return "", false, c.wrapRef(err, p.Head, op)
	}
	return commit, true, nil
}

// commitEdits writes edits as a commit on top of base, and returns its
// id. Blobs are sent one after the other: GitHub asks that writes be.
func (c *Client) commitEdits(ctx context.Context, base *gh.Commit, edits []forge.Edit, message string) (string, error) {
	const op = "writing the commit of the change"
	entries := make([]*gh.TreeEntry, 0, len(edits))
	for _, e := range edits {
		entry := &gh.TreeEntry{Path: new(e.Path)}
		if !e.Delete {
			entry.Mode, entry.Type, entry.SHA = new(fmt.Sprintf("%06o", uint32(e.Mode))), new("blob"), new(e.Blob)
		}
		if e.Content != nil {
			blob, _, err := c.gh.Git.CreateBlob(ctx, c.owner, c.repo, gh.Blob{
				Content: new(base64.StdEncoding.EncodeToString(e.Content)), Encoding: new("base64"),
			})
			if err != nil {
				return "", c.wrap(err, proposalWrite, "", op)
			}
			entry.SHA = blob.SHA
		}
		entries = append(entries, entry)
	}
	tree, _, err := c.gh.Git.CreateTree(ctx, c.owner, c.repo, base.GetTree().GetSHA(), entries)
	if err != nil {
		return "", c.wrap(err, proposalWrite, "", op)
	}
	commit, _, err := c.gh.Git.CreateCommit(ctx, c.owner, c.repo, gh.Commit{
		Message: &message, Tree: &gh.Tree{SHA: tree.SHA}, Parents: []*gh.Commit{{SHA: base.SHA}},
	}, nil)
	if err != nil {
		return "", c.wrap(err, proposalWrite, "", op)
	}
	return commit.GetSHA(), nil
}

// branchHead returns the commit branch points at, "" when there is no
// such branch.
func (c *Client) branchHead(ctx context.Context, branch string) (string, error) {
	ref, _, err := c.gh.Git.GetRef(ctx, c.owner, c.repo, "heads/"+branch)
	if resp, ok := errors.AsType[*gh.ErrorResponse](err); ok && forge.StatusOf(resp.Response) == http.StatusNotFound {
		return "", nil
	}
	if err != nil {
		return "", c.wrap(err, proposalWrite, "", fmt.Sprintf("reading branch %s of %s/%s", branch, c.owner, c.repo))
	}
	return ref.GetObject().GetSHA(), nil
}

func (c *Client) gitCommit(ctx context.Context, id string) (*gh.Commit, error) {
	commit, _, err := c.gh.Git.GetCommit(ctx, c.owner, c.repo, id)
	if err != nil {
		return nil, c.wrap(err, proposalWrite, "", fmt.Sprintf("reading commit %s of %s/%s", id, c.owner, c.repo))
	}
	return commit, nil
}

// listFolder lists the tree id, the folder dir of a commit.
func (c *Client) listFolder(ctx context.Context, dir, id string) ([]forge.TreeEntry, error) {
	op := fmt.Sprintf("reading folder %q of %s/%s", dir, c.owner, c.repo)
	tree, _, err := c.gh.Git.GetTree(ctx, c.owner, c.repo, id, false)
	if err != nil {
		return nil, c.wrap(err, proposalWrite, "", op)
	}
	if tree.GetTruncated() {
		return nil, &Error{Host: host, Op: op, Message: "GitHub listed the folder in part only (it holds too many entries)",
			Hint: "keep fewer entries in the folder"}
	}
	out := make([]forge.TreeEntry, 0, len(tree.Entries))
	for _, e := range tree.Entries {
		mode, err := filemode.New(e.GetMode())
		if err != nil {
			return nil, &Error{Host: host, Op: op, Message: fmt.Sprintf("the entry %q has the mode %q, which is not git's", e.GetPath(), e.GetMode())}
		}
		out = append(out, forge.TreeEntry{Name: e.GetPath(), Mode: mode, ID: e.GetSHA()})
	}
	return out, nil
}

// refExists reports whether err is GitHub refusing to create a ref that
// exists; refMissing, to update or delete one that does not.
func refExists(err error) bool  { return refError(err, "Reference already exists") }
func refMissing(err error) bool { return refError(err, "Reference does not exist") }

func refError(err error, message string) bool {
	var resp *gh.ErrorResponse
	return errors.As(err, &resp) && forge.StatusOf(resp.Response) == http.StatusUnprocessableEntity && resp.Message == message
}

// wrapRef is wrap for a write of branch: a 422 other than for a ref that
// exists or does not is GitHub refusing it for a protection rule.
func (c *Client) wrapRef(err error, branch, op string) error {
	wrapped := c.wrap(err, proposalWrite, "", op)
	var e *Error
	if errors.As(wrapped, &e) && e.Status == http.StatusUnprocessableEntity && !refExists(err) && !refMissing(err) {
		e.Hint = fmt.Sprintf("branch %s is protected by a branch protection rule or a ruleset: exempt skillsync's branches from it, or have skillsync use a branch that no rule matches", branch)
	}
	return wrapped
}
