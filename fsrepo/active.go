package fsrepo

import (
	"fmt"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/spec"
)

// maxActiveNamed bounds the skills an active-limit diagnostic names.
const maxActiveNamed = 10

// ActiveLimit are the errors of the targets of r (the implicit one of a
// skillsync.yaml without targets) whose skills, after the target's
// exclude and enabled overrides, ask for more enabled skills than the
// service's [spec.MaxActiveSkills]. A skill whose enabled field an ignore
// rule covers asks for nothing: the space keeps its state. It needs no
// network, so validate reports what plan would refuse.
func ActiveLimit(r *Repo) diag.Diagnostics {
	names := r.Config.TargetNames()
	if len(names) == 0 {
		names = []string{""}
	}
	var ds diag.Diagnostics
	for _, name := range names {
		tr := r.ForTarget(name)
		var on []string
		for _, s := range tr.Skills {
			ignored := slices.ContainsFunc(tr.Config.Ignore, func(rule config.IgnoreRule) bool { return rule.Covers(s.Slug, spec.FieldEnabled) })
			if s.Enabled && !ignored {
				on = append(on, s.Slug)
			}
		}
		if len(on) <= spec.MaxActiveSkills {
			continue
		}
		over := len(on) - spec.MaxActiveSkills
		named := strings.Join(on[:min(len(on), maxActiveNamed)], ", ")
		if len(on) > maxActiveNamed {
			named += fmt.Sprintf(" and %d more", len(on)-maxActiveNamed)
		}
		d := diag.Diagnostic{Path: r.Config.SkillsDir, Severity: diag.SeverityError, Code: "active-limit", Target: name}
		what := "the repository asks"
		hint := fmt.Sprintf("set enabled: false in the SKILL.md of %d of them (%s), as the space takes at most %d active skills", over, named, spec.MaxActiveSkills)
		if name != "" {
			t, _ := r.Config.Target(name)
			d.Path, d.Line = config.FileName, t.Line
			what = fmt.Sprintf("target %s asks", name)
			hint = fmt.Sprintf("disable %d of them (%s) in their SKILL.md or with targets.%s.enabled: {SLUG: false}, or leave some out with targets.%s.exclude; the space takes at most %d active skills",
				over, named, name, name, spec.MaxActiveSkills)
		}
		d.Message = fmt.Sprintf("%s for %d enabled skills, %d over the limit of %d active skills in a space", what, len(on), over, spec.MaxActiveSkills)
		d.Hint = hint
		ds = append(ds, d)
	}
	return ds
}
