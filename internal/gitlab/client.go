package gitlab

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	gl "gitlab.com/gitlab-org/api/client-go"

	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// MaxResponseBytes is the most read of one answer of GitLab's: a page of
// 100 notes, each up to 1,000,000 characters, is far less in practice,
// and a larger answer is not one worth holding in memory.
const MaxResponseBytes = 64 << 20

// MaxPages is the most pages (of 100 items) read of one list: 10,000
// notes of a merge request, or open issues of the token's, is far past
// any real one, and a server that keeps announcing a next page must not
// keep the job reading for ever.
const MaxPages = 100

// maxRetries is how many times a request is sent again after a 429, or a
// read after a 5xx or a connection that could not be made.
const maxRetries = 3

// Options tune a [Client]; the zero value is what a CI job wants.
type Options struct {
	// HTTPClient sends the requests; nil for one with a 30-second
	// timeout. It is copied, never changed.
	HTTPClient *http.Client
	// RetryWait says how long to wait before retry n (from 0) of a request
	// GitLab answered with resp (nil when it did not answer); nil for
	// 1, 2, then 4 seconds, or after a 429 what GitLab's Retry-After or
	// RateLimit-Reset header says, never more than [MaxRetryWait]. Tests
	// return 0, to never wait.
	RetryWait func(n int, resp *http.Response) time.Duration
}

// Client posts to one project through GitLab's REST API, with
// gitlab.com/gitlab-org/api/client-go. It is not safe for concurrent use.
type Client struct {
	gl         *gl.Client
	project    string           // id or path, as the API takes it
	projectURL string           // the project's web page, for the address of a note
	api        forge.API        // for the hints of errors
	runURL     string           // Env.RunURL, linked from a body cut to fit
	redactor   *redact.Redactor // of the token, to scrub it from error messages
	maxPages   int              // the most pages of a list read: MaxPages

	// self is whom the token posts as, learnt on first need: see
	// [Client.whoami].
	self *gl.User
}

// NewClient returns a client for env.Project authenticated with
// env.Token (sent in GitLab's PRIVATE-TOKEN header). ctx is accepted for
// symmetry with the other calls of this package: making a client does no
// I/O.
func NewClient(ctx context.Context, env Env, o Options) (*Client, error) {
	return newClient(ctx, env, o, MaxResponseBytes)
}

func newClient(_ context.Context, env Env, o Options, maxBody int64) (*Client, error) {
	const op = "connecting to GitLab"
	if env.Token == "" {
		return nil, &Error{Host: host, Op: op, Message: "no GitLab token",
			Hint: "set GITLAB_TOKEN (a masked CI/CD variable) to a project or group access token with the api scope and the Reporter role or higher; CI_JOB_TOKEN cannot write notes or issues"}
	}
	if env.Project == "" {
		return nil, &Error{Host: host, Op: op, Message: "no GitLab project",
			Hint: "run in a GitLab CI job (CI_PROJECT_ID), or name the project's id or path"}
	}
	if err := env.CheckProject(); err != nil {
		return nil, &Error{Host: host, Op: op, Message: err.Error(), Hint: "set CI_PROJECT_ID to the project's id, or CI_PROJECT_PATH to its path"}
	}
	api := forge.API{Host: host, Env: "CI_API_V4_URL", TokenEnv: "GITLAB_TOKEN", Example: DefaultAPIURL + ", or https://HOST/api/v4 on a self-managed instance", Root: cmp.Or(env.APIURL, DefaultAPIURL)}
	u, err := api.Check()
	if err != nil {
		return nil, err
	}

	hc := http.Client{Timeout: 30 * time.Second}
	if o.HTTPClient != nil {
		hc = *o.HTTPClient
	}
	// The token goes in a PRIVATE-TOKEN header, which net/http keeps on a
	// redirect to any host (it drops only Authorization and cookies): a
	// redirect to another origin must never be followed.
	origin.Guard(&hc, u, "GitLab's API", "the GitLab token")
	// client-go reads bodies whole, error bodies included.
	hc.Transport = forge.Bound(hc.Transport, host, maxBody)

	opts := []gl.ClientOptionFunc{
		gl.WithBaseURL(api.Root),
		gl.WithHTTPClient(&hc),
		gl.WithUserAgent("skillsync"),
		gl.WithCustomRetry(checkRetry),
		gl.WithCustomRetryMax(maxRetries),
		gl.WithURLWarningLogger(slog.New(slog.DiscardHandler)),
	}
	wait := o.RetryWait
	if wait == nil {
		wait = defaultRetryWait
	}
	opts = append(opts, gl.WithCustomBackoff(func(_, _ time.Duration, n int, resp *http.Response) time.Duration {
		return wait(n, resp)
	}))
	c, err := gl.NewClient(env.Token, opts...)
	if err != nil {
		return nil, fmt.Errorf("making the GitLab client: %w", err)
	}
	return &Client{gl: c, project: env.Project, projectURL: env.ProjectURL, api: api, runURL: env.RunURL, redactor: redact.New(env.Token), maxPages: MaxPages}, nil
}

// MaxRetryWait is the longest wait before a retry: client-go's own waits
// until GitLab's RateLimit-Reset, however far off, so that a proxy that
// says an hour would hold the job for an hour.
const MaxRetryWait = time.Minute

// defaultRetryWait waits 1, 2, then 4 seconds before retry n, or after a
// 429 what Retry-After (seconds) or RateLimit-Reset (a Unix time) says,
// never more than MaxRetryWait.
func defaultRetryWait(n int, resp *http.Response) time.Duration {
	wait := time.Second << min(n, 6)
	if resp != nil && resp.StatusCode == http.StatusTooManyRequests {
		if s, err := strconv.ParseInt(resp.Header.Get("Retry-After"), 10, 64); (err == nil || errors.Is(err, strconv.ErrRange)) && s > 0 {
			wait = time.Duration(min(s, int64(MaxRetryWait/time.Second))) * time.Second
		} else if reset, err := strconv.ParseInt(resp.Header.Get("RateLimit-Reset"), 10, 64); err == nil {
			if d := time.Until(time.Unix(reset, 0)); d > wait {
				wait = d
			}
		}
	}
	return min(wait, MaxRetryWait)
}

// checkRetry says which failures are worth another try: a 429, which
// GitLab did not act on; and for a read only (sending a note or an issue
// again could post it twice), a 5xx other than 501, or a connection that
// could not be made, before anything was sent.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		var op *net.OpError
		return errors.As(err, &op) && op.Op == "dial", nil
	}
	switch {
	case resp.StatusCode == http.StatusTooManyRequests:
		return true, nil
	case resp.StatusCode >= 500 && resp.StatusCode != http.StatusNotImplemented:
		return resp.Request != nil && resp.Request.Method == http.MethodGet, nil
	}
	return false, nil
}

// scan reads every item of a list, page by page, through client-go's
// Scan2, refusing to read more than c.maxPages pages.
func scan[T any](c *Client, list func(p gl.PaginationOptionFunc) ([]T, *gl.Response, error)) iter.Seq2[T, error] {
	pages := 0
	return gl.Scan2(func(p gl.PaginationOptionFunc) ([]T, *gl.Response, error) {
		if pages >= c.maxPages {
			return nil, nil, &forge.TooManyPagesError{Host: host, Max: c.maxPages}
		}
		pages++
		return list(p)
	})
}

// Error is an answer from GitLab that a caller may branch on (Status) and a
// person can act on (Hint).
type Error = forge.Error

// host names GitLab in its errors.
const host = "GitLab"

// What a write is for, to say in a 403's hint what the token may not do.
type access string

const (
	notesWrite         access = "comment on merge requests"
	issuesWrite        access = "open, edit and close issues"
	mergeRequestsWrite access = "open, edit and close merge requests"
	pushWrite          access = "read and push branches"
)

// maxMessageChars is the most of GitLab's explanation an error repeats.
const maxMessageChars = 1000

// wrap turns what client-go returned into an *Error whose message says
// what to do, with the token scrubbed out of anything GitLab echoed back.
// acc is what the call needs the token to be allowed; subject names the
// merge request or issue it is about ("merge request !7"), empty for the
// project itself.
func (c *Client) wrap(err error, acc access, subject, op string) error {
	if err == nil {
		return nil
	}
	e := &Error{Host: host, Op: op, Err: err}
	var resp *gl.ErrorResponse
	switch {
	case c.api.Misdirected(e, err):
	case errors.Is(err, gl.ErrNotFound):
		e.Status = http.StatusNotFound
		e.Hint = c.notFoundHint(acc, subject)
	case errors.As(err, &resp):
		e.Status = forge.StatusOf(resp.Response)
		e.Message = errorMessage(resp)
		switch {
		case e.Status == http.StatusUnauthorized:
			e.Hint = "the GitLab token is invalid, expired or revoked: set GITLAB_TOKEN to a valid project or group access token with the api scope"
		case e.Status == http.StatusForbidden && strings.Contains(string(resp.Body), "insufficient_scope"):
			e.Hint = "the GitLab token lacks the api scope (read_api is not enough to post): create the access token with the api scope and put it in GITLAB_TOKEN"
		case e.Status == http.StatusForbidden && acc == "":
			e.Hint = "the GitLab token may not read whom it belongs to: set GITLAB_TOKEN to a project or group access token with the api scope (CI_JOB_TOKEN cannot post)"
		case e.Status == http.StatusForbidden:
			role := "Reporter"
			if acc == mergeRequestsWrite || acc == pushWrite {
				role = "Developer"
			}
			e.Hint = fmt.Sprintf("the GitLab token may not %s in project %s: give the access token the %s role or higher", acc, c.project, role)
			if acc == notesWrite {
				e.Hint += " (a locked merge request takes no notes)"
			}
		case e.Status == http.StatusNotFound:
			e.Hint = c.notFoundHint(acc, subject)
		case e.Status == http.StatusTooManyRequests:
			e.Hint = "GitLab's rate limit is used up; run the job again in a few minutes"
		case e.Status >= 500:
			e.Hint = "GitLab failed to answer; run the job again later"
		}
	default:
		e.Message = err.Error()
		if !errors.Is(err, context.Canceled) {
			e.Hint = fmt.Sprintf("GitLab's API at %s did not answer: check the network, and CI_API_V4_URL on a self-managed instance", c.api.Root)
		}
	}
	// GitLab's message, as any server's, may echo the token in any
	// spelling (see redact.Redactor).
	e.Message = c.redactor.Redact(e.Message)
	return e
}

func (c *Client) notFoundHint(acc access, subject string) string {
	h := fmt.Sprintf("check the project (%s, from CI_PROJECT_ID) and that the token can see it", c.project)
	if subject != "" {
		h = fmt.Sprintf("check the project (%s, from CI_PROJECT_ID) and that %s exists in it", c.project, subject)
	}
	if acc == issuesWrite {
		h += ", with issues turned on in its settings"
	}
	return h + " (GitLab answers 404 to a token that cannot see the project too)"
}

// errorMessage is GitLab's explanation in an error's body: its "message"
// (a string, or the problems of each field), else its "error" and
// "error_description" (OAuth's form, which a scope error takes), cut to
// maxMessageChars.
func errorMessage(resp *gl.ErrorResponse) string {
	var body struct {
		Message     json.RawMessage `json:"message"`
		Error       string          `json:"error"`
		Description string          `json:"error_description"`
	}
	msg := ""
	if json.Unmarshal(resp.Body, &body) == nil {
		var s string
		var fields map[string][]string
		switch {
		case json.Unmarshal(body.Message, &s) == nil && s != "":
			msg = s
		case json.Unmarshal(body.Message, &fields) == nil && len(fields) > 0:
			var parts []string
			for _, k := range slices.Sorted(maps.Keys(fields)) {
				parts = append(parts, k+" "+strings.Join(fields[k], ", "))
			}
			msg = strings.Join(parts, "; ")
		case body.Error != "":
			msg = body.Error
			if body.Description != "" {
				msg += ": " + strings.TrimSuffix(body.Description, ".")
			}
		}
	}
	msg = cmp.Or(msg, strings.TrimSpace(string(resp.Body)))
	if utf8.RuneCountInString(msg) > maxMessageChars {
		msg = string([]rune(msg)[:maxMessageChars]) + "…"
	}
	return msg
}

// postedByUs reports whether authorID, of a note or issue, is whom the
// token posts as, so that a marker quoted by someone else is never taken
// for skillsync's.
func (c *Client) postedByUs(ctx context.Context, authorID int64) (bool, error) {
	me, err := c.whoami(ctx)
	if err != nil {
		return false, err
	}
	return authorID == me.ID, nil
}

// whoami is the user the token posts as (GET /user; for a project or
// group access token, the token's bot user), asked once.
func (c *Client) whoami(ctx context.Context) (*gl.User, error) {
	if c.self == nil {
		me, _, err := c.gl.Users.CurrentUser(gl.WithContext(ctx))
		if err != nil {
			return nil, c.wrap(err, "", "", "finding whom the GitLab token belongs to")
		}
		c.self = me
	}
	return c.self, nil
}
