//go:build unix

package main

import (
	"bytes"
	"context"
	"io"
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
func terminal(t *testing.T, prompt, answer string, args ...string) (int, string) {
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
	read := make(chan struct{})
	go func() {
		defer close(read)
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			mu.Lock()
			shown.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		deadline := time.Now().Add(30 * time.Second)
		for time.Now().Before(deadline) {
			mu.Lock()
			asked := strings.Contains(shown.String(), prompt)
			mu.Unlock()
			if asked {
				io.WriteString(ptmx, answer+"\n")
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()

	code := run(context.Background(), append([]string{"skillsync"}, args...), tty, tty, tty)
	<-answered
	tty.Close()
	select {
	case <-read:
	case <-time.After(5 * time.Second):
	}
	mu.Lock()
	defer mu.Unlock()
	return code, strings.ReplaceAll(shown.String(), "\r\n", "\n")
}

// TestApplyAsksOnATerminal: at a terminal, apply shows the plan and applies
// only on "yes"; any other answer changes nothing.
func TestApplyAsksOnATerminal(t *testing.T) {
	const prompt = "Apply these changes to space demo? Only 'yes' will be accepted: "
	e, dir := ciSetup(t)
	t.Setenv("NO_COLOR", "1")

	code, shown := terminal(t, prompt, "no", "apply", "--dir", dir, "--journal", dir+"/j1.jsonl")
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

	code, shown = terminal(t, prompt, "yes", "apply", "--dir", dir, "--journal", dir+"/j2.jsonl")
	if code != exitOK || !strings.Contains(shown, "Apply: 3 applied, 0 failed, 0 skipped.") {
		t.Fatalf("answer yes: exit %d, terminal:\n%s", code, shown)
	}
	if s, _ := e.SkillBySlug(demoSpace, "sql-style"); !s.Enabled {
		t.Error("sql-style, disabled in the space, still disabled after a confirmed apply")
	}
}

// TestAgentsDeleteAsksOnATerminal: delete says it is permanent and deletes
// only on "yes".
func TestAgentsDeleteAsksOnATerminal(t *testing.T) {
	e, _ := ciSetup(t)
	const id = "0e8f5a1c-2b3d-4c4e-9f6a-7b8c9d0e1f2a"
	e.AddAgent(demoSpace, remote.Agent{ID: id, Name: "Doomed"})
	const prompt = "Type 'yes' to confirm: "

	code, shown := terminal(t, prompt, "y", "agents", "delete", id)
	if code != exitError || !strings.Contains(shown, "permanently") || !strings.Contains(shown, "skillsync: error: delete cancelled") {
		t.Fatalf("answer y: exit %d, terminal:\n%s", code, shown)
	}
	if len(e.Agents(demoSpace)) == 0 || e.Requests()[remotetest.KeyDeleteAgent] != 0 {
		t.Fatal("answer y deleted the agent")
	}
	code, shown = terminal(t, prompt, "yes", "agents", "delete", id)
	if code != exitOK {
		t.Fatalf("answer yes: exit %d, terminal:\n%s", code, shown)
	}
	for _, a := range e.Agents(demoSpace) {
		if a.ID == id {
			t.Error("the agent is still there after a confirmed delete")
		}
	}
}
