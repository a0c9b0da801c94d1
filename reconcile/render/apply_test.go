package render

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
)

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
		var p reconcile.Plan
		if err := json.Unmarshal([]byte(plan), &p); err != nil {
			t.Fatal(err)
		}
		// Any request panics: the service is a nil interface.
		_, err := reconcile.Apply(t.Context(), noService{}, "ab12", &p, reconcile.ApplyOptions{})
		if err == nil || !strings.Contains(err.Error(), strings.TrimPrefix(decodeErr.Error(), "decoding plan: ")) {
			t.Errorf("Apply of %s: %v, want the error of DecodePlan: %v", changes, err, decodeErr)
		}
	}
}

// noService is a service whose every call panics.
type noService struct{ reconcile.Service }
