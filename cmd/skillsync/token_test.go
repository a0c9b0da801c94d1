package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// TestTokenNeverLeaks runs every command, succeeding and failing, with a
// sentinel token, and greps all it printed and every file it wrote (plan
// files, journals, the cache, the repository) for the token.
func TestTokenNeverLeaks(t *testing.T) {
	t.Parallel()
	const sentinel = "sntl-9f8e7d6c5b4a3f2e1d0c"
	const other = "another-token-0123456789"
	const agentID = "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"
	const assetID = "5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a"

	sp := newTestSpace(t, sentinel, 3)
	work := filepath.Dir(sp.repo)
	tokenFile := filepath.Join(t.TempDir(), "token") // outside work: it holds the token
	if err := os.WriteFile(tokenFile, []byte(sentinel+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	// A space that knows another token (401), and one where the sentinel
	// may only read (403).
	unknown := remotetest.New()
	if err := seedEmulator(unknown, ""); err != nil {
		t.Fatal(err)
	}
	unknown.AddToken(other, remotetest.ReadWrite)
	unknownURL := testserver.New(t, unknown).URL
	readOnly := remotetest.New()
	if err := seedEmulator(readOnly, ""); err != nil {
		t.Fatal(err)
	}
	readOnly.AddToken(sentinel, remotetest.ReadOnly)
	readOnlyURL := testserver.New(t, readOnly).URL

	// Services that echo the request's Authorization header back: in an
	// error message, in an HTML page answered 200, in a redirect.
	echo := func(status int, contentType string, body func(auth string) string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			w.Write([]byte(body(r.Header.Get("Authorization"))))
		}))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	jsonMessage := func(auth string) string {
		b, _ := json.Marshal(map[string]any{"error": map[string]string{"code": "bad_request", "message": "you sent " + auth}})
		return string(b)
	}
	echo400 := echo(http.StatusBadRequest, "application/json", jsonMessage)
	echo401 := echo(http.StatusUnauthorized, "application/json", jsonMessage)
	echo500 := echo(http.StatusInternalServerError, "text/plain", func(a string) string { return "oops " + a })
	echoHTML := echo(http.StatusOK, "text/html", func(a string) string { return "<html><body>" + a + "</body></html>" })
	echoJSON := echo(http.StatusOK, "application/json", func(a string) string { return `{"data": "` + a + `"}` })
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://localhost:1/"+strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "), http.StatusFound)
	}))
	t.Cleanup(redirect.Close)

	// A space that holds the token in a skill's text (pasted there by
	// mistake): the answers that carry it are refused, never printed,
	// saved or journaled.
	leaky := remotetest.New()
	if err := seedEmulator(leaky, ""); err != nil {
		t.Fatal(err)
	}
	leaky.AddToken(sentinel, remotetest.ReadWrite)
	if s, ok := leaky.SkillBySlug("demo", "sql-style"); ok {
		leaky.EditSkill("demo", s.ID, func(sd *remotetest.SkillSeed) { sd.Description = "Use the token " + sentinel + " to connect." })
	}
	leakyURL := testserver.New(t, leaky).URL
	if err := os.Mkdir(filepath.Join(work, "leaky-pull"), 0o755); err != nil {
		t.Fatal(err)
	}
	// An error message that spells the token with JSON escapes.
	echoEscaped := echo(http.StatusBadRequest, "application/json", func(a string) string {
		return `{"error":{"message":"you sent ` + strings.ReplaceAll(a, "e", `\u0065`) + `"}}`
	})

	planFile := filepath.Join(work, "plan.json")
	journal := filepath.Join(work, "journal.jsonl")
	cache := filepath.Join(work, "cache")
	pulled := filepath.Join(work, "pulled")
	if err := os.Mkdir(pulled, 0o755); err != nil {
		t.Fatal(err)
	}
	type command struct {
		url  string // SKILLSYNC_BASE_URL; sp.url when empty
		args []string
		code int // the exit code
	}
	cmds := []command{
		{"", []string{"validate"}, exitOK},
		{"", []string{"plan", "--debug"}, exitOK},
		{"", []string{"plan", "--format", "json", "--debug"}, exitOK},
		{"", []string{"plan", "--format", "markdown"}, exitOK},
		{"", []string{"plan", "--out", planFile, "--cache", cache, "--debug"}, exitOK},
		{"", []string{"plan", "--token-file", tokenFile, "--debug"}, exitOK},
		{"", []string{"drift", "--debug"}, exitChanges},
		{"", []string{"drift", "--format", "json"}, exitChanges},
		{"", []string{"apply", "--auto-approve", "--journal", journal, "--debug", planFile}, exitOK},
		{"", []string{"apply", "--auto-approve", "--debug"}, exitOK}, // default journal in the repository
		{"", []string{"restore", "--auto-approve", "--debug", journal}, exitOK},
		{readOnlyURL, []string{"restore", "--auto-approve", "--debug", journal}, exitOK}, // nothing left to restore
		{"", []string{"agents", "list", "--debug"}, exitOK},
		{"", []string{"agents", "publish", "--debug", agentID}, exitOK},
		{"", []string{"assets", "get", "--debug", assetID}, exitOK},
		{"", []string{"assets", "get", "--debug", "00000000-0000-4000-8000-000000000000"}, exitError}, // 404
		// Into a folder of its own: the repository is no git work tree, so
		// pull would refuse to overwrite its files (all "uncommitted").
		{"", []string{"pull", "--dir", pulled}, exitOK},
		{unknownURL, []string{"plan", "--debug"}, exitError},
		{unknownURL, []string{"apply", "--auto-approve", "--debug"}, exitError},
		{unknownURL, []string{"agents", "list", "--debug"}, exitError},
		{readOnlyURL, []string{"apply", "--auto-approve", "--debug"}, exitError},
		{readOnlyURL, []string{"agents", "publish", "--debug", agentID}, exitOK}, // already published
		{"http://example.com", []string{"plan", "--debug"}, exitError},
		{"https://127.0.0.1:1", []string{"plan", "--debug"}, exitError},
		{"http://127.0.0.1:1", []string{"plan", "--debug"}, exitError},
		{"https://user:" + sentinel + "@example.com", []string{"plan"}, exitError},
		{"not a url " + sentinel[:0], []string{"plan"}, exitError},
		{echo400, []string{"plan", "--debug"}, exitError},
		{echo401, []string{"plan", "--debug"}, exitError},
		{echo500, []string{"plan", "--debug", "--parallelism", "1"}, exitError},
		{echoHTML, []string{"plan", "--debug"}, exitError},
		{echoJSON, []string{"plan", "--debug"}, exitError},
		{redirect.URL, []string{"plan", "--debug"}, exitError},
		{echoEscaped, []string{"plan", "--debug"}, exitError},
		{leakyURL, []string{"plan", "--debug", "--space", "demo", "--out", filepath.Join(work, "leaky-plan.json")}, exitError},
		{leakyURL, []string{"drift", "--format", "markdown", "--space", "demo"}, exitError},
		{leakyURL, []string{"apply", "--auto-approve", "--space", "demo", "--journal", filepath.Join(work, "leaky.jsonl")}, exitError},
		{leakyURL, []string{"pull", "--space", "demo", "--dir", filepath.Join(work, "leaky-pull")}, exitError},
	}
	leaks := func(where string, data []byte) {
		t.Helper()
		if bytes.Contains(data, []byte(sentinel)) {
			t.Errorf("the token appears in %s:\n%s", where, data)
		}
	}
	for _, c := range cmds {
		url := c.url
		if url == "" {
			url = sp.url
		}
		env := sp.env(sentinel)
		env["SKILLSYNC_BASE_URL"] = url
		code, stdout, stderr := runCLI(t, env, c.args...)
		what := strings.Join(c.args, " ") + " against " + url
		t.Logf("%s: exit %d\n%s%s", what, code, stdout, stderr)
		if code != c.code {
			t.Errorf("%s: exit %d, want %d\n%s%s", what, code, c.code, stdout, stderr)
		}
		if len(stdout)+len(stderr) == 0 {
			t.Errorf("%s printed nothing", what)
		}
		leaks("the stdout of "+what, []byte(stdout))
		leaks("the stderr of "+what, []byte(stderr))
	}
	if _, err := os.Stat(filepath.Join(pulled, "skills", "code-review", "SKILL.md")); err != nil {
		t.Errorf("pull wrote no skill: %v", err)
	}
	if _, err := os.Stat(planFile); err != nil {
		t.Errorf("no plan file written: %v", err)
	}
	if _, err := os.Stat(journal); err != nil {
		t.Errorf("no journal written: %v", err)
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
		leaks(path, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files written or copied, none holds the token", files)
}

// TestTokenInRepositoryRefused: a skill of the repository that holds the
// token (pasted into a supporting file) is refused before any write: a plan
// would carry it into the space, the plan file and the pull request.
func TestTokenInRepositoryRefused(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	f := newFakeGitHub(t, env)
	if err := os.WriteFile(filepath.Join(dir, "skills", "code-review", "notes.md"), []byte("connect with "+scriptToken+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "plan.json")
	for _, args := range [][]string{
		{"plan", "--dir", dir, "--out", out, "--comment", "--pr", "1"},
		{"apply", "--dir", dir, "--auto-approve"},
		{"drift", "--dir", dir},
	} {
		code, stdout, stderr := runCLI(t, env, args...)
		if code != 1 || !strings.Contains(stderr, "skillsync: error: skills/code-review/notes.md holds the access token") ||
			!strings.Contains(stderr, "rotate the token") {
			t.Errorf("%s: exit %d, stderr:\n%s", args[0], code, stderr)
		}
		if strings.Contains(stdout+stderr, scriptToken) {
			t.Errorf("%s printed the token", args[0])
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a plan file was written")
	}
	r := e.Requests()
	if n := r[remotetest.KeyUpdateSkill] + r[remotetest.KeyEnableSkill] + r[remotetest.KeyDisableSkill]; n != 0 {
		t.Errorf("%d writes to the space", n)
	}
	if comments := f.Comments(); len(comments) > 0 && strings.Contains(comments[0].Body, scriptToken) {
		t.Error("the pull request comment holds the token")
	}
}
