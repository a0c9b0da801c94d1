package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/github"
)

// TestNoColorEverywhere: every command takes --no-color, as a script
// passes it to all alike (agents list, targets and vendor refused it).
func TestNoColorEverywhere(t *testing.T) {
	t.Parallel()
	noEnv := func(string) string { return "" }
	app := newApp(&env{ui: newUI(io.Discard, io.Discard, github.ReadEnv(noEnv)), getenv: noEnv, stdin: strings.NewReader("")})
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" {
				continue
			}
			p := path + " " + c.Name
			if len(c.Subcommands) > 0 {
				walk(p, c.Subcommands)
				continue
			}
			code, _, stderr := runCLI(t, testEnv{}, append(strings.Fields(p)[1:], "--no-color", "--help")...)
			if code != 0 {
				t.Errorf("%s --no-color --help: exit %d\n%s", p, code, stderr)
			}
		}
	}
	walk("skillsync", app.Commands)
}

// TestColourForced: FORCE_COLOR and CLICOLOR_FORCE colour a plan written
// into a pipe, as a CI log shows it; --no-color and NO_COLOR still win.
func TestColourForced(t *testing.T) {
	t.Parallel()
	_, dir, base := ciSetup(t)
	delete(base, "NO_COLOR")
	for _, tc := range []struct {
		name  string
		env   map[string]string
		args  []string
		color bool
	}{
		{"a pipe", nil, nil, false},
		{"FORCE_COLOR=1", map[string]string{"FORCE_COLOR": "1"}, nil, true},
		{"CLICOLOR_FORCE=1", map[string]string{"CLICOLOR_FORCE": "1"}, nil, true},
		{"FORCE_COLOR=0", map[string]string{"FORCE_COLOR": "0"}, nil, false},
		{"FORCE_COLOR on a dumb terminal", map[string]string{"FORCE_COLOR": "true", "TERM": "dumb"}, nil, true},
		{"FORCE_COLOR and NO_COLOR", map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, nil, false},
		{"FORCE_COLOR and --no-color", map[string]string{"FORCE_COLOR": "1"}, []string{"--no-color"}, false},
	} {
		te := testEnv{}
		for k, v := range base {
			te[k] = v
		}
		for k, v := range tc.env {
			te[k] = v
		}
		code, stdout, stderr := runCLI(t, te, append([]string{"plan", "--dir", dir}, tc.args...)...)
		if code != 0 {
			t.Fatalf("%s: exit %d\n%s", tc.name, code, stderr)
		}
		if got := strings.Contains(stdout, "\x1b["); got != tc.color {
			t.Errorf("%s: coloured = %v, want %v\n%s", tc.name, got, tc.color, stdout)
		}
	}
}

// TestTargetHelp: a command that works on one space does not invite
// several targets in its help.
func TestTargetHelp(t *testing.T) {
	t.Parallel()
	for _, cmd := range [][]string{{"pull"}, {"agents", "list"}, {"assets", "get"}, {"restore"}} {
		_, stdout, _ := runCLI(t, testEnv{}, append(cmd, "--help")...)
		if !strings.Contains(stdout, "--target") || strings.Contains(stdout, "for several") {
			t.Errorf("skillsync %s --help: --target should take one name:\n%s", strings.Join(cmd, " "), stdout)
		}
	}
	_, stdout, _ := runCLI(t, testEnv{}, "plan", "--help")
	if !strings.Contains(stdout, "for several") {
		t.Errorf("skillsync plan --help: --target should take several:\n%s", stdout)
	}
}

// TestPlanOutIntoClosedPipe: plan -out FILE | head, stdout closed before
// the plan is printed, still saves the plan and says so on stderr (the
// process was killed by SIGPIPE, silently, before it saved).
func TestPlanOutIntoClosedPipe(t *testing.T) {
	t.Parallel()
	_, dir, te := ciSetup(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // head has read its lines and gone
	defer w.Close()
	saved := filepath.Join(t.TempDir(), "plan.json")
	cmd := exec.CommandContext(t.Context(), exe, "plan", "--dir", dir, "-out", saved)
	cmd.Args[0] = "skillsync" // the test binary runs main (see TestMain)
	cmd.Env = te.environ()
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = w, &stderr
	runErr := cmd.Run()
	if _, err := os.Stat(saved); err != nil {
		t.Fatalf("plan -out into a closed pipe saved nothing (%v): %v\n%s", runErr, err, stderr.String())
	}
	if runErr != nil {
		t.Errorf("plan -out into a closed pipe: %v\n%s", runErr, stderr.String())
	}
	if !strings.Contains(stderr.String(), "stdout was closed before the plan was all printed; saved the plan to "+saved) {
		t.Errorf("stderr does not say the plan was saved though stdout closed:\n%s", stderr.String())
	}
}

// TestPlanOutUnderState: plan -out .skillsync/plan.json works in a fresh
// clone, which has no .skillsync yet, and git ignores what it saves; a plan
// saved elsewhere in the repository gets a hint to keep it out of git.
func TestPlanOutUnderState(t *testing.T) {
	t.Parallel()
	_, dir, te := ciSetup(t)
	saved := filepath.Join(dir, ".skillsync", "plan.json")
	code, _, stderr := runCLI(t, te, "plan", "--dir", dir, "-out", saved)
	if code != 0 {
		t.Fatalf("plan -out %s: exit %d\n%s", saved, code, stderr)
	}
	if _, err := os.Stat(saved); err != nil {
		t.Fatal(err)
	}
	ignore, err := os.ReadFile(filepath.Join(dir, ".skillsync", ".gitignore"))
	if err != nil || !strings.Contains(string(ignore), "\n*\n") {
		t.Errorf(".skillsync/.gitignore = %q, %v; want one that ignores all", ignore, err)
	}
	if strings.Contains(stderr, "keep") {
		t.Errorf("a plan saved under .skillsync/ gets a hint:\n%s", stderr)
	}
	inRepo := filepath.Join(dir, "plan.json")
	if code, _, stderr = runCLI(t, te, "plan", "--dir", dir, "-out", inRepo); code != 0 {
		t.Fatalf("plan -out %s: exit %d\n%s", inRepo, code, stderr)
	}
	if !strings.Contains(stderr, "hint: a saved plan holds the full text of the skills: keep "+inRepo+" out of git, or save plans under .skillsync/") {
		t.Errorf("a plan saved in the repository gets no hint to keep it out of git:\n%s", stderr)
	}
}

// TestDriftWording: drift only reads, so it does not say that skillsync
// "will perform" actions; it says what apply would do.
func TestDriftWording(t *testing.T) {
	t.Parallel()
	_, dir, te := ciSetup(t)
	code, stdout, stderr := runCLI(t, te, "drift", "--dir", dir)
	if code != 2 {
		t.Fatalf("drift of the drifted demo space: exit %d, want 2\n%s", code, stderr)
	}
	if strings.Contains(stdout, "will perform") || !strings.Contains(stdout, "The space differs from the repository; apply would perform these actions:") {
		t.Errorf("drift's report:\n%s", stdout)
	}
	if _, stdout, _ = runCLI(t, te, "plan", "--dir", dir); !strings.Contains(stdout, "skillsync will perform the following actions:") {
		t.Errorf("plan's report:\n%s", stdout)
	}
}

// TestUnplannedTargetText: a target that could not be planned says so,
// rather than "Active skills: 0 -> 0" and "No changes.", which read as a
// space in step with git.
func TestUnplannedTargetText(t *testing.T) {
	t.Parallel()
	_, dir, te := ciSetup(t)
	cfg := "baseURL: " + te["SKILLSYNC_BASE_URL"] + "\nmissing: warn\ntargets:\n" +
		"  staging: {space: stg, tokenEnv: SKILLSYNC_TOKEN_STAGING}\n  production: {space: demo}\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(te, "SKILLSYNC_BASE_URL")
	delete(te, "SKILLSYNC_SPACE")
	code, stdout, _ := runCLI(t, te, "plan", "--dir", dir)
	if code != 1 {
		t.Errorf("plan with a target that has no token: exit %d, want 1", code)
	}
	staging, _, _ := strings.Cut(stdout, "skillsync plan for target production")
	if !strings.Contains(staging, "SKILLSYNC_TOKEN_STAGING is not set") || !strings.Contains(staging, "Not planned: 1 error, above.") {
		t.Errorf("the staging section does not say it was not planned:\n%s", staging)
	}
	for _, bad := range []string{"Active skills: 0 -> 0", "No changes."} {
		if strings.Contains(staging, bad) {
			t.Errorf("the staging section, not planned, says %q:\n%s", bad, staging)
		}
	}
	_, stdout, _ = runCLI(t, te, "plan", "--dir", dir, "--format", "markdown")
	staging, _, _ = strings.Cut(stdout, "<!-- skillsync:plan space=demo target=production -->")
	if !strings.Contains(staging, "**Not planned.**") || strings.Contains(staging, "No changes.") || strings.Contains(staging, "Active skills: 0 → 0") {
		t.Errorf("the staging plan in markdown does not say it was not planned:\n%s", staging)
	}
}

// TestServerThatNeverAnswers: a service that accepts connections and
// never answers is reported as waited for and retried, and --timeout (or
// SKILLSYNC_TIMEOUT) shortens each wait; every command stayed silent for
// minutes.
func TestServerThatNeverAnswers(t *testing.T) {
	t.Parallel()
	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-r.Context().Done() }))
	t.Cleanup(hung.Close)
	_, dir, te := ciSetup(t)
	te["SKILLSYNC_BASE_URL"] = hung.URL
	host := strings.TrimPrefix(hung.URL, "http://")
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
	}{
		{"--timeout", nil, []string{"--timeout", "400ms"}},
		{"SKILLSYNC_TIMEOUT", map[string]string{"SKILLSYNC_TIMEOUT": "400ms"}, nil},
	} {
		env := testEnv{}
		for k, v := range te {
			env[k] = v
		}
		for k, v := range tc.env {
			env[k] = v
		}
		start := time.Now()
		code, _, stderr := runCLI(t, env, append([]string{"plan", "--dir", dir, "--parallelism", "1"}, tc.args...)...)
		if code != 1 {
			t.Errorf("%s: exit %d, want 1\n%s", tc.name, code, stderr)
		}
		if took := time.Since(start); took > 20*time.Second {
			t.Errorf("%s: gave up after %s: the timeout was not shortened", tc.name, took)
		}
		for _, want := range []string{
			"skillsync: waiting for " + host + " to answer (nothing for 200ms); each request waits up to 400ms and is tried 5 times: --timeout or SKILLSYNC_TIMEOUT shortens the wait",
			"skillsync: no answer from " + host + " within 400ms (attempt 1 of 5): retrying",
			"skillsync: no answer from " + host + " within 400ms (attempt 4 of 5): retrying",
		} {
			if !strings.Contains(stderr, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, want, stderr)
			}
		}
		if n := strings.Count(stderr, "waiting for "); n != 1 {
			t.Errorf("%s: said %d times that it waits, want once:\n%s", tc.name, n, stderr)
		}
	}
	if code, _, stderr := runCLI(t, te, "plan", "--dir", dir, "--timeout", "soon"); code != 1 || !strings.Contains(stderr, `--timeout "soon" is not a duration`) {
		t.Errorf("--timeout soon: exit %d\n%s", code, stderr)
	}
}
