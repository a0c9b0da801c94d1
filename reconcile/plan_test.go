package reconcile

import (
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
