package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/skillignore"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// ErrNotFound is returned (wrapped) when no skillsync.yaml is found.
var ErrNotFound = errors.New("no " + FileName + " found")

// An Error is a problem of skillsync.yaml at a line of it.
type Error struct {
	Path string // the file, as given to Read's caller
	Line int    // 0 when the problem concerns the whole file
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// FindRoot returns the nearest folder, start or one of its parents, that
// holds skillsync.yaml: the repository root.
//
// The search never leaves the git working tree that holds start: it stops
// at the folder holding ".git" (a folder, or a file in a linked worktree or
// a submodule), so that a new repository made inside another one (git init
// in a subfolder) is not taken for part of it. Outside git it goes up to
// the file system's root.
func FindRoot(start string) (string, error) {
	abs, err := filepath.Abs(start)
	if err != nil {
		return "", err
	}
	for dir := abs; ; {
		fi, err := os.Stat(filepath.Join(dir, FileName))
		if err == nil && fi.Mode().IsRegular() {
			return dir, nil
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("looking for %s: %w", FileName, err)
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			if dir == abs {
				return "", fmt.Errorf("%w in %s, the root of its git working tree: create %s there, or pass --dir",
					ErrNotFound, abs, FileName)
			}
			return "", fmt.Errorf("%w in %s or any folder above it up to %s, the root of its git working tree: create %s at the repository root, or pass --dir",
				ErrNotFound, abs, dir, FileName)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w in %s or any folder above it: create %s at the repository root, or pass --dir",
		ErrNotFound, abs, FileName)
}

// Read reads root/skillsync.yaml strictly (an unknown key is an error
// naming its line) and fills in the defaults of the keys left out.
func Read(root string) (Config, error) {
	name := filepath.Join(root, FileName)
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 && !resolvesInside(root, name) {
		return Config{}, fmt.Errorf("%s is a symlink to a file outside the repository, which is never read: copy the file into the repository", FileName)
	}
	data, err := bounded.ReadFile(name, MaxBytes)
	var tl *bounded.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return Config{}, fmt.Errorf("%w in %s: create it, or pass --dir", ErrNotFound, root)
	case errors.As(err, &tl):
		return Config{}, configTooLarge(tl.Size)
	case err != nil:
		return Config{}, fmt.Errorf("reading config: %w", err)
	}
	return Parse(data)
}

// CheckSize is the error of a skillsync.yaml of size bytes, more than
// [MaxBytes], which is not read; nil for one of at most MaxBytes.
func CheckSize(size int64) error {
	if size <= MaxBytes {
		return nil
	}
	return configTooLarge(size)
}

// configTooLarge is the error of a skillsync.yaml of size bytes (0 when
// not known) over MaxBytes.
func configTooLarge(size int64) error {
	if size == 0 {
		return fmt.Errorf("%s is more than the %d bytes a config file may be; it is not read", FileName, MaxBytes)
	}
	return fmt.Errorf("%s is %d bytes, more than the %d a config file may be; it is not read", FileName, size, MaxBytes)
}

// configKeys are the keys each section may hold: "" is the top level,
// "target" a target of targets:, "ignoreRule" an item of an ignore: list.
var configKeys = map[string][]string{
	"":                    {"baseURL", "space", "skillsDir", "unmanaged", "missing", "maxDisablePercent", "agents", "ignore", "targets", "lint", "notify", "excludeFiles", "descriptions"},
	"agents":              {"publish"},
	"lint":                {"profile", "rules", "waivers"},
	"waiver":              {"rule", "skill", "hash", "reason"},
	"target":              {"space", "baseURL", "tokenEnv", "exclude", "enabled", "unmanaged", "missing", "maxDisablePercent", "agents", "ignore", "notify", "descriptions"},
	"target.agents":       {"publish"},
	"descriptions":        {"budget", "budgetLevel", "overlap", "overlapLevel"},
	"target.descriptions": {"budget", "budgetLevel", "overlap", "overlapLevel"},
	"ignoreRule":          {"skills", "fields"},
	// notifyDestination is a destination of a notify: section.
	"notifyDestination": {"kind", "urlEnv", "secretEnv", "events"},
}

// Parse reads the content of a skillsync.yaml, as [Read] does.
func Parse(data []byte) (Config, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return Config{}, yamlError(data, err)
	}
	var errs []error
	fail := func(line int, format string, args ...any) {
		errs = append(errs, &Error{Path: FileName, Line: line, Msg: fmt.Sprintf(format, args...)})
	}
	// Read from the nodes, which say at which line a rule or target is
	// wrong. An empty file is an empty mapping.
	root := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	if len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root.Kind != yaml.MappingNode && root.Tag != "!!null" {
		return Config{}, &Error{Path: FileName, Line: root.Line, Msg: "must be a mapping of keys to values"}
	}
	lines := map[string]int{}
	checkKeys(root, "", "", lines, fail)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}

	cfg := Config{SkillsDir: DefaultSkillsDir, MaxDisablePercent: DefaultMaxDisablePercent}
	cfg.BaseURL = textValue(root, "baseURL")
	if x := mappingValue(root, "space"); x != nil {
		cfg.Space = x.Value
		if err := spec.CheckShortSpaceID(cfg.Space); err != nil {
			fail(lines["space"], "%v", err)
		}
	}
	if x := mappingValue(root, "skillsDir"); x != nil {
		d := strings.TrimSuffix(x.Value, "/")
		clean := path.Clean(d)
		switch {
		case d == "" || path.IsAbs(d) || filepath.IsAbs(d) || strings.Contains(d, `\`) || clean == ".." || strings.HasPrefix(clean, "../"):
			fail(lines["skillsDir"], "skillsDir %s must be a folder inside the repository, written with '/'", visible.Quote(x.Value))
		case names.InGitDir(clean):
			fail(lines["skillsDir"], "skillsDir %s is inside a .git folder, where pull would write git's own files (hooks, config): choose a folder of the working tree", visible.Quote(x.Value))
		}
		cfg.SkillsDir = clean
	}
	// The top level's policy is read as a target's, then takes the
	// defaults for what it leaves out.
	var top Target
	parsePolicy(root, "", &top, fail)
	cfg.Unmanaged = cmp.Or(top.Unmanaged, UnmanagedIgnore)
	cfg.Missing = cmp.Or(top.Missing, MissingError)
	if top.MaxDisablePercent != nil {
		cfg.MaxDisablePercent = *top.MaxDisablePercent
	}
	if top.Agents != nil {
		cfg.Agents = *top.Agents
	}
	if x := mappingValue(root, "excludeFiles"); x != nil {
		for _, item := range x.Content {
			p := yamlnode.Resolve(item).Value
			if err := skillignore.Check(p); err != nil {
				fail(lines["excludeFiles"], "excludeFiles: %v", err)
			}
			cfg.ExcludeFiles = append(cfg.ExcludeFiles, p)
		}
	}
	cfg.Lint = parseLint(mappingValue(root, "lint"), fail)
	if ignore := mappingValue(root, "ignore"); ignore != nil {
		cfg.Ignore = parseIgnore(ignore, "ignore", fail)
	}
	cfg.Descriptions = parseDescriptions(mappingValue(root, "descriptions"), "descriptions", fail)
	if targets := mappingValue(root, "targets"); targets != nil {
		if mappingValue(root, "space") != nil {
			fail(lines["space"], "space and targets are both set: with targets, each target names its space; move space %s into a target (targets: {NAME: {space: %s}})", visible.Quote(cfg.Space), cfg.Space)
		}
		cfg.Targets = parseTargets(targets, cfg, fail)
	}
	var notifyTop notifyLines
	if n := mappingValue(root, "notify"); n != nil {
		cfg.Notify, notifyTop = parseNotify(n, "notify", fail)
	}
	if len(errs) == 0 {
		targetLines := map[string]notifyLines{}
		for _, t := range cfg.Targets {
			targetLines[t.Name] = t.notifyLines
		}
		checkAllNotify(cfg, notifyTop, targetLines, fail)
	}
	checkGlobs(cfg, fail)
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return cfg, nil
}

// checkKeys reports the keys of m unknown in section, and records the line
// of each known key under its full name (section.key). shown is how the
// section is named in messages ("targets.prod" for section "target"). It
// returns whether it reported nothing.
func checkKeys(m *yaml.Node, section, shown string, lines map[string]int, fail func(int, string, ...any)) bool {
	if m.Kind != yaml.MappingNode {
		return true
	}
	ok := true
	report := func(line int, format string, args ...any) {
		ok = false
		fail(line, format, args...)
	}
	known := configKeys[section]
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		full, display := dotted(section, k.Value), dotted(shown, k.Value)
		if _, dup := lines[full]; dup {
			report(k.Line, "duplicate key %s (first at line %d)", visible.Quote(display), lines[full])
			continue
		}
		if !slices.Contains(known, k.Value) {
			hint := ""
			if kk := suggest.Closest(k.Value, known); kk != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", visible.Quote(kk))
			}
			report(k.Line, "unknown key %s%s; known keys: %s", visible.Quote(display), hint, strings.Join(known, ", "))
			continue
		}
		lines[full] = k.Line
		if !checkType(full, display, v, report) {
			continue
		}
		if _, sub := configKeys[full]; sub {
			checkKeys(v, full, display, lines, report)
		}
	}
	return ok
}

// dotted is the key of a section (shown as section, "" for the top level)
// as messages name it: "key" at the top level, "section.key" below it.
func dotted(section, key string) string {
	if section == "" {
		return key
	}
	return section + "." + key
}

// configShapes gives the shape of each key's value: "text", "number" (a
// whole number), "list" (of text), "rules" (of ignore rules), "waivers"
// or "mapping". The error that finds another shape shows the example;
// item says what each item of a list must be. Any key may be left without
// a value ("baseURL:"), which counts as left out.
var configShapes = map[string]struct{ shape, example, item string }{
	"baseURL":                          {"text", "baseURL: https://api.example.com", ""},
	"space":                            {"text", "space: abc123", ""},
	"skillsDir":                        {"text", "skillsDir: skills", ""},
	"unmanaged":                        {"text", "unmanaged: ignore (or disable)", ""},
	"missing":                          {"text", "missing: error (or warn)", ""},
	"maxDisablePercent":                {"number", "maxDisablePercent: 30", ""},
	"agents":                           {"mapping", "agents: {publish: [Support bot]}", ""},
	"agents.publish":                   {"list", "publish: [Support bot, 0b5c...]", "an agent id or name"},
	"ignore":                           {"rules", "ignore: [{skills: [\"*\"], fields: [enabled]}]", "a rule {skills: [...], fields: [...]}"},
	"targets":                          {"mapping", "targets: {staging: {space: st01}, prod: {space: pr01}}", ""},
	"lint":                             {"mapping", "lint: {profile: agentskills}", ""},
	"lint.profile":                     {"text", "profile: agentskills", ""},
	"lint.rules":                       {"mapping", "rules: {description-when: warning}", ""},
	"lint.waivers":                     {"waivers", "waivers: [{rule: remote-code, skill: setup, hash: \"sha256:...\", reason: the official installer}]", "a waiver {rule, skill, hash, reason}"},
	"waiver.rule":                      {"text", "rule: remote-code", ""},
	"waiver.skill":                     {"text", "skill: setup", ""},
	"waiver.hash":                      {"text", "hash: \"sha256:...\"", ""},
	"waiver.reason":                    {"text", "reason: the official installer of the toolchain", ""},
	"target.space":                     {"text", "space: pr01", ""},
	"target.baseURL":                   {"text", "baseURL: https://api.example.com", ""},
	"target.tokenEnv":                  {"text", "tokenEnv: SKILLSYNC_TOKEN_PROD", ""},
	"target.exclude":                   {"list", "exclude: [\"experimental-*\"]", "a slug or a glob of slugs"},
	"target.enabled":                   {"mapping", "enabled: {sql-style: false}", ""},
	"target.unmanaged":                 {"text", "unmanaged: ignore (or disable)", ""},
	"target.missing":                   {"text", "missing: error (or warn)", ""},
	"target.maxDisablePercent":         {"number", "maxDisablePercent: 30", ""},
	"target.agents":                    {"mapping", "agents: {publish: [Support bot]}", ""},
	"target.agents.publish":            {"list", "publish: [Support bot, 0b5c...]", "an agent id or name"},
	"target.ignore":                    {"rules", "ignore: [{skills: [\"*\"], fields: [enabled]}]", "a rule {skills: [...], fields: [...]}"},
	"ignoreRule.skills":                {"list", "skills: [\"*\"]", "a slug or a glob of slugs"},
	"ignoreRule.fields":                {"list", "fields: [enabled]", "a field: name, description, instructions or enabled"},
	"notify":                           {"mapping", "notify: {team-chat: {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK}}", ""},
	"descriptions":                     {"mapping", descriptionsExample, ""},
	"descriptions.budget":              {"number", "budget: 8000", ""},
	"descriptions.budgetLevel":         {"text", "budgetLevel: warning (or error)", ""},
	"descriptions.overlap":             {"number", "overlap: 50", ""},
	"descriptions.overlapLevel":        {"text", "overlapLevel: warning (or error, off)", ""},
	"target.descriptions":              {"mapping", descriptionsExample, ""},
	"target.descriptions.budget":       {"number", "budget: 8000", ""},
	"target.descriptions.budgetLevel":  {"text", "budgetLevel: warning (or error)", ""},
	"target.descriptions.overlap":      {"number", "overlap: 50", ""},
	"target.descriptions.overlapLevel": {"text", "overlapLevel: warning (or error, off)", ""},
	"target.notify":                    {"mapping", "notify: {team-chat: {events: [failures]}}", ""},
	"notifyDestination.kind":           {"text", "kind: slack (or teams, webhook)", ""},
	"notifyDestination.urlEnv":         {"text", "urlEnv: SKILLSYNC_NOTIFY_SLACK", ""},
	"notifyDestination.secretEnv":      {"text", "secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET", ""},
	"notifyDestination.events":         {"list", "events: [failures, drift.resolved]", "an event (drift.found, ...), failures or all"},
	"excludeFiles":                     {"list", "excludeFiles: [\"*.draft.md\", \"fixtures/\"]", "a gitignore pattern"},
}

// checkType reports a value of key (named display in messages) that is
// not of the shape configShapes gives it, and whether it is.
func checkType(key, display string, v *yaml.Node, fail func(int, string, ...any)) bool {
	v = yamlnode.Resolve(v)
	want := configShapes[key].shape
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return true // "key:" with no value counts as left out
	}
	ok := false
	switch want {
	case "text":
		ok = v.Kind == yaml.ScalarNode
	case "number":
		// Any integer YAML writes (0x10, 1_000) is a whole number; one
		// that int does not hold is too large, even tagged !!float as
		// 99999999999999999999 is.
		var n int
		if v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float" && wholeNumber.MatchString(v.Value)) {
			if v.Tag == "!!float" || v.Decode(&n) != nil {
				size := "large"
				if strings.HasPrefix(v.Value, "-") {
					size = "small"
				}
				fail(v.Line, "%s: %s is too %s a number; for example %s", display, v.Value, size, configShapes[key].example)
				return false
			}
			ok = true
		}
	case "mapping":
		ok = v.Kind == yaml.MappingNode
	case "list", "rules", "waivers":
		ok = v.Kind == yaml.SequenceNode
		for _, item := range v.Content {
			if item = yamlnode.Resolve(item); ok && !itemOK(want, item) {
				fail(item.Line, "%s: each item must be %s, not %s", display, configShapes[key].item, yamlnode.Describe(item))
				return false
			}
		}
	default:
		return true
	}
	if !ok {
		what := map[string]string{"text": "a single value", "number": "a whole number", "mapping": "a mapping", "list": "a list", "rules": "a list of rules", "waivers": "a list of waivers"}[want]
		fail(v.Line, "%s must be %s, not %s; for example %s", display, what, yamlnode.Describe(v), configShapes[key].example)
	}
	return ok
}

// itemOK reports whether item may be an item of a value of shape: text
// in a list, a mapping in a list of rules or waivers.
func itemOK(shape string, item *yaml.Node) bool {
	if shape == "list" {
		return item.Kind == yaml.ScalarNode && item.Tag != "!!null" && item.Value != ""
	}
	return item.Kind == yaml.MappingNode
}

// wholeNumber is a decimal integer as YAML writes it.
var wholeNumber = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// yamlError is the error of reading the YAML of data: a [Error] at
// the line of each problem yaml.v3 reports.
func yamlError(data []byte, err error) error {
	var errs []error
	for _, p := range yamlnode.Problems(err, strings.Split(string(data), "\n")) {
		errs = append(errs, &Error{Path: FileName, Line: p.Line, Msg: p.WithHint()})
	}
	return errors.Join(errs...)
}

// resolvesInside reports whether name, its symlinks followed, lies inside
// root (its symlinks followed too).
func resolvesInside(root, name string) bool {
	r, err1 := filepath.EvalSymlinks(root)
	n, err2 := filepath.EvalSymlinks(name)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(r, n)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
