//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// terminal runs skillsync with stdin, stdout and stderr on a pseudo
// terminal, as a person at a shell would, answering the first prompt that
// ends with prompt with answer. It returns the exit code and everything the
// terminal showed.
func terminal(t *testing.T, env testEnv, prompt, answer string, args ...string) (int, string) {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pseudo terminal here: %v", err)
	}
	defer ptmx.Close()

	var (
		mu    sync.Mutex
		shown bytes.Buffer
	)
	// The answer is typed once the prompt shows, from the reader itself,
	// so that it never waits on a clock.
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		answered := false
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			asked := strings.Contains(shown.String(), prompt)
			mu.Unlock()
			if asked && !answered {
				answered = true
				io.WriteString(ptmx, answer+"\n")
			}
			if err != nil {
				return
			}
		}
	}()

	code := run(t.Context(), append([]string{"skillsync"}, args...), env.process(tty, tty, tty))
	tty.Close()
	// Closing its only other end ends the reader once it has read all.
	select {
	case <-read:
	case <-time.After(hangBound):
		t.Fatal("the terminal was not drained")
	}
	mu.Lock()
	defer mu.Unlock()
	return code, strings.ReplaceAll(shown.String(), "\r\n", "\n")
}

// hangBound bounds the waits of these tests for a process to start, ask or
// stop: only a hang reaches it, never a busy machine.
const hangBound = 3 * time.Minute

// TestApplyAsksOnATerminal: at a terminal, apply shows the plan and applies
// only on "yes"; any other answer changes nothing.
func TestApplyAsksOnATerminal(t *testing.T) {
	t.Parallel()
	const prompt = "Apply these changes to space demo? Only 'yes' will be accepted: "
	e, dir, env := ciSetup(t)

	code, shown := terminal(t, env, prompt, "no", "apply", "--dir", dir, "--journal", dir+"/j1.jsonl")
	if code != exitError || !strings.Contains(shown, "Plan: 1 to update, 1 to enable, 1 to disable.") ||
		!strings.Contains(shown, "skillsync: error: apply cancelled") {
		t.Fatalf("answer no: exit %d, terminal:\n%s", code, shown)
	}
	writes := func() int {
		r := e.Requests()
		return r[remotetest.KeyUpdateSkill] + r[remotetest.KeyEnableSkill] + r[remotetest.KeyDisableSkill]
	}
	if n := writes(); n != 0 {
		t.Fatalf("answer no: %d writes, want none", n)
	}

	code, shown = terminal(t, env, prompt, "yes", "apply", "--dir", dir, "--journal", dir+"/j2.jsonl")
	if code != exitOK || !strings.Contains(shown, "Apply: 3 applied, 0 failed, 0 skipped.") {
		t.Fatalf("answer yes: exit %d, terminal:\n%s", code, shown)
	}
	if s, _ := e.SkillBySlug(demoSpace, "sql-style"); !s.Enabled {
		t.Error("sql-style, disabled in the space, still disabled after a confirmed apply")
	}
}

// TestAgentsDeleteAsksOnATerminal: delete names the agent, says it is
// permanent and deletes only on "yes".
func TestAgentsDeleteAsksOnATerminal(t *testing.T) {
	t.Parallel()
	e, _, env := ciSetup(t)
	const id = "0e8f5a1c-2b3d-4c4e-9f6a-7b8c9d0e1f2a"
	e.AddAgent(demoSpace, remote.Agent{ID: id, Name: "Doomed"})
	const prompt = "Type 'yes' to confirm: "

	code, shown := terminal(t, env, prompt, "y", "agents", "delete", id)
	if code != exitError || !strings.Contains(shown, `Delete agent "Doomed" (`+id+`) permanently?`) || !strings.Contains(shown, "skillsync: error: delete cancelled") {
		t.Fatalf("answer y: exit %d, terminal:\n%s", code, shown)
	}
	if len(e.Agents(demoSpace)) == 0 || e.Requests()[remotetest.KeyDeleteAgent] != 0 {
		t.Fatal("answer y deleted the agent")
	}
	// An id of no agent is refused before anything is asked.
	const gone = "11111111-2222-4333-8444-555555555555"
	code, shown = terminal(t, env, "skillsync: ", "yes", "agents", "delete", gone)
	if code != exitError || !strings.Contains(shown, "skillsync: error: no agent "+gone+" in space "+demoSpace) || strings.Contains(shown, prompt) {
		t.Fatalf("unknown id: exit %d, terminal:\n%s", code, shown)
	}
	code, shown = terminal(t, env, prompt, "yes", "agents", "delete", id)
	if code != exitOK {
		t.Fatalf("answer yes: exit %d, terminal:\n%s", code, shown)
	}
	for _, a := range e.Agents(demoSpace) {
		if a.ID == id {
			t.Error("the agent is still there after a confirmed delete")
		}
	}
}

// interruptAtPrompt runs a skillsync process on a pseudo terminal of its
// own, as from a shell, and presses Ctrl-C once prompt shows: the terminal
// sends SIGINT. It returns the exit code and what the terminal showed. A
// process still waiting then fails the test (after hangBound): it waits
// for Enter rather than stopping.
func interruptAtPrompt(t *testing.T, env testEnv, prompt string, args ...string) (int, string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, args...)
	cmd.Args[0] = "skillsync" // the test binary runs main (see TestMain)
	cmd.Env = env.environ()
	ptmx, err := pty.Start(cmd) // a new session, the terminal its own
	if err != nil {
		t.Skipf("no pseudo terminal here: %v", err)
	}
	defer ptmx.Close()
	var (
		mu    sync.Mutex
		shown bytes.Buffer
	)
	asked, drained := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 4096)
		once := sync.Once{}
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			if strings.Contains(shown.String(), prompt) {
				once.Do(func() { close(asked) })
			}
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	text := func() string {
		mu.Lock()
		defer mu.Unlock()
		return strings.ReplaceAll(shown.String(), "\r\n", "\n")
	}
	select {
	case <-asked:
	case err := <-exited:
		t.Fatalf("exited (%v) before asking; terminal:\n%s", err, text())
	case <-time.After(hangBound):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("never asked; terminal:\n%s", text())
	}
	if _, err := ptmx.Write([]byte{3}); err != nil { // Ctrl-C
		t.Fatal(err)
	}
	select {
	case err = <-exited:
	case <-time.After(hangBound):
		cmd.Process.Kill()
		<-exited
		t.Fatalf("Ctrl-C at the prompt did not stop skillsync; terminal:\n%s", text())
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	// The terminal may still hold the last lines; it is drained once the
	// process, its only other end, is gone.
	select {
	case <-drained:
	case <-time.After(hangBound):
		t.Fatalf("the terminal was not drained; it showed:\n%s", text())
	}
	return cmd.ProcessState.ExitCode(), text()
}

// TestCtrlCAtAPrompt: Ctrl-C at a yes/no prompt stops skillsync at once,
// with the exit code of an interrupt and nothing done.
func TestCtrlCAtAPrompt(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	writes := func() int {
		n := 0
		for k, v := range e.Requests() {
			if !strings.HasPrefix(k, "GET ") {
				n += v
			}
		}
		return n
	}
	const id = "0e8f5a1c-2b3d-4c4e-9f6a-7b8c9d0e1f2a"
	e.AddAgent(demoSpace, remote.Agent{ID: id, Name: "Kept"})
	journal := filepath.Join(t.TempDir(), "applied.jsonl")

	t.Run("apply", func(t *testing.T) {
		code, shown := interruptAtPrompt(t, env, "Only 'yes' will be accepted: ", "apply", "--dir", dir, "--journal", journal)
		if code != exitInterrupted || !strings.Contains(shown, "skillsync: error: interrupted") {
			t.Errorf("exit %d, terminal:\n%s", code, shown)
		}
		if n := writes(); n != 0 {
			t.Errorf("%d writes after Ctrl-C", n)
		}
	})
	t.Run("agents delete", func(t *testing.T) {
		code, shown := interruptAtPrompt(t, env, "Type 'yes' to confirm: ", "agents", "delete", "--dir", dir, id)
		if code != exitInterrupted || !strings.Contains(shown, "skillsync: error: interrupted") {
			t.Errorf("exit %d, terminal:\n%s", code, shown)
		}
		if n := writes(); n != 0 {
			t.Errorf("%d writes after Ctrl-C", n)
		}
	})
	t.Run("restore", func(t *testing.T) {
		if code, stdout, stderr := runCLI(t, env, "apply", "--dir", dir, "--auto-approve", "--journal", journal); code != exitOK {
			t.Fatalf("apply: exit %d\n%s\n%s", code, stdout, stderr)
		}
		before := writes()
		code, shown := interruptAtPrompt(t, env, "Only 'yes' will be accepted: ", "restore", "--dir", dir, journal)
		if code != exitInterrupted || !strings.Contains(shown, "skillsync: error: interrupted") {
			t.Errorf("exit %d, terminal:\n%s", code, shown)
		}
		if n := writes() - before; n != 0 {
			t.Errorf("%d writes after Ctrl-C", n)
		}
	})
}
