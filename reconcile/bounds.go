package reconcile

import (
	"fmt"

	"github.com/skillsync/skillsync/internal/bounded"
)

// A TooLargeError is returned for a file over the bound skillsync reads of
// its kind (a saved plan, a journal), before the file is read whole.
// Callers name the file. Each bound is larger than any such file skillsync
// itself writes for a space of a thousand skills, and keeps a file that is
// not one of them (a log, a dump, /dev/zero) from being read whole.
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
