package reconcile

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

func openTestCache(t *testing.T) *fetch.Cache {
	t.Helper()
	c, err := fetch.OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gets is the number of single-skill reads the emulator answered since the
// last reset.
func gets(env *perfEnv) int { return env.emu.Requests()[remotetest.KeyGetSkill] }

func TestCacheSkipsUnchangedAndSeesEdits(t *testing.T) {
	env := newPerfEnv(t, 30, remote.Options{})
	cache := openTestCache(t)

	if p := env.planOnce(t, fetch.Options{Cache: cache}); p.HasChanges() {
		t.Fatalf("cold plan has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 30 {
		t.Fatalf("cold cache: %d gets, want 30", n)
	}
	env.emu.ResetRequests()
	if p := env.planOnce(t, fetch.Options{Cache: cache}); p.HasChanges() {
		t.Fatalf("warm plan has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 0 {
		t.Fatalf("warm cache: %d gets, want 0", n)
	}

	// An edit in the app moves updatedAt: the plan must see it, and only
	// that skill is read again.
	edited, _ := env.emu.SkillBySlug(benchSpace, "skill-00007")
	env.emu.EditSkill(benchSpace, edited.ID, func(s *remotetest.SkillSeed) {
		s.Instructions = "edited in the app\n"
	})
	env.emu.ResetRequests()
	p := env.planOnce(t, fetch.Options{Cache: cache})
	if n := gets(env); n != 1 {
		t.Errorf("after one edit: %d gets, want 1", n)
	}
	if len(p.Changes) != 1 || p.Changes[0].Slug != "skill-00007" || !p.Changes[0].Changes(FieldInstructions) {
		t.Fatalf("plan after an edit in the app: %+v, want the instructions of skill-00007 restored", p.Changes)
	}
	if got := *p.Changes[0].Before.Instructions; got != "edited in the app\n" {
		t.Errorf("before = %q, want the edited text", got)
	}

	// The same holds for a change through the API, as another apply makes.
	other, _ := env.emu.SkillBySlug(benchSpace, "skill-00003")
	text := "changed through the API\n"
	if _, err := env.client.UpdateSkill(t.Context(), benchSpace, other.ID, remote.SkillUpdate{Instructions: &text}); err != nil {
		t.Fatal(err)
	}
	p = env.planOnce(t, fetch.Options{Cache: cache})
	if len(p.Changes) != 2 {
		t.Fatalf("plan after an update through the API: %d changes, want 2", len(p.Changes))
	}
}

// TestCacheRacyUpdatedAt: with timestamps in whole seconds, an edit in
// the app within the same second as the cached read leaves updatedAt as
// it was; the entry is not trusted (read too close to its updatedAt), so
// the next plan sees the edit.
func TestCacheRacyUpdatedAt(t *testing.T) {
	env := newPerfEnv(t, 3, remote.Options{})
	env.emu.SetAnswers(remotetest.Answers{Times: remotetest.TimeSeconds})
	// Every change of the service from here falls within this second.
	frozen := time.Now().Truncate(time.Second)
	env.emu.SetClock(func() time.Time { return frozen })
	s, _ := env.emu.SkillBySlug(benchSpace, "skill-00001")
	touch := func(text string) {
		env.emu.EditSkill(benchSpace, s.ID, func(s *remotetest.SkillSeed) { s.Instructions = text })
	}
	touch(*s.Instructions)
	cache := openTestCache(t)
	if p := env.planOnce(t, fetch.Options{Cache: cache}); p.HasChanges() {
		t.Fatalf("cold plan has changes: %+v", p.Changes)
	}
	touch("edited in the app\n")
	p := env.planOnce(t, fetch.Options{Cache: cache})
	if len(p.Changes) != 1 || p.Changes[0].Slug != "skill-00001" {
		t.Fatalf("plan after an edit within the second of the cached read: %+v, want skill-00001 changed", p.Changes)
	}
}

// TestCacheHitsAcrossPrecisions: a list that writes updatedAt in whole
// seconds and a get that writes milliseconds name the same moment; the
// cache still saves the reads.
func TestCacheHitsAcrossPrecisions(t *testing.T) {
	env := newPerfEnv(t, 10, remote.Options{})
	env.emu.SetAnswers(remotetest.Answers{Times: remotetest.TimeSecondsInLists})
	cache := openTestCache(t)
	env.planOnce(t, fetch.Options{Cache: cache})
	env.emu.ResetRequests()
	if p := env.planOnce(t, fetch.Options{Cache: cache}); p.HasChanges() {
		t.Fatalf("warm plan has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 0 {
		t.Errorf("warm cache across precisions: %d gets, want 0", n)
	}
}
