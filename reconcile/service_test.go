package reconcile

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// The client of the real service is a Service.
var _ Service = (*remote.Client)(nil)

// memJournal keeps the lines of an apply in memory.
type memJournal struct {
	mu      sync.Mutex
	entries []JournalEntry
}

func (j *memJournal) Write(e JournalEntry) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.entries = append(j.entries, e)
	return nil
}

// lines are the entries written so far as a journal file holds them: each
// encoded as a JSON line and decoded back.
func (j *memJournal) lines(t testing.TB) []JournalEntry {
	t.Helper()
	j.mu.Lock()
	defer j.mu.Unlock()
	var data []byte
	for _, e := range j.entries {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		data = append(append(data, line...), '\n')
	}
	return decodeLines(t, string(data))
}

// decodeLines decodes a journal's JSON lines, failing the test on a line
// that is not an entry.
func decodeLines(t testing.TB, in string) []JournalEntry {
	t.Helper()
	var out []JournalEntry
	for i, line := range strings.Split(strings.TrimSuffix(in, "\n"), "\n") {
		var e JournalEntry
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("journal line %d: %v\n%s", i+1, err, line)
		}
		out = append(out, e)
	}
	return out
}

// brokenJournal fails every write, as a journal on a full disk does.
type brokenJournal struct{}

func (brokenJournal) Write(JournalEntry) error {
	return errors.New("writing journal: no space left on device")
}

// skillReads counts the single-skill reads svc answered.
func skillReads(svc *reconciletest.Service) int {
	n := 0
	for _, c := range svc.Calls() {
		if strings.HasPrefix(c, "GET ") && !strings.Contains(c, "/") {
			n++
		}
	}
	return n
}

// TestPlanAndApplyWithoutHTTP drives fetch.Space, Compute and Apply
// through the Service interface alone, with the journal in memory (the
// check of a saved plan is planfile's TestCheckStaleWithoutHTTP): reconcile needs no HTTP, no emulator and no disk (the cache is
// fetch's, in a folder).
func TestPlanAndApplyWithoutHTTP(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	edit := svc.Add("edit", "old\n", true)
	svc.Files[edit.ID] = map[string]string{"ref.md": "remote\n"}
	svc.Add("wake", "same\n", false)
	svc.Add("stray", "x\n", true)

	desired := &fsrepo.Repo{Config: config.Config{Space: "ab12", Unmanaged: config.UnmanagedDisable}, Skills: []fsrepo.Skill{
		{Slug: "edit", Path: "skills/edit/SKILL.md", Name: "Skill edit", Description: "About edit", Instructions: "new\n", Enabled: true,
			Files: []fsrepo.File{{Path: "ref.md", Content: []byte("local\n")}}},
		{Slug: "wake", Path: "skills/wake/SKILL.md", Name: "Skill wake", Description: "About wake", Instructions: "same\n", Enabled: true},
	}}
	pol := PolicyFromConfig(desired.Config)
	cache, err := fetch.OpenCache(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	plan := func() *Plan {
		t.Helper()
		live, err := fetch.Space(t.Context(), svc, "ab12", desired, fetch.Options{Cache: cache})
		if err != nil {
			t.Fatalf("Fetch: %v", err)
		}
		return Compute(desired, live, pol)
	}

	p := plan()
	var got []string
	for _, c := range p.Changes {
		for _, a := range c.Actions {
			got = append(got, c.Slug+":"+string(a))
		}
	}
	if want := []string{"edit:update", "stray:disable", "wake:enable"}; !slices.Equal(got, want) || p.HasErrors() {
		t.Fatalf("plan: %v, errors %+v; want %v", got, p.Errors, want)
	}
	if len(p.Files) != 1 || p.Files[0].Path != "ref.md" || p.Files[0].Status != FileDiffers {
		t.Errorf("files: %+v, want ref.md differing", p.Files)
	}

	j := &memJournal{}
	res, err := Apply(t.Context(), svc, "ab12", p, ApplyOptions{Journal: j})
	if err != nil || res.Failed() || res.Counts() != (Counts{Applied: 3}) {
		t.Fatalf("Apply: %+v, %v", res, err)
	}
	if len(j.entries) != 6 {
		t.Errorf("journal: %d lines, want a started and an outcome line for each of 3 steps", len(j.entries))
	}
	if w := svc.Writes(); !slices.Equal(w, []string{"DISABLE " + p.Changes[1].ID, "PATCH " + edit.ID, "ENABLE " + p.Changes[2].ID}) {
		t.Errorf("writes %v: want the disable, then the update, then the enable", w)
	}

	if again := plan(); again.HasChanges() {
		t.Errorf("plan after apply has changes: %+v", again.Changes)
	}
	// Nothing moved since: every skill comes from the cache.
	before := skillReads(svc)
	plan()
	if n := skillReads(svc) - before; n != 0 {
		t.Errorf("warm cache: %d reads, want none", n)
	}
}

// TestReadPanicIsAnError: a read that panics, which Go would turn into the
// end of the process with exit code 2 (skillsync's "changes"), is returned
// as a *bug.Error by every function that reads in parallel (planfile's
// TestCheckStaleReadPanicIsAnError for the check of a saved plan).
func TestReadPanicIsAnError(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	s := svc.Add("a", "x\n", true)
	svc.Hook = func(call string) {
		if call == "GET "+s.ID {
			panic("planted bug")
		}
	}
	desired := &fsrepo.Repo{Skills: []fsrepo.Skill{{Slug: "a", Name: "A", Description: "d", Instructions: "y\n", Enabled: true}}}
	for name, run := range map[string]func() error{
		"Fetch": func() error {
			_, err := fetch.Space(t.Context(), svc, "ab12", desired, fetch.Options{})
			return err
		},
	} {
		var be *bug.Error
		if err := run(); !errors.As(err, &be) || be.Value != "planted bug" {
			t.Errorf("%s returned %v (%T), want the panic as a *bug.Error", name, err, err)
		}
	}
}
