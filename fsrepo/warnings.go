package fsrepo

import (
	"fmt"
	"slices"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/spec"
)

// ForTarget is the desired state of target name: r's skills but those the
// target excludes, each enabled as the target says where it says so, and
// the configuration of [Config.ForTarget]. For "" (the implicit target of
// a skillsync.yaml without targets) or a name r has no target of, it is r.
func (r *Repo) ForTarget(name string) *Repo {
	t, ok := r.Config.Target(name)
	if !ok {
		return r
	}
	out := *r
	out.Config, _ = r.Config.ForTarget(name)
	out.Skills = make([]Skill, 0, len(r.Skills))
	for _, s := range r.Skills {
		if t.Excludes(s.Slug) {
			continue
		}
		if on, ok := t.Enabled[s.Slug]; ok {
			s.Enabled = on
		}
		out.Skills = append(out.Skills, s)
	}
	return &out
}

// withConfigWarnings adds to the diagnostics of a load the warnings of
// skillsync.yaml that only the skills can tell ([configWarnings]).
func withConfigWarnings(repo *Repo, ds diag.Diagnostics, err error) (*Repo, diag.Diagnostics, error) {
	if err != nil || repo == nil {
		return repo, ds, err
	}
	if w := configWarnings(repo); len(w) > 0 {
		ds = append(ds, w...)
		ds.Sort()
	}
	return repo, ds, nil
}

// configWarnings are the globs of exclude and ignore, and the slugs of
// enabled, that match no skill of repo: most likely a misspelt slug, which
// would leave a target managing or planning what it was meant not to; and
// the enabled overrides that do nothing ([unusedOverrides]).
func configWarnings(repo *Repo) diag.Diagnostics {
	var ds diag.Diagnostics
	slugs := make(map[string]bool, len(repo.Skills))
	for _, s := range repo.Skills {
		slugs[s.Slug] = true
	}
	matches := func(p config.Pattern) bool {
		return slices.ContainsFunc(repo.Skills, func(s Skill) bool { return p.Matches(s.Slug) })
	}
	warn := func(target string, line int, format string, args ...any) {
		ds = append(ds, diag.Diagnostic{Path: config.FileName, Line: line, Severity: diag.SeverityWarning, Code: "config-unmatched", Target: target,
			Message: fmt.Sprintf(format, args...),
			Hint:    "check the slug's spelling against the folders of " + repo.Config.SkillsDir + "; a glob that matches nothing has no effect"})
	}
	rules := func(target, where string, rs []config.IgnoreRule) {
		for _, r := range rs {
			for _, p := range r.Skills {
				if !matches(p) {
					warn(target, p.Line, "%s: %q matches no skill of the repository", where, p.Glob)
				}
			}
		}
	}
	rules("", "ignore", repo.Config.Ignore)
	for _, t := range repo.Config.Targets {
		for _, p := range t.Exclude {
			if !matches(p) {
				warn(t.Name, p.Line, "targets.%s.exclude: %q matches no skill of the repository", t.Name, p.Glob)
			}
		}
		for slug, line := range t.EnabledLines {
			if _, ok := t.Enabled[slug]; ok && !slugs[slug] {
				warn(t.Name, line, "targets.%s.enabled: %q is no skill of the repository", t.Name, slug)
			}
		}
		rules(t.Name, "targets."+t.Name+".ignore", t.Ignore)
		ds = append(ds, unusedOverrides(repo.Config, t)...)
	}
	return ds
}

// unusedOverrides are t's enabled overrides that do nothing: of a skill
// the target excludes, or whose enabled field an ignore rule (top-level or
// the target's) ignores. Whoever wrote one expects a state the target
// never gets.
func unusedOverrides(c config.Config, t config.Target) diag.Diagnostics {
	var ds diag.Diagnostics
	warn := func(line int, slug, why, hint string) {
		ds = append(ds, diag.Diagnostic{Path: config.FileName, Line: line, Severity: diag.SeverityWarning, Code: "config-override-unused", Target: t.Name,
			Message: fmt.Sprintf("targets.%s.enabled: the override of %q does nothing: %s", t.Name, slug, why), Hint: hint})
	}
	rules := append(append([]config.IgnoreRule(nil), c.Ignore...), t.Ignore...)
	for slug, line := range t.EnabledLines {
		if _, ok := t.Enabled[slug]; !ok {
			continue
		}
		if i := slices.IndexFunc(t.Exclude, func(p config.Pattern) bool { return p.Matches(slug) }); i >= 0 {
			p := t.Exclude[i]
			warn(line, slug, fmt.Sprintf("targets.%s.exclude %q (line %d) leaves the skill out of the target", t.Name, p.Glob, p.Line),
				"remove the override, or the skill from the exclude")
			continue
		}
		if i := slices.IndexFunc(rules, func(r config.IgnoreRule) bool { return r.Covers(slug, spec.FieldEnabled) }); i >= 0 {
			warn(line, slug, fmt.Sprintf("the ignore rule at line %d ignores its enabled field", rules[i].Line),
				"remove the override, or enabled from the ignore rule: while it is ignored, the space keeps the state it has")
		}
	}
	return ds
}
