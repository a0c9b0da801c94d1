package reconcile

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
)

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
