package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// ui is the one place user-facing messages go through, so that they all read
// "skillsync: error: ...", "skillsync: hint: ...", so that no secret ever
// reaches the terminal, even by accident, and so that no control character
// of the space's or the repository's text does (see package visible): an
// escape sequence in an agent's name or an error message of the server
// could erase or rewrite what a reviewer reads.
type ui struct {
	stdout, stderr io.Writer
	// stdoutOwn and stderrOwn are stdout and stderr for output that
	// carries escapes of skillsync's own (the colours of a text plan, the
	// progress line) and has shown the text it holds visibly itself. They
	// still redact.
	stdoutOwn, stderrOwn io.Writer
	// shown are the writers that show control characters, which hold back
	// a rune cut short until the next write; flush writes it out.
	shown []*visible.Writer
	lines *lineRedactingWriter // under stdout
	// annotations is stderr for the workflow commands of skillsync's own;
	// under GitHub Actions, guards keep the runner from obeying any other
	// line of stdout or stderr.
	annotations io.Writer
	guards      []*github.CommandGuard
	mu          sync.Mutex // serializes lines on stderr
	// secrets are every secret the process knows, each named by where it
	// came from (a variable, a token file): nothing printed shows one.
	secrets   *redact.Set
	stderrTTY bool
	stdoutTTY bool
	// github is the GitHub Actions environment, read once: whether the
	// runner reads annotations, where the job summary goes, and what plan
	// --comment and drift --issue post with.
	github github.Env
	// The service's address and where it was set, for the hint of a
	// network failure; set by newClient.
	baseURL, baseURLFrom string
	// Whether the command has a --debug flag, and whether it is set, for
	// the report of a bug; set before the command runs.
	hasDebug, debug bool
}

// setService records the address requests go to and where it came from.
func (ui *ui) setService(baseURL, from string) {
	ui.mu.Lock()
	ui.baseURL, ui.baseURLFrom = baseURL, from
	ui.mu.Unlock()
}

func newUI(stdout, stderr io.Writer, gh github.Env) *ui {
	ui := &ui{
		secrets:   &redact.Set{},
		stdoutTTY: isTerminal(stdout),
		stderrTTY: isTerminal(stderr),
		github:    gh,
	}
	annotations := stderr
	if gh.Actions {
		// Text of the space or the repository must not be obeyed as a
		// workflow command; only annotations pass.
		gOut, gErr := github.NewCommandGuard(stdout), github.NewCommandGuard(stderr)
		stdout, stderr, annotations = gOut, gErr, gErr.Own()
		ui.guards = []*github.CommandGuard{gOut, gErr}
	}
	out, errs := &lineRedactingWriter{ui: ui, w: stdout}, redactingWriter{ui: ui, w: stderr}
	shownOut, shownErr := visible.NewWriter(out), visible.NewWriter(errs)
	ui.stdout, ui.stderr = shownOut, shownErr
	ui.stdoutOwn, ui.stderrOwn = ownWriter{shownOut, out}, ownWriter{shownErr, errs}
	ui.shown, ui.lines = []*visible.Writer{shownOut, shownErr}, out
	ui.annotations = ui.stderr
	if gh.Actions {
		shownAnn := visible.NewWriter(redactingWriter{ui: ui, w: annotations})
		ui.annotations, ui.shown = shownAnn, append(ui.shown, shownAnn)
	}
	return ui
}

// ownWriter writes past the showing of control characters, in order with
// what the shown writer before it holds back.
type ownWriter struct {
	shown *visible.Writer
	w     io.Writer
}

func (o ownWriter) Write(p []byte) (int, error) {
	if err := o.shown.Flush(); err != nil {
		return 0, err
	}
	return o.w.Write(p)
}

// redactingWriter redacts every write with ui.secrets: stdout and stderr
// (annotations, summaries, logs) carry text of the space and of the
// repository, and either may hold the token by mistake. stderr gets whole
// lines (or a progress line that must show at once), so its writer redacts
// each write as it comes.
type redactingWriter struct {
	ui *ui
	w  io.Writer
}

func (r redactingWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(r.w, r.ui.secrets.Redact(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// lineRedactingWriter redacts stdout a line at a time. The renderers
// stream, and a writer may cut a document anywhere, but no spelling of a
// token holds a newline: redacting whole lines, a token is never split
// between two redactions. What follows the last newline waits for the next
// write or for Flush.
type lineRedactingWriter struct {
	ui  *ui
	w   io.Writer
	mu  sync.Mutex
	buf []byte // what follows the last newline, which holds none
}

func (r *lineRedactingWriter) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	// Only p is searched: a table writer puts a line out a cell at a time.
	j := bytes.LastIndexByte(p, '\n')
	held := len(r.buf)
	r.buf = append(r.buf, p...)
	if j < 0 {
		return len(p), nil
	}
	i := held + j
	err := r.emit(r.buf[:i+1])
	r.buf = r.buf[:copy(r.buf, r.buf[i+1:])]
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what follows the last newline: before a prompt waits for an
// answer, and before the process ends.
func (r *lineRedactingWriter) Flush() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) == 0 {
		return nil
	}
	err := r.emit(r.buf)
	r.buf = r.buf[:0]
	return err
}

func (r *lineRedactingWriter) emit(p []byte) error {
	_, err := io.WriteString(r.w, r.ui.secrets.Redact(string(p)))
	return err
}

// flush writes out what stdout holds back until its line ends, and what
// the writers that show control characters hold back.
func (ui *ui) flush() {
	for _, v := range ui.shown {
		v.Flush()
	}
	ui.lines.Flush()
	for _, g := range ui.guards {
		g.Flush()
	}
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// holdsSecret reports whether text holds, spelt in any way, a registered
// secret that is a real token (see redact.ShortSecret), not a test's few
// letters.
func (ui *ui) holdsSecret(text string) bool { return len(ui.secrets.Found(text)) > 0 }

func (ui *ui) printStderr(prefix, format string, args ...any) {
	msg := ui.secrets.Redact(fmt.Sprintf(format, args...))
	ui.mu.Lock()
	defer ui.mu.Unlock()
	for _, line := range strings.Split(msg, "\n") {
		fmt.Fprintf(ui.stderr, "skillsync: %s%s\n", prefix, visible.Line(line))
	}
}

func (ui *ui) errorf(format string, args ...any)   { ui.printStderr("error: ", format, args...) }
func (ui *ui) warningf(format string, args ...any) { ui.printStderr("warning: ", format, args...) }
func (ui *ui) hintf(format string, args ...any)    { ui.printStderr("hint: ", format, args...) }
func (ui *ui) infof(format string, args ...any)    { ui.printStderr("", format, args...) }

// logf writes a raw line to stderr (debug logs, emulator request logs).
func (ui *ui) logf(format string, args ...any) {
	msg := visible.String(ui.secrets.Redact(fmt.Sprintf(format, args...)))
	ui.mu.Lock()
	defer ui.mu.Unlock()
	fmt.Fprintln(ui.stderr, msg)
}

// hinted is an error with advice on what to do about it.
type hinted struct {
	err  error
	hint string
}

func (h *hinted) Error() string { return h.err.Error() }
func (h *hinted) Unwrap() error { return h.err }

// withHint attaches a hint to err, shown after the error message.
func withHint(err error, format string, args ...any) error {
	if err == nil {
		return nil
	}
	return &hinted{err: err, hint: fmt.Sprintf(format, args...)}
}

// hintFor says what to do about err: an explicit hint wins, then advice for
// the service's answers.
func hintFor(err error) string {
	var h *hinted
	if errors.As(err, &h) {
		return h.hint
	}
	var re *remote.Error
	if errors.As(err, &re) {
		if h := hintForStatus(re.StatusCode, callOf(re.Method, re.Path), re.RetryAt); h != "" {
			return h
		}
	}
	var rule *spec.RuleError
	if errors.As(err, &rule) {
		return "fix the value; the service would reject it"
	}
	if errors.Is(err, fsrepo.ErrUnknownRevision) {
		return "pass a branch, tag or commit that 'git log --oneline' shows; a shallow CI checkout may need more history (actions/checkout with fetch-depth: 0)"
	}
	return hintForNetwork(err)
}

// hintForNetwork says what to do when the service could not be reached.
func hintForNetwork(err error) string {
	switch remote.NetFailureOf(err) {
	case remote.NetUnknownHost:
		return "the host name of the service's address does not resolve: check its spelling, and this machine's DNS"
	case remote.NetCertificate:
		return "the service's TLS certificate is not trusted here: if a proxy inspects TLS, add its CA to the system's trust store or name it in SSL_CERT_FILE (skillsync never turns verification off)"
	case remote.NetPlainHTTP:
		return "the server answered an https request in plain HTTP: check the scheme and port of the service's address"
	case remote.NetRefused:
		return "nothing accepts connections at the service's address: check its host and port, and that the service is reachable from this machine"
	case remote.NetTimeout:
		return "the service did not answer in time: check the network (and any proxy) between this machine and the service, then run again"
	case remote.NetBroken:
		return "the connection to the service failed: check the network between this machine and the service, then run again"
	}
	return ""
}

// A call is the kind of request a status answered, named as apply names
// its steps ("" for a read): the same status means different things for
// a read, an update or an enable.
type call string

const (
	callRead        call = ""
	callUpdate           = call(reconcile.ActionUpdate)
	callEnable           = call(reconcile.ActionEnable)
	callDisable          = call(reconcile.ActionDisable)
	callPublish          = call(reconcile.ActionPublish)
	callDeleteAgent call = "delete"
)

// callOf is the call of a request of the service, by its method and path.
func callOf(method, path string) call {
	path, _, _ = strings.Cut(path, "?")
	switch {
	case method == "PATCH":
		return callUpdate
	case method == "DELETE":
		return callDeleteAgent
	case method == "POST" && strings.HasSuffix(path, "/enable"):
		return callEnable
	case method == "POST" && strings.HasSuffix(path, "/disable"):
		return callDisable
	case method == "POST" && strings.HasSuffix(path, "/publish"):
		return callPublish
	}
	return callRead
}

// hintForStatus says what to do about an HTTP status of the service, as it
// can be meant for that call; retryAt, when known, is when a 429 asked to
// come back.
func hintForStatus(status int, c call, retryAt time.Time) string {
	if c == callPublish && (status == 400 || status == 409 || status == 422) {
		return "the service refused to publish the agent: a draft with embedEnabled needs a non-empty embedOptions.domainWhitelist; fix the draft in the app"
	}
	switch status {
	case 400, 422:
		if c == callUpdate {
			return "the service refused the values sent; its rules may be stricter than the spec's (letters outside ASCII in a name, say): change the value in SKILL.md"
		}
	case 401:
		return "the service rejected the token: check that SKILLSYNC_TOKEN (or the --token-file) holds a current token for this tenant"
	case 403:
		switch c {
		case callEnable:
			return "enabling needs permission to update skills in the space, and the space's skills feature must be on: ask a space admin"
		case callUpdate, callDisable:
			return "the token may not change skills in this space, the space's skills feature is off, or the skill is built-in: ask a space admin which"
		case callPublish, callDeleteAgent:
			return "the token may not change agents in this space: ask a space admin for that permission"
		}
		return "the service refused the token here: check that it is current and for this tenant and space (some services answer 403, not 401, to a bad token); if it is, ask a space admin for access"
	case 404:
		switch c {
		case callUpdate, callEnable, callDisable:
			return "the skill is no longer in the space (deleted since the plan, or another --space): run 'skillsync plan' again"
		case callPublish, callDeleteAgent:
			return "the space has no such agent: 'skillsync agents list' shows its agents"
		}
		return "check --space (SKILLSYNC_SPACE) and --base-url (SKILLSYNC_BASE_URL): the service does not know this space or object"
	case 409:
		switch c {
		case callEnable:
			return "the space already has 40 active skills (built-in skills may count too): disable one first"
		case callUpdate:
			return "the service refused the update as a conflict: another skill may hold this name (rename it in SKILL.md), or the skill was being changed at the same moment (run 'skillsync plan' again)"
		}
		return "the service refused the request as conflicting with the space's current state: run 'skillsync plan' again to see it"
	case 429:
		if !retryAt.IsZero() {
			return fmt.Sprintf("the service is rate limiting this token until %s: run again after that, or lower --parallelism",
				retryAt.UTC().Format("2006-01-02 15:04:05 UTC"))
		}
		return "the service is rate limiting this token: wait a minute and run again, or lower --parallelism"
	}
	return ""
}
