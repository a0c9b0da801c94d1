package reconcile

import (
	"reflect"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
)

func TestSetOrigins(t *testing.T) {
	skill := func(slug, description, instructions string) fsrepo.Skill {
		return fsrepo.Skill{Slug: slug, Name: "Skill " + slug, Description: description, Instructions: instructions, Enabled: true}
	}
	base := &fsrepo.Repo{Skills: []fsrepo.Skill{
		skill("edited", "d", "old\n"),
		skill("drifted", "d", "same\n"),
		skill("both", "d", "same\n"),
		skill("removed", "d", "x\n"),
	}}
	base.Config.Agents.Publish = []string{"Old Bot"}
	head := &fsrepo.Repo{Skills: []fsrepo.Skill{
		skill("edited", "d", "new\n"),
		skill("drifted", "d", "same\n"),
		skill("both", "d2", "same\n"),
		skill("added", "d", "x\n"),
	}}
	p := &Plan{
		Changes: []Change{
			{Slug: "added", Fields: []string{FieldInstructions}},
			{Slug: "both", Fields: []string{FieldDescription, FieldInstructions}},
			{Slug: "created-in-app", Fields: []string{FieldEnabled}, Unmanaged: true},
			{Slug: "drifted", Fields: []string{FieldInstructions}},
			{Slug: "edited", Fields: []string{FieldInstructions}},
			{Slug: "removed", Fields: []string{FieldEnabled}, Unmanaged: true},
		},
		Publish: []AgentPublish{{ID: "1", Name: "New Bot"}, {ID: "2", Name: "Old Bot"}},
	}
	SetOrigins(p, base, head)
	type origin struct {
		Origin      string
		DriftFields []string
	}
	got := map[string]origin{}
	for _, c := range p.Changes {
		got[c.Slug] = origin{c.Origin, c.DriftFields}
	}
	want := map[string]origin{
		"added":          {OriginPR, nil},
		"both":           {OriginPR, []string{FieldInstructions}}, // description from the PR, instructions from the app
		"created-in-app": {OriginDrift, nil},
		"drifted":        {OriginDrift, nil},
		"edited":         {OriginPR, nil},
		"removed":        {OriginPR, nil}, // the pull request removed it
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("origins:\n got %v\nwant %v", got, want)
	}
	if p.Publish[0].Origin != OriginPR || p.Publish[1].Origin != OriginDrift {
		t.Errorf("publish origins %q, %q; want pr for the agent the PR added, drift for the one listed at the base", p.Publish[0].Origin, p.Publish[1].Origin)
	}
}
