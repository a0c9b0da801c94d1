package reconcile

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestPlanHasDrift(t *testing.T) {
	tests := []struct {
		name string
		plan Plan
		want bool
	}{
		{"empty", Plan{}, false},
		{"a change", Plan{Changes: []Change{{Slug: "a", Actions: []Action{ActionUpdate}}}}, true},
		{"a publish", Plan{Publish: []AgentPublish{{ID: "x", Name: "Bot"}}}, true},
		{"a file that differs", Plan{Files: []FileIssue{{Slug: "a", Path: "f.md", Status: FileDiffers}}}, true},
		{"a file absent from the space", Plan{Files: []FileIssue{{Slug: "a", Path: "f.md", Status: FileAbsent}}}, true},
		{"a file that could not be checked", Plan{Files: []FileIssue{{Slug: "a", Path: "f.bin", Status: FileUnchecked}}}, false},
		{"a missing skill", Plan{Missing: []MissingSkill{{Slug: "a", Severity: SeverityWarning}}}, true},
		{"an unmanaged skill left alone", Plan{Unmanaged: []UnmanagedSkill{{Slug: "u"}}}, false},
		{"a warning only", Plan{Warnings: []Problem{{Code: CodeImported}}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.plan.HasDrift(); got != tt.want {
				t.Errorf("HasDrift() = %t, want %t", got, tt.want)
			}
		})
	}
}

// TestApplyRefusesWhatDecodePlanRefuses: a plan that apply could misread is
// refused by the one validator, whether it comes from a file or is handed
// to Apply, with the same words and before any request.
func TestApplyRefusesWhatDecodePlanRefuses(t *testing.T) {
	const text = `"after": {"name": "A", "description": "d", "instructions": "x", "enabled": true}`
	for _, changes := range []string{
		`[{"slug": "a", "id": "x", "actions": ["delete"]}]`,
		`[{"slug": "a", "id": "x", "actions": ["update"], "fields": ["slug"], ` + text + `}]`,
		`[{"slug": "a", "id": "x", "actions": ["update"], "fields": ["name", "slug"], ` + text + `}]`,
		`[{"slug": "a", "id": "x", "actions": [], "fields": ["name"], ` + text + `}]`,
		`[{"slug": "a", "actions": ["update"], "fields": ["name"], ` + text + `}]`,
		`[{"slug": "a", "id": "x", "actions": ["update"], "fields": ["instructions"]}]`,
		`[{"slug": "a", "id": "x", "actions": ["enable", "disable"], "fields": ["enabled"]}]`,
	} {
		plan := `{"space": "ab12", "changes": ` + changes + `}`
		_, decodeErr := DecodePlan(strings.NewReader(`{"format_version": "3", "targets": [` + plan + `]}`))
		if decodeErr == nil {
			t.Errorf("DecodePlan accepted %s", changes)
			continue
		}
		var p Plan
		if err := json.Unmarshal([]byte(plan), &p); err != nil {
			t.Fatal(err)
		}
		svc := newFakeService("ab12")
		_, err := Apply(t.Context(), svc, "ab12", &p, ApplyOptions{})
		if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(decodeErr.Error(), "decoding plan: ")) {
			t.Errorf("Apply of %s: %v, want the error of DecodePlan: %v", changes, err, decodeErr)
		}
		if len(svc.calls) > 0 {
			t.Errorf("Apply of %s made requests: %v", changes, svc.calls)
		}
	}
}
