package gitlab

import (
	"cmp"
	"context"
	"fmt"

	gl "gitlab.com/gitlab-org/api/client-go"
)

// DriftLabel is put on drift issues; GitLab makes the label when the
// project has none. An issue is skillsync's by its marker and author,
// never by its label; the label only narrows the search.
const DriftLabel = "skillsync-drift"

// What SyncDriftIssue did.
const (
	DriftOpened  = "opened"
	DriftUpdated = "updated"
	DriftClosed  = "closed"
	DriftNone    = "none"
)

// A DriftIssue is what [Client.SyncDriftIssue] makes of the drift of one
// space, or of one target of it.
type DriftIssue struct {
	// Marker identifies the issue: a hidden HTML comment on one line,
	// which the caller owns (<!-- skillsync:drift space=X -->, or one
	// that names a target too: <!-- skillsync:drift space=X target=NAME -->).
	// An issue is the marker's when the first line of its description is
	// the marker, whole.
	Marker string
	// Title is the title of an issue opened for the drift.
	Title string
	// Drift says that the space differs from git; Markdown is then the
	// report to show, which gets Marker prepended if it does not start
	// with it, and is cut with a note (linking the job, when [Env.RunURL]
	// is known) to fit [MaxNoteChars].
	Drift    bool
	Markdown string
	// InSync is the note left on the issue when it is closed, the space
	// back in sync; "Back in sync with git." when empty.
	InSync string
}

// SyncDriftIssue keeps one open issue per marker for as long as what it
// stands for differs from git:
//
//   - drift, no open issue: opens one titled di.Title with di.Markdown as
//     its description, labelled [DriftLabel];
//   - drift, an open issue: replaces its description with di.Markdown (a
//     nightly pipeline never piles up issues);
//   - in sync, an open issue: comments di.InSync and closes it;
//   - in sync, no open issue: does nothing.
//
// It returns DriftOpened, DriftUpdated, DriftClosed or DriftNone and the
// issue's address. Should two open issues carry the marker (two pipelines
// that raced), the oldest is kept and the others are closed as
// superseded.
func (c *Client) SyncDriftIssue(ctx context.Context, di DriftIssue) (action, url string, err error) {
	marker := di.Marker
	issues, err := c.findIssues(ctx, marker)
	if err != nil {
		return "", "", err
	}
	if !di.Drift {
		if len(issues) == 0 {
			return DriftNone, "", nil
		}
		msg := cmp.Or(di.InSync, "Back in sync with git.")
		for _, is := range issues {
			if err := c.closeIssue(ctx, is.IID, msg); err != nil {
				return "", "", err
			}
		}
		return DriftClosed, issues[0].WebURL, nil
	}

	body := c.fitBody(withMarker(marker, di.Markdown), "drift report")
	if len(issues) == 0 {
		is, _, err := c.gl.Issues.CreateIssue(c.project, &gl.CreateIssueOptions{
			Title:       &di.Title,
			Description: &body,
			Labels:      &gl.LabelOptions{DriftLabel},
		}, gl.WithContext(ctx))
		if err != nil {
			return "", "", c.wrap(err, issuesWrite, "", fmt.Sprintf("opening a drift issue in project %s", c.project))
		}
		return DriftOpened, is.WebURL, nil
	}
	keep := issues[0]
	if keep.Description != body {
		got, _, err := c.gl.Issues.UpdateIssue(c.project, keep.IID, &gl.UpdateIssueOptions{Description: &body}, gl.WithContext(ctx))
		if err != nil {
			return "", "", c.wrap(err, issuesWrite, issueName(keep.IID), "updating drift "+issueName(keep.IID))
		}
		keep = got
	}
	for _, dup := range issues[1:] {
		if err := c.closeIssue(ctx, dup.IID, fmt.Sprintf("Superseded by #%d.", keep.IID)); err != nil {
			return "", "", err
		}
	}
	return DriftUpdated, keep.WebURL, nil
}

// findIssues returns the open issues that skillsync filed for marker,
// oldest first: those whose first line is marker (skillsync writes it
// first) and are by whom the token posts as, so that an issue quoting the
// marker is never edited or closed. It looks among the issues labelled
// [DriftLabel] first, and among all the token's open issues only when
// none of those is the one: the label may have been removed.
func (c *Client) findIssues(ctx context.Context, marker string) ([]*gl.Issue, error) {
	found, err := c.listIssues(ctx, marker, &gl.LabelOptions{DriftLabel})
	if err != nil || len(found) > 0 {
		return found, err
	}
	return c.listIssues(ctx, marker, nil)
}

// listIssues returns the open issues with labels that skillsync filed for
// marker, oldest first.
func (c *Client) listIssues(ctx context.Context, marker string, labels *gl.LabelOptions) ([]*gl.Issue, error) {
	me, err := c.whoami(ctx)
	if err != nil {
		return nil, err
	}
	opts := &gl.ListProjectIssuesOptions{
		ListOptions: gl.ListOptions{PerPage: 100},
		State:       gl.Ptr("opened"),
		Labels:      labels,
		AuthorID:    gl.Ptr(me.ID),
		OrderBy:     gl.Ptr("created_at"),
		Sort:        gl.Ptr("asc"),
	}
	pages := func(p gl.PaginationOptionFunc) ([]*gl.Issue, *gl.Response, error) {
		return c.gl.Issues.ListProjectIssues(c.project, opts, gl.WithContext(ctx), p)
	}
	var found []*gl.Issue
	for is, err := range scan(c, pages) {
		if err != nil {
			return nil, c.wrap(err, issuesWrite, "", fmt.Sprintf("listing the open issues of project %s", c.project))
		}
		if !startsWith(is.Description, marker) || is.Author == nil {
			continue
		}
		// The server filtered by author; a proxy or an old GitLab that
		// ignores the filter must not get a person's issue edited.
		ours, err := c.postedByUs(ctx, is.Author.ID)
		if err != nil {
			return nil, err
		}
		if ours {
			found = append(found, is)
		}
	}
	return found, nil
}

// closeIssue comments why, then closes the issue.
func (c *Client) closeIssue(ctx context.Context, iid int64, why string) error {
	if _, _, err := c.gl.Notes.CreateIssueNote(c.project, iid, &gl.CreateIssueNoteOptions{Body: &why}, gl.WithContext(ctx)); err != nil {
		return c.wrap(err, issuesWrite, issueName(iid), "commenting on drift "+issueName(iid))
	}
	if _, _, err := c.gl.Issues.UpdateIssue(c.project, iid, &gl.UpdateIssueOptions{StateEvent: gl.Ptr("close")}, gl.WithContext(ctx)); err != nil {
		return c.wrap(err, issuesWrite, issueName(iid), "closing drift "+issueName(iid))
	}
	return nil
}

func issueName(iid int64) string { return fmt.Sprintf("issue #%d", iid) }
