package render

import "github.com/skillsync/skillsync/reconcile"

// Section titles of a plan split by origin, in the order they are shown.
const (
	titlePR    = "Changes from this pull request"
	titleDrift = "Drift: changed in the space since the base"
)

// changeGroup is changes shown together, under title.
type changeGroup struct {
	title   string
	changes []*reconcile.Change
}

// groupByOrigin groups the changes of p for rendering: one untitled group
// when no change has an Origin, so that plans not split render as they
// always did; otherwise the pull request's changes, then the drift, each
// group left out when empty. A change with no Origin in a split plan is
// shown with the pull request's.
func groupByOrigin(p *reconcile.Plan) []changeGroup {
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
	pr, drift := changeGroup{title: titlePR}, changeGroup{title: titleDrift}
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
