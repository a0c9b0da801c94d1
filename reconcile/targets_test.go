package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// targetPlans are the plans of two targets: staging with a change,
// prod without.
func targetPlans(t *testing.T) []*Plan {
	t.Helper()
	r := repo(local("a", func(s *fsrepo.Skill) { s.Description = "New <b>&</b> description." }), local("b"))
	staging := Compute(r, &Live{Space: "st01", Skills: []remote.Skill{live("a"), live("b", remoteDisabled)}}, Policy{})
	prod := Compute(r, &Live{Space: "pr01", Skills: []remote.Skill{live("a", func(s *remote.Skill) { s.Description = "New <b>&</b> description." }), live("b")}}, Policy{})
	staging.Target, prod.Target = "staging", "prod"
	if !staging.HasChanges() || prod.HasChanges() {
		t.Fatalf("fixture: staging %d changes, prod %d", len(staging.Changes), len(prod.Changes))
	}
	return []*Plan{staging, prod}
}

// TestRenderTargetsJSON: the document of several targets is format 2,
// each plan in it is a plan of format 1 with its target, its summary
// adds them up, and its bytes are those of a json.Encoder of the whole.
func TestRenderTargetsJSON(t *testing.T) {
	plans := targetPlans(t)
	var got bytes.Buffer
	if err := RenderTargetsJSON(&got, plans); err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]any{"format_version": "2", "targets": plans, "summary": SummarizeTargets(plans)}); err != nil {
		t.Fatal(err)
	}
	// The encoder of a map sorts its keys; the document's order is
	// format_version, targets, summary: compare the values.
	var g, w any
	if err := json.Unmarshal(got.Bytes(), &g); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, got.String())
	}
	if err := json.Unmarshal(want.Bytes(), &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("document differs from the encoder's:\n%s", got.String())
	}
	var ordered bytes.Buffer
	enc = json.NewEncoder(&ordered)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(struct {
		FormatVersion string         `json:"format_version"`
		Targets       []*Plan        `json:"targets"`
		Summary       TargetsSummary `json:"summary"`
	}{"2", plans, SummarizeTargets(plans)}); err != nil {
		t.Fatal(err)
	}
	if got.String() != ordered.String() {
		t.Errorf("bytes differ from a json.Encoder's:\n got %s\nwant %s", got.String(), ordered.String())
	}
	text := got.String()
	for _, s := range []string{"{\n  \"format_version\": \"2\",\n  \"targets\": [\n    {\n      \"format_version\": \"1\",\n      \"target\": \"staging\",\n      \"space\": \"st01\"",
		`"summary": {` + "\n    \"targets\": 2,\n    \"with_changes\": 1,\n    \"with_errors\": 0,\n    \"update\": 1,\n    \"enable\": 1,"} {
		if !strings.Contains(text, s) {
			t.Errorf("document lacks %q:\n%s", s, text)
		}
	}

	// DecodePlans reads both shapes back; DecodePlan only one plan.
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
	var one bytes.Buffer
	if err := RenderTargetsJSON(&one, plans[:1]); err != nil {
		t.Fatal(err)
	}
	if p, err := DecodePlan(&one); err != nil || p.Target != "staging" {
		t.Errorf("DecodePlan of one target's document: %v, %v", p, err)
	}
	var single bytes.Buffer
	if err := RenderJSON(&single, plans[1]); err != nil {
		t.Fatal(err)
	}
	if ps, err := DecodePlans(bytes.NewReader(single.Bytes())); err != nil || len(ps) != 1 || ps[0].Target != "prod" {
		t.Errorf("DecodePlans of a format 1 plan: %v, %v", ps, err)
	}
	if !strings.Contains(single.String(), "\"format_version\": \"1\",\n  \"target\": \"prod\",\n  \"space\": \"pr01\"") {
		t.Errorf("a named target's plan of format 1 lacks its target:\n%.200s", single.String())
	}

	// A reader of one plan that checks the major version, as STYLE.md
	// asks, refuses the document rather than reading no changes from it.
	var head struct {
		FormatVersion string `json:"format_version"`
	}
	if err := json.Unmarshal([]byte(text), &head); err != nil || strings.Split(head.FormatVersion, ".")[0] == FormatVersion {
		t.Errorf("format_version %q of the document: a format 1 reader would take it for its own", head.FormatVersion)
	}
}

// TestDecodePlansRefusesBadDocuments: a document of several targets
// names each, once.
func TestDecodePlansRefusesBadDocuments(t *testing.T) {
	for _, tc := range []struct{ doc, err string }{
		{`{"format_version": "2", "targets": []}`, "no targets"},
		{`{"format_version": "2", "targets": [{"format_version": "1", "space": "ab12"}]}`, "targets[0] has no target name"},
		{`{"format_version": "2", "targets": [{"format_version": "1", "target": "a"}, {"format_version": "1", "target": "a"}]}`, "targets[1] has no target name, or one of an earlier plan"},
		{`{"format_version": "2", "targets": [{"format_version": "2", "target": "a", "targets": []}]}`, "within a document of several targets"},
		{`{"format_version": "2", "targets": [{"format_version": "1", "target": "a", "changes": [{"slug": "x", "actions": ["update"]}]}]}`, "target a: decoding plan: change of \"x\" has no id"},
	} {
		if _, err := DecodePlans(strings.NewReader(tc.doc)); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: error %v, want %q", tc.doc, err, tc.err)
		}
	}
}

// TestSavedPlansOfTargets: plan -out of several targets saves each with
// its service; one target saves as before, with its name.
func TestSavedPlansOfTargets(t *testing.T) {
	plans := targetPlans(t)
	sps := []*SavedPlan{
		{ToolVersion: "v1.2.3", BaseURL: "https://a.example.com", Plan: plans[0]},
		{ToolVersion: "v1.2.3", BaseURL: "https://b.example.com", Plan: plans[1]},
	}
	var buf bytes.Buffer
	if err := WriteSavedPlans(&buf, sps); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.HasPrefix(text, "{\n  \"format_version\": \"2\",\n  \"targets\": [\n    {\n      \"format_version\": \"1\",\n      \"tool_version\": \"v1.2.3\",\n      \"base_url\": \"https://a.example.com\",\n      \"target\": \"staging\",") {
		t.Errorf("saved plans:\n%.400s", text)
	}
	if !strings.Contains(text, "\n  \"summary\": {\n    \"targets\": 2,") {
		t.Errorf("no summary at the top:\n%s", text)
	}
	back, err := ReadSavedPlans(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(back) != 2 || back[1].BaseURL != "https://b.example.com" || !reflect.DeepEqual(back[0].Plan, plans[0]) || back[0].ToolVersion != "v1.2.3" {
		t.Errorf("did not round-trip: %+v", back)
	}
	if _, err := ReadSavedPlan(strings.NewReader(text)); err == nil {
		t.Error("ReadSavedPlan read the plans of two targets as one")
	}
	// A document of plans with no base_url was not saved for apply.
	var plain bytes.Buffer
	if err := RenderTargetsJSON(&plain, plans); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadSavedPlans(&plain); err == nil || !strings.Contains(err.Error(), "not a saved plan") {
		t.Errorf("plan --format json of two targets read as saved: %v", err)
	}
	// Several plans need their names, to be told apart.
	plans[1].Target = ""
	if err := WriteSavedPlans(&bytes.Buffer{}, sps); err == nil {
		t.Error("saved two plans, one with no target name")
	}
}

// TestSavedPlanBytesUnchanged: streaming the saved plan writes the bytes
// that encoding it whole did.
func TestSavedPlanBytesUnchanged(t *testing.T) {
	p := hugePlan(3, 20)
	sp := &SavedPlan{ToolVersion: "v1", BaseURL: "https://t.example.com", Plan: p}
	var got, want bytes.Buffer
	if err := WriteSavedPlan(&got, sp); err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(&want)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(&savedFile{FormatVersion: FormatVersion, ToolVersion: "v1", BaseURL: sp.BaseURL, Plan: p}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("streamed saved plan differs from the one encoded whole")
	}
}

// TestSavedPlanBoundWhileStreaming: a plan over the bound is refused with
// its size, and no more than the bound was written of it.
func TestSavedPlanBoundWhileStreaming(t *testing.T) {
	p := hugePlan(40, 200)
	sp := &SavedPlan{ToolVersion: "v1", BaseURL: "https://t.example.com", Plan: p}
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
	if errors.Is(err, ErrFormatVersion) {
		t.Error("wrong error")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestApplyJournalsItsTarget: the journal and the result of a target's
// apply name it, and restore reads the name back; a plan of the one
// space of a skillsync.yaml without targets names none, as before.
func TestApplyJournalsItsTarget(t *testing.T) {
	for _, target := range []string{"prod", ""} {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("edit", "old\n", true)
		p := env.plan(desiredRepo(wantSkill("edit", "new\n", true)), Policy{})
		p.Target = target
		j := &memJournal{}
		res, err := Apply(context.Background(), env.client, envSpace, p, ApplyOptions{Journal: j})
		if err != nil || res.Failed() {
			t.Fatalf("apply: %v %+v", err, res)
		}
		if res.Target != target {
			t.Errorf("result of target %q: %q", target, res.Target)
		}
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), `"target"`) != (target != "") {
			t.Errorf("result JSON of target %q: %s", target, b)
		}
		for _, e := range j.entries {
			if e.Target != target {
				t.Errorf("journal line of target %q names %q", target, e.Target)
			}
		}
		rs, err := PlanRestore(j.entries)
		if err != nil || rs.Target != target || rs.Space != envSpace {
			t.Errorf("restore of target %q: %+v, %v", target, rs, err)
		}
	}
	mixed := []JournalEntry{{Space: "ab12", Target: "a", Action: ActionEnable, ID: "x", Slug: "x", Outcome: OutcomeSkipped},
		{Space: "ab12", Target: "b", Action: ActionEnable, ID: "y", Slug: "y", Outcome: OutcomeSkipped}}
	if _, err := PlanRestore(mixed); err == nil || !strings.Contains(err.Error(), `targets "a" and "b"`) {
		t.Errorf("journal of two targets: %v", err)
	}
}

// TestRenderTargetHeaders: a target's plan is headed by its name and
// space; its comment's marker adds the target to the space's, which
// stays as it was for the one space of a skillsync.yaml without targets.
func TestRenderTargetHeaders(t *testing.T) {
	p := targetPlans(t)[1]
	var text, md, fail bytes.Buffer
	if err := RenderText(&text, p, TextOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(text.String(), "skillsync plan for target prod (space pr01) at ") {
		t.Errorf("text head: %.80q", text.String())
	}
	if err := RenderMarkdown(&md, p, MarkdownOptions{Title: "skillsync drift"}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "<!-- skillsync:plan space=pr01 target=prod -->\n### skillsync drift for target `prod` (space `pr01`)\n") {
		t.Errorf("markdown head: %.120q", md.String())
	}
	if err := RenderFailureMarkdown(&fail, "pr01", "prod", "boom", "", nil, MarkdownOptions{}); err != nil {
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
