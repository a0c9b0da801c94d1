package reconcile

import (
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// acceptedBefore finds a write of step s the service accepted within the
// window and that has not shown yet: the same action on the same skill,
// an update with the same request, and the skill still as it was before
// that write (now, read right before; nil for enable and disable, which
// send no read).
func (a *applier) acceptedBefore(s *step, now *SkillState) *JournalEntry {
	for i := range a.opts.Accepted {
		e := &a.opts.Accepted[i]
		if e.Space != a.space || e.ID != s.change.ID || e.Action != s.action {
			continue
		}
		if s.action == ActionUpdate {
			if e.Request == nil || e.Before == nil || now == nil || !sameUpdate(*e.Request, s.update) ||
				len(spec.Differ(*e.Before, *now)) > 0 {
				continue
			}
		}
		return e
	}
	return nil
}

// sameUpdate reports whether two updates send the same fields with the
// same values, as [spec.Differ] compares them.
func sameUpdate(a, b remote.SkillUpdate) bool {
	same := func(x, y *string, field string) bool {
		if x == nil || y == nil {
			return x == y
		}
		return spec.Normalize(field, *x) == spec.Normalize(field, *y)
	}
	return same(a.Name, b.Name, FieldName) && same(a.Description, b.Description, FieldDescription) &&
		same(a.Instructions, b.Instructions, FieldInstructions)
}
