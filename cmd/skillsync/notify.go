package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/vendored"
)

// sendEvent sends ev to the destinations of t's notify: section, with the
// links of the CI run, and prints each delivery that failed as a warning:
// a notification never fails a command.
func sendEvent(ctx context.Context, e *env, t targetSettings, ev notify.Event) {
	if len(t.Notify) == 0 {
		return
	}
	s, err := notify.New(t.Notify, e.getenv, e.ui.secrets, notify.Options{})
	if err != nil {
		// skillsync.yaml was checked when read: only a bug gets here.
		e.ui.warningf("notification %s not sent: %v", ev.Kind, err)
		return
	}
	ev.Target, ev.Space, ev.BaseURL = t.Name, t.Space, t.BaseURL
	run := ciLinks(e.getenv)
	ev.Links.Run = run.Run
	if ev.Links.PullRequest == "" {
		ev.Links.PullRequest = run.PullRequest
	}
	// A notification may outlive an interrupted command: it says why.
	ctx = context.WithoutCancel(ctx)
	for _, w := range s.Send(ctx, ev) {
		e.ui.warningf("%s", w)
	}
}

// ciLinks returns the links a CI job's environment tells of: the run
// (GitHub Actions' GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID,
// else GitLab's CI_JOB_URL or CI_PIPELINE_URL) and the pull or merge
// request it is for, if any.
func ciLinks(getenv func(string) string) notify.Links {
	var l notify.Links
	gh := github.ReadEnv(getenv)
	if gh.RunURL != "" {
		l.Run = gh.RunURL
		// An unreadable event payload only costs the link.
		if n, err := gh.PullRequest(); err == nil && n > 0 {
			repoURL, _, _ := strings.Cut(gh.RunURL, "/actions/runs/")
			l.PullRequest = repoURL + "/pull/" + strconv.Itoa(n)
		}
		return l
	}
	gl := gitlab.ReadEnv(getenv)
	l.Run = gl.RunURL
	if n, err := gl.MergeRequest(); err == nil && n > 0 && gl.ProjectURL != "" {
		l.PullRequest = gl.ProjectURL + "/-/merge_requests/" + strconv.FormatInt(n, 10)
	}
	return l
}

// planEvent is the event a plan of plan, apply or drift (kind) tells:
// plan.error when it holds errors (or could not be made), else for drift
// drift.found when the space differs; ok is false when there is nothing
// to tell.
func planEvent(r *planRun, kind string) (ev notify.Event, ok bool) {
	p := r.plan
	if r.err != nil || kind != "drift" && p.HasErrors() || kind == "drift" && p.Drift().Status == reconcile.DriftError {
		msgs := make([]string, 0, len(p.Errors))
		for _, pr := range p.Errors {
			msgs = append(msgs, pr.Message)
		}
		return notify.Event{Kind: notify.PlanError, Summary: fmt.Sprintf("The plan of %s has %s:\n%s", r.target.where(), names.Count(len(p.Errors), "error", "errors"), strings.Join(msgs, "\n"))}, true
	}
	if kind != "drift" || !p.HasDrift() {
		return notify.Event{}, false
	}
	slugs := driftedSkills(p)
	return notify.Event{
		Kind:    notify.DriftFound,
		Skills:  slugs,
		Counts:  notify.Counts{Updated: p.Summary.Update, Enabled: p.Summary.Enable, Disabled: p.Summary.Disable, Drifted: len(slugs)},
		Summary: fmt.Sprintf("%s of %s differ from git: changed in the app since the last apply.", names.Count(len(slugs), "skill", "skills"), r.target.where()),
		Links:   notify.Links{Issue: r.issueURL, PullRequest: r.proposalURL},
	}, true
}

// driftedSkills are the slugs of the skills by which p's space differs
// from the repository, sorted, each once.
func driftedSkills(p *reconcile.Plan) []string {
	var out []string
	for _, c := range p.Changes {
		out = append(out, c.Slug)
	}
	for _, m := range p.Missing {
		out = append(out, m.Slug)
	}
	for _, f := range p.Files {
		if f.Status == reconcile.FileDiffers || f.Status == reconcile.FileAbsent {
			out = append(out, f.Slug)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// notifyPlans sends the event of each run's plan ([planEvent]), and for
// drift drift.resolved where its issue was closed; kind is "plan" or
// "drift".
func notifyPlans(ctx context.Context, e *env, runs []*planRun, kind string) {
	for _, r := range runs {
		if ev, ok := planEvent(r, kind); ok {
			sendEvent(ctx, e, r.target, ev)
		}
		if kind == "drift" && r.resolved {
			sendEvent(ctx, e, r.target, notify.Event{Kind: notify.DriftResolved, Summary: r.target.where() + " is back in sync with git.",
				Links: notify.Links{Issue: r.issueURL, PullRequest: r.proposalURL}})
		}
	}
}

// notifyFailure sends an event of kind (plan.error, apply.failed) to the
// targets of a command that could not plan ([failureTargets]), unless it
// was interrupted.
func notifyFailure(ctx context.Context, e *env, o planningOptions, kind notify.Kind, failure error) {
	if errors.Is(failure, context.Canceled) || errors.Is(failure, errInterrupted) {
		return
	}
	for _, t := range failureTargets(o) {
		sendEvent(ctx, e, t, notify.Event{Kind: kind, Summary: failure.Error()})
	}
}

// notifyApply sends apply.succeeded or apply.failed for each target an
// apply started, and plan.error for each whose plan had errors.
func notifyApply(ctx context.Context, e *env, out []targetOutcome) {
	for _, oc := range out {
		r := oc.run
		switch {
		case oc.status == targetFailed && oc.res == nil && r.plan.HasErrors():
			if ev, ok := planEvent(r, "apply"); ok {
				sendEvent(ctx, e, r.target, ev)
			}
		case oc.status == targetApplied, oc.status == targetFailed:
			sendEvent(ctx, e, r.target, applyEvent(oc))
		}
	}
}

// applyEvent is what an apply that started tells: its counts, and the
// skills it failed on (or, when it succeeded, changed).
func applyEvent(oc targetOutcome) notify.Event {
	ev := notify.Event{Kind: notify.ApplySucceeded}
	if oc.res != nil {
		n := oc.res.Counts()
		ev.Counts.Failed = n.Failed + n.Skipped
		for _, s := range oc.res.Steps {
			if s.Outcome == reconcile.OutcomeApplied {
				switch s.Action {
				case reconcile.ActionUpdate:
					ev.Counts.Updated++
				case reconcile.ActionEnable:
					ev.Counts.Enabled++
				case reconcile.ActionDisable:
					ev.Counts.Disabled++
				}
			}
			if s.Outcome != reconcile.OutcomeApplied || oc.err == nil {
				ev.Skills = append(ev.Skills, s.Slug)
			}
		}
		slices.Sort(ev.Skills)
		ev.Skills = slices.Compact(ev.Skills)
	}
	where := oc.run.target.where()
	if oc.err != nil {
		ev.Kind = notify.ApplyFailed
		ev.Summary = fmt.Sprintf("Apply to %s failed: %v", where, oc.err)
		return ev
	}
	ev.Summary = fmt.Sprintf("Applied to %s: %d updated, %d enabled, %d disabled.", where, ev.Counts.Updated, ev.Counts.Enabled, ev.Counts.Disabled)
	return ev
}

// notifyOutdated sends vendor.outdated, of the whole repository, to the
// top-level destinations of root's skillsync.yaml.
func notifyOutdated(ctx context.Context, e *env, root string, rep *vendored.Report) {
	cfg, err := config.Read(root)
	if err != nil || len(cfg.Notify) == 0 {
		return
	}
	ev := notify.Event{Kind: notify.VendorOutdated}
	var lines []string
	for _, s := range rep.Skills {
		if s.State == vendored.StateOutdated || s.State == vendored.StateRemoved {
			ev.Skills = append(ev.Skills, s.Slug)
			lines = append(lines, fmt.Sprintf("%s: %s of %s (%s)", s.Slug, s.State, s.Source, s.Ref))
		}
	}
	ev.Counts.Outdated = len(ev.Skills)
	ev.Summary = fmt.Sprintf("%s moved upstream:\n%s", names.Count(len(ev.Skills), "vendored skill", "vendored skills"), strings.Join(lines, "\n"))
	sendEvent(ctx, e, targetSettings{Notify: cfg.Notify}, ev)
}
