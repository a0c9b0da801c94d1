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

// UpsertPlanComment makes markdown the plan comment that marker identifies
// on pull request pr: it edits the comment that starts with marker in
// place, or creates it when there is none, so a pull request holds one
// plan comment per marker however often it is pushed to. marker is a
// hidden HTML comment on one line: the markdown plan's first line
// (reconcile.MarkdownMarker, one per space), which the caller owns, as
// it is part of the plan's markdown format that other tools may key on
// too. markdown gets the marker prepended if it does not start with it,
// and is cut with a note to fit GitHub's [MaxBodyChars]. It returns the
// comment's address and whether it is new.
func (c *Client) UpsertPlanComment(ctx context.Context, pr int, marker, markdown string) (url string, created bool, err error) {
	if pr <= 0 {
		return "", false, fmt.Errorf("no pull request to comment on (got number %d): plan comments are for pull_request events", pr)
	}
	if !strings.HasPrefix(marker, "<!--") || !strings.HasSuffix(marker, "-->") || strings.ContainsAny(marker, "\r\n") {
		return "", false, fmt.Errorf("the plan comment's marker %q is not a hidden HTML comment on one line", marker)
	}
	body := fitBody(withMarker(marker, markdown), "plan")

	existing, err := c.findComment(ctx, pr, marker)
	if err != nil {
		return "", false, err
	}
	if existing != nil {
		if existing.GetBody() == body {
			return existing.GetHTMLURL(), false, nil
		}
		got, _, err := c.gh.Issues.UpdateComment(ctx, c.owner, c.repo, existing.GetID(), gh.IssueCommentRequest{Body: body})
		if err != nil {
			return "", false, c.wrap(err, pullRequestsWrite, prName(pr), "updating the plan comment on "+prName(pr))
		}
		return got.GetHTMLURL(), false, nil
	}
	got, _, err := c.gh.Issues.CreateComment(ctx, c.owner, c.repo, pr, gh.IssueCommentRequest{Body: body})
	if err != nil {
		return "", false, c.wrap(err, pullRequestsWrite, prName(pr), "commenting the plan on "+prName(pr))
	}
	return got.GetHTMLURL(), true, nil
}

// findComment returns the oldest comment of pr that skillsync posted for
// marker, reading every page: on a busy pull request the plan comment is
// far from the end. A comment is skillsync's when it starts with marker
// (skillsync writes it first) and is by whom the client posts as: a
// reviewer quoting the marker must not have their comment overwritten.
func (c *Client) findComment(ctx context.Context, pr int, marker string) (*gh.IssueComment, error) {
	opts := &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}}
	for comment, err := range c.gh.Issues.ListCommentsIter(ctx, c.owner, c.repo, pr, opts) {
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

// fitBody cuts a body to GitHub's limit, saying so at the end.
func fitBody(body, what string) string {
	note := fmt.Sprintf("\n\n> [!WARNING]\n> This %s was cut to fit GitHub's limit of %d characters. Run skillsync locally or read the job's log for all of it.\n", what, MaxBodyChars)
	return mdcut.Cut(body, MaxBodyChars, note, mdcut.Runes)
}

func prName(n int) string { return fmt.Sprintf("pull request #%d", n) }
