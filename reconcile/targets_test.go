package reconcile

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
)

// TestApplyJournalsItsTarget: the journal and the result of a target's
// apply name it (restore reads the name back: journal's
// TestRestoreReadsTheTarget); a plan of the one space of a skillsync.yaml
// without targets names none, as before.
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
		lines := j.lines(t)
		for _, e := range lines {
			if e.Target != target || e.Space != envSpace {
				t.Errorf("journal line of target %q names %q of space %s", target, e.Target, e.Space)
			}
		}
		if b, _ := json.Marshal(lines[0]); strings.Contains(string(b), `"target"`) != (target != "") {
			t.Errorf("journal line of target %q: %s", target, b)
		}
	}
}
