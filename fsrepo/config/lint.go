package config

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"github.com/skillsync/skillsync/lint"
	"go.yaml.in/yaml/v3"
)

// levelNames are the values a rule takes in skillsync.yaml.
var levelNames = []string{"off", "warning", "error"}

// profiles are the values lint.profile takes.
var profiles = []string{lint.ProfileAgentSkills}

// parseLint reads the lint section, whose keys checkKeys has checked: an
// unknown profile, rule code or level is an error at its line, with the
// nearest known one suggested.
func parseLint(n *yaml.Node, fail func(int, string, ...any)) lint.Config {
	var lc lint.Config
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
			if !slices.Contains(profiles, v.Value) {
				fail(v.Line, "lint.profile must be %s, not %s%s", quoteList(profiles), visible.Quote(v.Value), didYouMean(v.Value, profiles))
				continue
			}
			lc.Profile = v.Value
		case "rules":
			lc.Rules = parseLintRules(v, fail)
		case "waivers":
			lc.Waivers = parseWaivers(v, fail)
		}
	}
	return lc
}

func parseLintRules(m *yaml.Node, fail func(int, string, ...any)) map[string]lint.Level {
	var codes []string // the rules whose levels skillsync.yaml sets: not the security rules yet
	for _, r := range lint.Rules {
		if !r.Security {
			codes = append(codes, r.Name)
		}
	}
	out := map[string]lint.Level{}
	lines := map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], yamlnode.Resolve(m.Content[i+1])
		code := k.Value
		if first, dup := lines[code]; dup {
			fail(k.Line, "duplicate rule %s in lint.rules (first at line %d)", visible.Quote(code), first)
			continue
		}
		lines[code] = k.Line
		if !slices.Contains(codes, code) {
			fail(k.Line, "unknown rule %s in lint.rules%s; rules: %s", visible.Quote(code), didYouMean(code, codes), strings.Join(codes, ", "))
			continue
		}
		word := ""
		if v.Kind == yaml.ScalarNode && v.Tag != "!!null" {
			word = v.Value
		}
		// yaml.v3 reads an unquoted off as text (as YAML 1.2 does), not
		// as YAML 1.1's false.
		l := slices.IndexFunc(levelNames, func(name string) bool { return strings.EqualFold(word, name) })
		if l < 0 || v.Tag != "!!str" && v.Tag != "" {
			fail(v.Line, "lint.rules.%s must be off, warning or error, not %s%s", code, yamlnode.Describe(v), didYouMean(word, levelNames))
			continue
		}
		out[code] = lint.Level(l)
	}
	return out
}

// contentHash is the form of a waiver's hash: [lint.ContentHash]'s.
var contentHash = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// parseWaivers reads lint.waivers, whose shape checkType has checked:
// each names a security rule that may be waived, a slug, a content hash
// and a reason, or is an error at its line.
func parseWaivers(n *yaml.Node, fail func(int, string, ...any)) []lint.Waiver {
	var out []lint.Waiver
	var security []string
	for _, r := range lint.Rules {
		if lint.Waivable(r.Name) {
			security = append(security, r.Name)
		}
	}
	for i, item := range n.Content {
		item = yamlnode.Resolve(item)
		where := fmt.Sprintf("lint.waivers[%d]", i)
		if !checkKeys(item, "waiver", where, map[string]int{}, fail) {
			continue
		}
		w := lint.Waiver{Line: item.Line}
		text := func(key string) string { return strings.TrimSpace(textValue(item, key)) }
		w.Rule, w.Skill, w.Hash, w.Reason = text("rule"), text("skill"), text("hash"), text("reason")
		switch {
		case w.Rule == lint.RuleKnownSecret:
			fail(item.Line, "%s: rule known-secret is never waived: remove the secret from the skill and rotate the token", where)
		case !lint.Waivable(w.Rule):
			fail(item.Line, "%s: rule must be a security rule, not %s%s; rules: %s", where, visible.Quote(w.Rule), didYouMean(w.Rule, security), strings.Join(security, ", "))
		case !names.URLSafe(w.Skill):
			fail(item.Line, "%s: skill must be the slug of a skill folder, not %s", where, visible.Quote(w.Skill))
		case !contentHash.MatchString(w.Hash):
			fail(item.Line, "%s: hash must be the content hash a finding names, \"sha256:\" and 64 hex digits, not %s", where, visible.Quote(w.Hash))
		case w.Reason == "":
			fail(item.Line, "%s has no reason: say why the finding is accepted, for those who review it", where)
		default:
			out = append(out, w)
		}
	}
	return out
}

// didYouMean is ` (did you mean "x"?)` for the known word nearest to w, or
// "" when none is near.
func didYouMean(w string, known []string) string {
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

// textValue is the text of key's value in the mapping m, "" when the key
// is left out or has no value.
func textValue(m *yaml.Node, key string) string {
	if v := mappingValue(m, key); v != nil {
		return v.Value
	}
	return ""
}

// mappingValue is the value of key in the mapping m, its alias resolved,
// or nil when the key is left out or has no value ("key:", "key: ~"),
// which counts as left out.
func mappingValue(m *yaml.Node, key string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != key {
			continue
		}
		if v := yamlnode.Resolve(m.Content[i+1]); v.Tag != "!!null" {
			return v
		}
		return nil
	}
	return nil
}
