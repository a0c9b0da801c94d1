package main

import (
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// mainStuck is main with requests that never end, whatever their context
// says: a service, a file or a library that hangs. It says "stuck" on
// stderr when the first request starts.
func mainStuck() {
	http.DefaultTransport = stuckTransport{}
	os.Exit(mainWith(true))
}

type stuckTransport struct{}

func (stuckTransport) RoundTrip(*http.Request) (*http.Response, error) {
	os.Stderr.WriteString("stuck\n")
	select {}
}

// TestSecondSignalEnds: the first SIGINT asks a stuck skillsync to stop
// cleanly, which it cannot; the second ends it at once, exit code 130.
func TestSecondSignalEnds(t *testing.T) {
	t.Parallel()
	const token = "signal-token-0123456789"
	sp := newTestSpace(t, token, 0)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "plan")
	cmd.Args[0] = "skillsync-stuck"
	cmd.Env = sp.env(token).environ()
	errPath := filepath.Join(t.TempDir(), "stderr")
	errFile, err := os.Create(errPath)
	if err != nil {
		t.Fatal(err)
	}
	defer errFile.Close()
	cmd.Stderr = errFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stderr := func() string { b, _ := os.ReadFile(errPath); return string(b) }
	for !strings.Contains(stderr(), "stuck") {
		select {
		case err := <-exited:
			t.Fatalf("exited with %v before its first request:\n%s", err, stderr())
		case <-time.After(5 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		t.Fatalf("a stuck request ended after one SIGINT (%v): the test no longer tests a second one:\n%s", err, stderr())
	case <-time.After(300 * time.Millisecond):
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
			t.Errorf("exited with %v, want status %d:\n%s", err, exitInterrupted, stderr())
		}
		if !strings.Contains(stderr(), "skillsync: error: interrupted again: stopping at once") {
			t.Errorf("stderr does not say why it stopped:\n%s", stderr())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("still running 10 s after a second SIGINT:\n%s", stderr())
	}
}
