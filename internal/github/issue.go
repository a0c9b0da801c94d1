package github

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	gh "github.com/google/go-github/v92/github"

	"github.com/skillsync/skillsync/internal/forge"
)

// DriftLabel is put on drift issues when the repository lets the token set
// labels. An issue is skillsync's by its marker and author, never by its
// label; the label only narrows the search.
const DriftLabel = "skillsync-drift"

// What SyncDriftIssue did.
const (
	DriftOpened  = "opened"
	DriftUpdated = "updated"
	DriftClosed  = "closed"
	DriftNone    = "none"
)

// DriftMarker is the hidden line that identifies the drift issue of a
// space: "<!-- skillsync:drift space=ID -->", with " target=NAME" before
// "-->" for a target of skillsync.yaml (two targets may have spaces of one
// id at two addresses), so that the issue of the one space of a
// skillsync.yaml without targets keeps the marker it always had.
func DriftMarker(space, target string) string {
	if target != "" {
		return "<!-- skillsync:drift space=" + space + " target=" + target + " -->"
	}
	return "<!-- skillsync:drift space=" + space + " -->"
}

// driftSubject names the space of a drift issue in its title and comments.
func driftSubject(space, target string) string {
	if target != "" {
		return fmt.Sprintf("target %s (space %s)", target, space)
	}
	return "space " + space
}

// SyncDriftIssue keeps one open issue per space (per target, for a target
// of skillsync.yaml: target is its name, "" for the one space of a
// skillsync.yaml without targets) for as long as the space differs from
// git:
//
//   - drift, no open issue: opens one titled "skillsync: drift in space ID"
//     (or "in target NAME (space ID)") with markdown as its body;
//   - drift, an open issue: replaces its body with markdown (a nightly job
//     never piles up issues);
//   - in sync, an open issue: comments that the space is back in sync and
//     closes it;
//   - in sync, no open issue: does nothing.
//
// It returns DriftOpened, DriftUpdated, DriftClosed or DriftNone and the
// issue's address. Should two open issues carry the marker (two jobs that
// raced), the oldest is kept and the others are closed as superseded.
func (c *Client) SyncDriftIssue(ctx context.Context, space, target string, drift bool, markdown string) (action, url string, err error) {
	marker := DriftMarker(space, target)
	issues, err := c.findIssues(ctx, marker)
	if err != nil {
		return "", "", err
	}
	if !drift {
		if len(issues) == 0 {
			return DriftNone, "", nil
		}
		msg := fmt.Sprintf("%s is back in sync with git.", upperFirst(driftSubject(space, target)))
		for _, is := range issues {
			if err := c.closeIssue(ctx, is.GetNumber(), msg); err != nil {
				return "", "", err
			}
		}
		return DriftClosed, issues[0].GetHTMLURL(), nil
	}

	body := c.fitBody(withMarker(marker, markdown), "drift report")
	if len(issues) == 0 {
		is, err := c.openIssue(ctx, fmt.Sprintf("skillsync: drift in %s", driftSubject(space, target)), body)
		if err != nil {
			return "", "", err
		}
		return DriftOpened, is.GetHTMLURL(), nil
	}
	keep := issues[0]
	if keep.GetBody() != body {
		got, _, err := c.gh.Issues.Update(ctx, c.owner, c.repo, keep.GetNumber(), gh.UpdateIssueRequest{Body: &body})
		if err != nil {
			return "", "", c.wrapEdit(err, issuesWrite, issueName(keep.GetNumber()), "updating drift "+issueName(keep.GetNumber()),
				issueName(keep.GetNumber()), keep.GetUser())
		}
		keep = got
	}
	for _, dup := range issues[1:] {
		if err := c.closeIssue(ctx, dup.GetNumber(), fmt.Sprintf("Superseded by #%d.", keep.GetNumber())); err != nil {
			return "", "", err
		}
	}
	return DriftUpdated, keep.GetHTMLURL(), nil
}

// findIssues returns the open issues (not pull requests) that skillsync
// filed for marker, oldest first: those that start with marker (skillsync
// writes it first) and are by whom the client posts as, so that an issue
// quoting the marker is never edited or closed. It looks among the issues
// labelled [DriftLabel] first, and among all open issues only when none
// of those is the one: the label may have been refused or removed.
func (c *Client) findIssues(ctx context.Context, marker string) ([]*gh.Issue, error) {
	found, err := c.listIssues(ctx, marker, []string{DriftLabel})
	if err != nil || len(found) > 0 {
		return found, err
	}
	return c.listIssues(ctx, marker, nil)
}

// listIssues returns the open issues with labels that skillsync filed for
// marker, oldest first.
func (c *Client) listIssues(ctx context.Context, marker string, labels []string) ([]*gh.Issue, error) {
	opts := &gh.IssueListByRepoOptions{
		State:       "open",
		Labels:      labels,
		Sort:        "created",
		Direction:   "asc",
		ListOptions: gh.ListOptions{PerPage: 100},
	}
	var found []*gh.Issue
	list := func() ([]*gh.Issue, *gh.Response, error) {
		return c.gh.Issues.ListByRepo(ctx, c.owner, c.repo, opts)
	}
	for is, err := range scan(c, &opts.ListOptions, list) {
		if err != nil {
			return nil, c.wrap(err, issuesWrite, "", fmt.Sprintf("listing the open issues of %s/%s", c.owner, c.repo))
		}
		if is.IsPullRequest() || !strings.HasPrefix(is.GetBody(), marker) {
			continue
		}
		ours, err := c.postedByUs(ctx, is.GetUser())
		if err != nil {
			return nil, err
		}
		if ours {
			found = append(found, is)
		}
	}
	return found, nil
}

// openIssue creates an issue with the drift label, or without it when the
// label cannot be set: the issue matters, the label does not.
func (c *Client) openIssue(ctx context.Context, title, body string) (*gh.Issue, error) {
	req := gh.CreateIssueRequest{Title: title, Body: &body, Labels: []string{DriftLabel}}
	is, _, err := c.gh.Issues.Create(ctx, c.owner, c.repo, req)
	if resp, ok := errors.AsType[*gh.ErrorResponse](err); ok && forge.StatusOf(resp.Response) == http.StatusUnprocessableEntity {
		req.Labels = nil
		is, _, err = c.gh.Issues.Create(ctx, c.owner, c.repo, req)
	}
	if err != nil {
		return nil, c.wrap(err, issuesWrite, "", fmt.Sprintf("opening a drift issue in %s/%s", c.owner, c.repo))
	}
	return is, nil
}

// closeIssue comments why, then closes the issue as completed.
func (c *Client) closeIssue(ctx context.Context, number int, why string) error {
	if _, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, number, gh.IssueCommentRequest{Body: why}); err != nil {
		return c.wrap(err, issuesWrite, issueName(number), "commenting on drift "+issueName(number))
	}
	closed, reason := "closed", "completed"
	if _, _, err := c.gh.Issues.Update(ctx, c.owner, c.repo, number, gh.UpdateIssueRequest{State: &closed, StateReason: &reason}); err != nil {
		return c.wrap(err, issuesWrite, issueName(number), "closing drift "+issueName(number))
	}
	return nil
}

func issueName(n int) string { return fmt.Sprintf("issue #%d", n) }

// upperFirst is s, never empty, with its first letter upper case.
func upperFirst(s string) string {
	return strings.ToUpper(s[:1]) + s[1:]
}
