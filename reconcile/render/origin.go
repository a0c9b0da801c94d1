package render

import (
	"slices"

	"github.com/skillsync/skillsync/reconcile"
)

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
// group left out when empty. review names what the plan is reviewed on. A
// change with no Origin in a split plan is shown with the pull request's.
func groupByOrigin(p *reconcile.Plan, review string) []changeGroup {
	all := changeGroup{}
	pr, drift := changeGroup{title: "Changes from this " + review}, changeGroup{title: titleDrift}
	split := false
	for i := range p.Changes {
		c := &p.Changes[i]
		split = split || c.Origin != ""
		all.changes = append(all.changes, c)
		if c.Origin == reconcile.OriginDrift {
			drift.changes = append(drift.changes, c)
		} else {
			pr.changes = append(pr.changes, c)
		}
	}
	if !split {
		return []changeGroup{all}
	}
	return slices.DeleteFunc([]changeGroup{pr, drift}, func(g changeGroup) bool { return len(g.changes) == 0 })
}
