package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/lint"
)

// TestLintConfig: the lint section, read strictly: every mistake an error
// at its line, with the nearest known word.
func TestLintConfig(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // errors, in order; none for a valid file
		check      func(t *testing.T, c lint.Config)
	}{
		{name: "absent", yaml: "space: ab12\n", check: func(t *testing.T, c lint.Config) {
			for _, r := range lint.Rules {
				if got := c.Level(r.Name); got != r.Default {
					t.Errorf("%s = %v with no lint section, want its default %v", r.Name, got, r.Default)
				}
			}
			if c.Level(lint.RuleBodyLong) != lint.LevelWarning {
				t.Errorf("body-long must warn by default, as it always has")
			}
		}},
		{name: "empty", yaml: "lint:\n", check: func(t *testing.T, c lint.Config) {
			if c.Profile != "" || c.Rules != nil {
				t.Errorf("lint: with nothing = %+v", c)
			}
		}},
		{name: "profile", yaml: "lint:\n  profile: agentskills\n", check: func(t *testing.T, c lint.Config) {
			for _, r := range lint.Rules {
				if got := c.Level(r.Name); got != r.AgentSkills {
					t.Errorf("%s = %v under the profile, want %v", r.Name, got, r.AgentSkills)
				}
			}
		}},
		{name: "rules over profile", yaml: "lint:\n  profile: agentskills\n  rules:\n    name-format: warning\n    body-long: off\n    description-when: error\n    link-missing: off\n",
			check: func(t *testing.T, c lint.Config) {
				for code, want := range map[string]lint.Level{lint.RuleNameFormat: lint.LevelWarning, lint.RuleBodyLong: lint.LevelOff, lint.RuleDescriptionWhen: lint.LevelError,
					lint.RuleLinkMissing: lint.LevelOff, lint.RuleNameFolder: lint.LevelError, lint.RuleFileUnreferenced: lint.LevelOff} {
					if got := c.Level(code); got != want {
						t.Errorf("%s = %v, want %v", code, got, want)
					}
				}
			}},
		{name: "off unquoted and quoted", yaml: "lint:\n  rules:\n    body-long: off\n    body-tokens: 'off'\n    link-missing: Off\n",
			check: func(t *testing.T, c lint.Config) {
				if c.Level(lint.RuleBodyLong) != lint.LevelOff || c.Level(lint.RuleBodyTokens) != lint.LevelOff || c.Level(lint.RuleLinkMissing) != lint.LevelOff {
					t.Errorf("levels = %v", c.Rules)
				}
			}},
		{name: "unknown profile", yaml: "lint:\n  profile: agentskill\n",
			want: []string{`skillsync.yaml:2: lint.profile must be "agentskills", not "agentskill" (did you mean "agentskills"?)`}},
		{name: "unknown rule", yaml: "lint:\n  rules:\n    body-long: off\n    descripton-when: warning\n",
			want: []string{`skillsync.yaml:4: unknown rule "descripton-when" in lint.rules (did you mean "description-when"?); rules: name-format, name-folder-mismatch, frontmatter-key-unknown, compatibility-invalid, metadata-invalid, body-long, body-tokens, link-missing, description-when, file-unreferenced`}},
		{name: "unknown rule far from any", yaml: "lint:\n  rules:\n    name-invalid: off\n",
			want: []string{`skillsync.yaml:3: unknown rule "name-invalid" in lint.rules; rules: `}},
		{name: "unknown level", yaml: "lint:\n  rules:\n    body-long: warn\n    link-missing: true\n    body-tokens:\n    file-unreferenced: [error]\n",
			want: []string{
				`skillsync.yaml:3: lint.rules.body-long must be off, warning or error, not "warn" (did you mean "warning"?)`,
				`skillsync.yaml:4: lint.rules.link-missing must be off, warning or error, not "true"`,
				`skillsync.yaml:5: lint.rules.body-tokens must be off, warning or error, not empty`,
				`skillsync.yaml:6: lint.rules.file-unreferenced must be off, warning or error, not a list`,
			}},
		{name: "duplicate rule", yaml: "lint:\n  rules:\n    body-long: off\n    body-long: error\n",
			want: []string{`skillsync.yaml:4: duplicate rule "body-long" in lint.rules (first at line 3)`}},
		{name: "unknown key", yaml: "lint:\n  profiles: agentskills\n",
			want: []string{`skillsync.yaml:2: unknown key "lint.profiles" (did you mean "profile"?); known keys: profile, rules`}},
		{name: "not a mapping", yaml: "lint: agentskills\n",
			want: []string{`skillsync.yaml:1: lint must be a mapping, not "agentskills"; for example lint: {profile: agentskills}`}},
		{name: "rules not a mapping", yaml: "lint:\n  rules: [body-long]\n",
			want: []string{`skillsync.yaml:2: lint.rules must be a mapping, not a list; for example rules: {description-when: warning}`}},
		{name: "waiver", yaml: "lint:\n  waivers:\n    - {rule: remote-code, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: our installer}\n",
			check: func(t *testing.T, c lint.Config) {
				want := lint.Waiver{Rule: lint.RuleRemoteCode, Skill: "setup", Hash: "sha256:" + strings.Repeat("ab", 32), Reason: "our installer", Line: 3}
				if len(c.Waivers) != 1 || c.Waivers[0] != want {
					t.Errorf("waivers = %+v, want %+v", c.Waivers, want)
				}
			}},
		{name: "waivers wrong", yaml: "lint:\n  waivers:\n" +
			"    - {rule: remote-cod, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: body-long, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: remote-code, skill: \"a b\", hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: remote-code, skill: setup, hash: \"sha256:AB\", reason: r}\n" +
			"    - {rule: remote-code, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reson: r}\n" +
			"    - remote-code\n",
			want: []string{
				`skillsync.yaml:8: lint.waivers: each item must be a waiver {rule, skill, hash, reason}, not "remote-code"`,
			}},
		{name: "waiver fields wrong", yaml: "lint:\n  waivers:\n" +
			"    - {rule: remote-cod, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: body-long, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: remote-code, skill: \"a b\", hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reason: r}\n" +
			"    - {rule: remote-code, skill: setup, hash: \"sha256:AB\", reason: r}\n" +
			"    - {rule: remote-code, skill: setup, hash: \"sha256:" + strings.Repeat("ab", 32) + "\", reson: r}\n",
			want: []string{
				`skillsync.yaml:3: lint.waivers[0]: rule must be a security rule, not "remote-cod" (did you mean "remote-code"?)`,
				`skillsync.yaml:4: lint.waivers[1]: rule must be a security rule, not "body-long"`,
				`skillsync.yaml:5: lint.waivers[2]: skill must be the slug of a skill folder, not "a b"`,
				`skillsync.yaml:6: lint.waivers[3]: hash must be the content hash a finding names`,
				`skillsync.yaml:7: unknown key "lint.waivers[4].reson" (did you mean "reason"?)`,
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := Parse([]byte(tc.yaml))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Parse: %v", err)
				}
				tc.check(t, cfg.Lint)
				return
			}
			if err == nil {
				t.Fatalf("Parse gave no error, want %q", tc.want)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("errors:\n%s\nwant %d:\n%s", err, len(tc.want), strings.Join(tc.want, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("error %d = %q, want %q", i, got[i], w)
				}
				var ce *Error
				if !errors.As(err, &ce) || ce.Line == 0 {
					t.Errorf("error %d has no line", i)
				}
			}
		})
	}
}
