// Command skillsync keeps the skills of a space in a git repository: it
// validates skill folders, plans and applies the changes that make the live
// space match them, reports drift, and serves an emulator of the space API
// for offline use. See the README for a tour.
package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/redact"
)

// version is stamped by the release build (-ldflags "-X main.version=...").
var version = "dev"

// Exit codes of the CLI contract.
const (
	exitOK          = 0
	exitError       = 1
	exitChanges     = 2
	exitInterrupted = 130
)

var (
	// errChanges reports success with changes: plan --detailed-exitcode and drift exit 2.
	errChanges = errors.New("changes present")
	// errInterrupted reports that the user interrupted the command.
	errInterrupted = errors.New("interrupted")
)

func main() {
	os.Exit(mainWith(false))
}

// mainWith is main, retrying at once when instantRetries (see
// [process]): the test binary runs it so as skillsync for the scripts.
func mainWith(instantRetries bool) int {
	ctx, stop := interruptible(os.Stderr, os.Exit)
	defer stop()
	// A closed stdout (skillsync plan -out FILE | head) is then an error
	// of the write, not the end of the process: the plan is still saved.
	signal.Ignore(syscall.SIGPIPE)
	return run(ctx, os.Args, process{getenv: os.Getenv, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, instantRetries: instantRetries})
}

// interruptible returns a context that the first SIGINT or SIGTERM ends,
// so that the command stops cleanly; the second calls exit(130) at once,
// whatever the command still waits on. The returned func must be called
// once, when the command is over.
func interruptible(stderr io.Writer, exit func(int)) (context.Context, func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for n := 0; ; n++ {
			select {
			case <-sigs:
			case <-done:
				return
			}
			if n > 0 {
				fmt.Fprintln(stderr, "skillsync: error: interrupted again: stopping at once")
				exit(exitInterrupted)
				return
			}
			cancel()
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}

// process is what run takes from the process it runs in, besides the
// arguments: the environment's variables, the standard streams, and a
// hook for tests. Tests pass their own, so that they need no process
// environment and can run in parallel.
type process struct {
	getenv         func(string) string // nil: no variable is set
	stdin          io.Reader           // nil: empty
	stdout, stderr io.Writer
	// instantRetries makes every client (of the space, GitHub and
	// GitLab) retry without waiting, as tests want. main leaves it false.
	instantRetries bool
}

// env is the process as the commands see it: its terminal, through ui
// (which redacts every secret), its variables and its standard input.
type env struct {
	ui             *ui
	getenv         func(string) string
	stdin          io.Reader
	instantRetries bool
}

// run runs the command line args and returns the process exit code. It is
// main without the process: tests and testscript call it directly.
func run(ctx context.Context, args []string, p process) (code int) {
	if p.getenv == nil {
		p.getenv = func(string) string { return "" }
	}
	if p.stdin == nil {
		p.stdin = strings.NewReader("")
	}
	ui := newUI(p.stdout, p.stderr, github.ReadEnv(p.getenv))
	// A real token is a secret from the start, so that the plan's markdown
	// is redacted before any GitHub or GitLab call reads its token, and the
	// repository's diagnostics before the space's token is read for the
	// first request; a short value (GITHUB_TOKEN=true) must not redact
	// every "true" of a JSON plan, and is registered once a call uses it.
	for _, k := range []string{envToken, "GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "CI_JOB_TOKEN"} {
		if tok := strings.TrimSpace(p.getenv(k)); len(tok) >= redact.ShortSecret {
			ui.secrets.Add(k, tok)
		}
	}
	defer func() {
		// A panic is a bug; the user gets a message, not a stack trace, and
		// the exit code of an error, never Go's 2, which reads as changes.
		// Panics in other goroutines come here as errors (see package bug).
		if r := recover(); r != nil {
			code = ui.exit(bug.From(r))
		}
	}()
	// stdout holds back what follows its last newline (see
	// lineRedactingWriter): out with it once all is said, before the
	// recovery above, which reports a writer that panics.
	defer ui.flush()
	app := newApp(&env{ui: ui, getenv: p.getenv, stdin: p.stdin, instantRetries: p.instantRetries})
	err := app.RunContext(ctx, prepareCompletion(app, args))
	return ui.exit(err)
}

// exit prints err the way STYLE.md asks and maps it to an exit code.
func (ui *ui) exit(err error) int {
	var crash *bug.Error
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &crash):
		ui.reportBug(crash)
		return exitError
	case errors.Is(err, errChanges):
		return exitChanges
	case errors.Is(err, errInterrupted) || errors.Is(err, context.Canceled):
		ui.errorf("interrupted")
		return exitInterrupted
	case errors.Is(err, errSilent):
		return exitError
	}
	ui.errorf("%v", err)
	if h := hintFor(err); h != "" {
		ui.hintf("%s", h)
	}
	ui.mu.Lock()
	addr, from := ui.baseURL, ui.baseURLFrom
	ui.mu.Unlock()
	if addr != "" && hintForNetwork(err) != "" {
		// A variable left over from another session is easy to miss: it
		// overrides skillsync.yaml.
		ui.hintf("the address %s came from %s (--base-url wins over SKILLSYNC_BASE_URL, which wins over skillsync.yaml)", addr, from)
	}
	return exitError
}

// reportBug reports a panic: the error and where to report it, and the
// stack of the goroutine that panicked when --debug asks for details.
func (ui *ui) reportBug(crash *bug.Error) {
	ui.errorf("%v", crash)
	ui.mu.Lock()
	hasDebug, debug := ui.hasDebug, ui.debug
	ui.mu.Unlock()
	if debug {
		ui.logf("debug: the stack of the panic:\n%s", bytes.TrimSpace(crash.Stack))
	}
	if hasDebug {
		ui.hintf("this is a bug in skillsync; please report it with the output of the same command run with --debug")
	} else {
		ui.hintf("this is a bug in skillsync; please report it with the command you ran and this output")
	}
}

// errSilent is returned by commands that already reported what went wrong.
var errSilent = errors.New("failed")

func fprintf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format, args...)
}
