package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/reconcile/render"
)

// A reviewSink is where plan --comment and drift --issue post: a GitHub
// pull request and repository, or a GitLab merge request and project.
// [openReviewSink] chooses it, in one place; the rest of the commands
// post through it alone.
type reviewSink interface {
	// MarkdownOptions are those of the plans posted here: the host's size
	// limit and name, and the CI run whose log holds all of a cut plan.
	MarkdownOptions(title string) render.MarkdownOptions
	// SyncPlan keeps one plan comment per marker on the review: it edits
	// the one there, or starts one unless noChanges. It returns what it
	// did ("created", "updated", "unchanged" or "skipped") and the
	// comment's address.
	SyncPlan(ctx context.Context, marker, markdown string, noChanges bool) (action, url string, err error)
	// SyncDrift keeps one open issue per space and target while it drifts,
	// and closes it once in sync. It returns what it did ("opened",
	// "updated", "closed" or "none") and the issue's address.
	SyncDrift(ctx context.Context, space, target string, drift bool, markdown string) (action, url string, err error)
	// Review names what plans are commented on ("pull request #1", "merge
	// request !3"), Comment what the host calls a comment, and Request
	// what it calls a pull request.
	Review() string
	Comment() string
	Request() string
	// Propose and Withdraw open, update and close a pull (merge) request
	// of a branch of skillsync's ([forge.Proposal]).
	Propose(ctx context.Context, p forge.Proposal) (forge.Outcome, error)
	Withdraw(ctx context.Context, w forge.Withdrawal) (forge.Outcome, error)
}

// What the sinks did: packages github and gitlab say it in the same
// words.
const (
	planCreated   = github.CommentCreated // gitlab.NoteCreated
	planUpdated   = github.CommentUpdated
	planUnchanged = github.CommentUnchanged
	planSkipped   = github.CommentSkipped
	driftOpened   = github.DriftOpened // gitlab.DriftOpened
	driftUpdated  = github.DriftUpdated
	driftClosed   = github.DriftClosed
)

// errNoCI is why plan --comment or drift --issue has nowhere to post.
var errNoCI = withHint(errors.New("nowhere to post: this is neither a GitHub Actions job nor a GitLab CI job"),
	"run it in a GitHub Actions job (GITHUB_REPOSITORY and GITHUB_TOKEN), or pass --github-repo owner/name; "+
		"or in a GitLab CI job (GITLAB_CI) with GITLAB_TOKEN set to a project access token with the api scope and the Reporter role")

// openReviewSink chooses where plan --comment (kind "plan") or drift
// --issue (kind "drift") posts, and connects to it. GitHub when a GitHub
// flag says so (--github-repo) or under GitHub Actions; else GitLab under
// GitLab CI (GITLAB_CI=true); else GitHub when GITHUB_REPOSITORY or --pr
// names a repository or pull request, as outside Actions; else nowhere,
// which is an error that says what to set. The token of the host chosen
// is registered for redaction before any request.
func openReviewSink(ctx context.Context, e *env, g githubOptions, kind string) (reviewSink, error) {
	ui := e.ui
	comment := kind == "plan"
	gl := gitlab.ReadEnv(e.getenv)
	switch {
	case g.repo != "" || ui.github.Actions:
	case gl.CI:
		return openGitLab(ctx, e, gl, g, comment)
	case ui.github.Repository != "" || g.prGiven:
	default:
		return nil, errNoCI
	}
	env, pr, err := githubEnv(ui.github, g, comment)
	if err != nil {
		return nil, err
	}
	ui.secrets.Add(githubTokenVar(e.getenv), env.Token)
	gc, err := github.NewClient(ctx, env, nil)
	if err != nil {
		return nil, ciError(err)
	}
	return &githubSink{Client: gc, pr: pr, runURL: env.RunURL}, nil
}

// githubTokenVar names the variable that github.ReadEnv takes the token
// from.
func githubTokenVar(getenv func(string) string) string {
	if getenv("GITHUB_TOKEN") == "" {
		return "GH_TOKEN"
	}
	return "GITHUB_TOKEN"
}

// openGitLab is [openReviewSink] under GitLab CI: the merge request is
// --pr, else the pipeline's (CI_MERGE_REQUEST_IID).
func openGitLab(ctx context.Context, e *env, ge gitlab.Env, g githubOptions, comment bool) (reviewSink, error) {
	e.ui.secrets.Add("GITLAB_TOKEN", ge.Token)
	var mr int64
	if comment {
		if g.prGiven {
			mr = int64(g.pr)
		} else {
			var err error
			if mr, err = ge.MergeRequest(); err != nil {
				return nil, withHint(err, "pass the merge request with --pr N")
			}
		}
		if mr <= 0 {
			return nil, withHint(errors.New("no merge request to comment the plan on"),
				"run plan --comment in a merge request pipeline (rules: - if: $CI_PIPELINE_SOURCE == \"merge_request_event\"), or pass --pr N")
		}
	}
	var o gitlab.Options
	if e.instantRetries {
		o.RetryWait = func(int, *http.Response) time.Duration { return 0 }
	}
	c, err := gitlab.NewClient(ctx, ge, o)
	if err != nil {
		return nil, ciError(err)
	}
	return &gitlabSink{Client: c, mr: mr, runURL: ge.RunURL}, nil
}

// githubSink posts to a GitHub pull request and repository. Its
// client's Propose and Withdraw are the sink's.
type githubSink struct {
	*github.Client
	pr     int // 0 for drift --issue
	runURL string
}

func (s *githubSink) MarkdownOptions(title string) render.MarkdownOptions {
	return render.MarkdownOptions{Title: title, RunURL: s.runURL}
}

func (s *githubSink) SyncPlan(ctx context.Context, marker, md string, noChanges bool) (string, string, error) {
	action, url, err := s.SyncPlanComment(ctx, s.pr, github.PlanComment{Marker: marker, Markdown: md, NoChanges: noChanges})
	return action, url, ciError(err)
}

func (s *githubSink) SyncDrift(ctx context.Context, space, target string, drift bool, md string) (string, string, error) {
	action, url, err := s.SyncDriftIssue(ctx, space, target, drift, md)
	return action, url, ciError(err)
}

func (s *githubSink) Review() string  { return fmt.Sprintf("pull request #%d", s.pr) }
func (s *githubSink) Comment() string { return "comment" }
func (s *githubSink) Request() string { return "pull request" }

// gitlabSink posts to a GitLab merge request and project. Its client's
// Propose and Withdraw are the sink's.
type gitlabSink struct {
	*gitlab.Client
	mr     int64 // 0 for drift --issue
	runURL string
}

func (s *gitlabSink) MarkdownOptions(title string) render.MarkdownOptions {
	return render.MarkdownOptions{Title: title, Host: "GitLab", MaxLen: gitlab.MaxNoteChars, RunURL: s.runURL}
}

func (s *gitlabSink) SyncPlan(ctx context.Context, marker, md string, noChanges bool) (string, string, error) {
	action, url, err := s.SyncPlanNote(ctx, s.mr, gitlab.PlanNote{Marker: marker, Markdown: md, NoChanges: noChanges})
	return action, url, ciError(err)
}

// SyncDrift keeps the issue under the marker GitHub's has, so that the
// two hosts never disagree on what a space's or a target's issue is.
func (s *gitlabSink) SyncDrift(ctx context.Context, space, target string, drift bool, md string) (string, string, error) {
	where := render.Where(space, target)
	action, url, err := s.SyncDriftIssue(ctx, gitlab.DriftIssue{
		Marker:   github.DriftMarker(space, target),
		Title:    "skillsync: drift in " + where,
		Drift:    drift,
		Markdown: md,
		InSync:   strings.ToUpper(where[:1]) + where[1:] + " is back in sync with git.",
	})
	return action, url, ciError(err)
}

func (s *gitlabSink) Review() string  { return fmt.Sprintf("merge request !%d", s.mr) }
func (s *gitlabSink) Comment() string { return "note" }
func (s *gitlabSink) Request() string { return "merge request" }

// githubEnv is the GitHub Actions environment gh with the flags' values
// over it, and for plan --comment the pull request to comment on: --pr,
// else the run's, read from the event payload only then.
func githubEnv(gh github.Env, g githubOptions, comment bool) (env github.Env, pr int, err error) {
	env = gh
	if g.repo != "" {
		env.Repository = g.repo
	} else if err := env.CheckRepository(); err != nil {
		return env, 0, withHint(err, "pass the repository with --github-repo owner/name")
	}
	if !comment {
		return env, 0, nil
	}
	if g.prGiven {
		pr = g.pr
	} else if pr, err = env.PullRequest(); err != nil {
		return env, 0, withHint(err, "pass the pull request with --pr N")
	}
	if pr <= 0 {
		return env, 0, withHint(errors.New("no pull request to comment the plan on"),
			"run plan --comment on pull_request events, or pass --pr N")
	}
	return env, pr, nil
}

// propose opens or updates the pull (merge) request of p through sink, and
// says what became of it: kind names the request and whom it is for
// ("opened a drift merge request for target prod (space pr01)"). A base
// branch that holds every change already is forge.ErrNothingToPropose.
func propose(ctx context.Context, ui *ui, sink reviewSink, p forge.Proposal, kind, whom string) (forge.Outcome, error) {
	out, err := sink.Propose(ctx, p)
	switch {
	case errors.Is(err, forge.ErrNothingToPropose):
		return out, err
	case err != nil:
		return out, ciError(err)
	case out.Action == forge.ProposalOpened:
		ui.infof("opened a %s for %s: %s", kind, whom, out.URL)
	case out.Action == forge.ProposalUpdated:
		ui.infof("updated the %s of %s: %s", kind, whom, out.URL)
	default:
		ui.infof("the %s of %s already says it: %s", kind, whom, out.URL)
	}
	return out, nil
}

// ciError splits the hint of a GitHub or GitLab error (a refusal to
// connect, the host's answer, or no answer) from its message, so that it
// prints on its own hint line.
func ciError(err error) error {
	var fe *forge.Error
	if errors.As(err, &fe) && fe.Hint != "" {
		msg := *fe
		msg.Hint = ""
		return withHint(fmt.Errorf("%s", msg.Error()), "%s", fe.Hint)
	}
	return err
}
