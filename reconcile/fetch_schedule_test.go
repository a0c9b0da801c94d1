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
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

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

func isSkillRead(r *http.Request) bool {
	return r.Method == http.MethodGet && strings.Count(r.URL.Path, "/") == 6
}

func isSkillsPage(r *http.Request) bool { return strings.HasSuffix(r.URL.Path, "/skills") }

// TestFetchReadsWhileListing: the reads of a page's skills start as soon
// as it arrives, not once the whole list is read. The server holds the
// second page of the list until a skill read has arrived.
func TestFetchReadsWhileListing(t *testing.T) {
	readArrived := make(chan struct{})
	var once sync.Once
	env := wrappedEnv(t, 1000, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isSkillRead(r) {
				once.Do(func() { close(readArrived) })
			}
			if isSkillsPage(r) && r.URL.Query().Get("offset") == "100" && !gate(readArrived) {
				http.Error(w, "no skill was read while the list was", http.StatusTeapot)
				return
			}
			next.ServeHTTP(w, r)
		})
	})
	if p := env.planOnce(t, FetchOptions{Parallelism: 8}); p.HasChanges() {
		t.Errorf("plan of unchanged skills has %d changes", len(p.Changes))
	}
	want := map[string]int{remotetest.KeyListSkills: 10, remotetest.KeyListAgents: 1, remotetest.KeyGetSkill: 1000}
	if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
}

// TestFetchParallelismIsOneBudget: list pages (of both lists), skill reads
// and file reads together never pass --parallelism requests in flight, and
// do reach it while the lists are read. The server holds every request but
// the first page of skills until P are in flight.
func TestFetchParallelismIsOneBudget(t *testing.T) {
	const par = 6
	var (
		mu             sync.Mutex
		inFlight, most int
		starved        int // requests that waited in vain for par in flight
		full           = make(chan struct{})
		fullOnce       sync.Once
	)
	env := wrappedEnv(t, 450, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			if inFlight == par {
				fullOnce.Do(func() { close(full) })
			}
			mu.Unlock()
			defer func() {
				mu.Lock()
				inFlight--
				mu.Unlock()
			}()
			if (!isSkillsPage(r) || r.URL.Query().Get("offset") != "0") && !gate(full) {
				mu.Lock()
				starved++
				mu.Unlock()
			}
			next.ServeHTTP(w, r)
		})
	})
	for i := range 150 { // agents over two pages
		env.emu.AddAgent(benchSpace, remote.Agent{Name: fmt.Sprintf("Agent %d", i)})
	}
	for i := range env.desired.Skills[:40] {
		s := &env.desired.Skills[i]
		s.Files = []fsrepo.File{localTextFile("notes.md", "local\n")}
	}
	env.emu.ResetRequests()
	live, err := Fetch(t.Context(), env.client, benchSpace, env.desired, FetchOptions{Parallelism: par})
	if err != nil {
		t.Fatal(err)
	}
	if len(live.Skills) != 450 || len(live.Agents) != 150 {
		t.Errorf("%d skills, %d agents; want 450, 150", len(live.Skills), len(live.Agents))
	}
	want := map[string]int{remotetest.KeyListSkills: 5, remotetest.KeyListAgents: 2, remotetest.KeyGetSkill: 450, remotetest.KeyGetFile: 40}
	if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests = %v, want %v", got, want)
	}
	if most != par {
		t.Errorf("%d requests in flight at most, want %d (--parallelism)", most, par)
	}
	if starved > 0 {
		t.Errorf("%d requests waited in vain for %d in flight: the pages were not read with the skills", starved, par)
	}
}

// TestFetchShiftWhileListing edits a managed skill of page 3 while page 2
// is being read, after page 3 was, so that the first pass sees the order
// shift (page 2 repeats the last item of page 1) and the list is read
// again. The read the first pass's page 3 started stands if it read the
// skill as the final list has it, and is made again otherwise; every other
// skill is read once.
func TestFetchShiftWhileListing(t *testing.T) {
	for _, tt := range []struct {
		name      string
		readFirst bool // the skill's read is answered before the edit
		wantGets  int
	}{
		{"the read saw the edit: it stands", false, 350},
		{"the read was before the edit: the skill is read again", true, 351},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var (
				target   remote.Skill
				arrived  = make(chan struct{}) // the skill's read reached the server
				answered = make(chan struct{}) // and was answered
				edited   = make(chan struct{})
				onceA    sync.Once
				onceB    sync.Once
				editOnce sync.Once
				env      *perfEnv
			)
			env = wrappedEnv(t, 350, func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					isTarget := isSkillRead(r) && strings.HasSuffix(r.URL.Path, "/"+target.ID)
					if isTarget {
						onceA.Do(func() { close(arrived) })
						if !tt.readFirst && !gate(edited) {
							http.Error(w, "the skill was not edited while its read waited", http.StatusTeapot)
							return
						}
					}
					if isSkillsPage(r) && r.URL.Query().Get("offset") == "100" {
						editOnce.Do(func() {
							wait := arrived
							if tt.readFirst {
								wait = answered
							}
							if !gate(wait) {
								return // the skill's read never came while page 2 waited
							}
							env.emu.EditSkill(benchSpace, target.ID, func(s *remotetest.SkillSeed) {
								s.Instructions = "edited in the app\n"
							})
							close(edited)
						})
					}
					next.ServeHTTP(w, r)
					if isTarget {
						onceB.Do(func() { close(answered) })
					}
				})
			})
			target = env.emu.Skills(benchSpace)[250] // on page 3
			env.emu.ResetRequests()
			p := env.planOnce(t, FetchOptions{Parallelism: 8})
			if len(p.Changes) != 1 || p.Changes[0].ID != target.ID || *p.Changes[0].Before.Instructions != "edited in the app\n" {
				t.Fatalf("plan: %d changes; want the edit of %s in the app undone", len(p.Changes), target.Slug)
			}
			want := map[string]int{remotetest.KeyListSkills: 8, remotetest.KeyListAgents: 1, remotetest.KeyGetSkill: tt.wantGets}
			if got := env.emu.Requests(); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("requests = %v, want %v", got, want)
			}
		})
	}
}

// TestFetchDeletedWhileListing: a managed skill deleted while the list is
// paged is left out, and so are its files, even when its first pass's
// page had it read.
func TestFetchDeletedWhileListing(t *testing.T) {
	var (
		target  remote.Skill
		read    = make(chan struct{})
		delOnce sync.Once
		env     *perfEnv
	)
	env = wrappedEnv(t, 250, func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if isSkillsPage(r) && r.URL.Query().Get("offset") == "100" {
				delOnce.Do(func() {
					if gate(read) {
						env.emu.DeleteSkill(benchSpace, target.ID)
					}
				})
			}
			next.ServeHTTP(w, r)
			if strings.Contains(r.URL.Path, "/"+target.ID+"/files/") {
				close(read) // its one file
			}
		})
	})
	target = env.emu.Skills(benchSpace)[10]
	for i := range env.desired.Skills {
		if s := &env.desired.Skills[i]; s.Slug == target.Slug {
			s.Files = []fsrepo.File{localTextFile("notes.md", "local\n")}
		}
	}
	env.emu.ResetRequests()
	live, err := Fetch(t.Context(), env.client, benchSpace, env.desired, FetchOptions{Parallelism: 8})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range live.Skills {
		if s.ID == target.ID {
			t.Errorf("%s, deleted while listed, is in the live skills", target.Slug)
		}
	}
	if _, ok := live.Files[target.ID]; ok || len(live.Skills) != 249 {
		t.Errorf("%d live skills, files of the deleted one %v; want 249 and none", len(live.Skills), live.Files[target.ID])
	}
	if got := env.emu.Requests()[remotetest.KeyGetSkill]; got > 250 {
		t.Errorf("%d skill reads, want at most one each", got)
	}
}
