package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
)

// FormatVersion is the format_version of the JSON documents skillsync
// writes of plans ([JSON]), saved plans ([WriteSavedPlans]) and apply
// results. A reader accepts any version with the same major number: minor
// versions only add fields.
const FormatVersion = "3"

// errFormatVersion is wrapped in the error [ReadSavedPlans] returns for a
// plan written in a format this version cannot read.
var errFormatVersion = errors.New("unsupported plan format_version")

// ErrEarlierFormat is wrapped in the error returned for a plan that an
// earlier skillsync saved, in a format this one no longer reads: planning
// again is what to do with it.
var ErrEarlierFormat = errors.New("the plan was written by an earlier skillsync, in a format this one no longer reads")

// JSON writes the plans of the targets planned, one or several, as
// one JSON document:
//
//	{"format_version": "3", "summary": {...}, "targets": [PLAN, ...]}
//
// summary adds the plans up ([reconcile.SummarizeTargets]); each PLAN has
// the fields of [reconcile.Plan], its target's name ("" for a
// skillsync.yaml without targets) always among them, and each change its
// diff. A saved plan is the same document with the keys [WriteSavedPlans]
// adds.
//
// The bytes are those a [json.Encoder] with two spaces of indent and no
// HTML escaping writes of the whole, but that what no one can see is
// written as \u escapes ([visible.EscapeJSON]): values stay as they are for
// machines, and a person sees them. The document of a large plan is
// larger than the plan, so it is written a change at a time, a few
// kilobytes at a time.
func JSON(w io.Writer, plans []*reconcile.Plan) error {
	return writeDocument(w, plans, savedKeys{})
}

// savedKeys are the keys a saved plan adds to the document: the skillsync
// that wrote it, and the service each plan was made against.
type savedKeys struct {
	toolVersion string
	baseURLs    []string // by plan; nil for a document that is not saved
}

// writeDocument writes the document of plans, with the keys of sk.
func writeDocument(w io.Writer, plans []*reconcile.Plan, sk savedKeys) error {
	j := newJSONWriter(w)
	j.begin("", '{')
	j.value("format_version", FormatVersion)
	if sk.baseURLs != nil {
		j.value("tool_version", sk.toolVersion)
	}
	j.value("summary", reconcile.SummarizeTargets(plans))
	j.begin("targets", '[')
	for i, p := range plans {
		cp := *p
		cp.Normalize()
		j.begin("", '{')
		j.value("target", cp.Target)
		j.value("space", cp.Space)
		if sk.baseURLs != nil {
			j.value("base_url", sk.baseURLs[i])
		}
		j.value("commit", cp.Commit)
		if cp.Dirty {
			j.value("dirty", true)
		}
		j.value("desired_hash", cp.DesiredHash)
		if len(cp.Findings) > 0 {
			j.value("findings", cp.Findings)
		}
		j.begin("changes", '[')
		for k := range cp.Changes {
			j.value("", jsonForm(&cp.Changes[k]))
		}
		j.end()
		j.value("unmanaged", cp.Unmanaged)
		j.value("missing", cp.Missing)
		j.begin("files", '[')
		for k := range cp.Files {
			j.value("", &cp.Files[k])
		}
		j.end()
		j.value("publish", cp.Publish)
		j.value("errors", cp.Errors)
		j.value("warnings", cp.Warnings)
		j.value("summary", cp.Summary)
		j.value("descriptions", cp.Descriptions)
		j.end()
	}
	j.end()
	j.end()
	return j.finish()
}

// A jsonWriter writes one JSON document a member at a time, as an indenting
// json.Encoder writes the whole: each value is encoded when it is written,
// so that only the largest holds memory while it is written.
type jsonWriter struct {
	lw     *bufio.Writer
	buf    bytes.Buffer
	enc    *json.Encoder // encodes into buf
	indent string        // of the members of the innermost open container
	open   []container
	err    error // the first error of encoding
}

// A container is an object or an array being written.
type container struct {
	close byte // '}' or ']'
	any   bool // a member was written
}

func newJSONWriter(w io.Writer) *jsonWriter {
	j := &jsonWriter{lw: newBuffered(w)}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false) // diffs hold "<" and "&"; keep them readable
	return j
}

// member starts a member of the innermost open container: key for an
// object's, "" for an array's.
func (j *jsonWriter) member(key string) {
	if n := len(j.open); n > 0 {
		if j.open[n-1].any {
			j.lw.WriteByte(',')
		}
		j.open[n-1].any = true
		j.lw.WriteString("\n" + j.indent)
	}
	if key != "" {
		j.lw.WriteString(`"` + key + `": `)
	}
}

// begin opens an object ('{') or an array ('[') as the member key.
func (j *jsonWriter) begin(key string, delim byte) {
	j.member(key)
	j.lw.WriteByte(delim)
	j.open = append(j.open, container{close: delim + 2}) // '{'+2 is '}', '['+2 is ']'
	j.indent += "  "
}

// end closes the innermost open container.
func (j *jsonWriter) end() {
	c := j.open[len(j.open)-1]
	j.open = j.open[:len(j.open)-1]
	j.indent = j.indent[:len(j.indent)-2]
	if c.any {
		j.lw.WriteString("\n" + j.indent)
	}
	j.lw.WriteByte(c.close)
}

// value writes v, encoded whole, as the member key.
func (j *jsonWriter) value(key string, v any) {
	if j.err != nil {
		return
	}
	j.member(key)
	j.buf.Reset()
	j.enc.SetIndent(j.indent, "  ")
	if err := j.enc.Encode(v); err != nil {
		j.err = fmt.Errorf("encoding plan: %w", err)
		return
	}
	j.lw.Write(visible.EscapeJSON(bytes.TrimSuffix(j.buf.Bytes(), []byte("\n"))))
}

// finish ends the document with a newline and writes what is left.
func (j *jsonWriter) finish() error {
	j.lw.WriteByte('\n')
	if err := j.lw.Flush(); err != nil {
		return err
	}
	return j.err
}

// changeJSON is the JSON form of a [reconcile.Change]: its fields in their
// order, with the diff of its instructions after "after". A test holds it
// to Change, field by field.
type changeJSON struct {
	Slug        string               `json:"slug"`
	ID          string               `json:"id"`
	Path        string               `json:"path,omitempty"`
	Actions     []reconcile.Action   `json:"actions"`
	Fields      []string             `json:"fields"`
	Before      reconcile.SkillState `json:"before"`
	After       reconcile.SkillState `json:"after"`
	Diff        string               `json:"diff,omitempty"`
	Agents      []reconcile.AgentRef `json:"agents"`
	Unmanaged   bool                 `json:"unmanaged,omitempty"`
	Origin      string               `json:"origin,omitempty"`
	DriftFields []string             `json:"drift_fields,omitempty"`
	UpdatedAt   string               `json:"updated_at"`
	LiveHash    string               `json:"live_hash"`
}

// jsonForm is c as JSON shows it, its diff made.
func jsonForm(c *reconcile.Change) *changeJSON {
	return &changeJSON{
		Slug: c.Slug, ID: c.ID, Path: c.Path, Actions: c.Actions, Fields: c.Fields,
		Before: c.Before, After: c.After, Diff: c.Diff(), Agents: c.Agents,
		Unmanaged: c.Unmanaged, Origin: c.Origin, DriftFields: c.DriftFields,
		UpdatedAt: c.UpdatedAt, LiveHash: c.LiveHash,
	}
}

// targetJSON is a plan of the document as read back: the plan, and the
// base_url of a saved plan. Its "diff"s are not read: a plan read back
// makes them again from before and after.
type targetJSON struct {
	BaseURL *string `json:"base_url"`
	reconcile.Plan
}

// decodeDocument reads a document of plans read whole, of this major
// format_version, checking each plan as apply needs it: targets named
// once each, and every change one apply knows how to make.
func decodeDocument(data []byte) ([]targetJSON, error) {
	var doc struct {
		FormatVersion *string      `json:"format_version"`
		Targets       []targetJSON `json:"targets"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("decoding plan: %w", err)
	}
	if err := checkVersion(doc.FormatVersion, data); err != nil {
		return nil, err
	}
	if len(doc.Targets) == 0 {
		return nil, errors.New("decoding plan: a document with no targets")
	}
	seen := map[string]bool{}
	for i := range doc.Targets {
		p := &doc.Targets[i].Plan
		if seen[p.Target] || p.Target == "" && len(doc.Targets) > 1 {
			return nil, fmt.Errorf("decoding plan: targets[%d] has no target name, or one of an earlier plan", i)
		}
		seen[p.Target] = true
		if err := p.Validate(); err != nil {
			if p.Target != "" {
				return nil, fmt.Errorf("target %s: decoding plan: %w", p.Target, err)
			}
			return nil, fmt.Errorf("decoding plan: %w", err)
		}
		p.Normalize()
	}
	return doc.Targets, nil
}

// checkVersion refuses a document of another major format_version v than
// this version writes, saying what to do about it. A plan of an earlier
// skillsync (versions 1 and 2, data with a desired_hash) is told apart.
func checkVersion(v *string, data []byte) error {
	if v == nil {
		return errors.New("decoding plan: no format_version; is this a skillsync plan?")
	}
	switch major, _, _ := strings.Cut(*v, "."); major {
	case FormatVersion:
		return nil
	case "1", "2":
		if bytes.Contains(data, []byte(`"desired_hash"`)) {
			return fmt.Errorf("%w %q: %w; plan again with this one (skillsync plan -out FILE), and apply the new plan",
				errFormatVersion, *v, ErrEarlierFormat)
		}
	}
	return fmt.Errorf("%w %q: this skillsync reads plans of format_version %s; plan again with this version, or use the skillsync that wrote it",
		errFormatVersion, *v, FormatVersion)
}

// readPlan reads the whole of a plan file of at most max bytes.
func readPlan(r io.Reader, what string, max int64) ([]byte, error) {
	data, err := bounded.ReadAll(r, max)
	var tl *bounded.TooLargeError
	switch {
	case errors.As(err, &tl):
		err = &reconcile.TooLargeError{What: what, Size: tl.Size, Max: tl.Limit}
	case err != nil:
		err = fmt.Errorf("reading plan: %w", err)
	}
	return data, err
}
