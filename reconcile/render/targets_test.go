package render

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/planfile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// targetPlans are the plans of two targets: staging with a change,
// prod without.
func targetPlans(t *testing.T) []*reconcile.Plan {
	t.Helper()
	r := reconciletest.Repo(reconciletest.Local("a", func(s *fsrepo.Skill) { s.Description = "New <b>&</b> description." }), reconciletest.Local("b"))
	staging := reconcile.Compute(r, &reconcile.Live{Space: "st01", Skills: []remote.Skill{reconciletest.Live("a"), reconciletest.Live("b", reconciletest.RemoteDisabled)}}, reconcile.Policy{})
	prod := reconcile.Compute(r, &reconcile.Live{Space: "pr01", Skills: []remote.Skill{reconciletest.Live("a", func(s *remote.Skill) { s.Description = "New <b>&</b> description." }), reconciletest.Live("b")}}, reconcile.Policy{})
	staging.Target, prod.Target = "staging", "prod"
	if !staging.HasChanges() || prod.HasChanges() {
		t.Fatalf("fixture: staging %d changes, prod %d", len(staging.Changes), len(prod.Changes))
	}
	return []*reconcile.Plan{staging, prod}
}

// TestRenderJSONOneShape: the document has one shape whatever the
// number of targets: its summary adds the plans up, each plan names its
// target ("" for a skillsync.yaml without targets), and it reads back as
// the plans it was written from.
func TestRenderJSONOneShape(t *testing.T) {
	plans := targetPlans(t)
	var got bytes.Buffer
	if err := JSON(&got, plans); err != nil {
		t.Fatal(err)
	}
	text := got.String()
	for _, s := range []string{
		"{\n  \"format_version\": \"3\",\n  \"summary\": {\n    \"targets\": 2,\n    \"with_changes\": 1,\n    \"with_errors\": 0,\n    \"update\": 1,\n    \"enable\": 1,",
		"\n  \"targets\": [\n    {\n      \"target\": \"staging\",\n      \"space\": \"st01\",\n",
		"\n    {\n      \"target\": \"prod\",\n      \"space\": \"pr01\",\n",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("document lacks %q:\n%s", s, text)
		}
	}
	back, err := DecodePlans(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || !reflect.DeepEqual(back[0], plans[0]) || !reflect.DeepEqual(back[1], plans[1]) {
		t.Errorf("did not round-trip: %+v", back)
	}
	if _, err := DecodePlan(strings.NewReader(text)); err == nil || !strings.Contains(err.Error(), "holds the plans of 2 targets") {
		t.Errorf("DecodePlan of two targets: %v", err)
	}

	// One target is a list of one, in the same envelope.
	one := *plans[1]
	one.Target = ""
	var single bytes.Buffer
	if err := JSON(&single, []*reconcile.Plan{&one}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(single.String(), "{\n  \"format_version\": \"3\",\n  \"summary\": {\n    \"targets\": 1,") ||
		!strings.Contains(single.String(), "\n  \"targets\": [\n    {\n      \"target\": \"\",\n      \"space\": \"pr01\",\n") {
		t.Errorf("the plan of a skillsync.yaml without targets:\n%.600s", single.String())
	}
	if p, err := DecodePlan(&single); err != nil || !reflect.DeepEqual(p, &one) {
		t.Errorf("DecodePlan of one plan: %+v, %v", p, err)
	}
}

// TestRenderJSONIsEncodingJSON: the document written a member at a time
// is what encoding/json writes, indented by two spaces, and each plan has
// the keys of Plan's JSON tags in their order, "diff" in each change: a
// field added to Plan and not to the writer fails here.
func TestRenderJSONIsEncodingJSON(t *testing.T) {
	for name, p := range propertyPlans(t) {
		if strings.HasPrefix(name, "huge-") {
			continue
		}
		p.Dirty, p.Target = true, "t"
		p.Findings = []reconcile.Finding{{Slug: "a", Rule: "hidden-unicode", Severity: "error"}} // written only when there are some
		var got bytes.Buffer
		if err := JSON(&got, []*reconcile.Plan{p}); err != nil {
			t.Fatal(err)
		}
		var compact, indented bytes.Buffer
		if err := json.Compact(&compact, got.Bytes()); err != nil {
			t.Fatalf("%s: not JSON: %v", name, err)
		}
		if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
			t.Fatal(err)
		}
		indented.WriteByte('\n')
		if indented.String() != got.String() {
			t.Fatalf("%s: the document is not indented as encoding/json indents it:\n%s", name, got.String())
		}
		var doc struct {
			Targets []json.RawMessage `json:"targets"`
		}
		if err := json.Unmarshal(got.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		var want []string
		pt := reflect.TypeFor[reconcile.Plan]()
		for i := range pt.NumField() {
			key, _, _ := strings.Cut(pt.Field(i).Tag.Get("json"), ",")
			want = append(want, key)
		}
		if got := objectKeys(t, doc.Targets[0]); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the plan's keys are\n%v\nPlan's tags\n%v", name, got, want)
		}
	}
}

// objectKeys are the keys of the JSON object raw, in their order.
func objectKeys(t *testing.T, raw []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// TestDecodePlansRefusesBadDocuments: a document of several targets
// names each, once.
func TestDecodePlansRefusesBadDocuments(t *testing.T) {
	for _, tc := range []struct{ doc, err string }{
		{`{"format_version": "3", "targets": []}`, "no targets"},
		{`{"format_version": "3", "targets": [{"space": "ab12"}, {"target": "b"}]}`, "targets[0] has no target name"},
		{`{"format_version": "3", "targets": [{"target": "a"}, {"target": "a"}]}`, "targets[1] has no target name, or one of an earlier plan"},
		{`{"format_version": "3", "targets": [{"target": "a", "changes": [{"slug": "x", "actions": ["update"]}]}]}`, "target a: decoding plan: change of \"x\" has no id"},
	} {
		if _, err := DecodePlans(strings.NewReader(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.doc, err, tc.err)
		}
	}
}

// TestSavedPlansOfTargets: plan -out saves the document of plans, with
// the skillsync that wrote it and each plan's service.
func TestSavedPlansOfTargets(t *testing.T) {
	plans := targetPlans(t)
	sps := []*planfile.Saved{
		{BaseURL: "https://a.example.com", Plan: plans[0]},
		{BaseURL: "https://b.example.com", Plan: plans[1]},
	}
	var buf bytes.Buffer
	if err := WriteSavedPlans(&buf, "v1.2.3", sps); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, "{\n  \"format_version\": \"3\",\n  \"tool_version\": \"v1.2.3\",\n  \"summary\": {\n    \"targets\": 2,") ||
		!strings.Contains(text, "\n  \"targets\": [\n    {\n      \"target\": \"staging\",\n      \"space\": \"st01\",\n      \"base_url\": \"https://a.example.com\",\n") {
		t.Errorf("saved plans:\n%.600s", text)
	}
	// Apart from its two keys, a saved plan is the document of plans.
	var plain bytes.Buffer
	if err := JSON(&plain, plans); err != nil {
		t.Fatal(err)
	}
	stripped := strings.Replace(text, "  \"tool_version\": \"v1.2.3\",\n", "", 1)
	stripped = strings.Replace(stripped, "      \"base_url\": \"https://a.example.com\",\n", "", 1)
	stripped = strings.Replace(stripped, "      \"base_url\": \"https://b.example.com\",\n", "", 1)
	if stripped != plain.String() {
		t.Errorf("the saved plan is not the document of plans with two more keys:\n%s", text)
	}
	back, err := ReadSavedPlans(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[1].BaseURL != "https://b.example.com" || !reflect.DeepEqual(back[0].Plan, plans[0]) {
		t.Errorf("did not round-trip: %+v", back)
	}
	if _, err := ReadSavedPlan(strings.NewReader(text)); err == nil {
		t.Error("ReadSavedPlan read the plans of two targets as one")
	}
	// A document of plans with no base_url was not saved for apply.
	if _, err := ReadSavedPlans(&plain); err == nil || !strings.Contains(err.Error(), "not a saved plan") {
		t.Errorf("plan --format json of two targets read as saved: %v", err)
	}
	// Several plans need their names, to be told apart.
	plans[1].Target = ""
	if err := WriteSavedPlans(&bytes.Buffer{}, "v1", sps); err == nil {
		t.Error("saved two plans, one with no target name")
	}
}

// TestSavedPlanBoundWhileStreaming: a plan over the bound is refused with
// its size, and no more than the bound was written of it.
func TestSavedPlanBoundWhileStreaming(t *testing.T) {
	p := hugePlan(40, 200)
	sp := &planfile.Saved{BaseURL: "https://t.example.com", Plan: p}
	var whole bytes.Buffer
	if err := WriteSavedPlan(&whole, sp); err != nil {
		t.Fatal(err)
	}
	max := int64(whole.Len() / 2)
	var out bytes.Buffer
	err := writeSavedPlan(&out, sp, max)
	if err == nil || !strings.Contains(err.Error(), "the plan is "+itoa(whole.Len())+" bytes, more than") {
		t.Errorf("error %v, want the plan's size", err)
	}
	if int64(out.Len()) > max {
		t.Errorf("wrote %d bytes, over the bound of %d", out.Len(), max)
	}
	if errors.Is(err, errFormatVersion) {
		t.Error("wrong error")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestRenderTargetHeaders: a target's plan is headed by its name and
// space; its comment's marker adds the target to the space's, which
// stays as it was for the one space of a skillsync.yaml without targets.
func TestRenderTargetHeaders(t *testing.T) {
	p := targetPlans(t)[1]
	var text, md, fail bytes.Buffer
	if err := Text(&text, p, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text.String(), "skillsync plan for target prod (space pr01) at ") {
		t.Errorf("text head: %.80q", text.String())
	}
	if err := Markdown(&md, p, MarkdownOptions{Title: "skillsync drift"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "<!-- skillsync:plan space=pr01 target=prod -->\n### skillsync drift for target `prod` (space `pr01`)\n") {
		t.Errorf("markdown head: %.120q", md.String())
	}
	if err := FailureMarkdown(&fail, "pr01", "prod", "boom", "", nil, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(fail.String(), "<!-- skillsync:plan space=pr01 target=prod -->\n### skillsync plan for target `prod` (space `pr01`)\n") {
		t.Errorf("failure head: %.120q", fail.String())
	}
	if MarkdownMarker("ab12", "") != "<!-- skillsync:plan space=ab12 -->" {
		t.Errorf("the implicit target's marker changed: %s", MarkdownMarker("ab12", ""))
	}
	// The marker of a target never starts as another's: the comment of
	// the one space is not mistaken for a target's, nor the reverse.
	if strings.HasPrefix(MarkdownMarker("ab12", "prod"), MarkdownMarker("ab12", "")) || strings.HasPrefix(MarkdownMarker("ab12", "prod"), MarkdownMarker("ab12", "pro")) {
		t.Error("markers are prefixes of one another")
	}
}
