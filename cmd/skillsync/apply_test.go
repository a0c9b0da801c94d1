package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// TestApplyInterrupted checks the exit code of an interrupted apply, which
// interrupt.txtar cannot read: 130, after the request in flight finished
// and nothing more started.
func TestApplyInterrupted(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := copyEmbedded(repo, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(scriptToken), 0o600); err != nil {
		t.Fatal(err)
	}
	e := remotetest.New()
	if err := seedEmulator(e, ""); err != nil {
		t.Fatal(err)
	}
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv, err := e.Start("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()

	// The first write is the disable; the interrupt lands while it is in
	// flight, as a Ctrl-C would.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var once sync.Once
	e.SetOnRequest(func(r *http.Request) {
		if r.Method != http.MethodGet {
			once.Do(cancel)
		}
	})

	var stdout, stderr bytes.Buffer
	code := run(ctx, []string{"skillsync", "apply", "--auto-approve",
		"--dir", repo, "--base-url", srv.URL, "--space", demoSpace, "--token-file", tokenFile,
		"--journal", filepath.Join(dir, "journal.jsonl")},
		testEnv{}.process(nil, &stdout, &stderr))
	if code != exitInterrupted {
		t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, exitInterrupted, &stdout, &stderr)
	}
	if !strings.Contains(stderr.String(), "skillsync: error: interrupted\n") {
		t.Errorf("stderr does not say the apply was interrupted:\n%s", &stderr)
	}
	if !strings.Contains(stdout.String(), "Apply: 1 applied, 0 failed, 2 skipped.") {
		t.Errorf("stdout does not show one step applied and two skipped:\n%s", &stdout)
	}
	if s, _ := e.SkillBySlug(demoSpace, "sql-style"); s.Enabled {
		t.Errorf("sql-style was enabled after the interrupt")
	}
}

// TestApplyLeavesAnAppEdit: a skill edited in the app after the plan read
// it and before apply writes it is left as the app has it, reported with
// what to do, and the apply exits 1; the other steps apply.
func TestApplyLeavesAnAppEdit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	if err := copyEmbedded(repo, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(scriptToken), 0o600); err != nil {
		t.Fatal(err)
	}
	e := remotetest.New()
	if err := seedEmulator(e, ""); err != nil {
		t.Fatal(err)
	}
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv := testserver.New(t, e)

	// The first write is the disable of incident-postmortem; the edit of
	// release-notes lands with it, after the plan read release-notes and
	// before its update.
	const appText = "Edited in the app while apply ran.\n"
	notes, _ := e.SkillBySlug(demoSpace, "release-notes")
	var once sync.Once
	e.SetOnRequest(func(r *http.Request) {
		if r.Method != http.MethodGet {
			once.Do(func() {
				e.EditSkill(demoSpace, notes.ID, func(s *remotetest.SkillSeed) { s.Instructions = appText })
			})
		}
	})
	journal := filepath.Join(dir, "journal.jsonl")
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"skillsync", "apply", "--auto-approve",
		"--dir", repo, "--base-url", srv.URL, "--space", demoSpace, "--token-file", tokenFile, "--journal", journal},
		testEnv{}.process(nil, &stdout, &stderr))
	if code != 1 {
		t.Errorf("exit code %d, want 1\nstdout:\n%s\nstderr:\n%s", code, &stdout, &stderr)
	}
	for _, want := range []string{
		"  ok      incident-postmortem: disable\n",
		"  skipped release-notes: update: changed in the space since the plan (updatedAt ",
		"instructions changed); not overwritten: run 'skillsync plan' again\n",
		"  ok      sql-style: enable\n",
		"Apply: 2 applied, 0 failed, 1 skipped.",
	} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, &stdout)
		}
	}
	if !strings.Contains(stderr.String(), "skillsync: error: 1 of 3 steps did not apply") {
		t.Errorf("stderr:\n%s", &stderr)
	}
	if s, _ := e.SkillBySlug(demoSpace, "release-notes"); s.Instructions == nil || *s.Instructions != appText {
		t.Errorf("the app's edit of release-notes was overwritten: %+v", s)
	}
	data, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(data, []byte(`"slug":"release-notes","id":"`+notes.ID+`","action":"update","request":`)) ||
		!bytes.Contains(data, []byte(`"outcome":"skipped"`)) || !bytes.Contains(data, []byte("Edited in the app while apply ran.")) {
		t.Errorf("the journal does not record the skipped update with the text read:\n%s", data)
	}
}
