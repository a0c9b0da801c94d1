package journal

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
)

// TestJournalWithholdsSecrets: no line of a journal holds a secret of the
// process; the text that held one is left out and named with the
// variable, and restore says it cannot put that skill back, and why.
func TestJournalWithholdsSecrets(t *testing.T) {
	const token = "ghp_Q7xTestTokenValue0123456789abcdefABCD"
	secrets := &redact.Set{}
	secrets.Add("GITHUB_TOKEN", token)
	secrets.Add("GITLAB_TOKEN", "glpat-Q7xTestTokenValue01234")
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Secrets = secrets.Found
	leaky := &reconcile.SkillState{Name: "Leaky", Description: "Uses glpat-Q7xTestTokenValue01234", Instructions: strp("Call the API with " + token + ".\n"), Enabled: true}
	req := &remote.SkillUpdate{Description: strp("Uses $GITLAB_TOKEN"), Instructions: strp("Read $GITHUB_TOKEN.\n")}
	plain := &reconcile.SkillState{Name: "Plain", Description: "d", Instructions: strp("old\n"), Enabled: false}
	now := time.Now().UTC()
	lines := []reconcile.JournalEntry{
		{Time: now, Space: "ab12", Slug: "leaky", ID: "1", Action: reconcile.ActionUpdate, Request: req, Before: leaky, Outcome: reconcile.OutcomeStarted},
		{Time: now, Space: "ab12", Slug: "leaky", ID: "1", Action: reconcile.ActionUpdate, Request: req, Before: leaky, Outcome: reconcile.OutcomeFailed,
			Error: "409 Conflict: the service quoted " + token},
		{Time: now, Space: "ab12", Slug: "plain", ID: "2", Action: reconcile.ActionEnable, Before: plain, Outcome: reconcile.OutcomeStarted},
		{Time: now, Space: "ab12", Slug: "plain", ID: "2", Action: reconcile.ActionEnable, Before: plain, Outcome: reconcile.OutcomeApplied},
	}
	for _, e := range lines {
		if err := j.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	if *leaky.Instructions != "Call the API with "+token+".\n" {
		t.Errorf("Write changed what apply holds: %q", *leaky.Instructions)
	}
	es := readWithoutSecret(t, path)
	want := map[string][]string{"before.description": {"GITLAB_TOKEN"}, "before.instructions": {"GITHUB_TOKEN"}}
	if !reflect.DeepEqual(es[0].Withheld, want) {
		t.Errorf("withheld = %v, want %v", es[0].Withheld, want)
	}
	if es[0].Before.Name != "Leaky" || es[0].Request.Instructions == nil || *es[0].Request.Instructions != "Read $GITHUB_TOKEN.\n" {
		t.Errorf("a text holding no secret was left out: %+v %+v", es[0].Before, es[0].Request)
	}
	if es[1].Error != "withheld: it holds the value of GITHUB_TOKEN" || es[2].Withheld != nil {
		t.Errorf("lines: %+v", es[1:3])
	}

	rs, err := PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{
		{ID: "1", Slug: "leaky", Name: "Leaky", Description: "Uses $GITLAB_TOKEN", Instructions: strp("Read $GITHUB_TOKEN.\n"), Enabled: true},
		{ID: "2", Slug: "plain", Name: "Plain", Description: "d", Instructions: strp("old\n"), Enabled: true},
	}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 || p.Changes[0].Slug != "plain" {
		t.Errorf("restore changes %+v, want plain's disable only", p.Changes)
	}
	var got []string
	for _, w := range p.Warnings {
		if w.Code == CodeRestoreSecret {
			got = append(got, w.Slug+": "+w.Message+" ("+w.Hint+")")
		}
	}
	wantMsg := "leaky: the journal does not hold the description and instructions leaky had: it held the value of GITHUB_TOKEN, GITLAB_TOKEN, " +
		"which skillsync never writes to a file; leaky is left out (restore it in the app, without the secret, and rotate the token: whoever can read the space has read it)"
	if len(got) != 1 || got[0] != wantMsg {
		t.Errorf("warnings %q,\nwant %q", got, wantMsg)
	}
}

// TestRestoreWithheldRequest: an update whose request text was withheld
// was still sent: restore puts that field back from its before while the
// space holds that before, and otherwise, as what the update wrote is not
// known, keeps it and says why.
func TestRestoreWithheldRequest(t *testing.T) {
	before := &reconcile.SkillState{Name: "A", Description: "d", Instructions: strp("old\n"), Enabled: true}
	es := []reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionUpdate, Request: &remote.SkillUpdate{},
		Before: before, Outcome: reconcile.OutcomeApplied, Withheld: map[string][]string{"request.instructions": {"GITHUB_TOKEN"}}}}
	rs, err := PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "1", Slug: "a", Name: "A", Description: "d", Instructions: strp("leaked\n"), Enabled: true}}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 0 || len(p.Warnings) != 1 || p.Warnings[0].Code != CodeRestoreSecret ||
		p.Warnings[0].Message != "instructions of a: what the journal's change wrote held the value of GITHUB_TOKEN, which skillsync never writes to a file, so an edit since cannot be told from it; kept as it is" {
		t.Errorf("restore: changes %+v, warnings %+v; want the instructions kept, saying why", p.Changes, p.Warnings)
	}
	// A field the journal's update did not write is still put back.
	es[0].Request.Name = strp("B")
	rs, err = PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	live.Skills[0].Name = "B"
	p = RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 || p.Changes[0].After.Name != "A" || p.Changes[0].Changes(reconcile.FieldInstructions) {
		t.Errorf("restore changes %+v, want the name put back and the instructions kept", p.Changes)
	}
}

// TestJournalWithholdsAnAgentsName: a publish line names the agent, whose
// name the space holds and anyone may have typed a token into: the line
// holds the name only when it holds no secret, and restore still notes
// the publish.
func TestJournalWithholdsAnAgentsName(t *testing.T) {
	const token = "ghp_Q7xTestTokenValue0123456789abcdefABCD"
	secrets := &redact.Set{}
	secrets.Add("GITHUB_TOKEN", token)
	path := filepath.Join(t.TempDir(), "j.jsonl")
	j, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	j.Secrets = secrets.Found
	const id = "11111111-1111-4111-8111-111111111111"
	for _, o := range []reconcile.Outcome{reconcile.OutcomeStarted, reconcile.OutcomeApplied} {
		e := reconcile.JournalEntry{Time: time.Now().UTC(), Space: "ab12", Slug: "Release bot " + token, ID: id, Action: reconcile.ActionPublish, Outcome: o}
		if err := j.Write(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	es := readWithoutSecret(t, path)
	if want := map[string][]string{"slug": {"GITHUB_TOKEN"}}; !reflect.DeepEqual(es[0].Withheld, want) {
		t.Errorf("withheld = %v, want %v", es[0].Withheld, want)
	}
	rs, err := PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	if len(rs.Notes) != 1 || rs.Notes[0].Code != CodeRestorePublish || !strings.Contains(rs.Notes[0].Message, id) {
		t.Errorf("restore notes %+v, want the publish of %s", rs.Notes, id)
	}
}

// readWithoutSecret reads the journal at path, failing the test if its
// bytes hold the test token.
func readWithoutSecret(t *testing.T, path string) []reconcile.JournalEntry {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "Q7xTestToken") {
		t.Fatalf("the journal holds a secret:\n%s", data)
	}
	return readFile(t, path)
}
