package reconcile

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// TestFetchBadAnswers plans against the emulator behind a proxy that spoils
// one answer: the read of one skill, or the list. Each must end the plan
// with an error that names what was being read and why, with no panic,
// bounded memory and bounded time.
func TestFetchBadAnswers(t *testing.T) {
	chunk := []byte(strings.Repeat(" ", 64<<10))
	var otherHost atomic.Int32
	var bigWritten atomic.Int64 // bytes of the 100 MB body the client took
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		otherHost.Add(1)
	}))
	t.Cleanup(other.Close)

	tests := []struct {
		name   string
		list   bool // spoil the first page of the skills list, not a get
		answer http.HandlerFunc
		want   []string // in the error, besides what was being read
	}{
		{"malformed JSON", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id": "x", `))
		}, []string{"invalid response", "malformed JSON"}},
		{"wrong types", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id": 42, "enabled": "yes", "instructions": ["a"]}`))
		}, []string{"invalid response", "expected"}},
		{"wrong types in the list", true, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"data": [{"id": "x", "name": 7}], "total": "many"}`))
		}, []string{"listing skills", "invalid response"}},
		{"100 MB body", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"`))
			for range (100 << 20) / len(chunk) {
				n, err := w.Write(chunk)
				bigWritten.Add(int64(n))
				if err != nil {
					return
				}
			}
		}, []string{"response body exceeds the limit"}},
		{"HTML page with 200", false, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>Sign in</title>"))
		}, []string{"expected JSON, got text/html"}},
		{"HTML list page with 200", true, func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("<html><body>Maintenance</body></html>"))
		}, []string{"listing skills", "expected JSON, got"}},
		{"redirect to another host", false, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, http.StatusFound)
		}, []string{"refusing to follow a redirect", "another origin than the space's service would receive the token"}},
		{"hang", false, func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
		}, []string{"no response within 300ms"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			emu := remotetest.New()
			emu.AddSpace(remotetest.Space{ID: benchSpace})
			emu.AddToken(benchToken, remotetest.ReadWrite)
			var desired []fsrepo.Skill
			var target remote.Skill
			for i := range 20 {
				slug := "s-" + string(rune('a'+i))
				s := emu.AddSkill(benchSpace, remotetest.SkillSeed{Slug: slug, Name: "S " + slug, Description: "d", Instructions: "x\n"})
				if i == 7 {
					target = s
				}
				desired = append(desired, fsrepo.Skill{Slug: slug, Name: "S " + slug, Description: "d", Instructions: "x\n"})
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				isList := strings.HasSuffix(r.URL.Path, "/skills")
				if (tt.list && isList) || (!tt.list && strings.HasSuffix(r.URL.Path, "/skills/"+target.ID)) {
					tt.answer(w, r)
					return
				}
				emu.ServeHTTP(w, r)
			}))
			t.Cleanup(srv.Close)
			timeout := 300 * time.Millisecond // for the hang
			if tt.name == "100 MB body" {
				timeout = 30 * time.Second // reading to the limit takes a while under -race
			}
			c, err := remote.New(remote.Options{BaseURL: srv.URL, Token: benchToken, Timeout: timeout,
				MaxAttempts: 2, MinBackoff: time.Millisecond, MaxBackoff: 2 * time.Millisecond, Sleep: reconciletest.InstantWait})
			if err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			start := time.Now()
			live, err := fetch.Space(context.Background(), c, benchSpace, &fsrepo.Repo{Skills: desired}, fetch.Options{Parallelism: 4})
			elapsed := time.Since(start)
			runtime.ReadMemStats(&after)
			if err == nil {
				t.Fatalf("Fetch succeeded with %d skills", len(live.Skills))
			}
			msg := err.Error()
			want := tt.want
			if !tt.list {
				want = append(want, "reading skill s-h ("+target.ID+")")
			}
			for _, w := range want {
				if !strings.Contains(msg, w) {
					t.Errorf("error %q does not say %q", msg, w)
				}
			}
			if strings.Contains(msg, benchToken) {
				t.Errorf("error holds the token: %s", msg)
			}
			if len(msg) > 1000 {
				t.Errorf("error is %d bytes long: %.200s...", len(msg), msg)
			}
			// The client reads at most its 32 MiB limit: it must neither
			// take the whole 100 MB nor allocate as if it had.
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 200<<20 {
				t.Errorf("allocated %d MiB", alloc>>20)
			}
			if n := bigWritten.Load(); n > 60<<20 {
				t.Errorf("the client took %d MiB of the 100 MB body", n>>20)
			}
			if elapsed > 30*time.Second {
				t.Errorf("took %s", elapsed)
			}
			if n := otherHost.Load(); n != 0 {
				t.Errorf("the other host got %d requests", n)
			}
		})
	}
}
