package render

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/planfile"
)

// TestSavedPlanFile: a saved plan says which skillsync wrote it and for
// which service, reads back as the plan it was written from, and is
// refused when of another major format_version or not saved for apply.
func TestSavedPlanFile(t *testing.T) {
	sp := &planfile.Saved{BaseURL: "https://t.example.com", Plan: reviewPlan()}
	var buf bytes.Buffer
	if err := WriteSavedPlans(&buf, "v1.2.3", []*planfile.Saved{sp}); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	if !strings.Contains(text, "\n  \"tool_version\": \"v1.2.3\",\n") {
		t.Fatalf("the saved plan does not say which skillsync wrote it:\n%.300s", text)
	}
	back, err := ReadSavedPlan(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if back.BaseURL != sp.BaseURL || !reflect.DeepEqual(back.Plan, sp.Plan) {
		t.Fatalf("saved plan did not round-trip:\n got %+v\nwant %+v", back.Plan, sp.Plan)
	}
	for _, key := range []string{`"format_version": "3"`, `"tool_version"`, `"base_url"`, `"space": "ab12"`,
		`"commit"`, `"desired_hash": "sha256:`, `"updated_at"`, `"live_hash": "sha256:`} {
		if !strings.Contains(text, key) {
			t.Errorf("saved plan lacks %s", key)
		}
	}
	if !strings.HasPrefix(text, "{\n  \"format_version\"") {
		t.Errorf("format_version should come first:\n%.80s", text)
	}

	future := strings.Replace(text, `"format_version": "3"`, `"format_version": "4.0"`, 1)
	if _, err := ReadSavedPlan(strings.NewReader(future)); !errors.Is(err, errFormatVersion) {
		t.Errorf("reading a version 4 plan: %v, want errFormatVersion", err)
	}
	old := strings.Replace(text, `"format_version": "3"`, `"format_version": "1"`, 1)
	if _, err := ReadSavedPlan(strings.NewReader(old)); !errors.Is(err, errFormatVersion) || !strings.Contains(err.Error(), "plan again") {
		t.Errorf("reading a version 1 plan: %v, want errFormatVersion saying to plan again", err)
	}
	minor := strings.Replace(text, `"format_version": "3"`, `"format_version": "3.7"`, 1)
	if _, err := ReadSavedPlan(strings.NewReader(minor)); err != nil {
		t.Errorf("reading a version 3.7 plan: %v", err)
	}
	var plain bytes.Buffer
	JSON(&plain, []*reconcile.Plan{sp.Plan})
	if _, err := ReadSavedPlan(&plain); err == nil || !strings.Contains(err.Error(), "plan -out") {
		t.Errorf("reading a plain JSON plan: %v, want a hint to use plan -out", err)
	}
	if err := WriteSavedPlan(&buf, &planfile.Saved{BaseURL: "https://user:secret@example.com", Plan: sp.Plan}); err == nil {
		t.Error("saved a plan with credentials in its base URL")
	}
}
