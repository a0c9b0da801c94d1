package main

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// goEscape is a Go escape of a character (\u200b, \U000e0041), which no
// output for people shows: they show markers.
var goEscape = regexp.MustCompile(`\\u[0-9a-fA-F]{4}|\\U[0-9a-fA-F]{8}`)

// checkQuoted fails t unless out, what a command said, holds want (a
// value quoted with its hidden characters as markers) and no Go escape.
func checkQuoted(t *testing.T, what, out, want string) {
	t.Helper()
	if esc := goEscape.FindString(out); esc != "" || !strings.Contains(out, want) {
		t.Errorf("%s: want %s quoted, with no Go escape:\n%s", what, want, out)
	}
}

// TestConfigMessagesShowHiddenText: the messages about skillsync.yaml,
// skillsync.lock and the targets they name quote a value's zero-width
// space as a marker, never as a Go escape.
func TestConfigMessagesShowHiddenText(t *testing.T) {
	t.Parallel()
	_, dir, env := ciSetup(t)
	lock := "version: 1\nskills:\n  - slug: greet\n    source: https://example.com/up.git\n    commit: " + strings.Repeat("a", 40) + "\n    hash: sha256:" + strings.Repeat("b", 64) + "\n    ta\u200bg: v1\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.lock"), []byte(lock), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr := runCLI(t, env, "validate", "--dir", dir)
	checkQuoted(t, "skillsync.lock", stdout+stderr, `"ta⟦ZWSP⟧g"`)

	cfg := filepath.Join(dir, "skillsync.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "lint:\n  rules:\n    hidden-uni\u200bcode: warning\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stdout, stderr = runCLI(t, env, "validate", "--dir", dir)
	checkQuoted(t, "skillsync.yaml", stdout+stderr, `"hidden-uni⟦ZWSP⟧code"`)

	if err := os.WriteFile(cfg, []byte("targets:\n  stg: {space: demo}\nmissing: warn\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "skillsync.lock")); err != nil {
		t.Fatal(err)
	}
	_, _, stderr = runCLI(t, env, "plan", "--dir", dir, "--target", "st\u200bg")
	checkQuoted(t, "--target", stderr, `"st⟦ZWSP⟧g"`)
}

// TestAgentMessagesShowHiddenText: the messages of the agents commands
// quote an agent's name, and the name asked for, with a zero-width space
// shown as a marker, never as a Go escape.
func TestAgentMessagesShowHiddenText(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	for _, a := range e.Agents(demoSpace) {
		e.EditAgent(demoSpace, a.ID, func(a *remote.Agent) { a.Name = strings.Replace(a.Name, " ", "\u200b", 1) })
	}
	name := e.Agents(demoSpace)[0].Name
	_, stdout, stderr := runCLI(t, env, "agents", "publish", "--dir", dir, name)
	checkQuoted(t, "agents publish", stdout+stderr, `"`+strings.Replace(name, "\u200b", "⟦ZWSP⟧", 1)+`"`)
	_, stdout, stderr = runCLI(t, env, "agents", "publish", "--dir", dir, "No\u200bbody")
	checkQuoted(t, "agents publish of no agent", stdout+stderr, `no agent "No⟦ZWSP⟧body"`)
}

// TestFindingsShowHiddenText: the text a finding matched shows the tag
// characters of issue 23 as every other output does, decoded in a marker,
// never as Go escapes: in drift, its issue, pull, validate (text,
// markdown, SARIF), plan (text, markdown) and vendor add. JSON keeps the
// exact characters.
func TestFindingsShowHiddenText(t *testing.T) {
	t.Parallel()
	dir, env := hiddenSetup(t)
	out := map[string]string{}
	both := func(what string, args ...string) string {
		_, stdout, stderr := runCLI(t, env, args...)
		out[what] = stdout + stderr
		return stdout
	}
	both("drift", "drift", "--dir", dir)
	ghEnv := maps.Clone(env)
	gh := newFakeGitHub(t, ghEnv)
	if code, _, stderr := runCLI(t, ghEnv, "drift", "--dir", dir, "--issue"); code != 2 {
		t.Fatalf("drift --issue: exit %d\n%s", code, stderr)
	}
	out["drift issue"] = gh.Issues()[1].Body
	both("pull", "pull", "--dir", dir, "--force", "release-notes")
	both("validate", "validate", "--dir", dir)
	both("validate markdown", "validate", "--dir", dir, "--format", "markdown")
	both("plan", "plan", "--dir", dir)
	both("plan markdown", "plan", "--dir", dir, "--format", "markdown")
	var log struct {
		Runs []struct {
			Results []struct {
				Message struct{ Text string } `json:"message"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(both("validate sarif", "validate", "--dir", dir, "--format", "sarif")), &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("validate --format sarif: %v\n%s", err, out["validate sarif"])
	}
	out["validate sarif"] = ""
	for _, r := range log.Runs[0].Results {
		out["validate sarif"] += r.Message.Text + "\n"
	}
	var diags []struct{ Code, Match, Decoded string }
	if err := json.Unmarshal([]byte(both("validate json", "validate", "--dir", dir, "--format", "json")), &diags); err != nil {
		t.Fatalf("validate --format json: %v\n%s", err, out["validate json"])
	}
	delete(out, "validate json")
	exact := false
	for _, d := range diags {
		exact = exact || d.Code == "hidden-unicode" && d.Match == tagged(hiddenOrder) && d.Decoded == hiddenOrder
	}
	if !exact {
		t.Errorf("validate --format json does not keep the exact text matched: %+v", diags)
	}

	base := t.TempDir()
	up, repo := filepath.Join(base, "upstream"), filepath.Join(base, "repo")
	upstreamCommit(t, up, "first", map[string]string{"skills/greet/SKILL.md": "---\nname: Greet\ndescription: Greets.\n---\nSay hello politely." + tagged(hiddenOrder) + "\n"})
	upstreamCommit(t, repo, "repo", map[string]string{"skillsync.yaml": "space: ab12\n"})
	both("vendor add", "vendor", "add", "--dir", repo, "--path", "skills/greet", up)

	for what, s := range out {
		if e := goEscape.FindString(s); e != "" {
			t.Errorf("%s shows %s, a Go escape:\n%s", what, e, s)
		}
		shown := false
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "hidden-unicode") && !strings.Contains(l, "hint:") {
				shown = true
				if !strings.Contains(l, hiddenShown) {
					t.Errorf("%s: the finding does not show what the tags spell as a marker:\n%s", what, l)
				}
			}
		}
		if !shown {
			t.Errorf("%s shows no finding of hidden-unicode:\n%s", what, s)
		}
	}
}
