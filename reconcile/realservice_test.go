package reconcile

import (
	"testing"

	"golang.org/x/text/unicode/norm"

	"github.com/skillsync/skillsync/fsrepo"
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
