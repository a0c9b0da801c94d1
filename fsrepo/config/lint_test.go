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
