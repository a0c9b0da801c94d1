package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/journal"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// testSpace is the demo space served on loopback with n more skills whose
// instructions the repository changes, and a copy of the demo repository
// holding them.
type testSpace struct {
	emu  *remotetest.Emulator
	url  string
	repo string
}

func newTestSpace(t *testing.T, token string, n int) *testSpace {
	t.Helper()
	e := remotetest.New()
	if err := seedEmulator(e, ""); err != nil {
		t.Fatal(err)
	}
	e.AddToken(token, remotetest.ReadWrite)
	srv := testserver.New(t, e)
	repo := filepath.Join(t.TempDir(), "repo")
	if err := copyEmbedded(repo, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		slug := fmt.Sprintf("bulk-%03d", i)
		e.AddSkill(demoSpace, remotetest.SkillSeed{Slug: slug, Name: "Bulk " + slug[5:],
			Description: "A skill of the test.", Instructions: "# Old\n"})
		dir := filepath.Join(repo, "skills", slug)
		md := "---\nname: Bulk " + slug[5:] + "\ndescription: A skill of the test.\nenabled: false\n---\n# New\n"
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return &testSpace{emu: e, url: srv.URL, repo: repo}
}

// env is the environment of a command against the space.
func (s *testSpace) env(token string) testEnv {
	return testEnv{"SKILLSYNC_BASE_URL": s.url, "SKILLSYNC_SPACE": demoSpace,
		"SKILLSYNC_TOKEN": token, "NO_COLOR": "1", "SKILLSYNC_DIR": s.repo}
}

// TestApplyInterruptedBySIGINT sends SIGINT to a real skillsync process in
// the middle of an apply: it must exit 130 with a journal whose every line
// parses and names an applied change, and a second apply must converge.
func TestApplyInterruptedBySIGINT(t *testing.T) {
	t.Parallel()
	const token = "interrupt-token-0123456789"
	sp := newTestSpace(t, token, 60)
	sp.emu.SetFaults(remotetest.Faults{Latency: 40 * time.Millisecond})
	sp.emu.ResetRequests()

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	// The test binary runs main when called skillsync (see TestMain).
	cmd := exec.CommandContext(ctx, exe, "apply", "--auto-approve", "--parallelism", "2", "--journal", jpath)
	cmd.Args[0] = "skillsync"
	cmd.Env = sp.env(token).environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for sp.emu.Requests()[remotetest.KeyUpdateSkill] < 6 {
		if ctx.Err() != nil {
			t.Fatalf("apply never got going; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
		t.Fatalf("apply exited with %v, want status %d\nstdout:\n%s\nstderr:\n%s", err, exitInterrupted, stdout.String(), stderr.String())
	}
	if !strings.Contains(stderr.String(), "skillsync: error: interrupted") {
		t.Errorf("stderr does not say it was interrupted:\n%s", stderr.String())
	}

	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := journal.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the journal of an interrupted apply does not parse: %v\n%s", err, data)
	}
	// Requests in flight got their answers: every started line has its
	// outcome line, and every outcome line its started line before it.
	all, un := journalOutcomes(t, entries)
	var outcomes []reconcile.JournalEntry
	for _, e := range all {
		// An update interrupted between its started line and its write
		// was not sent, and says so.
		if e.Outcome != reconcile.OutcomeSkipped || e.Error != "interrupted" {
			outcomes = append(outcomes, e)
		}
	}
	if len(un) != 0 {
		t.Errorf("%d mutations started with no outcome after a SIGINT: %+v", len(un), un)
	}
	patches := sp.emu.Requests()[remotetest.KeyUpdateSkill]
	if len(outcomes) == 0 || len(outcomes) >= 63 {
		t.Fatalf("journal has %d outcome lines: apply was not interrupted mid-way", len(outcomes))
	}
	if len(outcomes) != patches+sp.emu.Requests()[remotetest.KeyDisableSkill] {
		t.Errorf("journal has %d outcome lines for %d updates and %d disables that reached the space",
			len(outcomes), patches, sp.emu.Requests()[remotetest.KeyDisableSkill])
	}
	for _, e := range outcomes {
		if e.Outcome != reconcile.OutcomeApplied {
			t.Errorf("journal: %s %s %s: %s", e.Action, e.Slug, e.Outcome, e.Error)
		}
		got, ok := sp.emu.Skill(demoSpace, e.ID)
		if e.Action == reconcile.ActionUpdate && (!ok || got.Instructions == nil || e.After == nil ||
			e.After.Instructions == nil || *got.Instructions != *e.After.Instructions) {
			t.Errorf("journal says %s was updated to %+v; the space holds %+v", e.Slug, e.After, got)
		}
	}

	// A second apply finishes the job, and a plan then finds nothing.
	sp.emu.SetFaults(remotetest.Faults{})
	var out, errOut bytes.Buffer
	env := sp.env(token)
	if code := run(t.Context(), []string{"skillsync", "apply", "--auto-approve", "--journal", jpath}, env.process(nil, &out, &errOut)); code != exitOK {
		t.Fatalf("second apply exited %d\n%s\n%s", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := run(t.Context(), []string{"skillsync", "plan", "--detailed-exitcode"}, env.process(nil, &out, &errOut)); code != exitOK {
		t.Fatalf("plan after the second apply exited %d\n%s\n%s", code, out.String(), errOut.String())
	}
	data, _ = os.ReadFile(jpath)
	if _, err := journal.Read(bytes.NewReader(data)); err != nil {
		t.Fatalf("journal after the second apply: %v", err)
	}
}

// journalOutcomes returns the outcome lines of a journal, failing the test
// for one with no started line of its mutation before it, and the started
// lines that no outcome line follows: mutations whose answer never came.
func journalOutcomes(t *testing.T, entries []reconcile.JournalEntry) (outcomes, unanswered []reconcile.JournalEntry) {
	t.Helper()
	open := map[string][]int{} // indexes of started lines, by mutation
	for i, e := range entries {
		k := e.Space + " " + e.ID + " " + string(e.Action)
		if e.Outcome == reconcile.OutcomeStarted {
			open[k] = append(open[k], i)
			continue
		}
		if n := len(open[k]); n == 0 {
			t.Errorf("journal line %d: %s %s %s with no started line before it", i+1, e.Action, e.Slug, e.Outcome)
		} else {
			open[k] = open[k][:n-1]
		}
		outcomes = append(outcomes, e)
	}
	var left []int
	for _, is := range open {
		left = append(left, is...)
	}
	slices.Sort(left)
	for _, i := range left {
		unanswered = append(unanswered, entries[i])
	}
	return outcomes, unanswered
}

// TestApplyKilledMidRequest kills a real skillsync process (SIGKILL: no
// grace, no deferred code) while its first mutation is held at the
// service: the journal must already hold that mutation, started with the
// state it may overwrite, so that whatever the service did can be undone.
func TestApplyKilledMidRequest(t *testing.T) {
	t.Parallel()
	const token = "kill-token-0123456789"
	sp := newTestSpace(t, token, 0)
	arrived := make(chan string, 8)
	release := make(chan struct{})
	sp.emu.SetOnRequest(func(r *http.Request) {
		if r.Method == http.MethodGet {
			return
		}
		arrived <- r.URL.Path
		<-release
	})
	defer sp.emu.SetOnRequest(nil)
	defer close(release)

	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "apply", "--auto-approve", "--parallelism", "1", "--journal", jpath)
	cmd.Args[0] = "skillsync"
	cmd.Env = sp.env(token).environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var path string
	select {
	case path = <-arrived:
	case <-ctx.Done():
		t.Fatalf("no mutation reached the service; stderr:\n%s", stderr.String())
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()

	data, err := os.ReadFile(jpath)
	if err != nil {
		t.Fatalf("no journal after a kill mid-request: %v", err)
	}
	entries, err := journal.Read(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the journal of a killed apply does not parse: %v\n%s", err, data)
	}
	_, un := journalOutcomes(t, entries)
	if len(un) != 1 || !strings.Contains(path, un[0].ID) {
		t.Fatalf("unfinished mutations = %+v, want the one held at the service (%s)\njournal:\n%s", un, path, data)
	}
	if e := un[0]; e.Before == nil || e.Action == "" || e.Space != demoSpace {
		t.Errorf("the started line lacks what a restore needs: %+v", e)
	}
	if len(entries) != 1 {
		t.Errorf("journal has %d lines, want only the started line of the request in flight:\n%s", len(entries), data)
	}
}
