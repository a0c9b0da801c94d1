package reconcile

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

// TestProblemsShowHiddenAsMarkers: a problem of a plan that quotes text
// of the space or the repository (an agent's name, a skill's name, a
// name in agents.publish) shows its invisible characters as the markers
// of every other output (⟦ZWSP⟧), never as Go escapes (\u200b).
func TestProblemsShowHiddenAsMarkers(t *testing.T) {
	ins := "Do it.\n"
	desired := &fsrepo.Repo{Skills: []fsrepo.Skill{
		{Slug: "greet", Name: "Greet", Description: "Greets.", Instructions: ins, Enabled: false},
		{Slug: "tidy", Name: "Ti\u200bdy", Description: "Tidies.", Instructions: ins, Enabled: true},
	}}
	live := &Live{Space: "ab12",
		Skills: []remote.Skill{{ID: "00000000-0000-4000-8000-000000000001", Slug: "greet", Name: "Greet", Description: "Greets.", Instructions: &ins, Enabled: true}},
		Agents: []remote.Agent{{ID: "00000000-0000-4000-8000-0000000000a1", Name: "Hel\u200bper", SkillIDs: []string{"00000000-0000-4000-8000-000000000001"}}},
	}
	p := Compute(desired, live, Policy{Missing: config.MissingWarn, PublishAgents: []string{"Bo\u200bt"}})
	var text strings.Builder
	for _, pr := range append(append([]Problem(nil), p.Errors...), p.Warnings...) {
		text.WriteString(pr.Message + "\n" + pr.Hint + "\n")
	}
	for _, want := range []string{`agent "Hel⟦ZWSP⟧per" uses greet`, `renames it to "Ti⟦ZWSP⟧dy"`, `agents.publish names "Bo⟦ZWSP⟧t"`} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the problems do not say %s:\n%s", want, text.String())
		}
	}
	if strings.Contains(text.String(), `\u200b`) {
		t.Errorf("the problems show a Go escape:\n%s", text.String())
	}
}
