package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// testEnv holds the environment variables of a test's commands: run reads
// them instead of the process's, so that no test sets a process variable
// and tests can run in parallel.
type testEnv map[string]string

// process is what run takes, with te for the variables. Retries do not
// wait: no test sleeps through a backoff.
func (te testEnv) process(stdin io.Reader, stdout, stderr io.Writer) process {
	return process{
		getenv:         func(k string) string { return te[k] },
		stdin:          stdin,
		stdout:         stdout,
		stderr:         stderr,
		instantRetries: true,
	}
}

// runCLI runs skillsync in-process with args and the variables of te, and
// returns its exit code and output.
func runCLI(t *testing.T, te testEnv, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(t.Context(), append([]string{"skillsync"}, args...), te.process(strings.NewReader(""), &out, &errb))
	return code, out.String(), errb.String()
}

// ciSetup starts the emulator seeded with the demo space and copies the
// demo repository; te points at both.
func ciSetup(t *testing.T) (e *remotetest.Emulator, dir string, te testEnv) {
	t.Helper()
	e = remotetest.New()
	if err := seedEmulator(e, ""); err != nil {
		t.Fatal(err)
	}
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv := testserver.New(t, e)
	dir = filepath.Join(t.TempDir(), "repo")
	if err := copyEmbedded(dir, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	return e, dir, testEnv{
		"SKILLSYNC_BASE_URL": srv.URL,
		"SKILLSYNC_SPACE":    demoSpace,
		"SKILLSYNC_TOKEN":    scriptToken,
		"NO_COLOR":           "1",
	}
}

// newFakeGitHub starts GitHub's fake holding pull request #1 and points
// the GitHub Actions variables of te at it.
func newFakeGitHub(t *testing.T, te testEnv) *githubtest.Server {
	t.Helper()
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{Title: "Edit skills", State: "open", PR: true})
	te["GITHUB_TOKEN"] = githubtest.Token
	te["GITHUB_REPOSITORY"] = githubtest.Repository
	te["GITHUB_API_URL"] = f.URL
	return f
}

// environ is the environment of a skillsync process of the test: the
// test's own without any variable skillsync reads, then te's.
func (te testEnv) environ() []string {
	var out []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "SKILLSYNC_") || strings.HasPrefix(k, "GITHUB_") ||
			strings.HasPrefix(k, "GITLAB_") || strings.HasPrefix(k, "CI_") ||
			k == "GH_TOKEN" || k == "NO_COLOR" || k == "TERM" {
			continue
		}
		out = append(out, kv)
	}
	for k, v := range te {
		out = append(out, k+"="+v)
	}
	return out
}
