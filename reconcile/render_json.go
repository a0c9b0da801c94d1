package reconcile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
)

// ErrFormatVersion is returned (wrapped) by [ReadSavedPlans] for a plan
// written in a format this version cannot read.
var ErrFormatVersion = errors.New("unsupported plan format_version")

// RenderJSON writes p as indented JSON, the schema of DESIGN.md with
// format_version "1". A saved plan is the same document with two more keys
// ([WriteSavedPlans]).
//
// It writes as it goes, a change at a time, so that a plan of a thousand
// rewritten skills never stands whole in memory, and each write to w is
// of whole lines (a filter of w may then look at a line at a time). The
// bytes are those of a [json.Encoder] with two spaces of indent and no
// HTML escaping, encoding the whole plan at once, but for the characters
// no one can see, written as \u escapes ([visible.EscapeJSON]): every
// value stays as it is for machines, and a person sees them.
func RenderJSON(w io.Writer, p *Plan) error {
	lw := newLineWriter(w)
	if err := writePlanObject(lw, p, "", func(cp *Plan) any { return cp }); err != nil {
		return err
	}
	lw.WriteByte('\n')
	return lw.Flush()
}

// writePlanObject writes p as the JSON object skel gives of it (the plan
// itself, or the plan with more keys), as an indenting json.Encoder would
// at an indent of prefix, but for the last newline: its first line is
// not indented, as it follows what the caller wrote. It writes as it
// goes, a change at a time.
func writePlanObject(lw *lineWriter, p *Plan, prefix string, skel func(*Plan) any) error {
	cp := *p
	cp.normalize()
	// The plan without its two long arrays is small: encode it whole, then
	// write it with the arrays streamed into their places.
	changes, files := cp.Changes, cp.Files
	cp.Changes, cp.Files = []Change{}, []FileIssue{}
	rest, err := encodeIndented(skel(&cp), prefix)
	if err != nil {
		return err
	}
	rest = bytes.TrimSuffix(rest, []byte("\n"))
	for _, a := range []struct {
		key  string
		n    int
		elem func(i int) any
	}{
		{"changes", len(changes), func(i int) any { return changes[i].jsonForm() }},
		{"files", len(files), func(i int) any { return &files[i] }},
	} {
		// A key of the object is the only thing at its indent after a
		// newline: JSON strings hold no raw newline.
		mark := []byte("\n" + prefix + "  \"" + a.key + "\": []")
		at := bytes.Index(rest, mark)
		if at < 0 {
			return fmt.Errorf("encoding plan: no %q array in %s", a.key, rest)
		}
		at += len(mark) - len("[]")
		lw.Write(rest[:at])
		rest = rest[at+len("[]"):]
		if err := writeJSONArray(lw, prefix+"  ", a.n, a.elem); err != nil {
			return err
		}
	}
	lw.Write(rest)
	return nil
}

// writeJSONArray writes the n elements of an array whose key is at indent
// as an indenting json.Encoder does, each encoded alone.
func writeJSONArray(lw *lineWriter, indent string, n int, elem func(i int) any) error {
	if n == 0 {
		lw.WriteString("[]")
		return nil
	}
	lw.WriteString("[\n")
	for i := range n {
		b, err := encodeIndented(elem(i), indent+"  ")
		if err != nil {
			return err
		}
		lw.WriteString(indent + "  ")
		lw.Write(bytes.TrimSuffix(b, []byte("\n")))
		if i < n-1 {
			lw.WriteString(",")
		}
		lw.WriteString("\n")
	}
	lw.WriteString(indent + "]")
	return nil
}

// encodeIndented encodes v as RenderJSON does, as if at an indent of
// prefix, with the newline an Encoder ends with. What no one can see is
// written as \u escapes, which a person reading the JSON sees and a
// parser reads back as it was.
func encodeIndented(v any, prefix string) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // diffs hold "<" and "&"; keep them readable
	enc.SetIndent(prefix, "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding plan: %w", err)
	}
	return visible.EscapeJSON(buf.Bytes()), nil
}

// changeJSON is the JSON form of a [Change]: its fields in their order,
// with the diff of its instructions after "after". A test holds it to
// Change, field by field.
type changeJSON struct {
	Slug        string     `json:"slug"`
	ID          string     `json:"id"`
	Path        string     `json:"path,omitempty"`
	Actions     []Action   `json:"actions"`
	Fields      []string   `json:"fields"`
	Before      SkillState `json:"before"`
	After       SkillState `json:"after"`
	Diff        string     `json:"diff,omitempty"`
	Agents      []AgentRef `json:"agents"`
	Unmanaged   bool       `json:"unmanaged,omitempty"`
	Origin      string     `json:"origin,omitempty"`
	DriftFields []string   `json:"drift_fields,omitempty"`
	UpdatedAt   string     `json:"updated_at"`
	LiveHash    string     `json:"live_hash"`
}

// MarshalJSON encodes c with its diff ([Change.Diff]) as "diff", which
// [ReadSavedPlans] ignores: a plan read back makes it again from before
// and after.
func (c Change) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	// The caller's encoder escapes HTML, or not, as it was told.
	enc.SetEscapeHTML(false)
	if err := enc.Encode(c.jsonForm()); err != nil {
		return nil, err
	}
	return visible.EscapeJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// jsonForm is c as JSON shows it, its diff made.
func (c *Change) jsonForm() *changeJSON {
	return &changeJSON{
		Slug: c.Slug, ID: c.ID, Path: c.Path, Actions: c.Actions, Fields: c.Fields,
		Before: c.Before, After: c.After, Diff: c.Diff(), Agents: c.Agents,
		Unmanaged: c.Unmanaged, Origin: c.Origin, DriftFields: c.DriftFields,
		UpdatedAt: c.UpdatedAt, LiveHash: c.LiveHash,
	}
}

// eachPlan calls fn with the plan of a document of format_version 1, or
// with each plan of the targets of a document of format_version 2.
func eachPlan(data []byte, fn func(raw []byte) error) error {
	major, err := majorVersion(data)
	if err != nil {
		return err
	}
	if major == FormatVersion {
		return fn(data)
	}
	var doc struct {
		Targets []json.RawMessage `json:"targets"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("decoding plan: %w", err)
	}
	if len(doc.Targets) == 0 {
		return errors.New("decoding plan: a document of format_version 2 with no targets")
	}
	seen := map[string]bool{}
	for i, raw := range doc.Targets {
		var head struct {
			Target string `json:"target"`
		}
		if err := json.Unmarshal(raw, &head); err != nil {
			return fmt.Errorf("decoding plan: targets[%d]: %w", i, err)
		}
		if head.Target == "" || seen[head.Target] {
			return fmt.Errorf("decoding plan: targets[%d] has no target name, or one of an earlier plan", i)
		}
		seen[head.Target] = true
		if err := fn(raw); err != nil {
			return fmt.Errorf("target %s: %w", head.Target, err)
		}
	}
	return nil
}

// majorVersion is the major number of a plan document's format_version,
// one of those this version reads.
func majorVersion(data []byte) (string, error) {
	var head struct {
		FormatVersion *string `json:"format_version"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return "", fmt.Errorf("decoding plan: %w", err)
	}
	if head.FormatVersion == nil {
		return "", fmt.Errorf("decoding plan: no format_version; is this a skillsync plan?")
	}
	major, _, _ := strings.Cut(*head.FormatVersion, ".")
	if major != FormatVersion && major != FormatVersionTargets {
		return "", fmt.Errorf("%w %q: this skillsync reads version %s plans (and version %s documents of several targets' plans); plan again with this version, or use the skillsync that wrote it",
			ErrFormatVersion, *head.FormatVersion, FormatVersion, FormatVersionTargets)
	}
	return major, nil
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

// decodePlan reads one plan, of format_version 1, read whole.
func decodePlan(data []byte) (*Plan, error) {
	major, err := majorVersion(data)
	if err != nil {
		return nil, err
	}
	if major != FormatVersion {
		return nil, fmt.Errorf("%w %s within a document of several targets", ErrFormatVersion, major)
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
