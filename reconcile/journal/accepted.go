package journal

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillsync/skillsync/reconcile"
)

// AcceptedWindow is how long after a write the service accepted but did
// not show ([reconcile.OutcomeAccepted]) apply does not send the same
// write again.
const AcceptedWindow = 15 * time.Minute

// RecentAccepted returns the lines of the journals of dir (a repository's
// .skillsync/journal) written since since with outcome
// [reconcile.OutcomeAccepted], for [reconcile.ApplyOptions].Accepted. A
// missing folder has none; a journal that cannot be read is passed over,
// as it can only hold back a resend.
func RecentAccepted(dir string, since time.Time) ([]reconcile.JournalEntry, error) {
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading journals: %w", err)
	}
	var out []reconcile.JournalEntry
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
		es, _ := Read(f) // what a torn journal holds still counts
		f.Close()
		for _, e := range es {
			if e.Outcome == reconcile.OutcomeAccepted && !e.Time.Before(since) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}
