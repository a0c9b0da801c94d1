package journal

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
)

func TestTargetPath(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 890_000_000, time.FixedZone("X", 3600))
	got := TargetPath("/repo", now, "")
	want := filepath.Join("/repo", ".skillsync", "journal", "20260304T040607.890Z.jsonl")
	if got != want {
		t.Errorf("TargetPath with no target = %s, want %s", got, want)
	}
	got = TargetPath("/repo", now, "prod")
	want = filepath.Join("/repo", ".skillsync", "journal", "20260304T040607.890Z-prod.jsonl")
	if got != want {
		t.Errorf("TargetJournalPath = %s, want %s", got, want)
	}
}

func TestJournalIgnoredByGit(t *testing.T) {
	root := t.TempDir()
	j, err := Open(TargetPath(root, time.Now(), ""))
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
	j2, err := Open(filepath.Join(other, "a", "b.jsonl"))
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
		j, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer j.Close()
		var wg sync.WaitGroup
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				before := reconcile.SkillState{Name: "n", Instructions: &long}
				name := fmt.Sprintf("N%d", i)
				err := j.Write(reconcile.JournalEntry{Time: time.Now().UTC(), Space: "ab12", Slug: fmt.Sprintf("s-%d", i),
					ID: "id", Action: reconcile.ActionUpdate, Request: &remote.SkillUpdate{Name: &name},
					Before: &before, Outcome: reconcile.OutcomeApplied})
				if err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	write(20)
	write(5) // appends
	es := readFile(t, path)
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
	es, err := Read(strings.NewReader(in))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ReadJournal error = %v, want one naming line 2", err)
	}
	var torn *TornError
	if !errors.As(err, &torn) || torn.Line != 2 {
		t.Errorf("ReadJournal error = %v, want a TornError of line 2", err)
	}
	if len(es) != 1 || es[0].Slug != "a" {
		t.Errorf("entries before the torn line = %+v", es)
	}

	// A broken line with a whole one after it is damage, not a torn write.
	damaged := `{"space":"ab12","slug":"a","id":"1","action":"disable","outcome":"applied"}
{"space":"ab12","slug":"b",
{"space":"ab12","slug":"c","id":"3","action":"disable","outcome":"applied"}
`
	_, err = Read(strings.NewReader(damaged))
	if err == nil || errors.As(err, &torn) || !strings.Contains(err.Error(), "journal line 2") {
		t.Errorf("damaged journal: error %v, want line 2 named and not torn", err)
	}
}

// TestOpenJournalRefusesTornEnd: appending after a line a crash cut short
// would turn it into damage in the middle, which restore refuses; so the
// journal is refused instead, and left as it is.
func TestOpenJournalRefusesTornEnd(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.jsonl")
	torn := `{"space":"ab12","slug":"a","id":"1","action":"disable","outcome":"applied"}` + "\n" + `{"space":"ab12","sl`
	if err := os.WriteFile(path, []byte(torn), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil || !strings.Contains(err.Error(), "ends with a line cut short") {
		t.Fatalf("OpenJournal of a torn journal: %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != torn {
		t.Errorf("the torn journal was changed: %q", data)
	}
	whole := filepath.Join(t.TempDir(), "whole.jsonl")
	if err := os.WriteFile(whole, []byte(torn[:strings.Index(torn, "\n")+1]), 0o600); err != nil {
		t.Fatal(err)
	}
	j, err := Open(whole)
	if err != nil {
		t.Fatalf("OpenJournal of a whole journal: %v", err)
	}
	j.Close()
}
