package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/render"
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
func writeAnnotations(ui *ui, diags diag.Diagnostics) {
	if ui.github.Actions {
		github.WriteAnnotations(ui.annotations, diagnosticAnnotations(diags))
	}
}

// diagnosticAnnotations are the annotations of diags on their files and
// lines, titled with their codes, the hint under the message.
func diagnosticAnnotations(diags diag.Diagnostics) []github.Annotation {
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
// sink is not nil, the plan comment of a pull or merge request (kind
// "plan") or the drift issue (kind "drift"). A failure to write the
// summary is a warning; a failure to comment or file the issue is the
// returned error, so the job fails where reviewers would otherwise miss
// the plan.
func publishPlan(ctx context.Context, ui *ui, sink reviewSink, r *planRun, kind string) error {
	p := r.plan
	actions := ui.github.Actions
	if !actions && sink == nil {
		return nil
	}
	mo := markdownOptions(ui, sink, kind)
	var md bytes.Buffer
	if err := render.Markdown(&md, p, mo); err != nil {
		return err
	}
	// The plan holds the repository's text, which may hold the token by
	// mistake; nothing leaves this process unredacted.
	doc := ui.secrets.Redact(md.String())
	if actions {
		writePlanAnnotations(ui.annotations, p)
		appendSummary(ui, doc)
	}
	if sink == nil {
		return nil
	}
	where := render.Where(p.Space, p.Target)
	if kind == "plan" {
		// A plan with nothing to review starts no comment, and turns an
		// earlier plan's into a few lines saying so (tfcmt's
		// skip-no-changes): no stale plan stays up.
		noChanges := render.NothingToReview(p)
		if noChanges {
			var short bytes.Buffer
			if err := render.NoChangesMarkdown(&short, p, mo); err != nil {
				return err
			}
			doc = ui.secrets.Redact(short.String())
		}
		action, url, err := sink.SyncPlan(ctx, render.MarkdownMarker(p.Space, p.Target), doc, noChanges)
		if err != nil {
			return err
		}
		switch action {
		case planCreated:
			ui.infof("commented the plan on %s: %s", sink.Review(), url)
		case planUpdated, planUnchanged:
			ui.infof("updated the plan %s on %s: %s", sink.Comment(), sink.Review(), url)
		case planSkipped:
			ui.infof("no changes in %s: no plan %s posted on %s", where, sink.Comment(), sink.Review())
		}
		return nil
	}
	// The issue is open while the space drifts, and closed once drift's
	// verdict is "in sync"; a plan with errors and no drift cannot say the
	// space is in sync, so it leaves an open issue alone.
	drifts := p.HasDrift()
	if !drifts && p.Drift().Status != reconcile.DriftNone {
		ui.warningf("the drift issue was left as it is: the plan has errors, so whether %s is in sync is unknown", where)
		return nil
	}
	action, url, err := sink.SyncDrift(ctx, p.Space, p.Target, drifts, doc)
	if err != nil {
		return err
	}
	r.issueURL, r.resolved = url, action == driftClosed
	switch action {
	case driftOpened:
		ui.infof("opened a drift issue for %s: %s", where, url)
	case driftUpdated:
		ui.infof("updated the drift issue of %s: %s", where, url)
	case driftClosed:
		ui.infof("closed the drift issue of %s, back in sync: %s", where, url)
	}
	return nil
}

// publishPlans is [publishPlan] of the plan of each run, or, for a target
// that could not be planned, [publishFailureOf] its error: one comment and
// one issue per target, through the one [reviewSink] that
// [openReviewSink] chooses. The first failure to post is returned, and the
// others are said; when there is nowhere to post, the job summary is
// written all the same.
func publishPlans(ctx context.Context, e *env, g githubOptions, runs []*planRun, kind string) error {
	var sink reviewSink
	var sinkErr error
	if kind == "plan" && g.comment || kind == "drift" && g.issue {
		sink, sinkErr = openReviewSink(ctx, e, g, kind)
	}
	first := sinkErr
	for _, r := range runs {
		if r.err != nil {
			publishFailureOf(ctx, e, sink, sinkErr, kind, r.target, r.err)
		} else {
			first = firstError(e.ui, first, publishPlan(ctx, e.ui, sink, r, kind))
		}
	}
	return first
}

// publishFailure, when plan or drift could not make a plan, says so where
// the plan would have gone: the job summary under GitHub Actions and, for
// plan --comment, the plan comment of the pull or merge request, which
// would otherwise keep showing the plan of an earlier push as if it still
// held; for each target selected. It needs the space (from flags,
// environment or skillsync.yaml); what it cannot post is a warning, never
// the error the command exits with.
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
	var sink reviewSink
	var sinkErr error
	if comment {
		sink, sinkErr = openReviewSink(ctx, e, g, kind)
	}
	for _, t := range ts {
		publishFailureOf(ctx, e, sink, sinkErr, kind, t, failure)
	}
}

// publishFailureOf is [publishFailure] for target t, posting through
// sink, or saying sinkErr when there is none for plan --comment.
func publishFailureOf(ctx context.Context, e *env, sink reviewSink, sinkErr error, kind string, t targetSettings, failure error) {
	ui := e.ui
	comment := kind == "plan" && (sink != nil || sinkErr != nil)
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
	if err := render.FailureMarkdown(&md, t.Space, t.Name, failure.Error(), hintFor(failure), lines, markdownOptions(ui, sink, kind)); err != nil {
		ui.warningf("writing the failure report: %v", err)
		return
	}
	// The error and the validation errors may quote the token; the report
	// is redacted whole, after rendering, whatever the renderer escaped.
	doc := ui.secrets.Redact(md.String())
	appendSummary(ui, doc)
	if !comment {
		return
	}
	if sink == nil {
		ui.warningf("the plan comment was not updated: %v", sinkErr)
		return
	}
	_, url, err := sink.SyncPlan(ctx, render.MarkdownMarker(t.Space, t.Name), doc, false)
	if err != nil {
		ui.warningf("the plan %s was not updated: %v", sink.Comment(), err)
		return
	}
	ui.infof("the plan %s on %s now says why there is no plan: %s", sink.Comment(), sink.Review(), url)
}

// failureTargets are the targets a failed plan was for, as far as they can
// be known: those selected, with --space or SKILLSYNC_SPACE, else the
// working tree's skillsync.yaml; none when none names a valid space.
func failureTargets(o planningOptions) []targetSettings {
	var cfg config.Config
	if root, err := findRepo(o.dir); err == nil {
		cfg, _ = config.Read(root)
	}
	ts, _ := o.conn.targets(cfg)
	return slices.DeleteFunc(ts, func(t targetSettings) bool { return spec.CheckShortSpaceID(t.Space) != nil })
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
			as = append(as, github.Annotation{Level: "error", Message: ui.secrets.Redact(msg)})
		}
	}
	github.WriteAnnotations(ui.annotations, as)
	var md bytes.Buffer
	if err := render.ResultMarkdown(&md, res, render.MarkdownOptions{}); err != nil {
		ui.warningf("writing the job summary: %v", err)
		return
	}
	appendSummary(ui, ui.secrets.Redact(md.String()))
}

// appendSummary appends the markdown doc to the job summary under GitHub
// Actions. A failure is a warning: the summary is a copy of what stdout
// and the annotations say.
func appendSummary(ui *ui, doc string) {
	if path := ui.github.StepSummary; ui.github.Actions && path != "" {
		if err := github.AppendStepSummary(path, doc); err != nil {
			ui.warningf("writing the job summary: %v", err)
		}
	}
}

// markdownOptions are those of the markdown of kind's plan ("plan" or
// "drift"): the sink's, else those of the job summary.
func markdownOptions(ui *ui, sink reviewSink, kind string) render.MarkdownOptions {
	if sink != nil {
		return sink.MarkdownOptions("skillsync " + kind)
	}
	return render.MarkdownOptions{Title: "skillsync " + kind, RunURL: ui.github.RunURL}
}

func problemText(pr reconcile.Problem) string {
	if pr.Hint == "" {
		return pr.Message
	}
	return pr.Message + "\nhint: " + pr.Hint
}

// firstError is first, or err when first is nil: the first of several
// failures is the command's, and each later one is said at once.
func firstError(ui *ui, first, err error) error {
	if first == nil {
		return err
	}
	reportAlso(ui, err)
	return first
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
