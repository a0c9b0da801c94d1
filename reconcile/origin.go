package reconcile

import (
	"slices"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/spec"
)

// Origins of a [Change], set by [SetOrigins] for a caller that splits a
// plan between what a pull request changes and what was changed in the
// space behind git's back.
const (
	OriginPR    = "pr"
	OriginDrift = "drift"
)

// SetOrigins marks each change of p "pr" or "drift" by comparing the
// desired state at the base with the one planned.
//
// A change is "pr" when any field it changes differs between base and head,
// or when its skill is new in the pull request; otherwise the desired value
// did not move, so the space did: "drift". A change that is both (one field
// from the pull request, another edited in the app) is marked "pr", as
// merging the pull request applies all of it and reviewers must see it
// among the pull request's changes, with the app-edited fields named in
// DriftFields. A disable of a skill the repository no
// longer holds is "pr" when the base held it (the pull request removed
// it), else "drift" (a skill created in the app). Changes of policy in
// skillsync.yaml are not compared.
func SetOrigins(p *Plan, base, head *fsrepo.Repo) {
	bySlug := func(r *fsrepo.Repo) map[string]*fsrepo.Skill {
		m := make(map[string]*fsrepo.Skill, len(r.Skills))
		for i := range r.Skills {
			m[r.Skills[i].Slug] = &r.Skills[i]
		}
		return m
	}
	bs, hs := bySlug(base), bySlug(head)
	for i := range p.Changes {
		c := &p.Changes[i]
		b, inBase := bs[c.Slug]
		h, inHead := hs[c.Slug]
		origin := OriginDrift
		switch {
		case !inHead:
			if inBase {
				origin = OriginPR
			}
		case !inBase:
			origin = OriginPR
		default:
			differ := spec.Differ(b.Fields(), h.Fields())
			var drifted []string
			for _, f := range c.Fields {
				if slices.Contains(differ, f) {
					origin = OriginPR
				} else {
					drifted = append(drifted, f)
				}
			}
			if origin == OriginPR {
				c.DriftFields = drifted
			}
		}
		c.Origin = origin
	}
	// An agent to publish comes from the pull request when it put the
	// agent in agents.publish; listed there at the base, the draft was
	// changed in the app.
	for i := range p.Publish {
		a := &p.Publish[i]
		a.Origin = OriginPR
		if slices.Contains(base.Config.Agents.Publish, a.ID) || slices.Contains(base.Config.Agents.Publish, a.Name) {
			a.Origin = OriginDrift
		}
	}
}
