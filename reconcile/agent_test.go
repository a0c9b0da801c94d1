package reconcile

import (
	"errors"
	"reflect"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

func TestFindAgent(t *testing.T) {
	agents := []remote.Agent{
		{ID: "a1", Name: "Support Bot"},
		{ID: "b2", Name: "Twin"},
		{ID: "a0", Name: "Twin"},
		{ID: "c3", Name: "b2"}, // named as another's id: the id wins
	}
	for _, ref := range []string{"a1", "Support Bot"} {
		if a, err := FindAgent(agents, ref); err != nil || a.ID != "a1" {
			t.Errorf("FindAgent(%q) = %s, %v; want a1", ref, a.ID, err)
		}
	}
	if a, err := FindAgent(agents, "b2"); err != nil || a.ID != "b2" {
		t.Errorf("FindAgent(b2) = %s, %v; want the agent of that id", a.ID, err)
	}

	_, err := FindAgent(agents, "Twin")
	var amb *AgentAmbiguousError
	if !errors.As(err, &amb) || !reflect.DeepEqual(amb.IDs, []string{"a0", "b2"}) || err.Error() != `2 agents are named "Twin"` {
		t.Errorf("FindAgent(Twin) = %v, want both ids, sorted", err)
	}

	_, err = FindAgent(agents, " support bot")
	var nf *AgentNotFoundError
	if !errors.As(err, &nf) || !reflect.DeepEqual(nf.Near, []string{"Support Bot"}) {
		t.Errorf("FindAgent of a name in other case = %v, want not found, near Support Bot", err)
	}
	_, err = FindAgent(agents, "Nobody")
	if !errors.As(err, &nf) || nf.Near != nil {
		t.Errorf("FindAgent(Nobody) = %v, want not found, near nothing", err)
	}
}

func TestCheckPublish(t *testing.T) {
	open := remote.Agent{EmbedEnabled: true}
	if err := CheckPublish(open); !errors.Is(err, ErrEmbedNoDomain) {
		t.Errorf("an embed with no allowed domain: %v, want ErrEmbedNoDomain", err)
	}
	open.EmbedOptions.DomainWhitelist = []string{"example.com"}
	if err := CheckPublish(open); err != nil {
		t.Errorf("an embed with an allowed domain: %v", err)
	}
	if err := CheckPublish(remote.Agent{}); err != nil {
		t.Errorf("no embed: %v", err)
	}
}
