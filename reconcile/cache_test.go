package reconcile

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

func openTestCache(t *testing.T) *InstructionCache {
	t.Helper()
	c, err := OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cacheDir is the folder of a cache opened with OpenCache.
func cacheDir(c *InstructionCache) string { return c.entries.(*DirStore).dir }

// gets is the number of single-skill reads the emulator answered since the
// last reset.
func gets(env *perfEnv) int { return env.emu.Requests()[remotetest.KeyGetSkill] }

func TestCacheSkipsUnchangedAndSeesEdits(t *testing.T) {
	env := newPerfEnv(t, 30, remote.Options{})
	cache := openTestCache(t)

	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() {
		t.Fatalf("cold plan has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 30 {
		t.Fatalf("cold cache: %d gets, want 30", n)
	}
	env.emu.ResetRequests()
	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() {
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
	p := env.planOnce(t, FetchOptions{Cache: cache})
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
	p = env.planOnce(t, FetchOptions{Cache: cache})
	if len(p.Changes) != 2 {
		t.Fatalf("plan after an update through the API: %d changes, want 2", len(p.Changes))
	}
}

func TestCacheIgnoresBadEntries(t *testing.T) {
	env := newPerfEnv(t, 5, remote.Options{})
	cache := openTestCache(t)
	env.planOnce(t, FetchOptions{Cache: cache})

	files, err := filepath.Glob(filepath.Join(cacheDir(cache), "*.json"))
	if err != nil || len(files) != 5 {
		t.Fatalf("%d cache entries (%v), want 5", len(files), err)
	}
	s, _ := env.emu.SkillBySlug(benchSpace, "skill-00001")
	listed := s
	listed.Instructions = nil
	if _, ok := cache.lookup(env.scope(), listed); !ok {
		t.Fatal("no entry for skill-00001")
	}
	// An entry whose listed fields disagree with the list, with the same
	// updatedAt, is not trusted.
	renamed := listed
	renamed.Name = "Renamed without a new updatedAt"
	if _, ok := cache.lookup(env.scope(), renamed); ok {
		t.Error("an entry was used for a skill listed with another name")
	}
	if _, ok := cache.lookup(cacheScope{env.client.BaseURL(), "zz99"}, listed); ok {
		t.Error("an entry was used for another space")
	}
	if _, ok := cache.lookup(cacheScope{"https://other-tenant.example.com", benchSpace}, listed); ok {
		t.Error("an entry was used for the same space id of another service")
	}

	for i, f := range files {
		bad := []string{"", "{", `{"version":2,"space":"ab12","skill":{"id":7}}`, "null", `{"version":99}`}[i]
		if err := os.WriteFile(f, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env.emu.ResetRequests()
	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() {
		t.Fatalf("plan over a corrupt cache has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 5 {
		t.Errorf("corrupt cache: %d gets, want 5", n)
	}
	// Rewritten: the next plan reads nothing.
	env.emu.ResetRequests()
	env.planOnce(t, FetchOptions{Cache: cache})
	if n := gets(env); n != 0 {
		t.Errorf("after rewriting: %d gets, want 0", n)
	}
	if left, _ := filepath.Glob(filepath.Join(cacheDir(cache), ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestCacheUnwritableFolderStillPlans(t *testing.T) {
	env := newPerfEnv(t, 3, remote.Options{})
	cache := openTestCache(t)
	if err := os.Chmod(cacheDir(cache), 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(cacheDir(cache), 0o700) })
	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() || p.HasErrors() {
		t.Fatalf("plan: %+v", p)
	}
}

func TestOpenCacheErrors(t *testing.T) {
	if _, err := OpenCache(""); err == nil {
		t.Error("OpenCache(\"\") succeeded")
	}
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	if _, err := OpenCache(filepath.Join(file, "sub")); err == nil {
		t.Error("OpenCache under a file succeeded")
	}
}

// TestCachePrunesDeletedSkills: the entry of a skill deleted in the app
// goes with the next plan; the entries of live skills, of other spaces and
// files that are not entries stay.
func TestCachePrunesDeletedSkills(t *testing.T) {
	env := newPerfEnv(t, 5, remote.Options{})
	cache := openTestCache(t)
	env.planOnce(t, FetchOptions{Cache: cache})

	gone, _ := env.emu.SkillBySlug(benchSpace, "skill-00002")
	kept, _ := env.emu.SkillBySlug(benchSpace, "skill-00003")
	other := remote.Skill{ID: gone.ID, Slug: gone.Slug, UpdatedAt: gone.UpdatedAt, Instructions: gone.Instructions} // same id, another space
	if err := cache.store(cacheScope{env.client.BaseURL(), "zz99"}, other, time.Time{}); err != nil {
		t.Fatal(err)
	}
	otherTenant := cacheScope{"https://other-tenant.example.com", benchSpace} // same space id, another service
	if err := cache.store(otherTenant, other, time.Time{}); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(cacheDir(cache), "notes.json")
	if err := os.WriteFile(notes, []byte(`{"kept": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(entryPath(cache, env.scope(), gone.ID)); err != nil {
		t.Fatalf("no entry for %s after a cold plan: %v", gone.Slug, err)
	}

	env.emu.DeleteSkill(benchSpace, gone.ID)
	env.planOnce(t, FetchOptions{Cache: cache})
	if _, err := os.Stat(entryPath(cache, env.scope(), gone.ID)); !os.IsNotExist(err) {
		t.Errorf("entry of the deleted skill: %v, want it removed", err)
	}
	for what, p := range map[string]string{
		"live skill":   entryPath(cache, env.scope(), kept.ID),
		"other space":  entryPath(cache, cacheScope{env.client.BaseURL(), "zz99"}, gone.ID),
		"other tenant": entryPath(cache, otherTenant, gone.ID),
		"other file":   notes,
	} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v, want it kept", what, err)
		}
	}
}

// scope is the cache scope of the env's space.
func (env *perfEnv) scope() cacheScope {
	return cacheScope{Service: env.client.BaseURL(), Space: benchSpace}
}

// TestCacheSkipsNullInstructions: a read whose SKILL.md was unreadable is
// not kept: the file may be readable again with the same updatedAt, and a
// kept null would plan rewriting the whole text on every later plan.
func TestCacheSkipsNullInstructions(t *testing.T) {
	cache := openTestCache(t)
	scope := cacheScope{Service: "https://t.example.com", Space: "ab12"}
	s := remote.Skill{ID: "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b", Slug: "a", Name: "A", Description: "d", UpdatedAt: "2026-11-23T10:00:00.000Z"}
	if err := cache.store(scope, s, time.Time{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := cache.lookup(scope, s); ok {
		t.Fatal("a read with null instructions was kept")
	}
	// One kept anyway (by an earlier version) is not used.
	data, _ := json.Marshal(cacheEntry{Version: cacheVersion, cacheScope: scope, Skill: s})
	if err := os.WriteFile(entryPath(cache, scope, s.ID), data, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, ok := cache.lookup(scope, s); ok {
		t.Fatal("an entry with null instructions was used")
	}
	text := "body\n"
	s.Instructions = &text
	if err := cache.store(scope, s, time.Now()); err != nil {
		t.Fatal(err)
	}
	listed := s
	listed.Instructions = nil
	if got, ok := cache.lookup(scope, listed); !ok || got.Instructions == nil || *got.Instructions != text {
		t.Errorf("a readable read was not kept: %+v, %v", got, ok)
	}
}

// entryPath is the file of the entry of skill id in a cache opened with
// OpenCache.
func entryPath(c *InstructionCache, scope cacheScope, id string) string {
	return filepath.Join(cacheDir(c), entryName(scope, id))
}

// TestCacheEntryBound: an entry is read up to MaxCacheEntryBytes; a
// larger one, valid or not, is taken for absent (the skill is read from
// the service), and none larger is written.
func TestCacheEntryBound(t *testing.T) {
	cache := openTestCache(t)
	scope := cacheScope{Service: "https://t.example.com", Space: "ab12"}
	text := "body\n"
	s := remote.Skill{ID: "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b", Slug: "a", Name: "A", Description: "d", UpdatedAt: "2026-11-23T10:00:00.000Z", Instructions: &text}
	data, err := json.Marshal(cacheEntry{Version: cacheVersion, cacheScope: scope, Skill: s, ReadAt: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	path := entryPath(cache, scope, s.ID)
	pad := func(n int) {
		t.Helper()
		padded := append(bytes.Clone(data), bytes.Repeat([]byte(" "), n-len(data))...)
		if err := os.WriteFile(path, padded, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	pad(MaxCacheEntryBytes)
	if _, ok := cache.lookup(scope, s); !ok {
		t.Error("an entry of exactly the bound was not used")
	}
	pad(MaxCacheEntryBytes + 1)
	if _, ok := cache.lookup(scope, s); ok {
		t.Error("an entry over the bound was used")
	}

	long := strings.Repeat("x", MaxCacheEntryBytes)
	big := s
	big.ID, big.Instructions = "4f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b", &long
	if err := cache.store(scope, big, time.Time{}); err == nil || !strings.Contains(err.Error(), "more than 4 MiB") {
		t.Errorf("storing an entry over the bound: %v", err)
	}
	if _, err := os.Stat(entryPath(cache, scope, big.ID)); !os.IsNotExist(err) {
		t.Errorf("an entry over the bound was written: %v", err)
	}
}

// TestCacheFIFOEntry: a FIFO in place of an entry is not an entry: opening
// it fails at once, instead of waiting for a writer that never comes.
func TestCacheFIFOEntry(t *testing.T) {
	d, err := OpenDirStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(d.dir, "entry.json"), 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	opened := make(chan error, 1)
	go func() {
		rc, err := d.Open("entry.json")
		if err == nil {
			rc.Close()
		}
		opened <- err
	}()
	select {
	case err := <-opened:
		if err == nil || !strings.Contains(err.Error(), "is not a regular file") {
			t.Errorf("opening a FIFO entry: %v, want it refused as no regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("opening a FIFO entry still waits after 10 s")
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
	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() {
		t.Fatalf("cold plan has changes: %+v", p.Changes)
	}
	touch("edited in the app\n")
	p := env.planOnce(t, FetchOptions{Cache: cache})
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
	env.planOnce(t, FetchOptions{Cache: cache})
	env.emu.ResetRequests()
	if p := env.planOnce(t, FetchOptions{Cache: cache}); p.HasChanges() {
		t.Fatalf("warm plan has changes: %+v", p.Changes)
	}
	if n := gets(env); n != 0 {
		t.Errorf("warm cache across precisions: %d gets, want 0", n)
	}
}
