package journal

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
)

func wantTooLarge(t *testing.T, err error, want string) {
	t.Helper()
	var tl *reconcile.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("error %v (%T), want a *TooLargeError", err, err)
	}
	if err.Error() != want {
		t.Errorf("error %q,\n want %q", err, want)
	}
}

// TestJournalBound: a journal past MaxBytes is neither read by
// restore nor appended to by apply, naming the file and the bound.
func TestJournalBound(t *testing.T) {
	f := reconciletest.SparseFile(t, "j.jsonl", MaxBytes+1)
	es, err := Read(f)
	wantTooLarge(t, err, fmt.Sprintf("the journal is %d bytes, more than 1 GiB, the most skillsync reads of it", MaxBytes+1))
	if es != nil {
		t.Errorf("entries %v of a journal too large to read", es)
	}
	if _, err := Open(f.Name()); err == nil || !strings.Contains(err.Error(),
		fmt.Sprintf("journal %s is %d bytes already, more than 1 GiB, the most restore reads", f.Name(), MaxBytes+1)) {
		t.Errorf("Open of a journal over the bound: %v", err)
	}

	line := `{"space":"ab12","slug":"a","id":"1","action":"enable","outcome":"applied","before":{"name":"A","description":"d","instructions":null,"enabled":false}}` + "\n"
	in := strings.Repeat(line, 3)
	if es, err := read(strings.NewReader(in), int64(len(in))); err != nil || len(es) != 3 {
		t.Fatalf("a journal of exactly the bound: %d entries, %v", len(es), err)
	}
	// Whole lines past the bound are no torn end: nothing is restored.
	es, err = read(strings.NewReader(in+line), int64(len(in)))
	wantTooLarge(t, err, fmt.Sprintf("the journal is more than %d bytes, the most skillsync reads of it", len(in)))
	if es != nil {
		t.Errorf("entries %v of a journal too large to read", es)
	}
}
