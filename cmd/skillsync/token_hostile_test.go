package main

import (
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// hostileToken has the characters JSON, URLs, HTML and markdown spell
// otherwise: a slash, a plus, an underscore, a dot, an equals sign.
const hostileToken = "Zm9vYmFy/c2VjcmV0+sntl_7Qx-Lk2P.zR="

// tokenSpellings are the ways a server may echo a token back, each written
// here independently of the redaction under test.
var tokenSpellings = []struct {
	name  string
	spell func(string) string
}{
	{"raw", func(s string) string { return s }},
	{"json slash", func(s string) string { return strings.ReplaceAll(s, "/", `\/`) }},
	{"json u", func(s string) string { return eachByte(s, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) }) }},
	{"percent", func(s string) string { return eachByte(s, func(c byte) string { return fmt.Sprintf("%%%02x", c) }) }},
	{"html", func(s string) string { return eachByte(s, func(c byte) string { return fmt.Sprintf("&#x%x;", c) }) }},
	{"markdown", func(s string) string {
		return eachByte(s, func(c byte) string {
			if strings.IndexByte("/+_.=-", c) >= 0 {
				return `\` + string(c)
			}
			return string(c)
		})
	}},
}

func eachByte(s string, f func(byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(f(s[i]))
	}
	return b.String()
}

// tokenLeak returns the first run of 8 characters of tok that out holds,
// in any of tokenSpellings, described, or "".
func tokenLeak(out, tok string) string {
	for _, sp := range tokenSpellings {
		for i := 0; i+8 <= len(tok); i++ {
			if run := sp.spell(tok[i : i+8]); strings.Contains(out, run) {
				return fmt.Sprintf("%q (%s, characters %d to %d of the token)", run, sp.name, i, i+8)
			}
		}
	}
	return ""
}

// errorShapes are error bodies with the token in a field; %s is the token
// as spelt.
var errorShapes = []struct{ contentType, body string }{
	{"application/problem+json", `{"title":"Unauthorized","detail":"token %s rejected"}`},
	{"application/problem+json", `{"type":"about:blank","title":"Denied","errors":[{"detail":"no","meta":{"seen":["Bearer %s"]}}],"invalid-params":[{"name":"Authorization","reason":"%s"}]}`},
	{"application/json", `{"error":{"code":"denied","message":"` + strings.Repeat("x", 480) + `%s rejected"}}`},
	{"text/plain", "oops: %s"},
	{"text/html", "<html><body><p>token %s</p></body></html>"},
}

// hostileSpace serves the emulator, but answers the requests that match
// with a fixed error.
type hostileSpace struct {
	mu          sync.Mutex
	match       func(*http.Request) bool
	status      int
	contentType string
	body        string
}

func (h *hostileSpace) set(match func(*http.Request) bool, status int, contentType, body string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.match, h.status, h.contentType, h.body = match, status, contentType, body
}

func isGet(r *http.Request) bool   { return r.Method == http.MethodGet }
func isWrite(r *http.Request) bool { return r.Method != http.MethodGet }

// TestTokenNeverLeaksFromHostileServers: servers that echo the token in
// their error bodies, as it is or escaped in any way, in any field of any
// shape, never get it printed (stdout, stderr, --debug, every --format), nor
// written (journal, saved plan, cache, job summary), nor posted (the pull
// request's comment); the same holds for GITHUB_TOKEN echoed by GitHub.
func TestTokenNeverLeaksFromHostileServers(t *testing.T) {
	t.Parallel()
	const agentID = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
	const assetID = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"
	sp := newTestSpace(t, hostileToken, 3)
	work := filepath.Dir(sp.repo)
	// A draft with changes, for agents publish to send.
	sp.emu.EditAgent(demoSpace, agentID, func(a *remote.Agent) { a.Description = "Edited in the app." })
	h := &hostileSpace{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.mu.Lock()
		match, status, contentType, body := h.match, h.status, h.contentType, h.body
		h.mu.Unlock()
		if match == nil || !match(r) {
			sp.emu.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", contentType)
		if status == http.StatusInternalServerError {
			w.Header().Set("Retry-After", "3600") // no retry: its error at once
		}
		w.WriteHeader(status)
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	env := sp.env(hostileToken)
	env["SKILLSYNC_BASE_URL"] = srv.URL
	f := newFakeGitHub(t, env)
	summary := filepath.Join(work, "summary.md")
	env["GITHUB_ACTIONS"] = "true"
	env["GITHUB_STEP_SUMMARY"] = summary
	planFile := filepath.Join(work, "plan.json")
	journal := filepath.Join(work, "journal.jsonl")
	cache := filepath.Join(work, "cache")
	pullDir := filepath.Join(work, "pulled")
	if err := os.Mkdir(pullDir, 0o755); err != nil {
		t.Fatal(err)
	}

	run := func(what string, args ...string) (int, string) {
		t.Helper()
		code, stdout, stderr := runCLI(t, env, args...)
		out := stdout + stderr
		for tok, name := range map[string]string{hostileToken: "the token", fakeGitHubToken: "GITHUB_TOKEN"} {
			if l := tokenLeak(out, tok); l != "" {
				t.Errorf("%s: %s shows %s %s:\n%s", what, strings.Join(args, " "), name, l, out)
			}
		}
		return code, out
	}

	// A plan saved while the space answers, applied once it does not.
	if code, out := run("saving a plan", "plan", "--out", planFile, "--cache", cache); code != 0 {
		t.Fatalf("plan --out: exit %d\n%s", code, out)
	}

	type command struct {
		match  func(*http.Request) bool
		status int
		args   []string
	}
	commands := []command{
		{isGet, 401, []string{"plan", "--debug"}},
		{isGet, 403, []string{"plan", "--format", "json", "--debug"}},
		{isGet, 500, []string{"plan", "--format", "markdown", "--cache", cache}},
		{isGet, 401, []string{"plan", "--comment", "--pr", "1"}},
		{isGet, 403, []string{"drift", "--debug"}},
		{isGet, 401, []string{"drift", "--format", "json"}},
		{isWrite, 409, []string{"apply", "--auto-approve", "--journal", journal, "--debug"}},
		{isWrite, 400, []string{"apply", "--auto-approve", "--journal", journal, "--format", "json"}},
		{isWrite, 409, []string{"apply", "--auto-approve", "--journal", journal, planFile}},
		{isGet, 500, []string{"pull", "--dir", pullDir}},
		{isGet, 401, []string{"agents", "list", "--debug"}},
		{isWrite, 409, []string{"agents", "publish", "--debug", agentID}},
		{isGet, 404, []string{"assets", "get", "--debug", assetID}},
	}
	for i, c := range commands {
		for j, spelling := range tokenSpellings {
			shape := errorShapes[(i+j)%len(errorShapes)]
			body := strings.ReplaceAll(shape.body, "%s", spelling.spell(hostileToken))
			h.set(c.match, c.status, shape.contentType, body)
			what := fmt.Sprintf("%d %s (%s)", c.status, shape.body[:min(30, len(shape.body))], spelling.name)
			code, out := run(what, c.args...)
			if code != exitError || !strings.Contains(out, "skillsync: error: ") {
				t.Errorf("%s: %s: exit %d, want %d with an error:\n%s", what, strings.Join(c.args, " "), code, exitError, out)
			}
		}
	}
	h.set(nil, 0, "", "")

	// GitHub echoing GITHUB_TOKEN, and the space token, in its errors.
	for i, spelling := range tokenSpellings {
		status := []int{401, 403, 422, 500}[i%4]
		gh, space := spelling.spell(fakeGitHubToken), spelling.spell(hostileToken)
		f.FailAll(status, fmt.Sprintf(`{"message":"Bad credentials %s %s","errors":[{"resource":"IssueComment","field":"%s","code":"%s"}],"documentation_url":"https://docs.github.com/rest"}`,
			gh, space, gh, space))
		for _, args := range [][]string{{"plan", "--comment", "--pr", "1"}, {"drift", "--issue"}} {
			code, out := run("GitHub "+fmt.Sprint(status)+" ("+spelling.name+")", args...)
			if code != exitError || !strings.Contains(out, "skillsync: error: ") {
				t.Errorf("GitHub %d (%s): %s: exit %d, want %d with an error:\n%s", status, spelling.name, strings.Join(args, " "), code, exitError, out)
			}
		}
	}
	f.FailAll(0, "")

	issues, comments := f.Issues(), f.Comments()
	if len(comments) == 0 {
		t.Error("no failure comment was posted on the pull request")
	}
	for _, c := range comments {
		for _, tok := range []string{hostileToken, fakeGitHubToken} {
			if l := tokenLeak(c.Body, tok); l != "" {
				t.Errorf("a pull request comment shows %s:\n%s", l, c.Body)
			}
		}
	}
	for _, is := range issues {
		for _, tok := range []string{hostileToken, fakeGitHubToken} {
			if l := tokenLeak(is.Title+"\n"+is.Body, tok); l != "" {
				t.Errorf("issue #%d shows %s:\n%s", is.Number, l, is.Body)
			}
		}
	}
	for _, p := range []string{planFile, journal, summary, cache} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("not written: %v", err)
		}
	}
	files := 0
	err := filepath.WalkDir(work, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		files++
		for _, tok := range []string{hostileToken, fakeGitHubToken} {
			if l := tokenLeak(string(data), tok); l != "" {
				t.Errorf("%s shows %s", path, l)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(journal); err != nil || !strings.Contains(string(data), `"error":"409 Conflict: `) {
		t.Errorf("the journal has no failed step: %v\n%s", err, data)
	}
	t.Logf("%d files written, none shows a token", files)
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// TestTokenInDiagnosticsRedacted: validation errors that quote the token
// (in a name, in a file name) are printed, annotated, summarized and
// commented with it redacted, even though they come before the token is
// read for the first request.
func TestTokenInDiagnosticsRedacted(t *testing.T) {
	t.Parallel()
	const tok = "tok_9f8e7d6c5b4a3f2e1d0c"
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	e.AddToken(tok, remotetest.ReadWrite)
	env["SKILLSYNC_TOKEN"] = tok
	summary := filepath.Join(t.TempDir(), "summary.md")
	env["GITHUB_ACTIONS"] = "true"
	env["GITHUB_STEP_SUMMARY"] = summary
	md := filepath.Join(dir, "skills", "code-review", "SKILL.md")
	data, err := os.ReadFile(md)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Replace(string(data), "name: Code Review", "name: Review "+tok+" "+tok+" "+tok, 1)
	if err := os.WriteFile(md, []byte(long), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeFile(filepath.Join(dir, "skills", "code-review", "ref", tok+"@x.md"), "notes\n"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"plan", "--dir", dir, "--comment", "--pr", "1"},
		{"plan", "--dir", dir, "--format", "json"},
		{"drift", "--dir", dir},
	} {
		code, stdout, stderr := runCLI(t, env, args...)
		if code != exitError || !strings.Contains(stderr, "[REDACTED]") {
			t.Errorf("%s: exit %d, want %d with the token redacted; stderr:\n%s", strings.Join(args, " "), code, exitError, stderr)
		}
		if l := tokenLeak(stdout+stderr, tok); l != "" {
			t.Errorf("%s shows the token %s:\n%s%s", strings.Join(args, " "), l, stdout, stderr)
		}
	}
	// The token of a --token-file too.
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte(tok+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_TOKEN")
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--token-file", tokenFile)
	if l := tokenLeak(stdout+stderr, tok); code != exitError || l != "" {
		t.Errorf("plan --token-file: exit %d, shows the token %s:\n%s", code, l, stderr)
	}
	comments := f.Comments()
	if len(comments) != 1 || !strings.Contains(comments[0].Body, "validation error") {
		t.Fatalf("comments = %+v, want one saying why there is no plan", comments)
	}
	if l := tokenLeak(comments[0].Body, tok); l != "" {
		t.Errorf("the pull request comment shows the token %s:\n%s", l, comments[0].Body)
	}
	if data, err := os.ReadFile(summary); err != nil || tokenLeak(string(data), tok) != "" {
		t.Errorf("the job summary shows the token (%v):\n%s", err, data)
	}
}
