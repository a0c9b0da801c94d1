package fsrepo

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
)

// checkQuotes fails unless a diagnostic of ds quotes want and none shows
// a Go escape.
func checkQuotes(t *testing.T, name string, ds diag.Diagnostics, want string) {
	t.Helper()
	var found bool
	for _, d := range ds {
		if strings.Contains(d.Message, `\u`) {
			t.Errorf("%s: %s shows a Go escape", name, d)
		}
		found = found || strings.Contains(d.Message, want)
	}
	if !found {
		t.Errorf("%s: no diagnostic quotes %s: %v", name, want, ds)
	}
}

// TestDiagnosticsShowHiddenAsMarkers: a diagnostic that quotes text of
// the repository shows its invisible characters as the markers of every
// other output (⟦ZWSP⟧), never as Go escapes (\u200b) that a terminal
// and a comment would show otherwise.
func TestDiagnosticsShowHiddenAsMarkers(t *testing.T) {
	for name, c := range map[string]struct{ skillMD, want string }{
		"name rule": {"---\nname: Gre\u200bet\ndescription: Greets. Use when the user says hello.\n---\n\nSay hello.\n", `"Gre⟦ZWSP⟧et"`},
		"comment":   {"---\nname: Greet\ndescription: Greets. #re\u200blease\n---\n\nSay hello.\n", `"#re⟦ZWSP⟧lease"`},
		"key twice": {"---\nname: Greet\ndescription\u2060: Greets.\ndescription\u2060: Greets.\n---\n\nSay hello.\n", `"description⟦WJ⟧"`},
	} {
		_, ds, err := CheckFolder(config.Default(), "greet", map[string][]byte{"SKILL.md": []byte(c.skillMD)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		checkQuotes(t, name, ds, c.want)
	}
}

// TestLockMessagesShowHiddenAsMarkers: a diagnostic of skillsync.lock
// that quotes a value of it shows its invisible characters as markers.
func TestLockMessagesShowHiddenAsMarkers(t *testing.T) {
	const entry = "version: 1\nskills:\n  - slug: %s\n    source: https://example.com/up.git\n    commit: %s\n    hash: %s\n"
	commit, hash := strings.Repeat("a", 40), "sha256:"+strings.Repeat("b", 64)
	for name, c := range map[string]struct{ lock, want string }{
		"slug":        {fmt.Sprintf(entry, "gr/\u200beet", commit, hash), `"gr/⟦ZWSP⟧eet"`},
		"commit":      {fmt.Sprintf(entry, "greet", "a\u200b"+commit[1:], hash), `"a⟦ZWSP⟧` + commit[1:] + `"`},
		"hash":        {fmt.Sprintf(entry, "greet", commit, hash+"\u200b"), `"` + hash + `⟦ZWSP⟧"`},
		"unknown key": {"version: 1\nski\u200bls: []\n", `"ski⟦ZWSP⟧ls"`},
		"skill key":   {fmt.Sprintf(entry, "greet", commit, hash) + "    ta\u200bg: v1\n", `"ta⟦ZWSP⟧g"`},
	} {
		_, ds := ParseLock([]byte(c.lock))
		checkQuotes(t, name, ds, c.want)
	}
}
