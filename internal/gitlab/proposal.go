package gitlab

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/skillsync/skillsync/internal/forge"
)

// MaxTitleChars is the longest merge request title GitLab accepts.
const MaxTitleChars = 255

// Propose makes p a merge request: the branch p.Head one commit on top of
// p.Base's head holding exactly p.Files (one commit of actions, started
// from p.Base and forced onto p.Head), and one open merge request from it
// titled p.Title with p.Body, opened when none is, edited when one of
// skillsync's is. A merge request is skillsync's when the first line of
// its description is p.Marker and it is by whom the token posts as;
// another open one from p.Head is an error wrapping
// [forge.ErrBranchTaken], and nothing is pushed. Proposing what the
// branch already holds makes no commit (ProposalUnchanged unless the
// title or description changed); a change the base already holds whole
// is an error wrapping [forge.ErrNothingToPropose]. Should the base move
// while the commit is made so that an action no longer fits it (a file
// to create that is there now), it is made again, once.
//
// The title, description and commit message are redacted of the token,
// the title and description cut to GitLab's limits; a file holding the
// token is refused. The token needs the api scope and the Developer role
// or higher, and leave to push to p.Head if a protected branch rule
// matches it.
func (c *Client) Propose(ctx context.Context, p forge.Proposal) (forge.Outcome, error) {
	p, err := forge.Prepare(p, c.redactor, "the GitLab token", MaxTitleChars, func(body string) string {
		return c.fitBody(withMarker(p.Marker, body), "merge request description")
	})
	if err != nil {
		return forge.Outcome{}, err
	}
	return forge.Propose(ctx, proposer{c}, p)
}

// Withdraw closes the open merge request of skillsync's from w.Head (see
// [Client.Propose]), noting w.Reason first, then deletes the branch.
// With no such merge request it does nothing (ProposalNone); another's
// from w.Head is an error wrapping [forge.ErrBranchTaken].
func (c *Client) Withdraw(ctx context.Context, w forge.Withdrawal) (forge.Outcome, error) {
	return forge.Withdraw(ctx, proposer{c}, w, c.redactor)
}

// proposer is GitLab's side of forge.Propose and forge.Withdraw.
type proposer struct{ c *Client }

func request(mr *gl.BasicMergeRequest) forge.Request {
	return forge.Request{Number: mr.IID, Ref: fmt.Sprintf("!%d", mr.IID), URL: mr.WebURL,
		Title: mr.Title, Body: mr.Description, Base: mr.TargetBranch}
}

// Requests returns the open merge requests from head (of this project,
// not a fork's) that skillsync opened for marker, oldest first, and an
// error wrapping forge.ErrBranchTaken when another's comes from head.
func (h proposer) Requests(ctx context.Context, head, marker string) ([]forge.Request, error) {
	c := h.c
	opts := &gl.ListProjectMergeRequestsOptions{
		ListOptions:  gl.ListOptions{PerPage: 100},
		State:        gl.Ptr("opened"),
		SourceBranch: gl.Ptr(head),
		OrderBy:      gl.Ptr("created_at"),
		Sort:         gl.Ptr("asc"),
	}
	pages := func(p gl.PaginationOptionFunc) ([]*gl.BasicMergeRequest, *gl.Response, error) {
		return c.gl.MergeRequests.ListProjectMergeRequests(c.project, opts, gl.WithContext(ctx), p)
	}
	var found []forge.Request
	for mr, err := range scan(c, pages) {
		if err != nil {
			return nil, c.wrap(err, mergeRequestsWrite, "", fmt.Sprintf("listing the merge requests from %s in project %s", head, c.project))
		}
		if mr.SourceBranch != head || mr.SourceProjectID != mr.TargetProjectID {
			continue // a fork's branch of that name, or a server that ignored the filter
		}
		ours := startsWith(mr.Description, marker) && mr.Author != nil
		if ours {
			if ours, err = c.postedByUs(ctx, mr.Author.ID); err != nil {
				return nil, err
			}
		}
		if !ours {
			by := "someone"
			if mr.Author != nil {
				by = mr.Author.Username
			}
			return nil, &Error{Host: host, Op: "proposing on branch " + head,
				Message: fmt.Sprintf("%s, by %s, comes from %s and is not skillsync's", mrName(mr.IID), by, head),
				Hint:    fmt.Sprintf("skillsync never pushes to a branch another merge request comes from: close %s, or rename its branch", mrName(mr.IID)),
				Err:     forge.ErrBranchTaken}
		}
		found = append(found, request(mr))
	}
	return found, nil
}

func (h proposer) Open(ctx context.Context, p forge.Proposal) (forge.Request, error) {
	c := h.c
	mr, _, err := c.gl.MergeRequests.CreateMergeRequest(c.project, &gl.CreateMergeRequestOptions{
		Title: &p.Title, Description: &p.Body, SourceBranch: &p.Head, TargetBranch: &p.Base,
	}, gl.WithContext(ctx))
	if resp, ok := errors.AsType[*gl.ErrorResponse](err); ok && forge.StatusOf(resp.Response) == http.StatusConflict && strings.Contains(string(resp.Body), "Another open merge request already exists") {
		return forge.Request{}, forge.ErrRequestExists
	}
	if err != nil {
		return forge.Request{}, c.wrap(err, mergeRequestsWrite, "", fmt.Sprintf("opening a merge request from %s into %s in project %s", p.Head, p.Base, c.project))
	}
	return request(&mr.BasicMergeRequest), nil
}

func (h proposer) Edit(ctx context.Context, r forge.Request, p forge.Proposal) (forge.Request, error) {
	c := h.c
	mr, _, err := c.gl.MergeRequests.UpdateMergeRequest(c.project, r.Number, &gl.UpdateMergeRequestOptions{
		Title: &p.Title, Description: &p.Body, TargetBranch: &p.Base,
	}, gl.WithContext(ctx))
	if err != nil {
		return forge.Request{}, c.wrap(err, mergeRequestsWrite, mrName(r.Number), "updating "+mrName(r.Number))
	}
	return request(&mr.BasicMergeRequest), nil
}

func (h proposer) Close(ctx context.Context, r forge.Request, why string) error {
	c, iid := h.c, r.Number
	if _, _, err := c.gl.Notes.CreateMergeRequestNote(c.project, iid, &gl.CreateMergeRequestNoteOptions{Body: &why}, gl.WithContext(ctx)); err != nil {
		return c.wrap(err, mergeRequestsWrite, mrName(iid), "commenting on "+mrName(iid))
	}
	if _, _, err := c.gl.MergeRequests.UpdateMergeRequest(c.project, iid, &gl.UpdateMergeRequestOptions{StateEvent: gl.Ptr("close")}, gl.WithContext(ctx)); err != nil {
		return c.wrap(err, mergeRequestsWrite, mrName(iid), "closing "+mrName(iid))
	}
	return nil
}

func (h proposer) DeleteBranch(ctx context.Context, branch string) error {
	c := h.c
	if _, err := c.gl.Branches.DeleteBranch(c.project, branch, gl.WithContext(ctx)); err != nil && !errors.Is(err, gl.ErrNotFound) {
		return c.wrapPush(err, branch, fmt.Sprintf("deleting branch %s of project %s", branch, c.project))
	}
	return nil
}

// Push makes p.Head one commit on top of p.Base's head holding p.Files:
// the commit starts from the base's head as it is when GitLab makes it,
// and is made again when an action no longer fits it (the base moved).
func (h proposer) Push(ctx context.Context, p forge.Proposal) (string, bool, error) {
	c := h.c
	base, err := c.branchCommit(ctx, p.Base)
	if err != nil {
		return "", false, err
	}
	if base == nil {
		return "", false, &Error{Host: host, Op: "proposing on branch " + p.Head,
			Message: fmt.Sprintf("the base branch %s does not exist in project %s", p.Base, c.project),
			Hint:    "check the base branch's name, and that the token can read the repository"}
	}
	cs, err := forge.Changes(ctx, base.ID, p.Files, c.lister(base.ID))
	if err != nil {
		return "", false, fmt.Errorf("proposing on branch %s: %w", p.Head, err)
	}
	if len(cs.Edits) == 0 {
		return "", false, fmt.Errorf("proposing on branch %s: %w", p.Head, forge.ErrNothingToPropose)
	}
	head, err := c.branchCommit(ctx, p.Head)
	if err != nil {
		return "", false, err
	}
	if head != nil && len(head.ParentIDs) == 1 && head.ParentIDs[0] == base.ID {
		root, err := c.lister(head.ID)(ctx, "", "")
		if err != nil {
			return "", false, err
		}
		if tree, err := forge.TreeID(root); err == nil && tree == cs.Tree {
			return head.ID, false, nil
		}
	}
	commit, _, err := c.gl.Commits.CreateCommit(c.project, &gl.CreateCommitOptions{
		Branch: &p.Head, StartBranch: &p.Base, Force: gl.Ptr(true), CommitMessage: &p.Message, Actions: actions(cs.Edits),
	}, gl.WithContext(ctx))
	if baseMoved(err) {
		return "", false, &Error{Host: host, Op: "proposing on branch " + p.Head,
			Message: fmt.Sprintf("the base branch %s kept moving while the change was committed on it", p.Base),
			Hint:    "run the pipeline again when nothing else is pushing to " + p.Base, Err: forge.ErrBaseMoved}
	}
	if err != nil {
		return "", false, c.wrapPush(err, p.Head, fmt.Sprintf("pushing branch %s of project %s", p.Head, c.project))
	}
	return commit.ID, true, nil
}

// actions are GitLab's commit actions for edits: a new file is created
// (regular: chmod makes it executable), a file's content updated (its
// mode kept: chmod changes it), a file deleted.
func actions(edits []forge.Edit) []*gl.CommitActionOptions {
	var out []*gl.CommitActionOptions
	for _, e := range edits {
		switch {
		case e.Delete:
			out = append(out, &gl.CommitActionOptions{Action: gl.Ptr(gl.FileDelete), FilePath: gl.Ptr(e.Path)})
			continue
		case e.Created:
			out = append(out, &gl.CommitActionOptions{Action: gl.Ptr(gl.FileCreate), FilePath: gl.Ptr(e.Path),
				Content: gl.Ptr(base64.StdEncoding.EncodeToString(e.Content)), Encoding: gl.Ptr("base64")})
		case e.Content != nil:
			out = append(out, &gl.CommitActionOptions{Action: gl.Ptr(gl.FileUpdate), FilePath: gl.Ptr(e.Path),
				Content: gl.Ptr(base64.StdEncoding.EncodeToString(e.Content)), Encoding: gl.Ptr("base64")})
		}
		if e.Created && e.Mode != filemode.Regular || !e.Created && e.Mode != e.OldMode {
			out = append(out, &gl.CommitActionOptions{Action: gl.Ptr(gl.FileChmod), FilePath: gl.Ptr(e.Path),
				ExecuteFilemode: gl.Ptr(e.Mode == filemode.Executable)})
		}
	}
	return out
}

// baseMoved reports whether err is GitLab refusing an action that the
// base, as it was read, took: the base moved under the commit.
func baseMoved(err error) bool {
	var resp *gl.ErrorResponse
	if !errors.As(err, &resp) || forge.StatusOf(resp.Response) != http.StatusBadRequest {
		return false
	}
	body := string(resp.Body)
	return strings.Contains(body, "A file with this name already exists") ||
		strings.Contains(body, "A file with this name doesn't exist") ||
		strings.Contains(body, "A directory with this name already exists")
}

// branchCommit returns the commit branch points at, nil when there is no
// such branch.
func (c *Client) branchCommit(ctx context.Context, branch string) (*gl.Commit, error) {
	b, _, err := c.gl.Branches.GetBranch(c.project, branch, gl.WithContext(ctx))
	if errors.Is(err, gl.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, c.wrap(err, pushWrite, "", fmt.Sprintf("reading branch %s of project %s", branch, c.project))
	}
	if b.Commit == nil || b.Commit.ID == "" {
		return nil, &Error{Host: host, Op: fmt.Sprintf("reading branch %s of project %s", branch, c.project), Message: "GitLab named no commit of the branch"}
	}
	return b.Commit, nil
}

// lister lists the folders of commit ref by path.
func (c *Client) lister(ref string) forge.ListFolder {
	return func(ctx context.Context, dir, _ string) ([]forge.TreeEntry, error) {
		op := fmt.Sprintf("reading folder %q of project %s", dir, c.project)
		opts := &gl.ListTreeOptions{ListOptions: gl.ListOptions{PerPage: 100}, Path: &dir, Ref: &ref}
		pages := func(p gl.PaginationOptionFunc) ([]*gl.TreeNode, *gl.Response, error) {
			return c.gl.Repositories.ListTree(c.project, opts, gl.WithContext(ctx), p)
		}
		var out []forge.TreeEntry
		for n, err := range scan(c, pages) {
			if err != nil {
				return nil, c.wrap(err, pushWrite, "", op)
			}
			mode, err := filemode.New(n.Mode)
			if err != nil {
				return nil, &Error{Host: host, Op: op, Message: fmt.Sprintf("the entry %q has the mode %q, which is not git's", n.Name, n.Mode)}
			}
			out = append(out, forge.TreeEntry{Name: n.Name, Mode: mode, ID: n.ID})
		}
		return out, nil
	}
}

// wrapPush is wrap for a write of branch: GitLab refusing it says the
// token may not push there, for its role or a protected branch rule.
func (c *Client) wrapPush(err error, branch, op string) error {
	wrapped := c.wrap(err, pushWrite, "", op)
	var e *Error
	if errors.As(wrapped, &e) && (e.Status == http.StatusForbidden && !strings.Contains(e.Hint, "api scope") ||
		e.Status == http.StatusBadRequest && strings.Contains(strings.ToLower(e.Message), "protected branch")) {
		e.Hint = fmt.Sprintf("the GitLab token may not push to branch %s of project %s: give the access token the Developer role or higher, "+
			"and if a protected branch rule matches %s (such as skillsync/*), allow it to push there or have skillsync use a branch no rule matches", branch, c.project, branch)
	}
	return wrapped
}
