package journal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/reconcile"
)

// MaxBytes is the largest journal read (by restore) or appended to. The
// lines of one apply carry the before, the request and the answer of each
// change, without the plan's diffs: the journal of the largest saved plan
// stays well under twice its size.
const MaxBytes = 1 << 30

// Read reads every entry of a journal, in file order: started lines and
// outcome lines alike (see [reconcile.OutcomeStarted]).
// On a line that does not parse it returns the entries before it with an
// error naming the line: a [*TornError] when it is the last line (a crash
// or a full disk cut its write short), which a reader may accept.
//
// It reads at most [MaxBytes], failing with a [*reconcile.TooLargeError]
// and no entries past that.
func Read(r io.Reader) ([]reconcile.JournalEntry, error) {
	return read(r, MaxBytes)
}

func read(r io.Reader, max int64) ([]reconcile.JournalEntry, error) {
	var out []reconcile.JournalEntry
	var bad error // a line that is not an entry: torn if no whole line follows
	badLine := 0
	br := bufio.NewReader(bounded.NewReader(r, max))
	for n := 1; ; n++ {
		line, err := br.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if bad != nil {
				return out, bad // damage in the middle, not a write cut short
			}
			var e reconcile.JournalEntry
			// Unknown keys are allowed: a later version may add some.
			if derr := json.Unmarshal(line, &e); derr != nil {
				bad, badLine = fmt.Errorf("journal line %d: %w", n, derr), n
			} else {
				out = append(out, e)
			}
		}
		if errors.Is(err, io.EOF) {
			if bad != nil {
				return out, &TornError{Line: badLine, Err: bad}
			}
			return out, nil
		}
		var tl *bounded.TooLargeError
		if errors.As(err, &tl) {
			return nil, &reconcile.TooLargeError{What: "the journal", Size: tl.Size, Max: tl.Limit}
		}
		if err != nil {
			return out, fmt.Errorf("reading journal: %w", err)
		}
	}
}

// A TornError is returned by [Read] when only the last line
// of the journal is not an entry: a write cut short by a crash or a full
// disk. The entries before it are returned with it, whole.
type TornError struct {
	Line int // the torn line
	Err  error
}

func (e *TornError) Error() string {
	return fmt.Sprintf("the last line of the journal is cut short: %v", e.Err)
}

func (e *TornError) Unwrap() error { return e.Err }
