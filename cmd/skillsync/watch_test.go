package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// syncBuffer is a bytes.Buffer safe for the writes of a running watch.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// watchSpaces starts an emulator holding n spaces w0..wN-1, each with the
// skills a, b and c that the repository it writes holds, with targets w0..
// (or, for n = 1, the one space w0). It returns the emulator, the
// repository and the variables of a job.
func watchSpaces(t *testing.T, n int) (*remotetest.Emulator, string, testEnv) {
	t.Helper()
	e := remotetest.New()
	// The service's clock an hour behind this machine's: skills seeded
	// now are not too fresh for the cache to trust (see reconcile's racy).
	e.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
	e.AddToken(scriptToken, remotetest.ReadWrite)
	dir := t.TempDir()
	cfg := "missing: warn\n"
	if n == 1 {
		cfg += "space: w0\n"
	} else {
		cfg += "targets:\n"
	}
	for i := range n {
		space := fmt.Sprintf("w%d", i)
		e.AddSpace(remotetest.Space{ID: space})
		if n > 1 {
			cfg += fmt.Sprintf("  %s: {space: %s}\n", space, space)
		}
		for _, slug := range []string{"a", "b", "c"} {
			e.AddSkill(space, remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug, Description: "Does " + slug + ".", Instructions: "# " + slug + "\n", Enabled: true})
		}
	}
	for _, slug := range []string{"a", "b", "c"} {
		if err := os.MkdirAll(filepath.Join(dir, "skills", slug), 0o755); err != nil {
			t.Fatal(err)
		}
		md := "---\nname: Skill " + slug + "\ndescription: Does " + slug + ".\n---\n# " + slug + "\n"
		if err := os.WriteFile(filepath.Join(dir, "skills", slug, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := testserver.New(t, e)
	return e, dir, testEnv{"SKILLSYNC_BASE_URL": srv.URL, "SKILLSYNC_TOKEN": scriptToken, "NO_COLOR": "1"}
}

// newTestWatcher is the watcher drift --watch --dir dir makes, writing
// to out.
func newTestWatcher(t *testing.T, te testEnv, dir string, out io.Writer) *watcher {
	t.Helper()
	ui := newUI(out, out, github.Env{})
	e := &env{ui: ui, getenv: func(k string) string { return te[k] }, stdin: strings.NewReader(""), instantRetries: true}
	cs, err := resolveConn(connFlags{parallelism: 8}, e)
	if err != nil {
		t.Fatal(err)
	}
	po := planningOptions{dir: dir, conn: cs, cache: t.TempDir()}
	return newWatcher(e, watchOptions{drift: driftOptions{planShown: planShown{planning: po, view: newPlanView(ui, "text", false, "drift")}}, interval: time.Second, format: "text"})
}

// TestWatchRequests: a round with nothing changed reads one page per
// target, and one with an app edit adds the reads of that target's plan
// only, through the cache: the edited skill, not the others.
func TestWatchRequests(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 10} {
		t.Run(fmt.Sprintf("%d targets", n), func(t *testing.T) {
			t.Parallel()
			e, dir, te := watchSpaces(t, n)
			var requests atomic.Int64
			var log sync.Mutex
			var paths []string
			e.SetOnRequest(func(r *http.Request) {
				requests.Add(1)
				log.Lock()
				paths = append(paths, r.Method+" "+r.URL.Path)
				log.Unlock()
			})
			var out syncBuffer
			w := newTestWatcher(t, te, dir, &out)
			ctx := t.Context()
			round := func() int64 {
				t.Helper()
				before := requests.Load()
				log.Lock()
				paths = nil
				log.Unlock()
				if err := w.round(ctx); err != nil {
					t.Fatalf("round: %v\n%s", err, out.String())
				}
				return requests.Load() - before
			}
			first := round()
			idle := round()
			if idle != int64(n) {
				t.Errorf("a round with nothing changed made %d requests, want %d (one per target): %v", idle, n, paths)
			}
			s, _ := e.SkillBySlug("w0", "b")
			e.EditSkill("w0", s.ID, func(sd *remotetest.SkillSeed) { sd.Instructions = "# b\n\nEdited in the app.\n" })
			changed := round()
			var gets int
			for _, p := range paths {
				if strings.HasPrefix(p, "GET ") && strings.Contains(p, "/skills/") {
					gets++
				}
			}
			if gets != 1 {
				t.Errorf("the round after one edit read %d skills, want the edited one only: %v", gets, paths)
			}
			if !strings.Contains(out.String(), "Edited in the app.") {
				t.Errorf("the round after the edit did not report it:\n%s", out.String())
			}
			if again := round(); again != int64(n) {
				t.Errorf("the round after that made %d requests, want %d", again, n)
			}
			t.Logf("%d targets: first round %d requests, idle round %d, round with one edit %d", n, first, idle, changed)
		})
	}
}

// TestWatchNotifiesAndStops: drift --watch notifies an app edit within a
// round, serves its health and metrics, and stops cleanly (exit 0) when
// its context ends, as on SIGTERM; with --self-heal the edit is reverted
// and drift.resolved follows.
func TestWatchNotifiesAndStops(t *testing.T) {
	t.Parallel()
	e, dir, te := watchSpaces(t, 1)
	hook := newReceiver(t, http.StatusNoContent)
	cfg, _ := os.ReadFile(filepath.Join(dir, "skillsync.yaml"))
	cfg = append(cfg, "notify:\n  audit: {kind: webhook, urlEnv: SKILLSYNC_NOTIFY_AUDIT, secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET, events: [all]}\n"...)
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	te["SKILLSYNC_NOTIFY_AUDIT"] = hook.URL
	te["SKILLSYNC_NOTIFY_AUDIT_SECRET"] = testWebhookSecret
	addr := freeAddrT(t)

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var out syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"skillsync", "drift", "--watch", "--interval", "100ms", "--self-heal", "--listen", addr, "--dir", dir},
			te.process(strings.NewReader(""), &out, &out))
	}()
	waitFor := func(what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(hangBound)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %s\n%s", what, hangBound, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	get := func(p string) (int, string) {
		resp, err := http.Get("http://" + addr + p)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	waitFor("the first round", func() bool {
		c, body := get("/metrics")
		return c == 200 && strings.Contains(body, `skillsync_watch_plans_total{target=""} 1`)
	})
	if c, _ := get("/healthz"); c != http.StatusOK {
		t.Errorf("/healthz answered %d, want 200", c)
	}

	kinds := func() []string {
		var ks []string
		for _, d := range hook.deliveries() {
			ks = append(ks, verified(t, d).Type)
		}
		return ks
	}
	s, _ := e.SkillBySlug("w0", "a")
	edited := time.Now()
	e.EditSkill("w0", s.ID, func(sd *remotetest.SkillSeed) { sd.Description = "Edited in the app." })
	waitFor("drift.found", func() bool { return strings.Contains(strings.Join(kinds(), " "), "drift.found") })
	t.Logf("from the app edit to drift.found: %s (interval 100ms)", time.Since(edited))
	waitFor("drift.resolved after the self-heal", func() bool { return strings.Contains(strings.Join(kinds(), " "), "drift.resolved") })
	if got, _ := e.SkillBySlug("w0", "a"); got.Description != "Does a." {
		t.Errorf("--self-heal left the app's edit: %q", got.Description)
	}
	if ks := strings.Join(kinds(), " "); ks != "drift.found apply.succeeded drift.resolved" {
		t.Errorf("events %q, want drift.found apply.succeeded drift.resolved", ks)
	}

	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit %d after the stop, want 0\n%s", code, out.String())
		}
	case <-time.After(hangBound):
		t.Fatalf("the watch did not stop within %s of its context ending\n%s", hangBound, out.String())
	}
	if _, err := http.Get("http://" + addr + "/healthz"); err == nil {
		t.Errorf("the metrics server still answers after the stop")
	}
}

// TestWatchServesEveryMetric: whatever a watch counts, by any of its
// metrics, /metrics serves, each series under its own name and type.
func TestWatchServesEveryMetric(t *testing.T) {
	t.Parallel()
	w := newWatcher(nil, watchOptions{})
	for i := range metrics {
		if metric(i) != metricLastSuccess {
			w.metrics.add(metric(i), "prod", float64(i+1))
		}
	}
	w.metrics.done(time.Unix(1700000000, 0), true)
	rec := httptest.NewRecorder()
	w.metrics.handler(time.Minute).ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for i, h := range metrics {
		want := fmt.Sprintf("%s{target=\"prod\"} %d\n", h.name, i+1)
		if metric(i) == metricLastSuccess {
			want = h.name + " 1700000000\n"
		}
		if !strings.Contains(body, "# TYPE "+h.name+" "+h.kind+"\n") || !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q with its type %s:\n%s", strings.TrimSpace(want), h.kind, body)
		}
	}
}

// TestWatchSeesStateBeyondFirstPage: on a service whose enable and
// disable leave updatedAt as it was, a skill disabled in a space of more
// than one page of skills keeps its place past the first page; the next
// round still finds the drift.
func TestWatchSeesStateBeyondFirstPage(t *testing.T) {
	t.Parallel()
	e, dir, te := watchSpaces(t, 1)
	e.SetAnswers(remotetest.Answers{StateKeepsTime: true})
	// Updated after a, b and c, so the first page is theirs.
	for i := range 120 {
		e.AddSkill("w0", remotetest.SkillSeed{Slug: fmt.Sprintf("other-%d", i), Name: fmt.Sprintf("Other %d", i), Description: "Not managed here.", Instructions: "# other\n"})
	}
	var out syncBuffer
	w := newTestWatcher(t, te, dir, &out)
	ctx := t.Context()
	if err := w.round(ctx); err != nil {
		t.Fatalf("first round: %v\n%s", err, out.String())
	}
	a, _ := e.SkillBySlug("w0", "a")
	client := w.targets[""].client
	onFirstPage := func() bool {
		t.Helper()
		page, err := client.ListSkills(ctx, "w0", 100, 0)
		if err != nil {
			t.Fatal(err)
		}
		return slices.ContainsFunc(page.Data, func(s remote.Skill) bool { return s.ID == a.ID })
	}
	if onFirstPage() {
		t.Fatalf("skill a is on the first page; the test needs it beyond")
	}
	if _, err := client.DisableSkill(ctx, "w0", a.ID); err != nil {
		t.Fatal(err)
	}
	if onFirstPage() {
		t.Fatalf("the disable moved skill a to the first page: Answers.StateKeepsTime is not kept")
	}
	before := out.String()
	if err := w.round(ctx); err != nil {
		t.Fatalf("round after the disable: %v\n%s", err, out.String())
	}
	if after := strings.TrimPrefix(out.String(), before); !strings.Contains(after, "moved") || !strings.Contains(after, "Skill a") {
		t.Errorf("the round after skill a was disabled in the app did not report it:\n%s", after)
	}
}
