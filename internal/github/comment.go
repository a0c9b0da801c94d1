package github

import (
	"context"
	"fmt"
	"strings"

	gh "github.com/google/go-github/v92/github"
	"github.com/skillsync/skillsync/internal/mdcut"
)

// MaxBodyChars is the longest comment or issue body GitHub accepts.
const MaxBodyChars = 65536

// A PlanComment is the plan comment of one space, for [Client.SyncPlanComment].
type PlanComment struct {
	// Marker identifies the comment: a hidden HTML comment on one line,
	// the markdown plan's first line (render.MarkdownMarker, one per
	// space), which the caller owns, as it is part of the plan's markdown
	// format that other tools may key on too.
	Marker string
	// Markdown is the body to post. It gets Marker prepended if it does
	// not start with it, and is cut with a note (linking the run, when
	// [Env.RunURL] is known) to fit GitHub's [MaxBodyChars].
	Markdown string
	// NoChanges says that the plan has nothing to review, and Markdown is
	// the few lines that say so (render.NoChangesMarkdown): they
	// replace an earlier plan's comment, so that no stale plan stays up,
	// but no comment is started for them. A plan with errors is never one
	// with no changes: its errors must be read.
	NoChanges bool
}

// What SyncPlanComment did.
const (
	CommentCreated   = "created"
	CommentUpdated   = "updated"
	CommentUnchanged = "unchanged" // the comment already said it
	CommentSkipped   = "skipped"   // no changes, and no comment to replace
)

// SyncPlanComment makes pc the plan comment that pc.Marker identifies on
// pull request pr: it edits the comment that starts with the marker in
// place, or creates it when there is none, so a pull request holds one
// plan comment per marker however often it is pushed to. A plan with
// pc.NoChanges creates no comment (tfcmt's skip-no-changes) and only
// replaces one that is there. It returns CommentCreated, CommentUpdated,
// CommentUnchanged or CommentSkipped, and the comment's address (none when
// skipped).
func (c *Client) SyncPlanComment(ctx context.Context, pr int, pc PlanComment) (action, url string, err error) {
	marker := pc.Marker
	body := c.fitBody(withMarker(marker, pc.Markdown), "plan")

	existing, err := c.findComment(ctx, pr, marker)
	if err != nil {
		return "", "", err
	}
	if existing != nil {
		if existing.GetBody() == body {
			return CommentUnchanged, existing.GetHTMLURL(), nil
		}
		got, _, err := c.gh.Issues.UpdateComment(ctx, c.owner, c.repo, existing.GetID(), gh.IssueCommentRequest{Body: body})
		if err != nil {
			return "", "", c.wrapEdit(err, pullRequestsWrite, prName(pr), "updating the plan comment on "+prName(pr),
				fmt.Sprintf("comment %d", existing.GetID()), existing.GetUser())
		}
		return CommentUpdated, got.GetHTMLURL(), nil
	}
	if pc.NoChanges {
		return CommentSkipped, "", nil
	}
	got, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, pr, gh.IssueCommentRequest{Body: body})
	if err != nil {
		return "", "", c.wrap(err, pullRequestsWrite, prName(pr), "commenting the plan on "+prName(pr))
	}
	return CommentCreated, got.GetHTMLURL(), nil
}

// findComment returns the oldest comment of pr that skillsync posted for
// marker, reading every page: on a busy pull request the plan comment is
// far from the end. A comment is skillsync's when it starts with marker
// (skillsync writes it first) and is by whom the client posts as: a
// reviewer quoting the marker must not have their comment overwritten.
func (c *Client) findComment(ctx context.Context, pr int, marker string) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	list := func() ([]*gh.IssueComment, *gh.Response, error) {
		return c.gh.Issues.ListComments(ctx, c.owner, c.repo, pr, opts)
	}
	for comment, err := range scan(c, &opts.ListOptions, list) {
		if err != nil {
			return nil, c.wrap(err, pullRequestsWrite, prName(pr), "listing the comments of "+prName(pr))
		}
		if !strings.HasPrefix(comment.GetBody(), marker) {
			continue
		}
		ours, err := c.postedByUs(ctx, comment.GetUser())
		if err != nil {
			return nil, err
		}
		if ours {
			return comment, nil
		}
	}
	return nil, nil
}

// withMarker puts marker on the first line of markdown unless it is there.
func withMarker(marker, markdown string) string {
	if strings.HasPrefix(markdown, marker) {
		return markdown
	}
	return marker + "\n" + markdown
}

// fitBody cuts a body to GitHub's limit, saying so at the end, and where
// to read all of it: the run's log and job summary.
func (c *Client) fitBody(body, what string) string {
	where := "Run skillsync locally or read the job's log for all of it."
	if c.runURL != "" {
		where = "All of it is in the log and job summary of [the run that made it](" + c.runURL + ")."
	}
	note := fmt.Sprintf("\n\n> [!WARNING]\n> This %s was cut to fit GitHub's limit of %d characters. %s\n", what, MaxBodyChars, where)
	return mdcut.Cut(body, MaxBodyChars, note, mdcut.Runes)
}

func prName(n int) string { return fmt.Sprintf("pull request #%d", n) }
