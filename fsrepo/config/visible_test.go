package config

import (
	"strings"
	"testing"
)

// TestMessagesShowHiddenAsMarkers: a message about skillsync.yaml that
// quotes a value of it shows the value's invisible characters as the
// markers of every other output (⟦ZWSP⟧), never as Go escapes (\u200b).
func TestMessagesShowHiddenAsMarkers(t *testing.T) {
	for name, c := range map[string]struct{ yaml, want string }{
		"unknown key":       {"space: ab12\nunman\u200baged: ignore\n", `"unman⟦ZWSP⟧aged"`},
		"unknown key, WJ":   {"space: ab12\nspace\u2060: ab12\n", `"space⟦WJ⟧"`},
		"unmanaged":         {"space: ab12\nunmanaged: ign\u200bore\n", `"ign⟦ZWSP⟧ore"`},
		"missing":           {"space: ab12\nmissing: wa\u200brn\n", `"wa⟦ZWSP⟧rn"`},
		"skillsDir":         {"space: ab12\nskillsDir: ../ski\u200blls\n", `"../ski⟦ZWSP⟧lls"`},
		"target name":       {"targets:\n  st\u200bg: {baseURL: https://a.example}\n", `"st⟦ZWSP⟧g"`},
		"target unmanaged":  {"targets:\n  stg: {space: ab12, unmanaged: ign\u200bore}\n", `"ign⟦ZWSP⟧ore"`},
		"target tokenEnv":   {"targets:\n  stg: {space: ab12, tokenEnv: GITHUB\u200b_TOKEN}\n", `"GITHUB⟦ZWSP⟧_TOKEN"`},
		"enabled slug":      {"targets:\n  stg: {space: ab12, enabled: {\"a*\u200b\": true}}\n", `"a*⟦ZWSP⟧"`},
		"ignore field":      {"space: ab12\nignore:\n  - skills: [\"*\"]\n    fields: [enab\u200bled]\n", `"enab⟦ZWSP⟧led"`},
		"lint rule":         {"space: ab12\nlint:\n  rules:\n    hidden-uni\u200bcode: warning\n", `"hidden-uni⟦ZWSP⟧code"`},
		"lint profile":      {"space: ab12\nlint:\n  profile: agent\u200bskills\n", `"agent⟦ZWSP⟧skills"`},
		"waiver rule":       {"space: ab12\nlint:\n  waivers:\n    - {rule: hidden-uni\u200bcode, skill: greet, hash: \"sha256:" + strings.Repeat("0", 64) + "\", reason: ok}\n", `"hidden-uni⟦ZWSP⟧code"`},
		"waiver skill":      {"space: ab12\nlint:\n  waivers:\n    - {rule: hidden-unicode, skill: \"gr/\u200beet\", hash: \"sha256:" + strings.Repeat("0", 64) + "\", reason: ok}\n", `"gr/⟦ZWSP⟧eet"`},
		"notify twice":      {"space: ab12\nnotify:\n  sla\u200bck: {kind: slack, urlEnv: SKILLSYNC_SLACK}\n  sla\u200bck: {kind: slack, urlEnv: SKILLSYNC_SLACK}\n", `"sla⟦ZWSP⟧ck"`},
		"exclude not glob":  {"targets:\n  stg: {space: ab12, exclude: [\"[\u200b\"]}\n", `"[⟦ZWSP⟧"`},
		"description level": {"space: ab12\ndescriptions:\n  budgetLevel: wa\u200brn\n", `"wa⟦ZWSP⟧rn"`},
	} {
		_, err := Parse([]byte(c.yaml))
		if err == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		if strings.Contains(err.Error(), `\u`) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant it to quote %s, with no Go escape", name, err, c.want)
		}
	}
}
