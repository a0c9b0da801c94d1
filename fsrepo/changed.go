package fsrepo

import (
	"slices"
)

// ChangedTargets are the names of the targets of head (in file order)
// whose desired state differs from base's: a CI job that plans only what a
// pull request changes plans those. A target is changed when it is new,
// when its own settings changed, or when the skills it manages differ (in
// a field a plan compares, or a supporting file); when the settings every
// target shares changed (anything of skillsync.yaml outside targets:),
// all of them are. A base of nil (no skillsync.yaml there) changes all.
// For a head without targets the one implicit target is named "".
func ChangedTargets(base, head *Repo) []string {
	names := head.Config.TargetNames()
	if len(head.Config.Targets) == 0 {
		names = []string{""}
	}
	if base == nil || !base.Config.Shared().Equal(head.Config.Shared()) {
		return names
	}
	var out []string
	for _, name := range names {
		bt, inBase := base.Config.Target(name)
		ht, _ := head.Config.Target(name)
		if name != "" && !inBase {
			out = append(out, name)
			continue
		}
		if !bt.Equal(ht) || !sameSkills(base.ForTarget(name).Skills, head.ForTarget(name).Skills) {
			out = append(out, name)
		}
	}
	return out
}

// sameSkills reports whether two desired states (each sorted by slug)
// hold the same skills, alike in every field a plan compares and in
// their supporting files.
func sameSkills(a, b []Skill) bool {
	return slices.EqualFunc(a, b, func(x, y Skill) bool {
		return x.Slug == y.Slug && x.Name == y.Name && x.Description == y.Description &&
			x.Enabled == y.Enabled && x.Instructions == y.Instructions && x.Invalid == y.Invalid &&
			slices.EqualFunc(x.Files, y.Files, func(f, g File) bool {
				return f.Path == g.Path && f.SHA256 == g.SHA256 && f.Binary == g.Binary
			})
	})
}
