package remotetest

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

// noReuseClient opens a connection per request, so that the transport
// never retries a dropped request on its own.
func noReuseClient() *http.Client {
	return &http.Client{Transport: &http.Transport{DisableKeepAlives: true}}
}

func get(c *http.Client, url string) (int, http.Header, error) {
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Header.Set("Authorization", "Bearer "+rwToken)
	res, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	res.Body.Close()
	return res.StatusCode, res.Header, nil
}

func TestFaultRates(t *testing.T) {
	f := newFixture(t)
	f.e.AddSkill(testSpace, seedSkill("a"))
	f.e.SetFaults(Faults{ErrorRate: 0.2, RateLimitRate: 0.1, DropRate: 0.1, RetryAfter: 1500 * time.Millisecond, Seed: 7})
	c := noReuseClient()
	const n = 500
	counts := make(map[string]int)
	var seq []string
	for range n {
		status, h, err := get(c, f.srv.URL+"/api/v1/spaces/ab12/skills")
		key := fmt.Sprint(status)
		if err != nil {
			key = "dropped"
		}
		if status == 429 && h.Get("Retry-After") != "2" {
			t.Errorf("Retry-After %q, want 2 (1.5s rounded up)", h.Get("Retry-After"))
		}
		counts[key]++
		seq = append(seq, key)
	}
	near := func(key string, got, want int) {
		t.Helper()
		if tol := want/3 + 5; got < want-tol || got > want+tol {
			t.Errorf("%s: %d of %d, want about %d", key, got, n, want)
		}
	}
	near("500+503", counts["500"]+counts["503"], n*20/100)
	near("429", counts["429"], n*10/100)
	near("dropped", counts["dropped"], n*10/100)
	near("200", counts["200"], n*60/100)
	if counts["500"] == 0 || counts["503"] == 0 {
		t.Errorf("want both 500 and 503: %v", counts)
	}
	if got := f.e.Requests()[KeyListSkills]; got != n {
		t.Errorf("counted %d list requests, want %d (faults included)", got, n)
	}

	// The same seed gives the same faults.
	f.e.SetFaults(Faults{ErrorRate: 0.2, RateLimitRate: 0.1, DropRate: 0.1, RetryAfter: 1500 * time.Millisecond, Seed: 7})
	for i := range 60 {
		status, _, err := get(c, f.srv.URL+"/api/v1/spaces/ab12/skills")
		key := fmt.Sprint(status)
		if err != nil {
			key = "dropped"
		}
		if key != seq[i] {
			t.Fatalf("request %d: %s, first run gave %s", i, key, seq[i])
		}
	}
}

func TestFaultsChangeNothing(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	f.e.SetFaults(Faults{ErrorRate: 1})
	r := f.patch(skillPath(testSpace, sk.ID), `{"name":"b"}`)
	if r.status != 500 && r.status != 503 {
		t.Fatalf("status %d", r.status)
	}
	r.errorCode(t)
	f.e.SetFaults(Faults{DropRate: 1})
	req, _ := http.NewRequest(http.MethodPost, f.srv.URL+skillPath(testSpace, sk.ID, "disable"), nil)
	req.Header.Set("Authorization", "Bearer "+rwToken)
	if _, err := noReuseClient().Do(req); err == nil {
		t.Fatal("dropped request got an answer")
	}
	f.e.SetFaults(Faults{RateLimitRate: 1})
	if r := f.req(http.MethodPost, skillPath(testSpace, sk.ID, "disable")); r.status != 429 || r.header.Get("Retry-After") != "0" {
		t.Errorf("rate limit: %d Retry-After %q", r.status, r.header.Get("Retry-After"))
	}
	if s, _ := f.e.Skill(testSpace, sk.ID); s.Name != "a" || !s.Enabled || s.UpdatedAt != sk.UpdatedAt {
		t.Errorf("a faulted request changed the skill: %+v", s)
	}

	// DropAfterWrite: the change is made, the answer lost.
	f.e.SetFaults(Faults{DropRate: 1, DropAfterWrite: true})
	req, _ = http.NewRequest(http.MethodPost, f.srv.URL+skillPath(testSpace, sk.ID, "disable"), nil)
	req.Header.Set("Authorization", "Bearer "+rwToken)
	if _, err := noReuseClient().Do(req); err == nil {
		t.Fatal("dropped request got an answer")
	}
	if s, _ := f.e.Skill(testSpace, sk.ID); s.Enabled {
		t.Error("DropAfterWrite did not apply the change")
	}
}

func TestLatency(t *testing.T) {
	f := newFixture(t)
	f.e.SetFaults(Faults{Latency: 80 * time.Millisecond})
	start := time.Now()
	f.mustStatus(f.req(http.MethodGet, "/api/v1/spaces/ab12/skills"), 200, "list")
	if d := time.Since(start); d < 80*time.Millisecond {
		t.Errorf("answered in %v, want at least 80ms", d)
	}
}

func TestRequestCounts(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	ag := f.e.AddAgent(testSpace, remote.Agent{Name: "a"})
	asset := "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	f.req(http.MethodGet, "/api/v1/spaces/ab12/skills")
	f.req(http.MethodGet, "/api/v1/spaces/ab12/skills?limit=0") // refused, still counted
	f.req(http.MethodGet, skillPath(testSpace, sk.ID))
	f.patch(skillPath(testSpace, sk.ID), `{"name":"b"}`)
	f.req(http.MethodPost, skillPath(testSpace, sk.ID, "disable"))
	f.req(http.MethodPost, skillPath(testSpace, sk.ID, "enable"))
	f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", "SKILL.md"))
	f.req(http.MethodGet, "/api/v1/spaces/ab12/agents")
	f.req(http.MethodPost, agentPath(testSpace, ag.ID, "publish"))
	f.req(http.MethodDelete, agentPath(testSpace, ag.ID))
	f.req(http.MethodGet, "/api/kb/assets/ab12/"+asset)
	f.req(http.MethodGet, "/nowhere")
	want := map[string]int{
		KeyListSkills: 2, KeyGetSkill: 1, KeyUpdateSkill: 1, KeyDisableSkill: 1, KeyEnableSkill: 1,
		KeyGetFile: 1, KeyListAgents: 1, KeyPublishAgent: 1, KeyDeleteAgent: 1, KeyGetAsset: 1, KeyOther: 1,
	}
	got := f.e.Requests()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("requests %v\nwant %v", got, want)
	}
	f.e.ResetRequests()
	if len(f.e.Requests()) != 0 {
		t.Error("ResetRequests left counts")
	}
}

func TestLogNeverShowsToken(t *testing.T) {
	f := newFixture(t)
	var mu sync.Mutex
	var lines []string
	f.e.SetLog(func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		lines = append(lines, fmt.Sprintf(format, args...))
	})
	f.req(http.MethodGet, "/api/v1/spaces/ab12/skills?limit=5")
	f.send(http.MethodGet, "/api/v1/spaces/ab12/skills", "secret-token", "", "")
	mu.Lock()
	defer mu.Unlock()
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "GET /api/v1/spaces/ab12/skills?limit=5 200 ") ||
		!strings.HasPrefix(lines[1], "GET /api/v1/spaces/ab12/skills 401 ") {
		t.Errorf("log lines %q", lines)
	}
	for _, l := range lines {
		if strings.Contains(l, rwToken) || strings.Contains(l, "secret-token") {
			t.Errorf("log shows a token: %q", l)
		}
	}
}

// TestConcurrentClients hammers one space from many goroutines: the limit
// of 40 must hold at every moment.
func TestConcurrentClients(t *testing.T) {
	f := newFixture(t)
	var ids []string
	for i := range 50 {
		s := f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("s%d", i), Description: "d", Enabled: i < 38})
		ids = append(ids, s.ID)
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(g), 1))
			c := &http.Client{}
			for range 60 {
				id := ids[rng.IntN(len(ids))]
				var req *http.Request
				switch rng.IntN(5) {
				case 0, 1:
					req, _ = http.NewRequest(http.MethodPost, f.srv.URL+skillPath(testSpace, id, "enable"), nil)
				case 2:
					req, _ = http.NewRequest(http.MethodPost, f.srv.URL+skillPath(testSpace, id, "disable"), nil)
				case 3:
					req, _ = http.NewRequest(http.MethodPatch, f.srv.URL+skillPath(testSpace, id), strings.NewReader(`{"description":"x"}`))
					req.Header.Set("Content-Type", "application/json")
				case 4:
					req, _ = http.NewRequest(http.MethodGet, f.srv.URL+"/api/v1/spaces/ab12/skills?limit=7", nil)
				}
				req.Header.Set("Authorization", "Bearer "+rwToken)
				res, err := c.Do(req)
				if err != nil {
					t.Error(err)
					return
				}
				res.Body.Close()
				if res.StatusCode != 200 && res.StatusCode != 409 {
					t.Errorf("%s %s: %d", req.Method, req.URL.Path, res.StatusCode)
				}
			}
		}()
	}
	wg.Add(1)
	go func() { // edits in the app and inspection at the same time
		defer wg.Done()
		for i := range 50 {
			f.e.EditSkill(testSpace, ids[i], func(s *SkillSeed) { s.Description = "edited" })
			f.e.Skills(testSpace)
			f.e.ActiveCount(testSpace)
		}
	}()
	wg.Wait()
	if n := f.e.MaxActiveSeen(testSpace); n > 40 {
		t.Errorf("active count reached %d", n)
	}
	if n := f.e.ActiveCount(testSpace); n > 40 {
		t.Errorf("active count %d", n)
	}
}

func TestStartRefusesNonLoopback(t *testing.T) {
	e := New()
	for _, addr := range []string{"0.0.0.0:0", ":0", "192.0.2.1:0", "example.com:80", "[::]:0", "nonsense"} {
		if s, err := e.Start(addr); err == nil {
			s.Close()
			t.Errorf("Start(%q) succeeded", addr)
		}
	}
	for _, addr := range []string{"", "127.0.0.1:0", "localhost:0"} {
		s, err := e.Start(addr)
		if err != nil {
			t.Errorf("Start(%q): %v", addr, err)
			continue
		}
		if !strings.HasPrefix(s.URL, "http://127.0.0.1:") && !strings.HasPrefix(s.URL, "http://[::1]:") {
			t.Errorf("URL %q", s.URL)
		}
		res, err := http.Get(s.URL + "/api/v1/spaces/ab12/skills")
		if err != nil {
			t.Errorf("%s: %v", s.URL, err)
		} else {
			res.Body.Close()
			if res.StatusCode != 401 {
				t.Errorf("no token: %d", res.StatusCode)
			}
		}
		if err := s.Close(); err != nil {
			t.Error(err)
		}
		if _, err := noReuseClient().Get(s.URL); err == nil {
			t.Errorf("%s still answers after Close", s.URL)
		}
	}
}

func TestOnRequestHook(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	var mu sync.Mutex
	var paths []string
	f.e.SetOnRequest(func(r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		mu.Unlock()
		// The hook may call the emulator.
		f.e.EditSkill(testSpace, sk.ID, func(s *SkillSeed) { s.Description = "hooked" })
	})
	got := getSkill(f, sk.ID)
	mu.Lock()
	defer mu.Unlock()
	if got.Description != "hooked" || len(paths) != 1 {
		t.Errorf("hook: %q %v", got.Description, paths)
	}
	f.e.SetOnRequest(nil)
}
