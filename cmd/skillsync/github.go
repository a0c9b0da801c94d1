package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/spec"
)

// githubOptions say what plan --comment and drift --issue post, and
// where: the flags over the GitHub Actions environment.
type githubOptions struct {
	comment bool   // plan --comment
	issue   bool   // drift --issue
	repo    string // --github-repo; "" for GITHUB_REPOSITORY
	pr      int    // --pr, when prGiven
	prGiven bool
}

// writeAnnotations prints diagnostics as workflow annotations under GitHub
// Actions. They go to stderr, which the runner reads for workflow commands as
// it does stdout, so that stdout keeps only what --format asked for.
func writeAnnotations(ui *ui, diags fsrepo.Diagnostics) {
	if ui.github.Actions {
		github.WriteAnnotations(ui.stderr, diagnosticAnnotations(diags))
	}
}

// diagnosticAnnotations are the annotations of diags on their files and
// lines, titled with their codes, the hint under the message.
func diagnosticAnnotations(diags fsrepo.Diagnostics) []github.Annotation {
	out := make([]github.Annotation, 0, len(diags))
	for _, d := range diags {
		a := github.Annotation{Level: d.Severity.String(), File: d.Path, Line: d.Line, Col: d.Col, Message: d.Message}
		if d.Code != "" {
			a.Title = "skillsync " + d.Code
		}
		if d.Hint != "" {
			a.Message += "\nhint: " + d.Hint
		}
		out = append(out, a)
	}
	return out
}

// publishPlan does, after a plan or drift has been printed, what CI wants
// of it besides stdout: under GitHub Actions, the markdown in the job
// summary and annotations on the files of the plan's problems; and, when
// asked, the pull-request comment (kind "plan") or the drift issue (kind
// "drift"). A failure to write the summary is a warning; a failure to
// comment or file the issue is the returned error, so the job fails where
// reviewers would otherwise miss the plan.
func publishPlan(ctx context.Context, ui *ui, g githubOptions, p *reconcile.Plan, kind string) error {
	comment := kind == "plan" && g.comment
	issue := kind == "drift" && g.issue
	actions := ui.github.Actions
	if !actions && !comment && !issue {
		return nil
	}
	var md bytes.Buffer
	if err := reconcile.RenderMarkdown(&md, p, reconcile.MarkdownOptions{Title: "skillsync " + kind}); err != nil {
		return err
	}
	// The plan holds the repository's text, which may hold the token by
	// mistake; nothing leaves this process unredacted.
	doc := ui.redact(md.String())
	if actions {
		writePlanAnnotations(ui.stderr, p)
		if path := ui.github.StepSummary; path != "" {
			if err := github.AppendStepSummary(path, doc); err != nil {
				ui.warningf("writing the job summary: %v", err)
			}
		}
	}
	if !comment && !issue {
		return nil
	}
	env, pr, err := githubEnv(ui.github, g)
	if err != nil {
		return err
	}
	ui.addSecret(env.Token)
	gc, err := github.NewClient(ctx, env, nil)
	if err != nil {
		return githubError(err)
	}
	if comment {
		// A plan with nothing to review starts no comment, and turns an
		// earlier plan's into a few lines saying so (tfcmt's
		// skip-no-changes): no stale plan stays up.
		pc := github.PlanComment{Marker: reconcile.MarkdownMarker(p.Space, p.Target), Markdown: doc}
		if reconcile.NothingToReview(p) {
			var short bytes.Buffer
			if err := reconcile.RenderNoChangesMarkdown(&short, p, reconcile.MarkdownOptions{Title: "skillsync " + kind}); err != nil {
				return err
			}
			pc.Markdown, pc.NoChanges = ui.redact(short.String()), true
		}
		action, url, err := gc.SyncPlanComment(ctx, pr, pc)
		if err != nil {
			return githubError(err)
		}
		where := reconcile.Where(p.Space, p.Target)
		switch action {
		case github.CommentCreated:
			ui.infof("commented the plan on pull request #%d: %s", pr, url)
		case github.CommentUpdated, github.CommentUnchanged:
			ui.infof("updated the plan comment on pull request #%d: %s", pr, url)
		case github.CommentSkipped:
			ui.infof("no changes in %s: no plan comment posted on pull request #%d", where, pr)
		}
		return nil
	}
	// The issue is open while the space drifts, and closed once drift's
	// verdict is "in sync"; a plan with errors and no drift cannot say the
	// space is in sync, so it leaves an open issue alone.
	drifts := p.HasDrift()
	if !drifts && p.Drift().Status != reconcile.DriftNone {
		ui.warningf("the drift issue was left as it is: the plan has errors, so whether %s is in sync is unknown", reconcile.Where(p.Space, p.Target))
		return nil
	}
	action, url, err := gc.SyncDriftIssue(ctx, p.Space, p.Target, drifts, doc)
	if err != nil {
		return githubError(err)
	}
	where := reconcile.Where(p.Space, p.Target)
	switch action {
	case github.DriftOpened:
		ui.infof("opened a drift issue for %s: %s", where, url)
	case github.DriftUpdated:
		ui.infof("updated the drift issue of %s: %s", where, url)
	case github.DriftClosed:
		ui.infof("closed the drift issue of %s, back in sync: %s", where, url)
	}
	return nil
}

// publishPlans is [publishPlan] of the plan of each run, or, for a target
// that could not be planned, [publishFailureOf] its error: one comment and
// one issue per target. The first failure to post is returned, and the
// others are said.
func publishPlans(ctx context.Context, e *env, g githubOptions, runs []*planRun, kind string) error {
	var first error
	for _, r := range runs {
		var err error
		if r.err != nil {
			publishFailureOf(ctx, e, g, kind, r.target, r.err)
		} else {
			err = publishPlan(ctx, e.ui, g, r.plan, kind)
		}
		if first == nil {
			first = err
		} else {
			reportAlso(e.ui, err)
		}
	}
	return first
}

// publishFailure, when plan or drift could not make a plan, says so where
// the plan would have gone: the job summary under GitHub Actions and, for
// plan --comment, the pull request's plan comment, which would otherwise
// keep showing the plan of an earlier push as if it still held; for each
// target selected. It needs the space (from flags, environment or
// skillsync.yaml); what it cannot post is a warning, never the error the
// command exits with.
func publishFailure(ctx context.Context, e *env, o planningOptions, g githubOptions, kind string, failure error) {
	ui := e.ui
	comment := kind == "plan" && g.comment
	actions := ui.github.Actions
	if (!comment && !actions) || errors.Is(failure, context.Canceled) {
		return
	}
	ts := failureTargets(o)
	if len(ts) == 0 {
		if comment {
			ui.warningf("the plan comment was not updated: the space is not known")
		}
		return
	}
	for _, t := range ts {
		publishFailureOf(ctx, e, g, kind, t, failure)
	}
}

// publishFailureOf is [publishFailure] for target t.
func publishFailureOf(ctx context.Context, e *env, g githubOptions, kind string, t targetSettings, failure error) {
	ui := e.ui
	comment := kind == "plan" && g.comment
	actions := ui.github.Actions
	if (!comment && !actions) || errors.Is(failure, context.Canceled) {
		return
	}
	var lines []string
	var invalid *invalidRepoError
	if errors.As(failure, &invalid) {
		lines = invalid.errorLines()
	}
	var md bytes.Buffer
	if err := reconcile.RenderFailureMarkdown(&md, t.Space, t.Name, failure.Error(), hintFor(failure), lines, reconcile.MarkdownOptions{Title: "skillsync " + kind}); err != nil {
		ui.warningf("writing the failure report: %v", err)
		return
	}
	// The error and the validation errors may quote the token; the report
	// is redacted whole, after rendering, whatever the renderer escaped.
	doc := ui.redact(md.String())
	if path := ui.github.StepSummary; actions && path != "" {
		if err := github.AppendStepSummary(path, doc); err != nil {
			ui.warningf("writing the job summary: %v", err)
		}
	}
	if !comment {
		return
	}
	env, pr, err := githubEnv(ui.github, g)
	if err != nil {
		ui.warningf("the plan comment was not updated: %v", err)
		return
	}
	ui.addSecret(env.Token)
	gc, err := github.NewClient(ctx, env, nil)
	if err == nil {
		var url string
		url, _, err = gc.UpsertPlanComment(ctx, pr, reconcile.MarkdownMarker(t.Space, t.Name), doc)
		if err == nil {
			ui.infof("the plan comment on pull request #%d now says why there is no plan: %s", pr, url)
			return
		}
	}
	ui.warningf("the plan comment was not updated: %v", githubError(err))
}

// failureTargets are the targets a failed plan was for, as far as they can
// be known: those selected, with --space or SKILLSYNC_SPACE, else the
// working tree's skillsync.yaml; none when none names a valid space.
func failureTargets(o planningOptions) []targetSettings {
	var cfg fsrepo.Config
	if root, err := findRepo(o.dir); err == nil {
		cfg, _ = fsrepo.ReadConfig(root)
	}
	ts, _ := o.conn.targets(cfg)
	return slices.DeleteFunc(ts, func(t targetSettings) bool { return spec.CheckShortSpaceID(t.Space) != nil })
}

// githubEnv is the GitHub Actions environment gh with the flags' values
// over it, and for plan --comment the pull request to comment on: --pr,
// else the run's, read from the event payload only then.
func githubEnv(gh github.Env, g githubOptions) (env github.Env, pr int, err error) {
	env = gh
	if g.repo != "" {
		env.Repository = g.repo
	} else if err := env.CheckRepository(); err != nil {
		return env, 0, withHint(err, "pass the repository with --github-repo owner/name")
	}
	if !g.comment {
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

// githubError splits the hint of a GitHub error (a refusal of
// github.NewClient, GitHub's answer, or no answer) from its message, so
// that it prints on its own hint line.
func githubError(err error) error {
	var ge *github.Error
	if errors.As(err, &ge) && ge.Hint != "" {
		msg := *ge
		msg.Hint = ""
		return withHint(fmt.Errorf("%s", msg.Error()), "%s", ge.Hint)
	}
	return err
}

// writePlanAnnotations annotates the files of the plan's problems, so that
// they show on the pull request's diff.
func writePlanAnnotations(w io.Writer, p *reconcile.Plan) {
	var as []github.Annotation
	for _, pr := range p.Errors {
		if pr.Path != "" {
			as = append(as, github.Annotation{Level: "error", File: pr.Path, Line: pr.Line, Message: problemText(pr)})
		}
	}
	for _, pr := range p.Warnings {
		if pr.Path != "" {
			as = append(as, github.Annotation{Level: "warning", File: pr.Path, Line: pr.Line, Message: problemText(pr)})
		}
	}
	github.WriteAnnotations(w, as)
}

// publishResult, under GitHub Actions, appends the result of an apply to
// the job summary and makes each failed step an error annotation, so that a
// failed apply on merge says what failed where people look first.
func publishResult(ui *ui, res *reconcile.Result) {
	var as []github.Annotation
	for _, s := range res.Steps {
		if s.Outcome == reconcile.OutcomeFailed {
			msg := fmt.Sprintf("skillsync apply: %s: %s failed: %s", s.Slug, s.Action, strings.TrimSpace(s.Reason+" "+s.Mismatch))
			as = append(as, github.Annotation{Level: "error", Message: ui.redact(msg)})
		}
	}
	github.WriteAnnotations(ui.stderr, as)
	path := ui.github.StepSummary
	if path == "" {
		return
	}
	var md bytes.Buffer
	if err := reconcile.RenderResultMarkdown(&md, res, reconcile.MarkdownOptions{}); err != nil {
		ui.warningf("writing the job summary: %v", err)
		return
	}
	if err := github.AppendStepSummary(path, ui.redact(md.String())); err != nil {
		ui.warningf("writing the job summary: %v", err)
	}
}

func problemText(pr reconcile.Problem) string {
	if pr.Hint == "" {
		return pr.Message
	}
	return pr.Message + "\nhint: " + pr.Hint
}

// reportAlso prints an error that is not the one the command exits with.
func reportAlso(ui *ui, err error) {
	if err == nil {
		return
	}
	ui.errorf("%v", err)
	if h := hintFor(err); h != "" {
		ui.hintf("%s", h)
	}
}
