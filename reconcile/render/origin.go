package render

import "github.com/skillsync/skillsync/reconcile"

// titleDrift is the title of the drift's section of a plan split by
// origin; the other's is "Changes from this pull request" (or merge
// request), shown first.
const titleDrift = "Drift: changed in the space since the base"

// changeGroup is changes shown together, under title.
type changeGroup struct {
	title   string
	changes []*reconcile.Change
}

// groupByOrigin groups the changes of p for rendering: one untitled group
// when no change has an Origin, so that plans not split render as they
// always did; otherwise the pull request's changes, then the drift, each
// group left out when empty; review names what the plan is reviewed on. A change with no Origin in a split plan is
// shown with the pull request's.
func groupByOrigin(p *reconcile.Plan, review string) []changeGroup {
	split := false
	for i := range p.Changes {
		if p.Changes[i].Origin != "" {
			split = true
			break
		}
	}
	if !split {
		g := changeGroup{}
		for i := range p.Changes {
			g.changes = append(g.changes, &p.Changes[i])
		}
		return []changeGroup{g}
	}
	pr, drift := changeGroup{title: "Changes from this " + review}, changeGroup{title: titleDrift}
	for i := range p.Changes {
		if p.Changes[i].Origin == reconcile.OriginDrift {
			drift.changes = append(drift.changes, &p.Changes[i])
		} else {
			pr.changes = append(pr.changes, &p.Changes[i])
		}
	}
	var out []changeGroup
	for _, g := range []changeGroup{pr, drift} {
		if len(g.changes) > 0 {
			out = append(out, g)
		}
	}
	return out
}
