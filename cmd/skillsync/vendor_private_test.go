package main

import (
	"encoding/base64"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

// TestVendorPrivateSource runs vendor add, outdated and update against a
// git host (git http-backend on loopback) that wants a token in basic
// auth: without one the error names the variable to set; with it all
// three work; a text quoting the token, as a skill's diagnostics may, is
// redacted; and neither the output nor any file written holds it.
func TestVendorPrivateSource(t *testing.T) {
	const token = "tok-cli-0123456789abcdef"
	const wrong = "tok-wrong-0123456789abcdef"
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	work := t.TempDir()
	up := filepath.Join(work, "up")
	gitRun := func(args ...string) {
		t.Helper()
		cmd := exec.Command(git, append([]string{"-c", "user.name=up", "-c", "user.email=up@example.com"}, args...)...)
		cmd.Dir = up
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", args, err, out)
		}
	}
	write := func(name, content string) {
		t.Helper()
		p := filepath.Join(up, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(up, 0o755); err != nil {
		t.Fatal(err)
	}
	gitRun("init", "-q", "-b", "main")
	write("skills/pdf/SKILL.md", "---\nname: pdf\ndescription: Reads PDF forms. Use when a task involves a PDF.\n---\nRead the form.\n")
	write("skills/pdf/forms.md", "# Forms\n")
	// A skill whose name quotes the token, as a skill may quote any text.
	write("skills/leak/SKILL.md", "---\nname: leak! "+token+"\ndescription: Leaks. Use never.\n---\nBody.\n")
	gitRun("add", ".")
	gitRun("commit", "-q", "-m", "skills")

	backend := &cgi.Handler{Path: git, Args: []string{"http-backend"}, Root: "/",
		Env: []string{"GIT_PROJECT_ROOT=" + work, "GIT_HTTP_EXPORT_ALL=1"}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, pass, ok := r.BasicAuth(); !ok || pass != token {
			w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
			http.Error(w, "denied", http.StatusUnauthorized)
			return
		}
		backend.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	variable := "SKILLSYNC_GIT_TOKEN_127_0_0_1_" + u.Port()
	source := srv.URL + "/up"

	dir := filepath.Join(work, "repo")
	if err := copyEmbedded(dir, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	te := testEnv{"NO_COLOR": "1"}
	var printed []string
	cli := func(wantCode int, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, te, append([]string{"vendor"}, args...)...)
		printed = append(printed, stdout, stderr)
		if code != wantCode {
			t.Fatalf("skillsync vendor %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, wantCode, stdout, stderr)
		}
		return stdout, stderr
	}

	_, stderr := cli(1, "add", "--dir", dir, source, "--path", "skills/pdf")
	if want := "skillsync: error: " + source + " asks for credentials (HTTP 401), and skillsync sent no token: set " + variable + " to a token that may read it\n"; !strings.Contains(stderr, want) {
		t.Errorf("without a token, stderr:\n%s\nwant %q", stderr, want)
	}

	te[variable] = token
	stdout, _ := cli(0, "add", "--dir", dir, source, "--path", "skills/pdf")
	if !strings.HasPrefix(stdout, "Vendored pdf from "+source+" skills/pdf at ") {
		t.Errorf("add: %s", stdout)
	}
	stdout, _ = cli(1, "add", "--dir", dir, source, "--path", "skills/leak")
	if !strings.Contains(stdout, `name "leak! [REDACTED]"`) {
		t.Errorf("the diagnostics of a skill quoting the token:\n%s", stdout)
	}

	write("skills/pdf/forms.md", "# Forms\n\nFill them.\n")
	gitRun("commit", "-q", "-am", "forms")
	stdout, _ = cli(2, "outdated", "--dir", dir)
	if !strings.Contains(stdout, "pdf: outdated") {
		t.Errorf("outdated: %s", stdout)
	}
	cli(0, "update", "--dir", dir)
	if b, err := os.ReadFile(filepath.Join(dir, "skills", "pdf", "forms.md")); err != nil || string(b) != "# Forms\n\nFill them.\n" {
		t.Errorf("forms.md after update: %q %v", b, err)
	}
	cli(0, "outdated", "--dir", dir, "--format", "json")

	te[variable] = wrong
	stdout, _ = cli(1, "outdated", "--dir", dir)
	if want := "refused the token of " + variable + " (sent with user name x-access-token) (HTTP 401)"; !strings.Contains(stdout, want) {
		t.Errorf("with a wrong token:\n%s\nwant %q", stdout, want)
	}

	secrets := []string{token, wrong,
		base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token)),
		base64.StdEncoding.EncodeToString([]byte("x-access-token:" + wrong))}
	for _, out := range printed {
		for _, s := range secrets {
			if leak := redacttest.Leak(out, s); leak != "" {
				t.Errorf("printed %s:\n%s", leak, out)
			}
		}
	}
	leak, err := redacttest.LeakInFiles(dir, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	if leak != "" {
		t.Error(leak)
	}
}
