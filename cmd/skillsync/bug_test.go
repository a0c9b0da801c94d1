package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/journal"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// panicOnEnv names the variable that makes mainWithABug panic: a regular
// expression matched against "METHOD PATH" of each request.
const panicOnEnv = "SKILLSYNC_TEST_PANIC_ON"

// mainWithABug is main with a bug planted in the HTTP transport: a request
// that matches $SKILLSYNC_TEST_PANIC_ON panics in the goroutine that sends
// it, which is most often one of skillsync's workers. Go's runtime would
// end the process with exit code 2, skillsync's "changes", unless skillsync
// recovers it. The test binary runs it when called skillsync-with-a-bug
// (see TestMain).
func mainWithABug() {
	on := regexp.MustCompile(os.Getenv(panicOnEnv))
	http.DefaultTransport = panickingTransport{on: on, next: http.DefaultTransport}
	os.Exit(mainWith(true))
}

type panickingTransport struct {
	on   *regexp.Regexp
	next http.RoundTripper
}

func (p panickingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if req := r.Method + " " + r.URL.Path; p.on.MatchString(req) {
		panic("planted bug: " + req)
	}
	return p.next.RoundTrip(r)
}

// TestPanicIsAnInternalError runs skillsync processes in which a request
// panics in a worker goroutine (reading the lists, reading a skill,
// sending an update): each must exit 1, never 2, with an "internal error"
// line and a hint to report it, and no stack trace unless --debug.
func TestPanicIsAnInternalError(t *testing.T) {
	t.Parallel()
	const token = "bug-token-0123456789"
	sp := newTestSpace(t, token, 3)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	const hint = "skillsync: hint: this is a bug in skillsync; please report it with the output of the same command run with --debug\n"
	tests := []struct {
		name  string
		on    string
		args  []string
		debug bool
	}{
		{name: "drift, listing skills", on: `^GET /api/v1/spaces/demo/skills$`, args: []string{"drift"}},
		{name: "plan with --debug, reading a skill", on: `^GET /api/v1/spaces/demo/skills/[^/]+$`, args: []string{"plan", "--debug"}, debug: true},
		{name: "pull, reading a skill", on: `^GET /api/v1/spaces/demo/skills/[^/]+$`, args: []string{"pull", "--dir", "PULLDIR"}},
		{name: "apply, sending an update", on: `^PATCH `, args: []string{"apply", "--auto-approve", "--parallelism", "1", "--journal", "JOURNAL"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			pullDir := filepath.Join(tmp, "pulled")
			if err := os.Mkdir(pullDir, 0o755); err != nil {
				t.Fatal(err)
			}
			jpath := filepath.Join(tmp, "journal.jsonl")
			args := make([]string, len(tt.args))
			for i, a := range tt.args {
				args[i] = strings.NewReplacer("PULLDIR", pullDir, "JOURNAL", jpath).Replace(a)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, exe, args...)
			cmd.Args[0] = "skillsync-with-a-bug"
			cmd.Env = append(sp.env(token).environ(), panicOnEnv+"="+tt.on)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitError {
				t.Fatalf("exited with %v, want status %d\nstdout:\n%s\nstderr:\n%s", err, exitError, &stdout, &stderr)
			}
			errText := stderr.String()
			if !strings.Contains(errText, "skillsync: error: internal error: planted bug: ") || !strings.Contains(errText, hint) {
				t.Errorf("stderr lacks the internal error and its hint:\n%s", errText)
			}
			if stack := strings.Contains(errText, "goroutine "); stack != tt.debug {
				t.Errorf("stack trace shown: %v, want %v (--debug: %v):\n%s", stack, tt.debug, tt.debug, errText)
			}
			if strings.Contains(errText, "panic: ") {
				t.Errorf("Go's panic report reached the user:\n%s", errText)
			}
			switch tt.args[0] {
			case "pull":
				if files := tree(t, pullDir); len(files) != 1 {
					t.Errorf("pull wrote files: %q", files)
				}
			case "apply":
				// What apply did is still reported, and journaled; no
				// request starts after the bug.
				if out := stdout.String(); !regexp.MustCompile(`FAILED  \S+: update: internal error: planted bug: PATCH `).MatchString(out) ||
					!strings.Contains(out, "skipped") {
					t.Errorf("the step that panicked, or those skipped after it, are not reported:\n%s", out)
				}
				data, err := os.ReadFile(jpath)
				if err != nil {
					t.Fatal(err)
				}
				entries, err := journal.Read(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				if _, un := journalOutcomes(t, entries); len(un) != 0 {
					t.Errorf("the journal leaves %d mutations without an outcome:\n%s", len(un), data)
				}
				updates := 0
				for _, e := range entries {
					if e.Action == reconcile.ActionUpdate && e.Outcome == reconcile.OutcomeStarted {
						updates++
					}
				}
				if updates != 1 || sp.emu.Requests()[remotetest.KeyEnableSkill] != 0 {
					t.Errorf("%d updates started and %d enables sent; want 1 and 0: nothing starts after a bug\n%s",
						updates, sp.emu.Requests()[remotetest.KeyEnableSkill], data)
				}
			}
		})
	}
}

// TestTopLevelPanicIsAnInternalError: a panic in the command's own
// goroutine is reported the same way; a command with no --debug flag asks
// for the command and its output instead.
func TestTopLevelPanicIsAnInternalError(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	code := run(t.Context(), []string{"skillsync", "version"}, process{stdout: panickingWriter{}, stderr: &stderr})
	want := "skillsync: error: internal error: planted bug in a writer\n" +
		"skillsync: hint: this is a bug in skillsync; please report it with the command you ran and this output\n"
	if code != exitError || stderr.String() != want {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", code, &stderr, want)
	}
}

type panickingWriter struct{}

func (panickingWriter) Write([]byte) (int, error) { panic("planted bug in a writer") }
