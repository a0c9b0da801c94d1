package reconcile

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// These tests plan and apply against the emulator switched to the answers
// a real service may give where the spec is silent (remotetest.Answers).

// TestNormalFormIsNoChange: text the service returns in another Unicode
// normal form than the repository holds is the same text: no change is
// planned, a write of it is not a mismatch, and the repository's text is
// sent as it is.
func TestNormalFormIsNoChange(t *testing.T) {
	for _, form := range []struct {
		name       string
		answer     remotetest.NormalForm
		repo, seed norm.Form
	}{
		{"service answers NFD", remotetest.FormNFD, norm.NFC, norm.NFC},
		{"service answers NFC", remotetest.FormNFC, norm.NFD, norm.NFD},
	} {
		t.Run(form.name, func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.emu.SetAnswers(remotetest.Answers{Form: form.answer})
			same := form.seed.String("Un café, à la française.\n")
			env.seed("same", same, true, func(s *remotetest.SkillSeed) {
				s.Description = form.seed.String("Café notes")
				s.Files = map[string]string{"ref.md": form.seed.String("Thé vert\n")}
			})
			env.seed("edit", form.seed.String("Old café.\n"), true)
			newText := form.repo.String("New crème brûlée.\n")
			desired := desiredRepo(
				wantSkill("same", form.repo.String(same), true, func(s *fsrepo.Skill) {
					s.Description = form.repo.String("Café notes")
					s.Files = []fsrepo.File{{Path: "ref.md", Content: []byte(form.repo.String("Thé vert\n"))}}
				}),
				wantSkill("edit", newText, true),
			)
			p := env.plan(desired, Policy{})
			if p.HasErrors() || len(p.Files) != 0 || p.Summary.Update != 1 || len(p.Changes) != 1 || p.Changes[0].Slug != "edit" {
				t.Fatalf("plan:\n%s\nwant one update, of edit", planDump(p))
			}
			res := env.apply(t.Context(), p, ApplyOptions{})
			if s := stepOf(t, res, "edit", ActionUpdate); s.Outcome != OutcomeApplied {
				t.Errorf("update = %+v, want applied", s)
			}
			if got := env.skill("edit"); *got.Instructions != newText {
				t.Errorf("the service holds %q, want the repository's text %q as it is", *got.Instructions, newText)
			}
			env.converged(desired, Policy{})
		})
	}
}

// TestWritesAnsweredWithoutTheSkill: an update, enable or disable the
// service answers 204, with an empty 200 or with {"success":true} landed:
// apply reads the skill back, judges from what the space holds, and
// reports every step applied.
func TestWritesAnsweredWithoutTheSkill(t *testing.T) {
	for _, w := range []struct {
		name string
		a    remotetest.WriteAnswer
	}{
		{"204", remotetest.WriteNoContent},
		{"empty 200", remotetest.WriteEmpty},
		{"success flag", remotetest.WriteSuccess},
	} {
		t.Run(w.name, func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.emu.SetAnswers(remotetest.Answers{Write: w.a})
			env.seed("wake", "old wake\n", false)
			env.seed("off", "same\n", true)
			env.seed("combo", "old combo\n", true)
			desired := desiredRepo(
				wantSkill("wake", "new wake\n", true),
				wantSkill("off", "same\n", false),
				wantSkill("combo", "new combo\n", false),
			)
			p := env.plan(desired, Policy{})
			res := env.apply(t.Context(), p, ApplyOptions{})
			for _, s := range res.Steps {
				if s.Outcome != OutcomeApplied {
					t.Errorf("%s of %s = %+v, want applied", s.Action, s.Slug, s)
				}
			}
			if res.Failed() || len(res.Steps) != 5 {
				t.Errorf("result: %d steps, failed %v", len(res.Steps), res.Failed())
			}
			env.converged(desired, Policy{})
		})
	}
}

// TestOwnDisableIsNotAnAppEdit: after apply's own disable, a service
// whose timestamps are whole seconds, or milliseconds in write answers
// and whole seconds in reads, shows another updatedAt than the plan read;
// the update of the same skill still goes, as no one else changed it.
func TestOwnDisableIsNotAnAppEdit(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    remotetest.TimePrecision
	}{
		{"seconds", remotetest.TimeSeconds},
		{"milliseconds in writes, seconds in reads", remotetest.TimeMillisWritesSecondsReads},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.emu.SetAnswers(remotetest.Answers{Times: tc.p})
			// A clock a second on at every read: the disable lands in
			// another second than the plan's read.
			clock := time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)
			var mu sync.Mutex
			env.emu.SetClock(func() time.Time {
				mu.Lock()
				defer mu.Unlock()
				clock = clock.Add(700 * time.Millisecond)
				return clock
			})
			env.seed("combo", "old combo\n", true)
			desired := desiredRepo(wantSkill("combo", "new combo\n", false))
			p := env.plan(desired, Policy{})
			res := env.apply(t.Context(), p, ApplyOptions{})
			for _, s := range res.Steps {
				if s.Outcome != OutcomeApplied {
					t.Errorf("%s of %s = %+v, want applied", s.Action, s.Slug, s)
				}
			}
			env.converged(desired, Policy{})
		})
	}
}

// TestAcceptedWriteIsNeitherDoneNorFailed: a 202 whose write does not
// show within the client's wait is reported accepted, not failed, and the
// enable that depends on it waits for it.
func TestAcceptedWriteIsNeitherDoneNorFailed(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	env.emu.SetAnswers(remotetest.Answers{Write: remotetest.WriteAccepted, AcceptedAfter: time.Hour})
	env.seed("wake", "old wake\n", false)
	desired := desiredRepo(wantSkill("wake", "new wake\n", true))
	p := env.plan(desired, Policy{})
	c, err := remote.New(remote.Options{BaseURL: env.srv.URL, Token: envToken, Sleep: reconciletest.InstantWait})
	if err != nil {
		t.Fatal(err)
	}
	j := &memJournal{}
	res, err := Apply(t.Context(), c, envSpace, p, ApplyOptions{Journal: j})
	if err != nil {
		t.Fatal(err)
	}
	up := stepOf(t, res, "wake", ActionUpdate)
	if up.Outcome != OutcomeAccepted || !strings.Contains(up.Reason, "accepted by the service (202 Accepted), not visible yet") {
		t.Errorf("update = %+v, want accepted, not visible yet", up)
	}
	if en := stepOf(t, res, "wake", ActionEnable); en.Outcome != OutcomeSkipped || !strings.Contains(en.Reason, "not visible yet") {
		t.Errorf("enable = %+v, want skipped until the update shows", en)
	}
	if res.Failed() || res.Counts().Accepted != 1 {
		t.Errorf("failed %v, counts %+v; want not failed, one accepted", res.Failed(), res.Counts())
	}
	if len(j.entries) != 2 || j.entries[1].Outcome != OutcomeAccepted {
		t.Errorf("journal: %+v", j.entries)
	}
}

// TestAgentsAsARealServiceSendsThem: agents whose fields skillsync does
// not act on have other types than the table's do not fail a plan; an
// agent without hasUnpublishedChanges in agents.publish is published.
func TestAgentsAsARealServiceSendsThem(t *testing.T) {
	for _, shape := range []remotetest.AgentShape{remotetest.AgentsLooseTypes, remotetest.AgentsSparse} {
		env := newApplyEnv(t, remotetest.Space{})
		env.emu.SetAnswers(remotetest.Answers{Agents: shape})
		env.seed("doc", "old\n", true)
		env.emu.AddAgent(envSpace, remote.Agent{ID: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d", Name: "Support Bot", Temperature: 0.2,
			ConversationStarters: []remote.ConversationStarter{{Text: "Hi", ID: "1a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"}}, Published: true})
		desired := desiredRepo(wantSkill("doc", "new\n", true))
		desired.Config.Agents.Publish = []string{"Support Bot"}
		p := env.plan(desired, PolicyFromConfig(desired.Config))
		if p.HasErrors() || p.Summary.Update != 1 {
			t.Fatalf("shape %d: plan errors %+v, summary %+v", shape, p.Errors, p.Summary)
		}
		wantPublish := shape == remotetest.AgentsSparse // the loose one says it has no changes
		if got := len(p.Publish) == 1; got != wantPublish {
			t.Fatalf("shape %d: publish %+v, want one: %v", shape, p.Publish, wantPublish)
		}
		res := env.apply(t.Context(), p, ApplyOptions{})
		if res.Failed() {
			t.Errorf("shape %d: apply failed: %+v", shape, res.Steps)
		}
		if wantPublish && stepOf(t, res, "Support Bot", ActionPublish).Outcome != OutcomeApplied {
			t.Errorf("shape %d: publish not applied: %+v", shape, res.Steps)
		}
	}
}

// slugShifter answers single reads with another slug than its list.
type slugShifter struct{ *reconciletest.Service }

func (s slugShifter) GetSkill(ctx context.Context, space, id string) (*remote.Skill, error) {
	got, err := s.Service.GetSkill(ctx, space, id)
	if got != nil {
		got.Slug += "-2"
	}
	return got, err
}

// TestSlugDifferingFromTheListIsInvalid: a single read that gives a skill
// another slug than the list did is a wrong answer; planning on it would
// take the skill for missing (and, with unmanaged: disable, disable it).
func TestSlugDifferingFromTheListIsInvalid(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	svc.Add("doc", "old\n", true)
	desired := &fsrepo.Repo{Config: config.Config{Space: "ab12", Unmanaged: config.UnmanagedDisable}, Skills: []fsrepo.Skill{
		{Slug: "doc", Path: "skills/doc/SKILL.md", Name: "Skill doc", Description: "About doc", Instructions: "new\n", Enabled: true},
	}}
	_, err := fetch.Space(t.Context(), slugShifter{svc}, "ab12", desired, fetch.Options{})
	if err == nil || !strings.Contains(err.Error(), `invalid response: the service answered slug "doc-2" for it, where its list gave "doc"`) {
		t.Errorf("Fetch: %v, want an invalid response naming both slugs", err)
	}
}
