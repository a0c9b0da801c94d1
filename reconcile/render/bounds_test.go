package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
)

// countingReader counts what is read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

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

// TestSavedPlanBound: a file past planfile.MaxBytes given as a saved plan
// is refused from its size alone, naming the bound, and one that is no
// file is read no further than the bound.
func TestSavedPlanBound(t *testing.T) {
	f := reconciletest.SparseFile(t, "plan.json", planfile.MaxBytes+1)
	_, err := ReadSavedPlan(f)
	wantTooLarge(t, err, fmt.Sprintf("the saved plan is %d bytes, more than 512 MiB, the most skillsync reads of it", planfile.MaxBytes+1))
	if off, _ := f.Seek(0, io.SeekCurrent); off != 0 {
		t.Errorf("read %d bytes of a file known to be too large", off)
	}
	_, err = DecodePlan(reconciletest.SparseFile(t, "plan.json", planfile.MaxBytes+1))
	wantTooLarge(t, err, fmt.Sprintf("the plan is %d bytes, more than 512 MiB, the most skillsync reads of it", planfile.MaxBytes+1))

	// A stream of unknown size: read up to one byte past the bound.
	sp := &planfile.Saved{BaseURL: "https://t.example.com", Plan: reviewPlan()}
	var buf bytes.Buffer
	if err := WriteSavedPlan(&buf, sp); err != nil {
		t.Fatal(err)
	}
	size := int64(buf.Len())
	if _, err := readSavedPlan(bytes.NewReader(buf.Bytes()), size); err != nil {
		t.Fatalf("a plan of exactly the bound: %v", err)
	}
	cr := &countingReader{r: io.MultiReader(bytes.NewReader(buf.Bytes()), strings.NewReader(strings.Repeat(" ", 1<<20)))}
	_, err = readSavedPlan(cr, size)
	wantTooLarge(t, err, fmt.Sprintf("the saved plan is more than %d bytes, the most skillsync reads of it", size))
	if cr.n > size+1 {
		t.Errorf("read %d bytes, with a bound of %d", cr.n, size)
	}

	// What apply cannot read back, plan -out does not write.
	var out bytes.Buffer
	err = writeSavedPlan(&out, sp, size-1)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("the plan is %d bytes, more than %d bytes, the most apply reads of a saved plan", size, size-1)) {
		t.Errorf("writing a plan over the bound: %v", err)
	}
	if out.Len() != 0 {
		t.Errorf("wrote %d bytes of a plan over the bound", out.Len())
	}
}
