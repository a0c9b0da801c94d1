package journal

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// The tests of apply and restore together run against the emulator over
// real HTTP, through the real client, with journal files on disk.

// plan fetches the live state of env's space and plans against it.
func plan(t testing.TB, env *reconciletest.Env, desired *fsrepo.Repo, pol reconcile.Policy) *reconcile.Plan {
	t.Helper()
	live, err := fetch.Space(context.Background(), env.Client, reconciletest.Space, desired, fetch.Options{})
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	return reconcile.Compute(desired, live, pol)
}

func apply(ctx context.Context, t testing.TB, env *reconciletest.Env, p *reconcile.Plan, o reconcile.ApplyOptions) *reconcile.Result {
	t.Helper()
	res, err := reconcile.Apply(ctx, env.Client, reconciletest.Space, p, o)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func stepOf(t testing.TB, r *reconcile.Result, slug string, a reconcile.Action) reconcile.StepResult {
	t.Helper()
	for _, s := range r.Steps {
		if s.Slug == slug && s.Action == a {
			return s
		}
	}
	t.Fatalf("no %s step for %s in %+v", a, slug, r.Steps)
	return reconcile.StepResult{}
}

// readFile reads the journal at path, failing the test if it does not
// parse whole.
func readFile(t testing.TB, path string) []reconcile.JournalEntry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := Read(f)
	if err != nil {
		t.Fatalf("journal does not parse: %v", err)
	}
	return es
}

// TestRestoreBringsBackWhatApplyReplaced is the story of an edit made in
// the app while a plan waited: apply leaves it, the next plan shows it, and
// once applied, a restore brings back exactly the app's text, not the text
// the first plan read.
func TestRestoreBringsBackWhatApplyReplaced(t *testing.T) {
	env := reconciletest.NewEnv(t, remotetest.Space{})
	notes := env.Seed("notes", "First text.\n", true)
	desired := reconciletest.Repo(reconciletest.Want("notes", "Text from git.\n", true))
	p1 := plan(t, env, desired, reconcile.Policy{})

	const appText = "Text edited in the app.\n"
	env.Emu.EditSkill(reconciletest.Space, notes.ID, func(s *remotetest.SkillSeed) { s.Instructions = appText })
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(jpath)
	if err != nil {
		t.Fatal(err)
	}
	res := apply(t.Context(), t, env, p1, reconcile.ApplyOptions{Journal: j})
	if s := stepOf(t, res, "notes", reconcile.ActionUpdate); s.Outcome != reconcile.OutcomeSkipped {
		t.Errorf("update with a plan older than the app's edit = %+v, want skipped", s)
	}
	if got := *env.Skill("notes").Instructions; got != appText {
		t.Fatalf("the app's edit was overwritten: %q", got)
	}

	p2 := plan(t, env, desired, reconcile.Policy{})
	res = apply(t.Context(), t, env, p2, reconcile.ApplyOptions{Journal: j}) // the same journal, appended
	j.Close()
	if res.Failed() {
		t.Fatalf("apply of a fresh plan: %+v", res.Steps)
	}
	if got := *env.Skill("notes").Instructions; got != "Text from git.\n" {
		t.Fatalf("notes after the second apply: %q", got)
	}

	rs, err := PlanRestore(readFile(t, jpath))
	if err != nil {
		t.Fatal(err)
	}
	live, err := fetch.Space(t.Context(), env.Client, reconciletest.Space, rs.Wanted(), fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rp := RestorePlan(rs, live, reconcile.Policy{})
	if rp.HasErrors() || len(rp.Warnings) != 0 {
		t.Fatalf("restore plan: errors %+v, warnings %+v", rp.Errors, rp.Warnings)
	}
	if res := apply(t.Context(), t, env, rp, reconcile.ApplyOptions{}); res.Failed() {
		t.Fatalf("restore: %+v", res.Steps)
	}
	if got := *env.Skill("notes").Instructions; got != appText {
		t.Errorf("notes after restore: %q, want the app's text %q, which the apply replaced", got, appText)
	}
}

// TestAcceptedWriteNotSentAgain: within the window after a write the
// service accepted but did not show, apply again does not send it again
// while the skill is still as it was; the step stays accepted.
func TestAcceptedWriteNotSentAgain(t *testing.T) {
	env := reconciletest.NewEnv(t, remotetest.Space{})
	env.Emu.SetAnswers(remotetest.Answers{Write: remotetest.WriteAccepted, AcceptedAfter: time.Hour})
	env.Seed("doc", "old\n", true)
	desired := reconciletest.Repo(reconciletest.Want("doc", "new\n", true))
	c, err := remote.New(remote.Options{BaseURL: env.Srv.URL, Token: reconciletest.Token, Sleep: reconciletest.InstantWait})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	dir := filepath.Join(root, StateDir, "journal")
	applyOnce := func(accepted []reconcile.JournalEntry) *reconcile.Result {
		t.Helper()
		j, err := Open(TargetPath(root, time.Now(), ""))
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		res, err := reconcile.Apply(t.Context(), c, reconciletest.Space, plan(t, env, desired, reconcile.Policy{}), reconcile.ApplyOptions{Journal: j, Accepted: accepted})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	applyOnce(nil)
	accepted, err := RecentAccepted(dir, time.Now().Add(-AcceptedWindow))
	if err != nil || len(accepted) != 1 || accepted[0].Slug != "doc" {
		t.Fatalf("RecentAccepted = %+v, %v; want the update of doc", accepted, err)
	}
	env.Emu.ResetRequests()
	res := applyOnce(accepted)
	if s := stepOf(t, res, "doc", reconcile.ActionUpdate); s.Outcome != reconcile.OutcomeAccepted || !strings.Contains(s.Reason, "not sent again") {
		t.Errorf("second update = %+v, want accepted, not sent again", s)
	}
	if n := env.Emu.Requests()[remotetest.KeyUpdateSkill]; n != 0 {
		t.Errorf("the update was sent again (%d requests)", n)
	}
	// Out of the window, or once the skill changed, it is sent.
	env.Emu.EditSkill(reconciletest.Space, env.Skill("doc").ID, func(s *remotetest.SkillSeed) { s.Description = "Edited in the app" })
	applyOnce(accepted)
	if n := env.Emu.Requests()[remotetest.KeyUpdateSkill]; n != 1 {
		t.Errorf("after an edit in the app, %d update requests, want 1", n)
	}
}
