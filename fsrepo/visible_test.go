package fsrepo

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
)

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
		var found bool
		for _, d := range ds {
			if strings.Contains(d.Message, `\u`) {
				t.Errorf("%s: %s shows a Go escape", name, d)
			}
			found = found || strings.Contains(d.Message, c.want)
		}
		if !found {
			t.Errorf("%s: no diagnostic quotes %s: %v", name, c.want, ds)
		}
	}
}
