package reconcile

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// wrappedEnv is a perfEnv whose client talks to the emulator through
// handler, which gets the emulator as next.
func wrappedEnv(t *testing.T, n int, handler func(next http.Handler) http.Handler) *perfEnv {
	t.Helper()
	env := newPerfEnv(t, n, remote.Options{})
	srv := httptest.NewServer(handler(env.emu))
	t.Cleanup(srv.Close)
	c, err := remote.New(remote.Options{BaseURL: srv.URL, Token: benchToken})
	if err != nil {
		t.Fatal(err)
	}
	env.client = c
	return env
}

// onceEnv is a perfEnv of n skills whose server calls do once, as the
// first request that match accepts arrives.
func onceEnv(t *testing.T, n int, match func(r *http.Request) bool, do func(env *perfEnv)) *perfEnv {
	var (
		once sync.Once
		env  *perfEnv
	)
	env = wrappedEnv(t, n, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if match(r) {
				once.Do(func() { do(env) })
			}
			next.ServeHTTP(w, r)
		})
	})
	return env
}

func isSkillRead(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 6
}

func isSkillsPage(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/skills") }

func isListPage(r *http.Request) bool {
	return isSkillsPage(r) || strings.HasSuffix(r.URL.Path, "/agents")
}

// gate is a wait a test server makes until something else has happened;
// it gives up after a while, so that a client that never lets it happen
// fails the test rather than hanging it.
func gate(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	case <-time.After(5 * time.Second):
		return false
	}
}

// TestFetchRequests: a plan makes the fewest requests the API allows:
// the pages of each list once, and a read of each managed skill unless a
// warm cache holds it unchanged. A list that changes while it is paged is
// read again, but each skill is still read once.
func TestFetchRequests(t *testing.T) {
	for _, n := range []int{1, 100, 101, 1000} {
		env := newPerfEnv(t, n, remote.Options{})
		cache := openTestCache(t)
		pages := max(1, ceilDiv(n, 100))
		for _, tt := range []struct {
			name string
			o    fetch.Options
			gets int
		}{
			{"cold", fetch.Options{}, n},
			{"cold, filling the cache", fetch.Options{Cache: cache, Parallelism: 3}, n},
			{"warm", fetch.Options{Cache: cache, Parallelism: 32}, 0},
		} {
			env.emu.ResetRequests()
			if p := env.planOnce(t, tt.o); p.HasChanges() {
				t.Errorf("%d skills, %s: %d changes", n, tt.name, len(p.Changes))
			}
			want := map[string]int{remotetest.KeyListSkills: pages, remotetest.KeyListAgents: 1}
			if tt.gets > 0 {
				want[remotetest.KeyGetSkill] = tt.gets
			}
			if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%d skills, %s: requests = %v, want %v", n, tt.name, got, want)
			}
		}
	}
}

// TestFetchParallelismIsOneBudget: list pages of both lists, skill reads
// and file reads together never pass --parallelism requests in flight,
// and reach it while the lists are read. The server holds each page after
// the first of its list until --parallelism requests are in flight, then
// a while longer, so that the pages of both lists meet.
func TestFetchParallelismIsOneBudget(t *testing.T) {
	const par = 3
	var (
		mu             sync.Mutex
		inFlight, most int
		pagesMost      int // while the lists were read
		listed         bool
		full           = make(chan struct{})
		fullOnce       sync.Once
	)
	env := wrappedEnv(t, 450, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			listed = listed || isSkillRead(r)
			if !listed {
				pagesMost = max(pagesMost, inFlight)
			}
			if inFlight == par {
				fullOnce.Do(func() { close(full) })
			}
			mu.Unlock()
			defer func() {
				mu.Lock()
				inFlight--
				mu.Unlock()
			}()
			if isListPage(r) && r.URL.Query().Get("offset") != "0" {
				gate(full)                       // after a while, pagesMost tells
				time.Sleep(5 * time.Millisecond) // for the other pages to come
			}
			next.ServeHTTP(w, r)
		})
	})
	for i := range 350 { // agents over four pages
		env.emu.AddAgent(benchSpace, remote.Agent{Name: fmt.Sprintf("Agent %d", i)})
	}
	for i := range env.desired.Skills[:40] {
		s := &env.desired.Skills[i]
		s.Files = []fsrepo.File{localTextFile("notes.md", "local\n")}
	}
	env.emu.ResetRequests()
	live, err := fetch.Space(t.Context(), env.client, benchSpace, env.desired, fetch.Options{Parallelism: par})
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Skills) != 450 || len(live.Agents) != 350 {
		t.Errorf("%d skills, %d agents; want 450, 350", len(live.Skills), len(live.Agents))
	}
	want := map[string]int{remotetest.KeyListSkills: 5, remotetest.KeyListAgents: 4, remotetest.KeyGetSkill: 450, remotetest.KeyGetFile: 40}
	if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	if most != par || pagesMost != par {
		t.Errorf("%d requests in flight at most, %d while listing; want %d (--parallelism)", most, pagesMost, par)
	}
}

// TestFetchShiftWhileListing edits a managed skill of page 3 as page 2 is
// asked for, so that the list shifts under the pages (page 2 repeats the
// last item of page 1) and is read again. The plan sees the edit, and each
// skill is read once, as the final list has it.
func TestFetchShiftWhileListing(t *testing.T) {
	var target remote.Skill
	env := onceEnv(t, 350, func(r *http.Request) bool {
		return isSkillsPage(r) && r.URL.Query().Get("offset") == "100"
	}, func(env *perfEnv) {
		env.emu.EditSkill(benchSpace, target.ID, func(s *remotetest.SkillSeed) {
			s.Instructions = "edited in the app\n"
		})
	})
	target = env.emu.Skills(benchSpace)[250] // on page 3
	env.emu.ResetRequests()
	p := env.planOnce(t, fetch.Options{Parallelism: 8})
	if len(p.Changes) != 1 || p.Changes[0].ID != target.ID || *p.Changes[0].Before.Instructions != "edited in the app\n" {
		t.Fatalf("plan: %d changes; want the edit of %s in the app undone", len(p.Changes), target.Slug)
	}
	want := map[string]int{remotetest.KeyListSkills: 8, remotetest.KeyListAgents: 1, remotetest.KeyGetSkill: 350}
	if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
}

// TestFetchDeletedBeforeRead: a managed skill deleted between the lists
// and its read is left out, and so are its files, read or not.
func TestFetchDeletedBeforeRead(t *testing.T) {
	var target remote.Skill
	env := onceEnv(t, 250, isSkillRead, func(env *perfEnv) { env.emu.DeleteSkill(benchSpace, target.ID) })
	target = env.emu.Skills(benchSpace)[10]
	for i := range env.desired.Skills {
		if s := &env.desired.Skills[i]; s.Slug == target.Slug {
			s.Files = []fsrepo.File{localTextFile("notes.md", "local\n")}
		}
	}
	env.emu.ResetRequests()
	live, err := fetch.Space(t.Context(), env.client, benchSpace, env.desired, fetch.Options{Parallelism: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range live.Skills {
		if s.ID == target.ID {
			t.Errorf("%s, deleted before its read, is in the live skills", target.Slug)
		}
	}
	if _, ok := live.Files[target.ID]; ok || len(live.Skills) != 249 {
		t.Errorf("%d live skills, files of the deleted one %v; want 249 and none", len(live.Skills), live.Files[target.ID])
	}
	if got := env.emu.Requests()[remotetest.KeyGetSkill]; got != 250 {
		t.Errorf("%d skill reads, want one each", got)
	}
}
