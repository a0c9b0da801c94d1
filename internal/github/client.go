package github

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"time"

	gh "github.com/google/go-github/v92/github"
	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// MaxResponseBytes is the most read of one answer of GitHub's: a page of
// 100 comments or issues, each up to 65,536 characters, is far less, and
// a larger answer is not one worth holding in memory.
const MaxResponseBytes = 64 << 20

// MaxPages is the most pages (of 100 items) read of one list: 10,000
// comments of a pull request, or open issues of a repository, is far past
// any real one, and a server that keeps announcing a next page must not
// keep the job reading for ever.
const MaxPages = 100

// Client posts to one repository through GitHub's REST API. It is not
// safe for concurrent use.
type Client struct {
	gh       *gh.Client
	owner    string
	repo     string
	api      forge.API        // for the hints of errors
	redactor *redact.Redactor // of the token, to scrub it from error messages
	runURL   string           // Env.RunURL, linked from a body cut to fit
	maxPages int              // the most pages of a list read: MaxPages

	// self is the login of the user the token is a user's, "" for an app
	// installation's token (GITHUB_TOKEN), whose posts are by a bot user;
	// nil until first needed: see [Client.postedByUs].
	self *string
}

// NewClient returns a client for env.Repository authenticated with
// env.Token. httpClient may be nil for a client with a 30-second timeout;
// it is copied, never changed. ctx is accepted for symmetry with the other
// calls of this package: making a client does no I/O.
func NewClient(ctx context.Context, env Env, httpClient *http.Client) (*Client, error) {
	return newClient(ctx, env, httpClient, MaxResponseBytes, MaxPages)
}

func newClient(_ context.Context, env Env, httpClient *http.Client, maxBody int64, maxPages int) (*Client, error) {
	const op = "connecting to GitHub"
	if env.Token == "" {
		return nil, &Error{Host: host, Op: op, Message: "no GitHub token",
			Hint: "set GITHUB_TOKEN; in a workflow pass it in the step's env: (GITHUB_TOKEN: ${{ github.token }}), and give the job the permissions it needs"}
	}
	owner, repo, ok := strings.Cut(env.Repository, "/")
	if !ok || !repositoryRE.MatchString(env.Repository) {
		return nil, &Error{Host: host, Op: op, Message: fmt.Sprintf("GitHub repository %q is not of the form owner/name", env.Repository),
			Hint: "set GITHUB_REPOSITORY to owner/name"}
	}
	api := forge.API{Host: host, Env: "GITHUB_API_URL", TokenEnv: "GITHUB_TOKEN", Example: DefaultAPIURL + ", or https://HOST/api/v3 on GitHub Enterprise Server", Root: cmp.Or(env.APIURL, DefaultAPIURL)}
	u, err := api.Check()
	if err != nil {
		return nil, err
	}
	hc := http.Client{Timeout: 30 * time.Second}
	if httpClient != nil {
		hc = *httpClient
	}
	// go-github's transport sets the Authorization header on every request
	// it sends, a redirected one included: net/http's dropping of it on a
	// redirect to another host never comes into play.
	origin.Guard(&hc, u, "GitHub's API", "the GitHub token")
	// go-github reads bodies whole, error bodies included. The guard
	// above is the client's redirect policy, which sees every hop before
	// it is sent, so it holds whatever the transport is.
	hc.Transport = forge.Bound(hc.Transport, host, maxBody)
	c, err := gh.NewClient(
		gh.WithHTTPClient(&hc),
		gh.WithAuthToken(env.Token),
		gh.WithURLs(&api.Root, nil),
		gh.WithUserAgent("skillsync"),
	)
	if err != nil {
		return nil, fmt.Errorf("making the GitHub client: %w", err)
	}
	return &Client{gh: c, owner: owner, repo: repo, api: api, redactor: redact.New(env.Token), runURL: env.RunURL, maxPages: maxPages}, nil
}

// Error is an answer from GitHub that a caller may branch on (Status) and a
// person can act on (Hint).
type Error = forge.Error

// host names GitHub in its errors.
const host = "GitHub"

// permission is the workflow permission a write needs, named as in a
// workflow's permissions: block.
type permission string

const (
	pullRequestsWrite permission = "pull-requests: write"
	issuesWrite       permission = "issues: write"
	// proposalWrite is what a proposal needs: pushing a branch, and
	// opening a pull request from it.
	proposalWrite permission = "contents: write, pull-requests: write"
)

// wrap turns what go-github returned into an *Error whose message says what
// to do, with the token scrubbed out of anything GitHub echoed back. perm is
// the permission the call needs; subject names the issue or pull request it
// is about ("pull request #7"), empty for the repository itself.
func (c *Client) wrap(err error, perm permission, subject, op string) error {
	if err == nil {
		return nil
	}
	e := &Error{Host: host, Op: op, Err: err}
	var (
		rate  *gh.RateLimitError
		abuse *gh.AbuseRateLimitError
		resp  *gh.ErrorResponse
	)
	switch {
	case c.api.Misdirected(e, err):
	case errors.As(err, &rate):
		e.Status = forge.StatusOf(rate.Response)
		e.Message = rate.Message
		e.Hint = fmt.Sprintf("GitHub's API rate limit is used up until %s; run the job again later", rate.Rate.Reset.Time.UTC().Format(time.RFC3339))
	case errors.As(err, &abuse):
		e.Status = forge.StatusOf(abuse.Response)
		e.Message = abuse.Message
		e.Hint = "GitHub's secondary rate limit was hit; run the job again in a few minutes"
	case errors.As(err, &resp):
		e.Status = forge.StatusOf(resp.Response)
		e.Message = strings.TrimSuffix(resp.Message, ".")
		for _, d := range resp.Errors {
			switch {
			case d.Message != "":
				e.Message += "; " + d.Message
			case d.Field != "":
				e.Message += fmt.Sprintf("; %s %s", d.Field, d.Code)
			}
		}
		switch e.Status {
		case http.StatusUnauthorized:
			e.Hint = "the GitHub token is invalid or expired: pass a valid one in GITHUB_TOKEN"
		case http.StatusForbidden:
			if strings.Contains(strings.ToLower(e.Message), "locked") {
				e.Hint = "the conversation is locked: unlock it, or turn the comment off"
				break
			}
			if strings.Contains(e.Message, "not permitted to create or approve pull requests") {
				e.Hint = "turn on \"Allow GitHub Actions to create and approve pull requests\" in the repository's Settings > Actions > General > Workflow permissions " +
					"(an organization's or enterprise's setting may hold it off), or open pull requests with a GitHub App's token"
				break
			}
			if perm == proposalWrite {
				e.Hint = "the workflow's GITHUB_TOKEN lacks the contents: write or the pull-requests: write permission: add `permissions: { contents: write, pull-requests: write }` to the job " +
					"(a token of another kind needs write access to the repository's contents and pull requests)"
				break
			}
			e.Hint = fmt.Sprintf("the workflow's GITHUB_TOKEN lacks the %q permission: add `permissions: { %s }` to the job", perm, perm)
			if perm == pullRequestsWrite {
				e.Hint += " (a pull request from a fork gets a read-only token whatever the workflow asks)"
			}
		case http.StatusNotFound:
			if subject != "" {
				e.Hint = fmt.Sprintf("check the repository (%s/%s, from GITHUB_REPOSITORY) and that %s exists in it", c.owner, c.repo, subject)
			} else {
				e.Hint = fmt.Sprintf("check the repository (%s/%s, from GITHUB_REPOSITORY) and that the token can see it", c.owner, c.repo)
			}
		case http.StatusGone:
			e.Hint = fmt.Sprintf("issues are turned off in %s/%s; turn them on in the repository's settings", c.owner, c.repo)
		}
	default:
		e.Message = err.Error()
		if !errors.Is(err, context.Canceled) {
			e.Hint = fmt.Sprintf("GitHub's API at %s did not answer: check the network, and GITHUB_API_URL on GitHub Enterprise Server", c.api.Root)
		}
	}
	// GitHub's message, as any server's, may echo the token in any
	// spelling (see redact.Redactor).
	e.Message = c.redactor.Redact(e.Message)
	return e
}

// scan reads every item of a list, page by page, as go-github's *Iter
// methods do, but no more than c.maxPages pages: list reads the page that
// lo says, and lo.Page is moved on to the next one GitHub announces.
func scan[T any](c *Client, lo *gh.ListOptions, list func() ([]T, *gh.Response, error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		for pages := 0; ; pages++ {
			if pages >= c.maxPages {
				yield(zero, &forge.TooManyPagesError{Host: host, Max: c.maxPages})
				return
			}
			items, resp, err := list()
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if resp.NextPage == 0 {
				return
			}
			lo.Page = resp.NextPage
		}
	}
}

// actionsBot is the user that posts for the workflow's GITHUB_TOKEN.
const actionsBot = "github-actions[bot]"

// postedByUs reports whether u, the author of a comment or issue, is who
// this client posts as, so that a marker quoted by someone else is never
// taken for skillsync's. With a user's token that is the user GET /user
// names. An app installation's token cannot read /user: GITHUB_TOKEN's
// posts are by github-actions[bot], and no other bot's are taken for it.
func (c *Client) postedByUs(ctx context.Context, u *gh.User) (bool, error) {
	if c.self == nil {
		me, _, err := c.gh.Users.Get(ctx, "")
		var resp *gh.ErrorResponse
		switch {
		case err == nil:
			c.self = new(me.GetLogin())
		case errors.As(err, &resp) && (forge.StatusOf(resp.Response) == http.StatusForbidden || forge.StatusOf(resp.Response) == http.StatusNotFound):
			c.self = new("")
		default:
			return false, c.wrap(err, "", "", "finding whom the GitHub token belongs to")
		}
	}
	return strings.EqualFold(u.GetLogin(), cmp.Or(*c.self, actionsBot)), nil
}

// wrapEdit is wrap for an edit of what ("comment 5", "issue #3"), by
// author, that skillsync took for its own without knowing whom the token
// posts as (GET /user refused). A token of another app than GITHUB_TOKEN
// posts as that app's bot, and GitHub refuses it (403) an edit of
// github-actions[bot]'s posts: the hint says so first.
func (c *Client) wrapEdit(err error, perm permission, subject, op, what string, author *gh.User) error {
	wrapped := c.wrap(err, perm, subject, op)
	var e *Error
	if c.self == nil || *c.self != "" || !errors.As(wrapped, &e) || e.Status != http.StatusForbidden ||
		strings.Contains(strings.ToLower(e.Message), "locked") {
		return wrapped
	}
	e.Hint = fmt.Sprintf("%s is not skillsync's if this job's token is another app's than the workflow's GITHUB_TOKEN: "+
		"skillsync takes what %s posts for its own when the token cannot read GET /user; delete %s, or its first line, "+
		"and skillsync posts its own, or post with GITHUB_TOKEN; with GITHUB_TOKEN, add `permissions: { %s }` to the job",
		what, author.GetLogin(), what, perm)
	return e
}
