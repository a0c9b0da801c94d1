package reconcile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

func TestDefaultJournalPath(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, time.FixedZone("X", 3600))
	got := DefaultJournalPath("/repo", now)
	want := filepath.Join("/repo", ".skillsync", "journal", "20260304T040607.890Z.jsonl")
	if got != want {
		t.Errorf("DefaultJournalPath = %s, want %s", got, want)
	}
}

func TestJournalIgnoredByGit(t *testing.T) {
	root := t.TempDir()
	j, err := OpenJournal(DefaultJournalPath(root, time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	data, err := os.ReadFile(filepath.Join(root, ".skillsync", ".gitignore"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if lines[len(lines)-1] != "*" {
		t.Errorf(".gitignore = %q, want it to ignore everything", data)
	}

	// A journal elsewhere writes no .gitignore.
	other := t.TempDir()
	j2, err := OpenJournal(filepath.Join(other, "a", "b.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	j2.Close()
	if _, err := os.Stat(filepath.Join(other, "a", ".gitignore")); !os.IsNotExist(err) {
		t.Errorf("a .gitignore was written outside .skillsync: %v", err)
	}
}

func TestJournalConcurrentWritesAndAppend(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	long := strings.Repeat("line with \"quotes\" and \\ and ✓\n", 3000) // longer than a bufio line
	write := func(n int) {
		j, err := OpenJournal(path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				before := SkillState{Name: "n", Instructions: &long}
				name := fmt.Sprintf("N%d", i)
				err := j.Write(JournalEntry{Time: time.Now().UTC(), Space: "ab12", Slug: fmt.Sprintf("s-%d", i),
					ID: "id", Action: ActionUpdate, Request: &remote.SkillUpdate{Name: &name},
					Before: &before, Outcome: OutcomeApplied})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	write(20)
	write(5) // appends
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	es, err := ReadJournal(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 25 {
		t.Fatalf("%d entries, want 25", len(es))
	}
	for _, e := range es {
		if e.Before == nil || *e.Before.Instructions != long || e.Request.Name == nil {
			t.Fatalf("entry did not round-trip: %+v", e)
		}
	}
}

func TestReadJournalTornLine(t *testing.T) {
	in := `{"time":"2026-01-02T03:04:05Z","space":"ab12","slug":"a","id":"1","action":"disable","outcome":"applied"}
{"time":"2026-01-02T03:04:06Z","space":"ab12","slug":"b","id":"2","action":"dis`
	es, err := ReadJournal(strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ReadJournal error = %v, want one naming line 2", err)
	}
	if len(es) != 1 || es[0].Slug != "a" {
		t.Errorf("entries before the torn line = %+v", es)
	}
}
