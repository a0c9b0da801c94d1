package fsrepo

import (
	"fmt"
	"strings"

	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"go.yaml.in/yaml/v3"
)

// A Level is how a lint rule is reported: not at all, as a warning, or as
// an error, which fails validate and stops plan and apply as any other
// validation error does.
type Level int

// Levels of a lint rule, as written in skillsync.yaml.
const (
	LevelOff Level = iota
	LevelWarning
	LevelError
)

func (l Level) String() string {
	switch l {
	case LevelWarning:
		return "warning"
	case LevelError:
		return "error"
	}
	return "off"
}

// MarshalText makes a Level "off", "warning" or "error" in JSON.
func (l Level) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// levelNames are the values a rule takes in skillsync.yaml.
var levelNames = []string{"off", "warning", "error"}

// ProfileAgentSkills is the profile of the open Agent Skills format
// (agentskills.io): its rules on names and frontmatter keys, as its
// reference validator skills-ref checks them, and its recommendations.
const ProfileAgentSkills = "agentskills"

// profiles are the values lint.profile takes.
var profiles = []string{ProfileAgentSkills}

// A Rule is a check of validate beyond the service's rules, with a stable
// code by which skillsync.yaml sets its level.
type Rule struct {
	Code string
	// Summary says what the rule checks, in a line.
	Summary string
	// Default is the rule's level with no lint section.
	Default Level
	// AgentSkills is its level under lint.profile: agentskills.
	AgentSkills Level
}

// Rule codes.
const (
	RuleNameFormat        = "name-format"
	RuleNameFolder        = "name-folder-mismatch"
	RuleKeyUnknown        = "frontmatter-key-unknown"
	RuleCompatibility     = "compatibility-invalid"
	RuleMetadata          = "metadata-invalid"
	RuleDescriptionWhen   = "description-when"
	RuleBodyLong          = "body-long"
	RuleBodyTokens        = "body-tokens"
	RuleLinkMissing       = "link-missing"
	RuleFileUnreferenced  = "file-unreferenced"
	maxCompatibilityChars = 500
	// MaxBodyTokens is the estimate of tokens (see [EstimateTokens])
	// above which a SKILL.md body draws body-tokens: the Agent Skills
	// specification recommends bodies under 5,000 tokens.
	MaxBodyTokens = 5000
)

// Rules are the lint rules, in the order the README lists them. With no
// lint section only body-long reports (as a warning), as it always has.
var Rules = []Rule{
	{RuleNameFormat, "name is 1-64 lowercase letters, digits and hyphens, with no hyphen at either end nor two in a row (skills-ref's rule)", LevelOff, LevelError},
	{RuleNameFolder, "name is the skill folder's name (skills-ref's rule)", LevelOff, LevelError},
	{RuleKeyUnknown, "frontmatter keys are only the format's: name, description, license, compatibility, metadata, allowed-tools (and skillsync's enabled)", LevelOff, LevelError},
	{RuleCompatibility, "compatibility, when present, is text of 1-500 characters", LevelOff, LevelError},
	{RuleMetadata, "metadata is a mapping of keys to text values", LevelOff, LevelWarning},
	{RuleBodyLong, "the body is at most 500 lines", LevelWarning, LevelWarning},
	{RuleBodyTokens, "the body is at most 5,000 tokens, estimated", LevelOff, LevelWarning},
	{RuleLinkMissing, "every markdown link of SKILL.md to a file of the folder finds the file", LevelOff, LevelWarning},
	{RuleDescriptionWhen, "the description says when to use the skill", LevelOff, LevelOff},
	{RuleFileUnreferenced, "every supporting file is referred to, from SKILL.md or a file it refers to", LevelOff, LevelOff},
}

func ruleByCode(code string) (Rule, bool) {
	for _, r := range Rules {
		if r.Code == code {
			return r, true
		}
	}
	return Rule{}, false
}

// LintConfig is the lint section of skillsync.yaml.
type LintConfig struct {
	// Profile is "" or [ProfileAgentSkills].
	Profile string `yaml:"profile" json:"profile,omitempty"`
	// Rules sets the level of rules by code, over the profile's.
	Rules map[string]Level `yaml:"-" json:"rules,omitempty"`
}

// Level is the level of the rule code: set in Rules, else the profile's,
// else the rule's default. An unknown code is off.
func (c LintConfig) Level(code string) Level {
	if l, ok := c.Rules[code]; ok {
		return l
	}
	r, ok := ruleByCode(code)
	if !ok {
		return LevelOff
	}
	if c.Profile == ProfileAgentSkills {
		return r.AgentSkills
	}
	return r.Default
}

// parseLint reads the lint section, whose keys checkKeys has checked: an
// unknown profile, rule code or level is an error at its line, with the
// nearest known one suggested.
func parseLint(n *yaml.Node, fail func(int, string, ...any)) LintConfig {
	var lc LintConfig
	if n == nil || n.Kind != yaml.MappingNode {
		return lc
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlnode.Resolve(n.Content[i+1])
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			continue // "profile:" with no value counts as left out
		}
		switch k.Value {
		case "profile":
			if !contains(profiles, v.Value) {
				fail(v.Line, "lint.profile must be %s, not %q%s", quoteList(profiles), v.Value, didYouMean(v.Value, profiles))
				continue
			}
			lc.Profile = v.Value
		case "rules":
			lc.Rules = parseLintRules(v, fail)
		}
	}
	return lc
}

func parseLintRules(m *yaml.Node, fail func(int, string, ...any)) map[string]Level {
	codes := make([]string, len(Rules))
	for i, r := range Rules {
		codes[i] = r.Code
	}
	out := map[string]Level{}
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], yamlnode.Resolve(m.Content[i+1])
		code := k.Value
		if first, dup := lines[code]; dup {
			fail(k.Line, "duplicate rule %q in lint.rules (first at line %d)", code, first)
			continue
		}
		lines[code] = k.Line
		if _, ok := ruleByCode(code); !ok {
			fail(k.Line, "unknown rule %q in lint.rules%s; rules: %s", code, didYouMean(code, codes), strings.Join(codes, ", "))
			continue
		}
		word := ""
		if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
			word = v.Value
		}
		// yaml.v3 reads an unquoted off as text (as YAML 1.2 does), not
		// as YAML 1.1's false.
		l := -1
		for j, name := range levelNames {
			if strings.EqualFold(word, name) && (v.Tag == "!!str" || v.Tag == "") {
				l = j
			}
		}
		if l < 0 {
			fail(v.Line, "lint.rules.%s must be off, warning or error, not %s%s", code, yamlnode.Describe(v), didYouMean(word, levelNames))
			continue
		}
		out[code] = Level(l)
	}
	return out
}

// didYouMean is ` (did you mean "x"?)` for the known word nearest to w, or
// "" when none is near.
func didYouMean(w string, known []string) string {
	if w == "" {
		return ""
	}
	best := suggest.Closest(w, known)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func quoteList(ws []string) string {
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, " or ")
}

func contains(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// mappingValue is the value of key in the mapping m, or nil.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return yamlnode.Resolve(m.Content[i+1])
		}
	}
	return nil
}
