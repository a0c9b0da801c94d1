package planfile

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/reconcile"
)

// TestCheckSecrets: a saved plan holding a secret of the process, in a
// skill's text of either side or anywhere else in the plan, is refused,
// naming the skill (or the plan), the target and the variable, never the
// value.
func TestCheckSecrets(t *testing.T) {
	const token = "ghp_Q7xTestTokenValue0123456789abcdefABCD"
	secrets := &redact.Set{}
	secrets.Add("GITHUB_TOKEN", token)
	secrets.Add("SKILLSYNC_TOKEN_PROD", "prod_secret_0123456789")
	plan := func(target string) *reconcile.Plan {
		return &reconcile.Plan{Target: target, Space: "ab12", Changes: []reconcile.Change{
			{Slug: "leaky", ID: "1", Before: reconcile.SkillState{Name: "Leaky", Instructions: strp("Use " + token + " here.\n")},
				After: reconcile.SkillState{Name: "Leaky", Instructions: strp("Use $GITHUB_TOKEN here.\n")}},
			{Slug: "plain", ID: "2", Before: reconcile.SkillState{Name: "Plain", Instructions: strp("old\n")},
				After: reconcile.SkillState{Name: "Plain", Instructions: strp("new\n")}},
		}}
	}
	staging, prod := plan("staging"), plan("prod")
	prod.Changes[0].Before.Instructions = strp("clean\n")
	prod.Changes[1].After.Description = "Say \"prod_secret_0123456789\"" // typed into the repository
	prod.Warnings = []reconcile.Problem{{Code: "x", Message: "the service said " + token}}
	err := CheckSecrets([]*Saved{{Plan: staging}, {Plan: prod}}, secrets.Found)
	if err == nil {
		t.Fatal("CheckSecrets of plans holding secrets: no error")
	}
	want := "not saved, as no secret of this process is ever written to a file: leaky (target staging) holds the value of GITHUB_TOKEN; " +
		"plain (target prod) holds the value of SKILLSYNC_TOKEN_PROD; the plan (target prod) holds the value of GITHUB_TOKEN"
	if err.Error() != want {
		t.Errorf("error:\n %s\nwant\n %s", err, want)
	}
	if strings.Contains(err.Error(), token) || strings.Contains(err.Error(), "prod_secret") {
		t.Errorf("the error shows a secret: %s", err)
	}
	if err := CheckSecrets([]*Saved{{Plan: plan("")}}, (&redact.Set{}).Found); err != nil {
		t.Errorf("CheckSecrets with no secret known: %v", err)
	}
	clean := plan("")
	clean.Changes[0].Before.Instructions = strp("clean\n")
	if err := CheckSecrets([]*Saved{{Plan: clean}}, secrets.Found); err != nil {
		t.Errorf("CheckSecrets of a plan holding no secret: %v", err)
	}
}
