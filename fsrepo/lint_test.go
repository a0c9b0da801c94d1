package fsrepo

import (
	"errors"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestAgentSkillsNameProblems: the name rule is skills-ref's. Each want was
// recorded from skills-ref's _validate_name (agentskills/agentskills,
// skills-ref/src/skills_ref/validator.py) on the same name and folder:
// a problem per message it gave, none for none.
func TestAgentSkillsNameProblems(t *testing.T) {
	for _, tc := range []struct {
		name, folder string
		want         []string // phrases of the problems, in order
		matches      bool     // the folder's name is the name
	}{
		{"pdf-processing", "pdf-processing", nil, true},
		{"PDF-Processing", "PDF-Processing", []string{"lowercase"}, true},
		{"-pdf", "-pdf", []string{"begin or end with a hyphen"}, true},
		{"pdf-", "pdf-", []string{"begin or end with a hyphen"}, true},
		{"pdf--processing", "pdf--processing", []string{"two hyphens in a row"}, true},
		{"my_skill", "my_skill", []string{`not '_'`}, true},
		{strings.Repeat("a", 64), strings.Repeat("a", 64), nil, true},
		{strings.Repeat("a", 65), strings.Repeat("a", 65), []string{"65 characters long, over 64"}, true},
		{"技能", "技能", nil, true},
		{"мой-навык", "мой-навык", nil, true},
		{"НАВЫК", "НАВЫК", []string{"lowercase"}, true},
		{"cafe\u0301", "café", nil, true}, // NFKC joins the accent
		{"pdf processing", "pdf processing", []string{`not ' '`}, true},
		{"  padded  ", "padded", nil, true},
		{"ｐｄｆ", "pdf", nil, true},                       // full-width letters are NFKC's pdf
		{"ǅemal", "ǅemal", []string{"lowercase"}, true}, // NFKC: Džemal
		{"Ⅻ-roman", "Ⅻ-roman", []string{"lowercase"}, true},
		{"½-half", "½-half", []string{`not '⁄'`}, true}, // NFKC: 1⁄2, a fraction slash
		{"correct-name", "wrong-name", nil, false},
		{"ß-straße", "ß-straße", nil, true},
		{"İstanbul", "İstanbul", []string{"lowercase"}, true},
		{"Bad--Name_", "x", []string{"lowercase", "two hyphens", `not '_'`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AgentSkillsNameProblems(tc.name)
			if len(got) != len(tc.want) {
				t.Fatalf("AgentSkillsNameProblems(%q) = %q, want %d problems (%q)", tc.name, got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want one saying %q", i, got[i], w)
				}
			}
			if m := AgentSkillsNameMatchesFolder(tc.name, tc.folder); m != tc.matches {
				t.Errorf("AgentSkillsNameMatchesFolder(%q, %q) = %t, want %t", tc.name, tc.folder, m, tc.matches)
			}
		})
	}
}

// TestSaysWhen: the descriptions that say when to use the skill, real
// ones among them, and those that only say what it does.
func TestSaysWhen(t *testing.T) {
	for _, tc := range []struct {
		desc string
		want bool
	}{
		{"Extract text and tables from PDF files. Use when working with PDFs.", true},
		{"Guide for creating effective skills. This skill should be used when users want to create a new skill.", true},
		{"Create beautiful visual art. You should use this skill when the user asks to create a poster.", true},
		{"Comprehensive PDF toolkit. When Claude needs to fill in a PDF form, use it.", true},
		{"Use this skill whenever the user wants to do anything with PDF files.", true},
		{"USE FOR: release notes.", true},
		{"Runs the linter if the repository has a Go module.", true},
		{"Review a pull request. Triggers on requests to review code.", true},
		{"Phylogenetic tree toolkit. For evolutionary analysis, microbial genomics.", true},
		{"Toolkit for styling artifacts with a theme.", false},
		{"Automate Gorgias tasks via Rube MCP (Composio). Always search tools first for current schemas.", false},
		{"Automate broadcast triggers, message analytics and segments.", false}, // a trigger that is a noun
		{"Uses Gemini for image review; reuses cached results.", false},         // uses, reuses: not "use"
		{"Medicinal chemistry filters, for compound prioritization.", false},    // "for" mid-sentence
		{"Wendy's recipes, whence the name.", false},
	} {
		if got := SaysWhen(tc.desc); got != tc.want {
			t.Errorf("SaysWhen(%q) = %t, want %t", tc.desc, got, tc.want)
		}
	}
}

// TestEstimateTokens: a token is 4 characters, rounded up, but a
// character of Chinese, Japanese or Korean is a token of its own.
func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("x", 20000), 5000},
		{strings.Repeat("x", 20001), 5001},
		{"检查字段", 4},
		{"カタカナ ひらがな 한국어", 4 + 4 + 3 + 1}, // 11 characters of those scripts, and 2 spaces
		{"é", 1},
	} {
		if got := EstimateTokens(tc.text); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestLintConfig: the lint section, read strictly: every mistake an error
// at its line, with the nearest known word.
func TestLintConfig(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string // errors, in order; none for a valid file
		check      func(t *testing.T, c LintConfig)
	}{
		{name: "absent", yaml: "space: ab12\n", check: func(t *testing.T, c LintConfig) {
			for _, r := range Rules {
				if got := c.Level(r.Code); got != r.Default {
					t.Errorf("%s = %v with no lint section, want its default %v", r.Code, got, r.Default)
				}
			}
			if c.Level(RuleBodyLong) != LevelWarning {
				t.Errorf("body-long must warn by default, as it always has")
			}
		}},
		{name: "empty", yaml: "lint:\n", check: func(t *testing.T, c LintConfig) {
			if c.Profile != "" || c.Rules != nil {
				t.Errorf("lint: with nothing = %+v", c)
			}
		}},
		{name: "profile", yaml: "lint:\n  profile: agentskills\n", check: func(t *testing.T, c LintConfig) {
			for _, r := range Rules {
				if got := c.Level(r.Code); got != r.AgentSkills {
					t.Errorf("%s = %v under the profile, want %v", r.Code, got, r.AgentSkills)
				}
			}
		}},
		{name: "rules over profile", yaml: "lint:\n  profile: agentskills\n  rules:\n    name-format: warning\n    body-long: off\n    description-when: error\n    link-missing: off\n",
			check: func(t *testing.T, c LintConfig) {
				for code, want := range map[string]Level{RuleNameFormat: LevelWarning, RuleBodyLong: LevelOff, RuleDescriptionWhen: LevelError,
					RuleLinkMissing: LevelOff, RuleNameFolder: LevelError, RuleFileUnreferenced: LevelOff} {
					if got := c.Level(code); got != want {
						t.Errorf("%s = %v, want %v", code, got, want)
					}
				}
			}},
		{name: "off unquoted and quoted", yaml: "lint:\n  rules:\n    body-long: off\n    body-tokens: 'off'\n    link-missing: Off\n",
			check: func(t *testing.T, c LintConfig) {
				if c.Level(RuleBodyLong) != LevelOff || c.Level(RuleBodyTokens) != LevelOff || c.Level(RuleLinkMissing) != LevelOff {
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
			cfg, err := parseConfig(ConfigFile, []byte(tc.yaml))
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("parseConfig: %v", err)
				}
				tc.check(t, cfg.Lint)
				return
			}
			if err == nil {
				t.Fatalf("parseConfig gave no error, want %q", tc.want)
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("errors:\n%s\nwant %d:\n%s", err, len(tc.want), strings.Join(tc.want, "\n"))
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("error %d = %q, want %q", i, got[i], w)
				}
				var ce *ConfigError
				if !errors.As(err, &ce) || ce.Line == 0 {
					t.Errorf("error %d has no line", i)
				}
			}
		})
	}
}

// TestRulesDocumented: the README lists every rule by its code, with its
// default level and its level under the agentskills profile, as Rules
// sets them.
func TestRulesDocumented(t *testing.T) {
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		row := regexp.MustCompile("(?m)^\\| `" + regexp.QuoteMeta(r.Code) + "` \\|[^\\n]*\\| " + r.Default.String() + " \\| " + r.AgentSkills.String() + " \\|$")
		if !row.Match(data) {
			t.Errorf("README.md has no row | `%s` | ... | %s | %s |", r.Code, r.Default, r.AgentSkills)
		}
	}
}
