package reconcile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// AcceptedWindow is how long after a write the service accepted but did
// not show ([OutcomeAccepted]) apply does not send the same write again.
const AcceptedWindow = 15 * time.Minute

// RecentAccepted returns the lines of the journals of dir (a repository's
// .skillsync/journal) written since since with outcome [OutcomeAccepted],
// for [ApplyOptions.Accepted]. A missing folder has none; a journal that
// cannot be read is passed over, as it can only hold back a resend.
func RecentAccepted(dir string, since time.Time) ([]JournalEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading journals: %w", err)
	}
	var out []JournalEntry
	for _, ent := range ents {
		name := ent.Name()
		if !ent.Type().IsRegular() || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		if t, err := time.Parse("20060102T150405.000Z", strings.SplitN(strings.TrimSuffix(name, ".jsonl"), "-", 2)[0]); err != nil || t.Before(since.Add(-time.Minute)) {
			continue
		}
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			continue
		}
		es, _ := ReadJournal(f) // what a torn journal holds still counts
		f.Close()
		for _, e := range es {
			if e.Outcome == OutcomeAccepted && !e.Time.Before(since) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

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
				len(spec.Differ(e.Before.fields(), now.fields())) > 0 {
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
