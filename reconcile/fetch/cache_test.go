package fetch

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
	"github.com/skillsync/skillsync/spec"
)

const (
	testSpace = "ab12"
	testToken = "test-token"
)

// testEnv is an emulator with n skills, served on loopback, a client, and
// a repository that manages them all unchanged.
type testEnv struct {
	emu     *remotetest.Emulator
	client  *remote.Client
	desired *fsrepo.Repo
}

func newTestEnv(tb testing.TB, n int) *testEnv {
	tb.Helper()
	e := remotetest.New()
	e.AddSpace(remotetest.Space{ID: testSpace})
	e.AddToken(testToken, remotetest.ReadWrite)
	// The service's clock an hour behind: a skill's updatedAt is then never
	// too close to a read to trust its cache entry (see racy).
	e.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
	srv := testserver.New(tb, e)
	c, err := remote.New(remote.Options{BaseURL: srv.URL, Token: testToken})
	if err != nil {
		tb.Fatal(err)
	}
	env := &testEnv{emu: e, client: c, desired: &fsrepo.Repo{Root: "/repo"}}
	for i := range n {
		slug := fmt.Sprintf("skill-%05d", i)
		text := fmt.Sprintf("# %s\n\nDo the thing number %d.\n", slug, i)
		e.AddSkill(testSpace, remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug, Description: "About " + slug, Instructions: text})
		env.desired.Skills = append(env.desired.Skills, fsrepo.Skill{Slug: slug, Path: "skills/" + slug + "/SKILL.md",
			Name: "Skill " + slug, Description: "About " + slug, Instructions: spec.Canonical(text), Enabled: true})
	}
	return env
}

// fetchOnce reads the space, failing unless every skill live has the
// instructions the repository has.
func (env *testEnv) fetchOnce(tb testing.TB, o Options) *Live {
	tb.Helper()
	live, err := Space(context.Background(), env.client, testSpace, env.desired, o)
	if err != nil {
		tb.Fatal(err)
	}
	want := make(map[string]string)
	for _, s := range env.desired.Skills {
		want[s.Slug] = s.Instructions
	}
	for _, s := range live.Skills {
		if s.Instructions == nil || spec.Canonical(*s.Instructions) != want[s.Slug] {
			tb.Fatalf("%s: instructions %v, want %q", s.Slug, s.Instructions, want[s.Slug])
		}
	}
	return live
}

func openTestCache(t testing.TB) *Cache {
	t.Helper()
	c, err := OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// gets is the number of single-skill reads the emulator answered since the
// last reset.
func gets(env *testEnv) int { return env.emu.Requests()[remotetest.KeyGetSkill] }

// cacheDir is the folder of a cache opened with OpenCache.
func cacheDir(c *Cache) string { return c.dir }

func TestCacheIgnoresBadEntries(t *testing.T) {
	env := newTestEnv(t, 5)
	cache := openTestCache(t)
	env.fetchOnce(t, Options{Cache: cache})

	files, err := filepath.Glob(filepath.Join(cacheDir(cache), "*.json"))
	if err != nil || len(files) != 5 {
		t.Fatalf("%d cache entries (%v), want 5", len(files), err)
	}
	s, _ := env.emu.SkillBySlug(testSpace, "skill-00001")
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
	if _, ok := cache.lookup(cacheScope{"https://other-tenant.example.com", testSpace}, listed); ok {
		t.Error("an entry was used for the same space id of another service")
	}

	for i, f := range files {
		bad := []string{"", "{", `{"version":2,"space":"ab12","skill":{"id":7}}`, "null", `{"version":99}`}[i]
		if err := os.WriteFile(f, []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	env.emu.ResetRequests()
	env.fetchOnce(t, Options{Cache: cache}) // each skill as the space has it
	if n := gets(env); n != 5 {
		t.Errorf("corrupt cache: %d gets, want 5", n)
	}
	// Rewritten: the next plan reads nothing.
	env.emu.ResetRequests()
	env.fetchOnce(t, Options{Cache: cache})
	if n := gets(env); n != 0 {
		t.Errorf("after rewriting: %d gets, want 0", n)
	}
	if left, _ := filepath.Glob(filepath.Join(cacheDir(cache), ".tmp-*")); len(left) != 0 {
		t.Errorf("temporary files left behind: %v", left)
	}
}

func TestCacheUnwritableFolderStillFetches(t *testing.T) {
	env := newTestEnv(t, 3)
	cache := openTestCache(t)
	if err := os.Chmod(cacheDir(cache), 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(cacheDir(cache), 0o700) })
	env.fetchOnce(t, Options{Cache: cache})
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
	env := newTestEnv(t, 5)
	cache := openTestCache(t)
	env.fetchOnce(t, Options{Cache: cache})

	gone, _ := env.emu.SkillBySlug(testSpace, "skill-00002")
	kept, _ := env.emu.SkillBySlug(testSpace, "skill-00003")
	other := remote.Skill{ID: gone.ID, Slug: gone.Slug, UpdatedAt: gone.UpdatedAt, Instructions: gone.Instructions} // same id, another space
	if err := cache.store(cacheScope{env.client.BaseURL(), "zz99"}, other, time.Time{}); err != nil {
		t.Fatal(err)
	}
	otherTenant := cacheScope{"https://other-tenant.example.com", testSpace} // same space id, another service
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

	env.emu.DeleteSkill(testSpace, gone.ID)
	env.fetchOnce(t, Options{Cache: cache})
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
func (env *testEnv) scope() cacheScope {
	return cacheScope{Service: env.client.BaseURL(), Space: testSpace}
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
func entryPath(c *Cache, scope cacheScope, id string) string {
	return filepath.Join(cacheDir(c), entryName(scope, id))
}

// TestCacheEntryBound: an entry is read up to MaxEntryBytes; a
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
	pad(MaxEntryBytes)
	if _, ok := cache.lookup(scope, s); !ok {
		t.Error("an entry of exactly the bound was not used")
	}
	pad(MaxEntryBytes + 1)
	if _, ok := cache.lookup(scope, s); ok {
		t.Error("an entry over the bound was used")
	}

	long := strings.Repeat("x", MaxEntryBytes)
	big := s
	big.ID, big.Instructions = "4f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b", &long
	if err := cache.store(scope, big, time.Time{}); err == nil || !strings.Contains(err.Error(), "more than 4 MiB") {
		t.Errorf("storing an entry over the bound: %v", err)
	}
	if _, err := os.Stat(entryPath(cache, scope, big.ID)); !os.IsNotExist(err) {
		t.Errorf("an entry over the bound was written: %v", err)
	}
}

// TestCacheFIFOEntry: a FIFO in place of an entry is not an entry: reading
// it fails at once, instead of waiting for a writer that never comes.
func TestCacheFIFOEntry(t *testing.T) {
	d, err := OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(d.dir, "entry.json"), 0o600); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	read := make(chan bool, 1)
	go func() {
		_, ok := d.readEntry("entry.json")
		read <- ok
	}()
	select {
	case ok := <-read:
		if ok {
			t.Error("a FIFO was read as an entry")
		}
	case <-time.After(10 * time.Second):
		t.Fatal("reading a FIFO entry still waits after 10 s")
	}
}

// BenchmarkCacheLookup10000 resolves 10,000 listed skills against a warm
// instruction cache one by one, no request made: the disk's share of a
// warm plan, which List reads ahead while the lists are read.
//
//	go test -run '^$' -bench CacheLookup -benchtime 5x ./reconcile/fetch
func BenchmarkCacheLookup10000(b *testing.B) {
	const n = 10000
	env := newTestEnv(b, n)
	cache, err := OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	env.fetchOnce(b, Options{Cache: cache, Parallelism: 32}) // warm it
	listed, err := env.client.StreamSkills(b.Context(), testSpace, remote.ListOptions{})
	if err != nil {
		b.Fatal(err)
	}
	scope := cacheScope{Service: env.client.BaseURL(), Space: testSpace}
	for b.Loop() {
		hits := 0
		for _, s := range listed {
			if _, ok := cache.lookup(scope, s); ok {
				hits++
			}
		}
		if hits != n {
			b.Fatalf("%d hits of %d", hits, n)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/op")
}

// TestCacheKeepsNoSecret: a skill whose read holds a secret of this
// process (a token typed into the app) is not kept: no file of the cache
// holds the secret, and the next plan reads that skill again, the others
// from the cache.
func TestCacheKeepsNoSecret(t *testing.T) {
	const token = "ghp_Q7xTestTokenValue0123456789abcdefABCD"
	env := newTestEnv(t, 3)
	s, _ := env.emu.SkillBySlug(testSpace, "skill-00001")
	env.emu.EditSkill(testSpace, s.ID, func(ss *remotetest.SkillSeed) { ss.Instructions = "Call the API with " + token + ".\n" })
	secrets := &redact.Set{}
	secrets.Add("GITHUB_TOKEN", token)
	cache := openTestCache(t)
	cache.Secrets = secrets.Found
	read := func() {
		t.Helper()
		if _, err := Space(t.Context(), env.client, testSpace, env.desired, Options{Cache: cache}); err != nil {
			t.Fatal(err)
		}
	}
	read()
	files, err := filepath.Glob(filepath.Join(cacheDir(cache), "*"))
	if err != nil || len(files) != 2 {
		t.Fatalf("%d cache entries (%v), want the 2 skills holding no secret", len(files), err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), "Q7xTestToken") {
			t.Errorf("%s holds the token", f)
		}
	}
	env.emu.ResetRequests()
	read()
	if n := gets(env); n != 1 {
		t.Errorf("%d reads, want 1: the skill holding the token read again, the others from the cache", n)
	}
}
