package reconcile

import "testing"

func TestPlanDrift(t *testing.T) {
	missing := Plan{
		Missing: []MissingSkill{{Slug: "a", Severity: SeverityError}},
		Errors:  []Problem{{Code: CodeMissing, Slug: "a"}},
	}
	change := []Change{{Slug: "b", Actions: []Action{ActionUpdate}}}
	differs := []FileIssue{{Slug: "a", Path: "f.md", Status: FileDiffers}}
	tests := []struct {
		name string
		plan Plan
		want DriftVerdict
	}{
		{"in sync", Plan{}, DriftVerdict{Status: DriftNone}},
		{"a file not checked is no drift", Plan{Files: []FileIssue{{Status: FileUnchecked}}}, DriftVerdict{Status: DriftNone}},
		{"a change", Plan{Changes: change}, DriftVerdict{Status: DriftFound}},
		{"a file that differs, and no change", Plan{Files: differs},
			DriftVerdict{Status: DriftFound, Unsyncable: true}},
		{"a file that differs, and a change", Plan{Files: differs, Changes: change}, DriftVerdict{Status: DriftFound}},
		{"a skill missing, an error of the plan, is drift", missing,
			DriftVerdict{Status: DriftFound, Unsyncable: true}},
		{"any other error leaves no verdict", Plan{Changes: change, Errors: []Problem{{Code: CodeAmbiguous}}}, DriftVerdict{Status: DriftError}},
		{"even beside a missing skill", Plan{Missing: missing.Missing, Errors: append(missing.Errors, Problem{Code: CodeActiveLimit})},
			DriftVerdict{Status: DriftError}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.plan.Drift(); got != tt.want {
				t.Errorf("Drift() = %+v, want %+v", got, tt.want)
			}
		})
	}
}
