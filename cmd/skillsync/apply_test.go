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
)

// TestApplyInterrupted checks the exit code of an interrupted apply, which
// interrupt.txtar cannot read: 130, after the request in flight finished
// and nothing more started.
func TestApplyInterrupted(t *testing.T) {
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
		strings.NewReader(""), &stdout, &stderr)
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
