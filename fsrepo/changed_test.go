package fsrepo

import (
	"github.com/skillsync/skillsync/fsrepo/config"
	"slices"
	"testing"
)

func TestChangedTargets(t *testing.T) {
	skill := func(slug, instructions string, enabled bool) Skill {
		return Skill{Slug: slug, Name: slug, Description: "d", Instructions: instructions, Enabled: enabled}
	}
	repo := func(edit func(*Repo)) *Repo {
		r := &Repo{
			Config: config.Config{SkillsDir: "skills", Targets: []config.Target{
				{Name: "staging", Space: "st01"},
				{Name: "prod", Space: "pr01", Exclude: []config.Pattern{{Glob: "beta-*"}}},
				{Name: "eu", Space: "eu01", Enabled: map[string]bool{"sql": false}},
			}},
			Skills: []Skill{skill("beta-x", "b", true), skill("review", "r", true), skill("sql", "s", true)},
		}
		if edit != nil {
			edit(r)
		}
		return r
	}
	for _, tc := range []struct {
		name string
		base *Repo
		edit func(*Repo)
		want []string
	}{
		{"nothing", repo(nil), nil, nil},
		{"a skill all manage", repo(nil), func(r *Repo) { r.Skills[1].Instructions = "new" }, []string{"staging", "prod", "eu"}},
		{"a skill prod excludes", repo(nil), func(r *Repo) { r.Skills[0].Instructions = "new" }, []string{"staging", "eu"}},
		{"enabled, overridden in eu", repo(nil), func(r *Repo) { r.Skills[2].Enabled = false }, []string{"staging", "prod"}},
		{"a supporting file", repo(nil), func(r *Repo) { r.Skills[1].Files = []File{{Path: "a.md", SHA256: "x"}} }, []string{"staging", "prod", "eu"}},
		{"a target's override", repo(nil), func(r *Repo) { r.Config.Targets[2].Enabled["sql"] = true }, []string{"eu"}},
		{"a new target", repo(nil), func(r *Repo) { r.Config.Targets = append(r.Config.Targets, config.Target{Name: "us", Space: "us01"}) }, []string{"us"}},
		{"shared settings", repo(nil), func(r *Repo) { r.Config.Unmanaged = config.UnmanagedDisable }, []string{"staging", "prod", "eu"}},
		{"only lines moved", repo(nil), func(r *Repo) { r.Config.Targets[1].Line, r.Config.Targets[1].Exclude[0].Line = 9, 10 }, nil},
		{"no skillsync.yaml at the base", nil, nil, []string{"staging", "prod", "eu"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ChangedTargets(tc.base, repo(tc.edit)); !slices.Equal(got, tc.want) {
				t.Errorf("ChangedTargets = %q, want %q", got, tc.want)
			}
		})
	}
	// Without targets, the one implicit target is "".
	one := &Repo{Config: config.Config{Space: "ab12"}, Skills: []Skill{skill("review", "r", true)}}
	if got := ChangedTargets(one, one); len(got) != 0 {
		t.Errorf("unchanged implicit target: %q", got)
	}
	changed := &Repo{Config: config.Config{Space: "ab12"}, Skills: []Skill{skill("review", "new", true)}}
	if got := ChangedTargets(one, changed); !slices.Equal(got, []string{""}) {
		t.Errorf("changed implicit target: %q, want [\"\"]", got)
	}
}
