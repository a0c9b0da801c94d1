package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// hostileText is what a hostile space puts in the text skillsync prints,
// to rewrite what a reviewer sees: erase a line and move up, set the
// window title, write the clipboard (OSC 52), overwrite a line with a
// bare CR, reverse the text with a bidi override, and a C1 CSI.
const hostileText = "erase\x1b[2K\x1b[1A title\x1b]0;title\x07 clip\x1b]52;c;ZXZpbA==\x07 over\rwrite rlo\u202eevil csi\u009b2J"

// hostileShown is hostileText as it must show.
const hostileShown = "erase⟦ESC⟧[2K⟦ESC⟧[1A title⟦ESC⟧]0;title⟦BEL⟧ clip⟦ESC⟧]52;c;ZXZpbA==⟦BEL⟧ over⟦CR⟧write rlo⟦RLO⟧evil csi⟦U+009B⟧2J"

// skillsyncColors are the escapes skillsync itself writes on a terminal.
var skillsyncColors = []string{"\x1b[0m", "\x1b[1m", "\x1b[31m", "\x1b[32m", "\x1b[33m", "\x1b[36m"}

// rawControl describes the first control character of out that a terminal
// would obey (colours of skillsync's own, tab and line ends aside), or "".
func rawControl(out string) string {
	for _, c := range skillsyncColors {
		out = strings.ReplaceAll(out, c, "")
	}
	for i, r := range out {
		switch {
		case r == '\t' || r == '\n':
		case r == '\r' && strings.HasPrefix(out[i:], "\r\n"):
		case r < 0x20, r >= 0x7f && r <= 0x9f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return fmt.Sprintf("%U in ...%q...", r, out[max(0, i-60):min(len(out), i+20)])
		}
	}
	return ""
}

// TestHostileTextShownVisibly: a space whose skill instructions, agent's
// name and error messages carry escape sequences, a bare CR, a bidi
// override and a C1 control cannot drive the terminal or the CI log of
// plan, drift, apply or agents list: each shows them escaped.
func TestHostileTextShownVisibly(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	rn, ok := e.SkillBySlug(demoSpace, "release-notes")
	if !ok {
		t.Fatal("the demo space has no release-notes")
	}
	e.EditSkill(demoSpace, rn.ID, func(s *remotetest.SkillSeed) {
		s.Instructions = "# Release notes\n\n" + hostileText + "\n"
	})
	e.AddAgent(demoSpace, remote.Agent{ID: "0e8f5a1c-2b3d-4c4e-9f6a-7b8c9d0e1f2a", Name: "Agent " + hostileText, SkillIDs: []string{rn.ID}})

	// Writes fail with the hostile text as the server's message.
	message, err := json.Marshal(map[string]any{"error": map[string]string{"message": hostileText}})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			e.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusConflict)
		w.Write(message)
	}))
	t.Cleanup(srv.Close)
	env["SKILLSYNC_BASE_URL"] = srv.URL

	for _, args := range [][]string{
		{"plan", "--dir", dir},
		{"plan", "--dir", dir, "--format", "markdown"},
		{"drift", "--dir", dir},
		{"apply", "--dir", dir, "--auto-approve", "--journal", dir + "/journal.jsonl"},
		{"agents", "list", "--dir", dir},
	} {
		_, stdout, stderr := runCLI(t, env, args...)
		for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			if c := rawControl(out); c != "" {
				t.Errorf("%s: %s holds a raw control character: %s", strings.Join(args, " "), name, c)
			}
		}
		if !strings.Contains(stdout+stderr, hostileShown) {
			t.Errorf("%s: the hostile text is not shown escaped:\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), stdout, stderr)
		}
		// The client already blanks the C0 and C1 controls of a server's
		// message; a bidi override it leaves must still show.
		if args[0] == "apply" && !regexp.MustCompile(`409 Conflict: erase[^\n]*rlo⟦RLO⟧evil`).MatchString(stdout) {
			t.Errorf("apply: the server's error message is not shown escaped:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
		}
	}
}

// TestPlanOnATerminalKeepsItsColours: showing control characters leaves
// skillsync's own colours alone, and a hostile diff line on a terminal
// stays escaped within them.
func TestPlanOnATerminalKeepsItsColours(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	delete(env, "NO_COLOR")
	env["TERM"] = "xterm"
	rn, _ := e.SkillBySlug(demoSpace, "release-notes")
	e.EditSkill(demoSpace, rn.ID, func(s *remotetest.SkillSeed) { s.Instructions = "# Release notes\n\n" + hostileText + "\n" })

	// plan asks nothing: the "answer" to its last line is an empty line.
	code, shown := terminal(t, env, "Plan: ", "", "plan", "--dir", dir)
	if code != exitOK {
		t.Fatalf("plan: exit %d, terminal:\n%s", code, shown)
	}
	for _, want := range []string{"\x1b[1mskillsync plan for space demo\x1b[0m", "\x1b[32m+\x1b[0m", "\x1b[31m-\x1b[0m", "\x1b[36m@@ ", "\x1b[31m-" + hostileShown + "\x1b[0m"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the terminal does not show %q:\n%s", want, shown)
		}
	}
	if c := rawControl(shown); c != "" {
		t.Errorf("the terminal got a raw control character: %s", c)
	}
}
