package reconcile

import (
	"errors"
	"fmt"

	"github.com/skillsync/skillsync/internal/bounded"
)

// Bounds on the files skillsync reads back: a saved plan, a journal (a
// cache entry has its own, [fetch.MaxEntryBytes]). Each is larger than
// any such file skillsync itself writes for a space of a thousand skills,
// and keeps a file that is not one of them (a log, a dump, /dev/zero)
// from being read into memory whole.
const (
	// MaxSavedPlanBytes is the largest saved plan (or JSON plan) read. A
	// plan that changes 1,000 skills of 50,000 characters of instructions
	// each, with their before, after and diff, comes to about 300 MB;
	// the writer of saved plans refuses to write a larger plan than this, so that
	// every plan saved can be applied.
	MaxSavedPlanBytes = 512 << 20
	// MaxJournalBytes is the largest journal read (by restore) or
	// appended to. The lines of one apply carry the before, the request
	// and the answer of each change, without the plan's diffs: the
	// journal of the largest saved plan stays well under twice its size.
	MaxJournalBytes = 1 << 30
)

// A TooLargeError is returned for a file over the bound skillsync reads of
// its kind, before the file is read whole. Callers name the file.
type TooLargeError struct {
	What string // "the saved plan", "the journal"
	Size int64  // the file's size when known, else 0
	Max  int64  // the bound
}

func (e *TooLargeError) Error() string {
	size := "more than " + bounded.Size(e.Max)
	if e.Size > 0 {
		size = fmt.Sprintf("%d bytes, more than %s", e.Size, bounded.Size(e.Max))
	}
	return fmt.Sprintf("%s is %s, the most skillsync reads of it", e.What, size)
}

// tooLarge names what err, when it is a [*bounded.TooLargeError], was;
// it returns other errors as they are.
func tooLarge(what string, err error) error {
	var tl *bounded.TooLargeError
	if errors.As(err, &tl) {
		return &TooLargeError{What: what, Size: tl.Size, Max: tl.Limit}
	}
	return err
}
