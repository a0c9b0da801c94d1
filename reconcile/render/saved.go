package render

import (
	"errors"
	"fmt"
	"io"
	"net/url"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/planfile"
)

// WriteSavedPlans writes the saved plans of the targets planned, one or
// several, as the document of [JSON] with two more keys: tool_version,
// the skillsync that wrote it, and in each plan base_url. Any reader of
// plans reads it too.
//
// It refuses a plan of more than [planfile.MaxBytes], which
// apply could not read back: it then stops writing, having written no
// more than that (w holds the start of the plan: write to a temporary
// file, renamed once WriteSavedPlans succeeded, as plan -out does), and
// goes on only to count the plan's size for the error.
func WriteSavedPlans(w io.Writer, toolVersion string, sps []*planfile.Saved) error {
	return writeSavedPlans(w, toolVersion, sps, planfile.MaxBytes)
}

func writeSavedPlans(w io.Writer, toolVersion string, sps []*planfile.Saved, max int64) error {
	if len(sps) == 0 {
		return errors.New("no plan to save")
	}
	plans := make([]*reconcile.Plan, len(sps))
	sk := savedKeys{toolVersion: toolVersion, baseURLs: make([]string, len(sps))}
	for i, sp := range sps {
		if sp == nil || sp.Plan == nil {
			return errors.New("no plan to save")
		}
		if u, err := url.Parse(sp.BaseURL); err != nil || u.User != nil || u.RawQuery != "" {
			// The client refuses such URLs anyway; a plan file must never
			// carry a credential, however it came to be in the URL.
			return errors.New("refusing to save a plan whose base URL holds credentials or a query")
		}
		if len(sps) > 1 && sp.Plan.Target == "" {
			return errors.New("saving the plans of several targets: a plan has no target name")
		}
		plans[i], sk.baseURLs[i] = sp.Plan, sp.BaseURL
	}
	lim := &limitWriter{w: w, max: max}
	if err := writeDocument(lim, plans, sk); err != nil {
		return err
	}
	if lim.n > max {
		return fmt.Errorf("the plan is %d bytes, more than %s, the most apply reads of a saved plan: plan fewer skills at a time (a target each, or fewer skills in the repository)", lim.n, bounded.Size(max))
	}
	return nil
}

// A limitWriter passes writes on to w while they total at most max bytes,
// then none: it only counts them in n.
type limitWriter struct {
	w   io.Writer
	max int64
	n   int64
}

func (l *limitWriter) Write(p []byte) (int, error) {
	l.n += int64(len(p))
	if l.n > l.max {
		return len(p), nil
	}
	return l.w.Write(p)
}

// ReadSavedPlans reads the plans written by [WriteSavedPlans]. It rejects
// a document of another major format_version,
// and a JSON plan that was not saved with `plan -out` (it has no base_url
// to check the target against). It reads at most [planfile.MaxBytes],
// failing with a [*reconcile.TooLargeError] past that.
func ReadSavedPlans(r io.Reader) ([]*planfile.Saved, error) {
	return readSavedPlans(r, planfile.MaxBytes)
}

func readSavedPlans(r io.Reader, max int64) ([]*planfile.Saved, error) {
	data, err := readPlan(r, "the saved plan", max)
	if err != nil {
		return nil, err
	}
	ts, err := decodeDocument(data)
	if err != nil {
		return nil, err
	}
	out := make([]*planfile.Saved, len(ts))
	for i := range ts {
		if ts[i].BaseURL == nil {
			return nil, errors.New("not a saved plan (no base_url): save plans for apply with `skillsync plan -out FILE`, not with --format json")
		}
		out[i] = &planfile.Saved{BaseURL: *ts[i].BaseURL, Plan: &ts[i].Plan}
	}
	return out, nil
}
