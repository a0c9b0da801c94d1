package config

import (
	"cmp"
	"encoding/json"
	"fmt"
	"net/netip"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// A Target is one space that skillsync.yaml's targets: drives from the
// repository, with what it does differently from the others: the skills
// it leaves out (Exclude), the enabled state it gives some of them
// (Enabled), its own policy and ignore rules. A skillsync.yaml without
// targets: has one implicit target, its top-level space, which is no
// Target.
type Target struct {
	Name string `json:"name"`
	// Line is the line of the target's name in skillsync.yaml.
	Line  int    `json:"-"`
	Space string `json:"space"`
	// BaseURL is the target's own address; "" for the top-level baseURL.
	BaseURL string `json:"baseURL,omitempty"`
	// TokenEnv names the variable holding the target's token; "" for
	// SKILLSYNC_TOKEN.
	TokenEnv string `json:"tokenEnv,omitempty"`
	// Exclude are globs ([path.Match]) of the slugs the target does not
	// manage: the space's skills of those slugs are unmanaged there.
	Exclude []Pattern `json:"exclude,omitempty"`
	// Enabled is the enabled state the target gives a skill, by slug,
	// over its SKILL.md's.
	Enabled map[string]bool `json:"enabled,omitempty"`
	// EnabledLines are the lines of the keys of Enabled.
	EnabledLines map[string]int `json:"-"`
	// Unmanaged and Missing are the target's policies; "" for the
	// top-level ones. MaxDisablePercent and Agents are nil for the
	// top-level ones.
	Unmanaged         string        `json:"unmanaged,omitempty"`
	Missing           string        `json:"missing,omitempty"`
	MaxDisablePercent *int          `json:"maxDisablePercent,omitempty"`
	Agents            *AgentsConfig `json:"agents,omitempty"`
	// Ignore are the target's ignore rules, on top of the top-level ones.
	Ignore []IgnoreRule `json:"ignore,omitempty"`
	// Descriptions overrides the top-level descriptions: section, field
	// by field.
	Descriptions Descriptions `json:"descriptions,omitempty"`
	// Notify is the target's notify: section, merged by destination name
	// into the top-level one ([notify.Config.ForTarget]).
	Notify notify.Config `json:"notify,omitempty"`
	// notifyLines are the lines of Notify's names and fields.
	notifyLines notifyLines
}

// A Pattern is a glob of slugs ([path.Match]: *, ?, [...]) written at a
// line of skillsync.yaml.
type Pattern struct {
	Glob string `json:"glob"`
	Line int    `json:"-"`
}

// Matches reports whether the glob matches slug.
func (p Pattern) Matches(slug string) bool {
	if !wildcard(p.Glob) {
		return p.Glob == slug
	}
	ok, err := path.Match(p.Glob, slug)
	return err == nil && ok
}

// Bounds on the globs of skillsync.yaml, each matched against every skill
// of a plan in time that grows with its length and wildcards. A slug with
// no wildcard is one comparison, and is not counted.
const (
	// MaxGlobs is the most globs with a wildcard (*, ?, [...] or an
	// escape) skillsync.yaml may hold, in all its lists.
	MaxGlobs = 100
	// MaxGlobBytes is the longest glob: a slug is a folder name of at
	// most 255 bytes.
	MaxGlobBytes = 256
)

// wildcard reports whether glob holds a character path.Match gives a
// meaning: one without is the slug it matches.
func wildcard(glob string) bool { return strings.ContainsAny(glob, `*?[\`) }

// An IgnoreRule says which differences are never planned nor reported as
// drift: those of Fields of the skills whose slugs match one of Skills.
// Admins may, for instance, toggle skills in the app: an ignore rule of
// field enabled leaves them as they are.
type IgnoreRule struct {
	Skills []Pattern `json:"skills"`
	Fields []string  `json:"fields"` // of FieldNames
	Line   int       `json:"-"`
}

// Covers reports whether the rule ignores field of the skill slug.
func (r IgnoreRule) Covers(slug, field string) bool {
	return slices.Contains(r.Fields, field) && matchesAny(r.Skills, slug)
}

// IgnoreFields are the fields an ignore rule may name: those a plan
// compares.
var IgnoreFields = []string{spec.FieldName, spec.FieldDescription, spec.FieldInstructions, spec.FieldEnabled}

// targetName is what a target's name may be: it is written in markers of
// comments, in journal file names and in CI matrices.
var targetName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$`)

// tokenEnvName is what a tokenEnv may be: SKILLSYNC_TOKEN or a variable
// named after it. Its value is sent to the service as the token, so
// skillsync.yaml must not be able to name another of CI's secrets.
var tokenEnvName = regexp.MustCompile(`^SKILLSYNC_TOKEN(_[A-Za-z0-9_]+)?$`)

// tokenEnvFor is the tokenEnv to suggest for target name.
func tokenEnvFor(name string) string {
	return "SKILLSYNC_TOKEN_" + strings.ToUpper(strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name))
}

// TargetNames are the names of c's targets, in file order.
func (c Config) TargetNames() []string {
	names := make([]string, len(c.Targets))
	for i, t := range c.Targets {
		names[i] = t.Name
	}
	return names
}

// Target returns the target of c called name.
func (c Config) Target(name string) (Target, bool) {
	for _, t := range c.Targets {
		if t.Name == name {
			return t, true
		}
	}
	return Target{}, false
}

// ForTarget is the configuration target name plans with: c's, with the
// target's space and address and its policy over the top-level one, and
// the top-level ignore rules followed by the target's. Targets is nil in
// it. For a name c has no target of, it returns c unchanged and false.
func (c Config) ForTarget(name string) (Config, bool) {
	t, ok := c.Target(name)
	if !ok {
		return c, false
	}
	out := c
	out.Targets = nil
	out.Space = t.Space
	out.BaseURL = cmp.Or(t.BaseURL, c.BaseURL)
	out.Unmanaged = cmp.Or(t.Unmanaged, c.Unmanaged)
	out.Missing = cmp.Or(t.Missing, c.Missing)
	if t.MaxDisablePercent != nil {
		out.MaxDisablePercent = *t.MaxDisablePercent
	}
	if t.Agents != nil {
		out.Agents = *t.Agents
	}
	out.Ignore = append(append([]IgnoreRule(nil), c.Ignore...), t.Ignore...)
	out.Notify = c.Notify.ForTarget(t.Notify)
	out.Descriptions = c.Descriptions.over(t.Descriptions)
	return out, true
}

// Equal reports whether c and o say the same, whatever the lines they
// were read at.
func (c Config) Equal(o Config) bool { return sameJSON(c, o) }

// Equal reports whether t and u say the same, whatever the lines they
// were read at.
func (t Target) Equal(u Target) bool { return sameJSON(t, u) }

// Shared is c without its targets: what every target plans with, so that
// a change of it changes every target.
func (c Config) Shared() Config {
	c.Targets = nil
	return c
}

// Excludes reports whether t does not manage slug.
func (t Target) Excludes(slug string) bool { return matchesAny(t.Exclude, slug) }

// matchesAny reports whether a pattern of ps matches slug.
func matchesAny(ps []Pattern, slug string) bool {
	return slices.ContainsFunc(ps, func(p Pattern) bool { return p.Matches(slug) })
}

// SameAddress reports whether two base URLs address the same service:
// scheme and host compared without case, a host name's final dot dropped,
// IP addresses in canonical form, localhost, 127.0.0.1 and [::1] taken for
// one host, default ports made explicit, the path cleaned (/x/.., a final
// slash).
func SameAddress(a, b string) bool { return AddressKey(a) == AddressKey(b) }

// AddressKey is the form of a base URL in which [SameAddress] compares
// it: two addresses are the same exactly when their keys are equal. An
// address that is no URL is the same only as itself.
func AddressKey(a string) string {
	u, err := url.Parse(strings.TrimSpace(a))
	if err != nil {
		return "\x00" + a // no URL's key begins with a NUL
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	host := hostKey(u.Hostname())
	if host == "localhost" || host == "127.0.0.1" || host == "::1" {
		host = "localhost"
	}
	p := ""
	if u.EscapedPath() != "" {
		p = strings.TrimSuffix(path.Clean("/"+u.EscapedPath()), "/")
	}
	return strings.ToLower(u.Scheme) + "://" + host + ":" + port + p
}

// hostKey is host as [AddressKey] compares it: a name without case or a
// final dot, an IP address in its one canonical form (an IPv4-mapped IPv6
// address as the IPv4 address).
func hostKey(host string) string {
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.Unmap().String()
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// parseGlobs reads a list of slug globs (shown names it in messages), each
// with its line; one path.Match refuses is an error at its line.
func parseGlobs(n *yaml.Node, shown string, fail func(int, string, ...any)) []Pattern {
	var out []Pattern
	for _, g := range n.Content {
		g = yamlnode.Resolve(g)
		if len(g.Value) > MaxGlobBytes {
			fail(g.Line, "%s: a glob of %d bytes, longer than the %d a glob may be (a slug is a folder name of at most 255)", shown, len(g.Value), MaxGlobBytes)
			continue
		}
		if _, err := path.Match(g.Value, ""); err != nil {
			fail(g.Line, "%s: %s is not a glob: %v", shown, visible.Quote(g.Value), err)
			continue
		}
		out = append(out, Pattern{Glob: g.Value, Line: g.Line})
	}
	return out
}

// checkGlobs fails at the first glob with a wildcard past [MaxGlobs] in
// the lists of cfg.
func checkGlobs(cfg Config, fail func(int, string, ...any)) {
	lists := [][]Pattern{}
	for _, r := range cfg.Ignore {
		lists = append(lists, r.Skills)
	}
	for _, t := range cfg.Targets {
		lists = append(lists, t.Exclude)
		for _, r := range t.Ignore {
			lists = append(lists, r.Skills)
		}
	}
	n := 0
	for _, ps := range lists {
		for _, p := range ps {
			if !wildcard(p.Glob) {
				continue
			}
			if n++; n > MaxGlobs {
				fail(p.Line, "more than %d globs with a wildcard (*, ?, [...]) in %s, each matched against every skill: name the slugs, which are looked up, or write fewer globs", MaxGlobs, FileName)
				return
			}
		}
	}
}

// parseIgnore reads a list of ignore rules (shown names it in messages).
// Its shape is checked already ([checkType]).
func parseIgnore(n *yaml.Node, shown string, fail func(int, string, ...any)) []IgnoreRule {
	n = yamlnode.Resolve(n)
	if n.Kind != yaml.SequenceNode {
		return nil
	}
	var rules []IgnoreRule
	for i, item := range n.Content {
		item = yamlnode.Resolve(item)
		where := fmt.Sprintf("%s[%d]", shown, i)
		if !checkKeys(item, "ignoreRule", where, map[string]int{}, fail) {
			continue
		}
		r := IgnoreRule{Line: item.Line}
		if s := mappingValue(item, "skills"); s != nil && s.Kind == yaml.SequenceNode {
			r.Skills = parseGlobs(s, where+".skills", fail)
		}
		if f := mappingValue(item, "fields"); f != nil && f.Kind == yaml.SequenceNode {
			for _, v := range f.Content {
				v = yamlnode.Resolve(v)
				if !slices.Contains(IgnoreFields, v.Value) {
					fail(v.Line, "%s.fields: unknown field %s%s; the fields are %s", where, visible.Quote(v.Value), didYouMean(v.Value, IgnoreFields), strings.Join(IgnoreFields, ", "))
					continue
				}
				r.Fields = append(r.Fields, v.Value)
			}
		}
		switch {
		case mappingValue(item, "skills") == nil || len(mappingValue(item, "skills").Content) == 0:
			fail(item.Line, "%s has no skills: name the slugs it covers, or [\"*\"] for every skill", where)
		case mappingValue(item, "fields") == nil || len(mappingValue(item, "fields").Content) == 0:
			fail(item.Line, "%s has no fields: name those to ignore, of %s", where, strings.Join(IgnoreFields, ", "))
		default:
			rules = append(rules, r)
		}
	}
	return rules
}

// MaxTargets is the most targets skillsync.yaml may list: as many jobs as
// a GitHub Actions matrix runs, which `skillsync targets` is made to feed.
const MaxTargets = 256

// parseTargets reads targets:, in file order. shared is the configuration
// of the top level, whose baseURL a target without one goes to.
func parseTargets(n *yaml.Node, shared Config, fail func(int, string, ...any)) []Target {
	n = yamlnode.Resolve(n)
	if n.Kind != yaml.MappingNode {
		return nil
	}
	if len(n.Content) == 0 {
		fail(n.Line, "targets lists no target: name at least one (targets: {prod: {space: pr01}}), or leave targets out and set space")
		return nil
	}
	if len(n.Content)/2 > MaxTargets {
		fail(n.Content[2*MaxTargets].Line, "targets lists %d targets, more than the %d skillsync plans (as many as a CI matrix runs): split them between repositories",
			len(n.Content)/2, MaxTargets)
		return nil
	}
	var out []Target
	// By name in lower case: "Prod" and "prod" would share a journal file
	// on a file system that ignores case (macOS's, Windows').
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], yamlnode.Resolve(n.Content[i+1])
		name := k.Value
		if first, dup := seen[strings.ToLower(name)]; dup {
			fail(k.Line, "duplicate target %s (first at line %d; target names differ in more than case)", visible.Quote(name), first)
			continue
		}
		seen[strings.ToLower(name)] = k.Line
		if !targetName.MatchString(name) {
			fail(k.Line, "target name %s must be 1 to 63 letters, digits, '-', '_' or '.', beginning with a letter or digit", visible.Quote(name))
			continue
		}
		shown := "targets." + name
		if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
			fail(k.Line, "target %s has no space: give it one (%s: {space: ab12})", visible.Quote(name), name)
			continue
		}
		if v.Kind != yaml.MappingNode {
			fail(v.Line, "%s must be a mapping, not %s; for example %s: {space: ab12}", shown, yamlnode.Describe(v), name)
			continue
		}
		errs := 0
		failHere := func(line int, format string, args ...any) {
			errs++
			fail(line, format, args...)
		}
		if !checkKeys(v, "target", shown, map[string]int{}, failHere) {
			continue
		}
		t := Target{Name: name, Line: k.Line}
		if x := mappingValue(v, "space"); x != nil {
			t.Space = x.Value
			if err := spec.CheckShortSpaceID(x.Value); err != nil {
				failHere(x.Line, "%s.space: %v", shown, err)
			}
		}
		if t.Space == "" && errs == 0 {
			failHere(k.Line, "target %s has no space: give it one (%s: {space: ab12})", visible.Quote(name), name)
		}
		t.BaseURL = textValue(v, "baseURL")
		if x := mappingValue(v, "tokenEnv"); x != nil {
			if !tokenEnvName.MatchString(x.Value) {
				failHere(x.Line, "%s.tokenEnv %s must be SKILLSYNC_TOKEN or begin with SKILLSYNC_TOKEN_ (%s, say): its value is sent to the service as the token, so this file may not name another of CI's secrets; keep the target's token in %s",
					shown, visible.Quote(x.Value), tokenEnvFor(name), tokenEnvFor(name))
			}
			t.TokenEnv = x.Value
		}
		parsePolicy(v, shown, &t, failHere)
		if x := mappingValue(v, "exclude"); x != nil {
			t.Exclude = parseGlobs(x, shown+".exclude", failHere)
		}
		if x := mappingValue(v, "enabled"); x != nil && x.Kind == yaml.MappingNode {
			t.Enabled, t.EnabledLines = map[string]bool{}, map[string]int{}
			for j := 0; j+1 < len(x.Content); j += 2 {
				sk, sv := x.Content[j], yamlnode.Resolve(x.Content[j+1])
				if first, dup := t.EnabledLines[sk.Value]; dup {
					failHere(sk.Line, "duplicate key %s in %s.enabled (first at line %d)", visible.Quote(sk.Value), shown, first)
					continue
				}
				t.EnabledLines[sk.Value] = sk.Line
				if !names.URLSafe(sk.Value) {
					failHere(sk.Line, "%s.enabled: %s is not a skill's slug (the name of its folder: letters, digits, '-', '.', '_', '~'); enabled takes slugs, not globs", shown, visible.Quote(sk.Value))
					continue
				}
				// YAML writes a boolean in any of three cases: True is true.
				var on bool
				if sv.Kind != yaml.ScalarNode || sv.Tag != "!!bool" || sv.Decode(&on) != nil {
					failHere(sv.Line, "%s.enabled.%s must be true or false, not %s", shown, sk.Value, yamlnode.Describe(sv))
					continue
				}
				t.Enabled[sk.Value] = on
			}
		}
		if x := mappingValue(v, "ignore"); x != nil {
			t.Ignore = parseIgnore(x, shown+".ignore", failHere)
		}
		if x := mappingValue(v, "notify"); x != nil {
			t.Notify, t.notifyLines = parseNotify(x, shown+".notify", failHere)
		}
		t.Descriptions = parseDescriptions(mappingValue(v, "descriptions"), shown+".descriptions", failHere)
		if errs > 0 {
			continue
		}
		// Two targets that write one space would undo each other's
		// changes on every apply. A target is named with the first such.
		addr := cmp.Or(t.BaseURL, shared.BaseURL)
		for _, o := range out {
			if o.Space == t.Space && SameAddress(cmp.Or(o.BaseURL, shared.BaseURL), addr) {
				fail(k.Line, "targets %s and %s (line %d) are both space %s at %s: they would undo each other's changes; give each target its own space, or remove one",
					visible.Quote(name), visible.Quote(o.Name), o.Line, t.Space, cmp.Or(addr, "the same address"))
				break
			}
		}
		out = append(out, t)
	}
	return out
}

// parsePolicy reads into t the policy keys of the mapping m (named shown
// in messages, "" at the top level): unmanaged, missing, maxDisablePercent
// and agents, each left "" or nil when m leaves it out.
func parsePolicy(m *yaml.Node, shown string, t *Target, fail func(int, string, ...any)) {
	if x := mappingValue(m, "unmanaged"); x != nil {
		if x.Value != UnmanagedIgnore && x.Value != UnmanagedDisable {
			fail(x.Line, "%s must be %q or %q, not %s", dotted(shown, "unmanaged"), UnmanagedIgnore, UnmanagedDisable, visible.Quote(x.Value))
		}
		t.Unmanaged = x.Value
	}
	if x := mappingValue(m, "missing"); x != nil {
		if x.Value != MissingError && x.Value != MissingWarn {
			fail(x.Line, "%s must be %q or %q, not %s", dotted(shown, "missing"), MissingError, MissingWarn, visible.Quote(x.Value))
		}
		t.Missing = x.Value
	}
	t.MaxDisablePercent = numberValue(m, shown, "maxDisablePercent", 0, 100, fail)
	if a := mappingValue(m, "agents"); a != nil && a.Kind == yaml.MappingNode {
		t.Agents = &AgentsConfig{}
		if p := mappingValue(a, "publish"); p != nil {
			for _, item := range p.Content {
				t.Agents.Publish = append(t.Agents.Publish, yamlnode.Resolve(item).Value)
			}
		}
	}
}

// sameJSON reports whether a and b marshal alike: settings compared
// without the lines they were read at.
func sameJSON(a, b any) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && string(ja) == string(jb)
}
