package main

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/pull"
	"github.com/skillsync/skillsync/reconcile/render"
)

// proposeDrifts does drift --pr: for each target with drift, the app's
// edits written into its skill folders (and skillsync.yaml) as pull
// writes them, on the branch skillsync/drift/TARGET, as one pull request
// whose body is the drift report; for each target in sync, its pull
// request closed. A target whose verdict is unknown (its plan has
// errors) is left as it is. The first failure is returned; the others
// are said.
func proposeDrifts(ctx context.Context, e *env, g githubOptions, base string, runs []*planRun) error {
	sink, err := openReviewSink(ctx, e, g, "drift")
	if err != nil {
		return err
	}
	if base, err = proposalBase(e, base); err != nil {
		return err
	}
	var first error
	for _, r := range runs {
		if r.err != nil || r.plan.Drift().Status == reconcile.DriftError {
			continue
		}
		if err := proposeDrift(ctx, e, sink, base, r); err != nil {
			first = firstError(e.ui, first, fmt.Errorf("drift %s of %s: %w", sink.Request(), r.target.where(), err))
		}
	}
	return first
}

// proposalBase is the branch drift pull requests merge into: base when
// given (--pr-base), else the branch the CI job runs on.
func proposalBase(e *env, base string) (string, error) {
	if base == "" {
		if ref, ok := strings.CutPrefix(e.ui.github.Ref, "refs/heads/"); ok {
			base = ref
		} else if gitlab.ReadEnv(e.getenv).CI {
			base = cmp.Or(e.getenv("CI_COMMIT_BRANCH"), e.getenv("CI_DEFAULT_BRANCH"))
		}
	}
	if base == "" {
		return "", withHint(errors.New("drift --pr: no branch to propose the app's edits to"),
			"run it in a job on the default branch (a schedule), or pass --%s BRANCH", flagPRBase)
	}
	if err := forge.CheckBranch("base", base); err != nil {
		return "", withHint(err, "pass --%s BRANCH", flagPRBase)
	}
	return base, nil
}

// driftHead is the branch of r's drift pull request, the same on every
// run.
func driftHead(t targetSettings) string {
	return "skillsync/drift/" + cmp.Or(t.Name, t.Space)
}

// driftPRMarker identifies the drift pull request of a space and target.
func driftPRMarker(t targetSettings) string {
	if t.Name == "" {
		return fmt.Sprintf("<!-- skillsync:drift-pr space=%s -->", t.Space)
	}
	return fmt.Sprintf("<!-- skillsync:drift-pr space=%s target=%s -->", t.Space, t.Name)
}

// proposeDrift opens or updates the drift pull request of r, or closes it
// when r's space is in sync or its drift holds nothing git can take.
func proposeDrift(ctx context.Context, e *env, sink reviewSink, base string, r *planRun) error {
	ui := e.ui
	where := r.target.where()
	// The comments and the body are markdown: names go in code spans.
	whereMD := render.WhereMarkdown(r.target.Space, r.target.Name)
	kind := "drift " + sink.Request()
	withdraw := func(reason string) error {
		out, err := sink.Withdraw(ctx, forge.Withdrawal{Head: driftHead(r.target), Marker: driftPRMarker(r.target), Reason: reason})
		if err != nil {
			return ciError(err)
		}
		if out.Action == forge.ProposalClosed {
			r.proposalURL, r.resolved = out.URL, true
			ui.infof("closed the %s of %s: %s", kind, where, out.URL)
		}
		return nil
	}
	if !r.plan.HasDrift() {
		return withdraw(fmt.Sprintf("The drift is gone: %s is back in sync with git.", whereMD))
	}
	files, err := adoptedFiles(ctx, e, r)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return withdraw(fmt.Sprintf("What differs in %s cannot be written to git (see the drift report): only the app, or an apply, can make them agree.", whereMD))
	}
	mo := sink.MarkdownOptions("skillsync drift")
	var md bytes.Buffer
	fmt.Fprintf(&md, "The app's edits of %s, written into the repository as `skillsync pull` writes them. "+
		"**Merging** this %s adopts them in git; **closing** it unmerged leaves them for the next apply to revert. "+
		"skillsync updates it while the drift changes, and closes it once the space is back in sync.\n\n", whereMD, sink.Request())
	if err := render.Markdown(&md, r.plan, mo); err != nil {
		return err
	}
	p := forge.Proposal{
		Base:    base,
		Head:    driftHead(r.target),
		Files:   files,
		Message: "skillsync: adopt the app's edits of " + where,
		Title:   "skillsync: adopt the app's edits of " + where,
		Body:    ui.secrets.Redact(md.String()),
		Marker:  driftPRMarker(r.target),
	}
	out, err := propose(ctx, ui, sink, p, kind, where)
	if errors.Is(err, forge.ErrNothingToPropose) {
		return withdraw(fmt.Sprintf("The branch %s already holds the app's edits of %s.", render.CodeSpan(base), whereMD))
	}
	r.proposalURL = out.URL
	return err
}

// adoptedFiles are the files of the repository that adopting the app's
// edits of r changes, by path from the root: the SKILL.md (and the
// supporting files its instructions refer to) of each skill that drifted,
// as pull writes them, and for a target of several the enabled states it
// takes over the shared ones, in skillsync.yaml. They are written into a
// copy, so that the working tree, and the other targets, are untouched.
// A field under ignore keeps the repository's value where pull lets it
// (enabled); the others come from the space.
func adoptedFiles(ctx context.Context, e *env, r *planRun) (map[string]forge.FileChange, error) {
	var slugs []string
	enabledChanged := map[string]bool{}
	for _, c := range r.plan.Changes {
		if c.Path != "" { // a managed skill
			slugs = append(slugs, c.Slug)
			enabledChanged[c.Slug] = c.Changes(reconcile.FieldEnabled)
		}
	}
	for _, f := range r.plan.Files {
		if f.Status == reconcile.FileDiffers && !slices.Contains(slugs, f.Slug) {
			slugs = append(slugs, f.Slug)
		}
	}
	if len(slugs) == 0 {
		return nil, nil
	}
	slices.Sort(slugs)
	cfg, err := config.Read(r.root)
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "skillsync-drift-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	folders := []string{config.FileName}
	for _, slug := range slugs {
		folders = append(folders, path.Join(cfg.SkillsDir, slug))
	}
	before, err := snapshot(r.root, folders)
	if err != nil {
		return nil, err
	}
	if err := writeSnapshot(tmp, before, nil); err != nil {
		return nil, err
	}
	// SKILL.md keeps the state the repository gives it unless the app's
	// differs and counts: with targets, the shared state stays in
	// SKILL.md and the target's goes to its override.
	repo, _, err := fsrepo.Load(ctx, r.root, fsrepo.LoadOptions{})
	if err != nil {
		return nil, err
	}
	shared := map[string]bool{}
	for _, s := range repo.Skills {
		if slices.Contains(slugs, s.Slug) && (r.target.Name != "" || !enabledChanged[s.Slug]) {
			shared[s.Slug] = s.Enabled
		}
	}
	// The copy is outside git, where every file reads as uncommitted:
	// Force lets pull write over them, as it is a copy.
	rep, err := pull.Skills(ctx, r.client, r.target.Space, pull.Options{
		Root: tmp, Config: cfg, Slugs: slugs, Parallelism: r.par, Enabled: shared, Force: true,
		Secrets: e.ui.secrets.Found,
	})
	if rep != nil {
		for _, w := range rep.Warnings {
			e.ui.warningf("%s", w)
		}
	}
	if err != nil {
		return nil, err
	}
	if r.target.Name != "" {
		states := overrideStates(cfg, r.target.Name, rep, shared, enabledChanged)
		if len(states) > 0 {
			if err := config.SetTargetEnabled(tmp, r.target.Name, states); err != nil {
				return nil, err
			}
		}
	}
	// What pull wrote anew is in the copy; what it did not, is as it was.
	written, err := snapshot(tmp, folders)
	if err != nil {
		return nil, err
	}
	out := map[string]forge.FileChange{}
	for rel, f := range written {
		if b, ok := before[rel]; ok && bytes.Equal(b.data, f.data) {
			continue
		}
		out[rel] = forge.FileChange{Content: f.data}
	}
	return out, nil
}

// overrideStates are the enabled states a target's pull puts in its
// override: of the skills pulled whose enabled state drifted (changed),
// those that differ from the state the targets share (shared, by slug)
// and are not yet the target's, and those whose override the space
// changed.
func overrideStates(cfg config.Config, target string, rep *pull.Report, shared, changed map[string]bool) map[string]bool {
	tc, _ := cfg.Target(target)
	states := map[string]bool{}
	for _, s := range rep.Skills {
		base, inRepo := shared[s.Slug]
		if s.Status == pull.Skipped || !inRepo || changed != nil && !changed[s.Slug] {
			continue
		}
		override, has := tc.Enabled[s.Slug]
		switch {
		case has && override != s.SpaceEnabled:
			states[s.Slug] = s.SpaceEnabled
		case !has && base != s.SpaceEnabled:
			states[s.Slug] = s.SpaceEnabled
		}
	}
	return states
}
