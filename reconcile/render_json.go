package reconcile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ErrFormatVersion is returned (wrapped) by [DecodePlan] for a plan written
// in a format this version cannot read.
var ErrFormatVersion = errors.New("unsupported plan format_version")

// RenderJSON writes p as indented JSON, the schema of DESIGN.md with
// format_version "1". [DecodePlan] reads it back.
func RenderJSON(w io.Writer, p *Plan) error {
	cp := *p
	cp.normalize()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // diffs hold "<" and "&"; keep them readable
	enc.SetIndent("", "  ")
	if err := enc.Encode(&cp); err != nil {
		return fmt.Errorf("encoding plan: %w", err)
	}
	_, err := w.Write(buf.Bytes())
	return err
}

// DecodePlan reads a JSON plan, such as a saved plan. It accepts any
// format_version of major version 1 (later minor versions only add fields,
// which it ignores) and rejects others with an error wrapping
// [ErrFormatVersion]. It also rejects actions and fields it does not know,
// since apply must never guess what a plan asks for.
//
// It reads at most [MaxSavedPlanBytes], failing with a [*TooLargeError]
// past that.
func DecodePlan(r io.Reader) (*Plan, error) {
	data, err := readPlan(r, "the plan", MaxSavedPlanBytes)
	if err != nil {
		return nil, err
	}
	return decodePlan(data)
}

// readPlan reads the whole of a plan file of at most max bytes.
func readPlan(r io.Reader, what string, max int64) ([]byte, error) {
	data, err := readAllBounded(r, what, max)
	var tl *TooLargeError
	if err != nil && !errors.As(err, &tl) {
		err = fmt.Errorf("reading plan: %w", err)
	}
	return data, err
}

// decodePlan is [DecodePlan] of a plan read whole.
func decodePlan(data []byte) (*Plan, error) {
	var head struct {
		FormatVersion *string `json:"format_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, fmt.Errorf("decoding plan: %w", err)
	}
	if head.FormatVersion == nil {
		return nil, fmt.Errorf("decoding plan: no format_version; is this a skillsync plan?")
	}
	major, _, _ := strings.Cut(*head.FormatVersion, ".")
	if major != FormatVersion {
		return nil, fmt.Errorf("%w %q: this skillsync reads version %s plans; plan again with this version, or use the skillsync that wrote it",
			ErrFormatVersion, *head.FormatVersion, FormatVersion)
	}
	var p Plan
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, fmt.Errorf("decoding plan: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("decoding plan: %w", err)
	}
	p.normalize()
	return &p, nil
}
