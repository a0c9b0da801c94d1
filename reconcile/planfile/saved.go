// Package planfile checks a plan saved by `plan -out FILE` before `apply
// FILE` applies it: the skills it touches are read again, and a plan the
// space or the repository moved away from is refused as stale, naming
// what moved. Package reconcile/render writes and reads the file.
package planfile

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// MaxBytes is the largest saved plan (or JSON plan) read. A plan that
// changes 1,000 skills of 50,000 characters of instructions each, with
// their before, after and diff, comes to about 300 MB; the writer of saved
// plans refuses to write a larger plan than this, so that every plan saved
// can be applied.
const MaxBytes = 512 << 20

// Saved is the plan of one target as `plan -out FILE` saves it for a
// later `apply FILE`: the plan (which records the space, the commit, the
// hash of the desired state, and each touched skill's updatedAt and live
// hash) and the service it was made against. It never holds the token.
type Saved struct {
	BaseURL string
	Plan    *reconcile.Plan
}

// CheckStale tells whether a saved plan still describes what applying it
// would do, re-reading exactly what it touches: one get per changed skill,
// the skill list only when it enables skills (an enable depends on how many
// others are active: skills enabled in the app since the plan could make
// it pass the limit), and the agent list only when it publishes agents.
// It returns every difference in words, naming the skill or agent; none
// means the plan may be applied. It returns an error only when it cannot
// tell.
//
// A plan for another space or service is refused before any request. The
// repository counts as changed when its desired state hashes differently
// from the plan's; a new commit with the same desired state (a merge commit
// of the reviewed branch, say) does not make the plan stale. With the
// repository as planned, each change must be the one that state and the
// skill re-read give, planned again: the plan is applied as it is,
// and a desired hash proves nothing about changes edited in the file.
func CheckStale(ctx context.Context, c reconcile.Service, sp *Saved, space, baseURL string, desired *fsrepo.Repo) ([]string, error) {
	chk, err := checkSaved(ctx, c, sp, space, baseURL, desired)
	if err != nil {
		return nil, err
	}
	return chk.Stale, nil
}

// A Check is what [CheckSaved] found of a saved plan.
type Check struct {
	// Stale says, one line each, why the plan cannot be applied as it
	// is; none when it can.
	Stale []string
	// Applied are the slugs of the changes that the space already holds:
	// each such skill moved since the plan, to what the plan would make
	// of it. Such a change is stale too, unless every change of the plan
	// is one.
	Applied []string
	// AllApplied is true when the plan has changes or publishes and the
	// space holds every one of them (each skill as the plan would leave
	// it, each agent published since, with nothing unpublished): an apply
	// of this plan went through already. Stale is empty then, and
	// applying again would do nothing.
	AllApplied bool
	// Notes, for a plan applied already, say what else is true: the
	// repository moved on since the plan, say.
	Notes []string
}

// CheckSaved is [CheckStale], telling apart a plan that an earlier apply
// went through already: retried, it is applied, not stale. A plan some of
// whose changes are applied (an apply that stopped half-way) stays stale,
// each applied change said so, as planning again is what shows the rest.
func CheckSaved(ctx context.Context, c reconcile.Service, sp *Saved, space, baseURL string, desired *fsrepo.Repo) (Check, error) {
	chk, err := checkSaved(ctx, c, sp, space, baseURL, desired)
	if err != nil {
		return Check{}, err
	}
	if chk.AllApplied {
		chk.Stale = nil
	}
	return *chk, nil
}

// checkSaved is CheckSaved, with Stale kept for a plan applied already:
// what CheckStale says of it.
func checkSaved(ctx context.Context, c reconcile.Service, sp *Saved, space, baseURL string, desired *fsrepo.Repo) (*Check, error) {
	if sp == nil || sp.Plan == nil {
		return nil, errors.New("no saved plan to check")
	}
	p := sp.Plan
	var stale []string
	if p.Space != space {
		stale = append(stale, fmt.Sprintf("the plan is for space %s, not %s", p.Space, space))
	}
	if sp.BaseURL != "" && !config.SameAddress(sp.BaseURL, baseURL) {
		stale = append(stale, fmt.Sprintf("the plan is for %s, not %s", sp.BaseURL, baseURL))
	}
	if len(stale) > 0 {
		return &Check{Stale: stale}, nil // never read a space the plan is not for
	}
	repoMoved := "" // how the repository differs from the one planned from
	if desired != nil {
		if repoMoved = repoChanged(p, desired); repoMoved != "" {
			stale = append(stale, repoMoved)
		}
	}

	found := make([]string, len(p.Changes))
	// reread holds each skill as read now, where it has not moved since
	// the plan: the space the plan's changes are checked against.
	reread := make([]*remote.Skill, len(p.Changes))
	// applied tells the changes whose skill is, as read now, as the plan
	// would leave it; published, the publishes of agents published since
	// the plan, with no unpublished changes now.
	applied := make([]bool, len(p.Changes))
	published := make([]bool, len(p.Publish))
	// The first error cancels the reads in flight; a read that panics is
	// a *bug.Error, not the end of the process.
	err := bug.Each(ctx, len(p.Changes), reconcile.DefaultParallelism, func(ctx context.Context, i int) error {
		ch := &p.Changes[i]
		got, err := c.GetSkill(ctx, space, ch.ID)
		if remote.IsNotFound(err) {
			found[i] = fmt.Sprintf("%s: no longer in the space (deleted since the plan)", ch.Slug)
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading skill %s: %w", ch.Slug, err)
		}
		if found[i] = skillMoved(ch, *got); found[i] == "" {
			reread[i] = got
		} else if isApplied(ch, *got) {
			applied[i] = true
			found[i] += ", to what the plan would make of it"
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for _, s := range found {
		if s != "" {
			stale = append(stale, s)
		}
	}
	var agents []remote.Agent // listed only for a plan that publishes

	// A plan edited by hand may enable skills its summary does not count.
	enables := slices.ContainsFunc(p.Changes, func(c reconcile.Change) bool { return c.Has(reconcile.ActionEnable) })
	if p.Summary.Enable > 0 || enables {
		skills, err := c.StreamSkills(ctx, space, remote.ListOptions{})
		if err != nil {
			return nil, fmt.Errorf("listing skills: %w", err)
		}
		if n := reconcile.ActiveCount(skills); n != p.Summary.ActiveBefore {
			stale = append(stale, fmt.Sprintf("the space has %d active skills, the plan was made with %d", n, p.Summary.ActiveBefore))
		}
	}

	if len(p.Publish) > 0 {
		agents, err = c.StreamAgents(ctx, space, remote.ListOptions{})
		if err != nil {
			return nil, fmt.Errorf("listing agents: %w", err)
		}
		byID := make(map[string]remote.Agent, len(agents))
		for _, a := range agents {
			byID[a.ID] = a
		}
		for i, ap := range p.Publish {
			a, ok := byID[ap.ID]
			switch {
			case !ok:
				stale = append(stale, fmt.Sprintf("agent %s: no longer in the space (deleted since the plan)", ap.Name))
			case a.UpdatedAt != ap.UpdatedAt:
				msg := fmt.Sprintf("agent %s: changed in the space since the plan (updatedAt %s -> %s)", ap.Name, ap.UpdatedAt, a.UpdatedAt)
				if a.Published && !a.HasUnpublishedChanges {
					// Published since, with nothing left to publish: what
					// the plan's publish does.
					published[i] = true
					msg += ", and published"
				}
				stale = append(stale, msg)
			}
		}
	}
	// Only a plan made from this very repository state can be checked
	// against what it gives; any other is stale already.
	if desired != nil && repoChanged(p, desired) == "" {
		stale = append(stale, changesEdited(p, desired, reread, agents)...)
	}
	chk := &Check{Stale: stale}
	all := len(applied)+len(published) > 0 && !p.HasErrors()
	for i, done := range applied {
		if done {
			chk.Applied = append(chk.Applied, p.Changes[i].Slug)
		}
		all = all && done
	}
	for _, done := range published {
		all = all && done
	}
	if all {
		chk.AllApplied = true
		if repoMoved != "" {
			chk.Notes = append(chk.Notes, repoMoved)
		}
	}
	return chk, nil
}

// changesEdited plans again, from the repository state the plan was made
// from and the skills it changes as re-read (reread, by change; nil for
// one that moved, which is reported already), and describes every change
// of p that differs from what that gives: a saved plan is applied as it
// is, so one whose changes were edited in the file must not be. Only the
// skills of the plan are read again, so skills it leaves alone may have
// changed meanwhile; their changes are not compared. agents are the
// space's agents when p publishes any (nil otherwise): each of its
// publishes must be one agents.publish gives.
func changesEdited(p *reconcile.Plan, desired *fsrepo.Repo, reread []*remote.Skill, agents []remote.Agent) []string {
	local := make(map[string]bool, len(desired.Skills))
	for _, s := range desired.Skills {
		local[s.Slug] = true
	}
	live := &reconcile.Live{Space: p.Space, Agents: agents}
	slugs := make(map[string]bool)
	for _, got := range reread {
		if got == nil {
			continue
		}
		s := *got
		if !local[s.Slug] {
			s.Instructions = nil // an unmanaged skill is planned from the list, which has none
		}
		live.Skills = append(live.Skills, s)
		slugs[s.Slug] = true
	}
	sub := &fsrepo.Repo{Config: desired.Config, Commit: desired.Commit}
	for _, s := range desired.Skills {
		if slugs[s.Slug] {
			sub.Skills = append(sub.Skills, s)
		}
	}
	pol := reconcile.PolicyFromConfig(desired.Config)
	pol.Force = true // the disable guard adds errors, never changes
	q := reconcile.Compute(sub, live, pol)
	want := make(map[string]*reconcile.Change, len(q.Changes))
	for i := range q.Changes {
		want[q.Changes[i].ID] = &q.Changes[i]
	}

	var out []string
	seen := make(map[string]bool, len(p.Changes))
	for i := range p.Changes {
		ch := &p.Changes[i]
		if reread[i] == nil {
			continue
		}
		if seen[ch.ID] {
			out = append(out, fmt.Sprintf("%s: the plan changes it more than once", ch.Slug))
			continue
		}
		seen[ch.ID] = true
		w, ok := want[ch.ID]
		if !ok {
			out = append(out, fmt.Sprintf("%s: the plan changes it, but the repository and the space give no change to it", ch.Slug))
			continue
		}
		if d := changeDiff(ch, w); len(d) > 0 {
			out = append(out, fmt.Sprintf("%s: the plan's change differs from what the repository and the space give (%s): was the file edited?", ch.Slug, strings.Join(d, ", ")))
		}
	}
	if agents != nil {
		publish := make(map[string]bool, len(q.Publish))
		for _, ap := range q.Publish {
			publish[ap.ID] = true
		}
		for _, ap := range p.Publish {
			if !publish[ap.ID] {
				out = append(out, fmt.Sprintf("agent %s: the plan publishes it, but agents.publish and the space give no publish of it", ap.Name))
			}
		}
	}
	return out
}

// changeDiff names what differs between a change of a plan and the change
// planned again: what apply sends (actions, fields, after) and what its
// journal records as replaced (before).
func changeDiff(got, want *reconcile.Change) []string {
	var d []string
	if got.Slug != want.Slug {
		d = append(d, "slug")
	}
	if got.Unmanaged != want.Unmanaged {
		d = append(d, "unmanaged")
	}
	if !slices.Equal(got.Actions, want.Actions) {
		d = append(d, "actions")
	}
	if !slices.Equal(got.Fields, want.Fields) {
		d = append(d, "fields")
	}
	state := func(prefix string, a, b reconcile.SkillState, sent []string) {
		differ := spec.Differ(a, b)
		// Apply sends a planned name or description as it is: the
		// comparison's tolerance is not the service's.
		if slices.Contains(sent, reconcile.FieldDescription) && a.Description != b.Description && !slices.Contains(differ, reconcile.FieldDescription) {
			differ = slices.Insert(differ, slices.Index(differ, reconcile.FieldName)+1, reconcile.FieldDescription)
		}
		for _, f := range differ {
			d = append(d, prefix+f)
		}
	}
	state("before.", got.Before, want.Before, nil)
	state("after.", got.After, want.After, got.Fields)
	return d
}

// isApplied reports whether got, the skill of ch as read now, is as ch
// would leave it: every field the plan compares equal to ch.After.
func isApplied(ch *reconcile.Change, got remote.Skill) bool {
	if got.ID != ch.ID || got.Slug != ch.Slug {
		return false
	}
	if ch.Unmanaged && ch.After.Instructions == nil {
		got.Instructions = nil // planned from the list, which has none
	}
	return len(spec.Differ(ch.After, reconcile.StateOf(got))) == 0
}

// skillMoved describes how a skill re-read differs from the one planned
// against, or "".
func skillMoved(ch *reconcile.Change, got remote.Skill) string {
	if ch.Unmanaged && ch.Before.Instructions == nil {
		// Planned from the list, which has no instructions.
		got.Instructions = nil
	}
	if ch.UpdatedAt == "" && ch.LiveHash == "" {
		return fmt.Sprintf("%s: the plan records no updatedAt or live hash, so whether the space changed cannot be told", ch.Slug)
	}
	var parts []string
	if ch.UpdatedAt != "" && !spec.SameTime(got.UpdatedAt, ch.UpdatedAt) {
		parts = append(parts, fmt.Sprintf("updatedAt %s -> %s", ch.UpdatedAt, got.UpdatedAt))
	}
	if ch.LiveHash != "" && reconcile.LiveHash(got) != ch.LiveHash {
		// The hash is of the fields as the service spelt them; a field
		// that differs only as the comparison allows (a description's
		// final newline, instructions with the same canonical form) has
		// not moved. What the fields do not explain (the id, the slug, a
		// plan whose before was edited) is still a move.
		fields := spec.Differ(ch.Before, reconcile.StateOf(got))
		rest := got
		rest.Name, rest.Description, rest.Instructions, rest.Enabled = ch.Before.Name, ch.Before.Description, ch.Before.Instructions, ch.Before.Enabled
		switch {
		case len(fields) > 0:
			parts = append(parts, strings.Join(fields, ", ")+" changed")
		case reconcile.LiveHash(rest) != ch.LiveHash:
			parts = append(parts, "its live hash differs")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s: changed in the space since the plan (%s)", ch.Slug, strings.Join(parts, "; "))
}

// repoChanged describes how the repository differs from the one planned
// from, naming the planned skills whose desired state moved, or "".
func repoChanged(p *reconcile.Plan, desired *fsrepo.Repo) string {
	now := reconcile.DesiredHash(desired)
	if now == p.DesiredHash {
		return ""
	}
	msg := "repository changed since the plan"
	if p.Commit != desired.Commit && p.Commit != "" && desired.Commit != "" {
		msg += fmt.Sprintf(" (commit %s -> %s)", fsrepo.ShortCommit(p.Commit), fsrepo.ShortCommit(desired.Commit))
	}
	local := make(map[string]*fsrepo.Skill, len(desired.Skills))
	for i := range desired.Skills {
		local[desired.Skills[i].Slug] = &desired.Skills[i]
	}
	pol := reconcile.PolicyFromConfig(desired.Config) // an ignored field is never planned
	var details []string
	for i := range p.Changes {
		ch := &p.Changes[i]
		if ch.Unmanaged {
			if _, ok := local[ch.Slug]; ok {
				details = append(details, ch.Slug+" is now in the repository")
			}
			continue
		}
		ls, ok := local[ch.Slug]
		if !ok {
			details = append(details, ch.Slug+" is no longer in the repository")
			continue
		}
		fields := slices.DeleteFunc(spec.Differ(ch.After, reconcile.DesiredFields(*ls, ch.After)), func(f string) bool { return pol.Ignores(ch.Slug, f) })
		if len(fields) > 0 {
			details = append(details, fmt.Sprintf("%s: %s now differ from the plan", ch.Slug, strings.Join(fields, ", ")))
		}
	}
	if len(details) == 0 {
		return fmt.Sprintf("%s: the skills the plan changes are as planned, so another skill, a supporting file or skillsync.yaml's policy (unmanaged, missing, maxDisablePercent, agents.publish) differs (desired state hash %s, now %s)", msg, p.DesiredHash, now)
	}
	return msg + ": " + strings.Join(details, "; ")
}
