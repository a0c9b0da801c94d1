package reconcile

import (
	"slices"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

func ignoreRule(fields []string, globs ...string) config.IgnoreRule {
	r := config.IgnoreRule{Fields: fields}
	for _, g := range globs {
		r.Skills = append(r.Skills, config.Pattern{Glob: g})
	}
	return r
}

// TestIgnoreRules: a difference an ignore rule covers is neither planned
// nor drift; the others of the same skill still are.
func TestIgnoreRules(t *testing.T) {
	desired := repo(
		local("a", disabled, func(s *fsrepo.Skill) { s.Description = "New description." }),
		local("b", disabled),
	)
	lv := &Live{Space: "ab12", Skills: []remote.Skill{live("a"), live("b")}}

	plain := Compute(desired, lv, Policy{})
	if plain.Summary.Disable != 2 || plain.Summary.Update != 1 {
		t.Fatalf("without rules: %+v", plain.Summary)
	}

	p := Compute(desired, lv, Policy{Ignore: []config.IgnoreRule{ignoreRule([]string{FieldEnabled}, "a*")}})
	if len(p.Changes) != 2 {
		t.Fatalf("changes %+v, want a (description) and b (disable)", p.Changes)
	}
	a, b := p.Changes[0], p.Changes[1]
	if !slices.Equal(a.Fields, []string{FieldDescription}) || !slices.Equal(a.Actions, []Action{ActionUpdate}) || !a.After.Enabled {
		t.Errorf("a: %+v, want only its description updated, enabled left as live", a)
	}
	if !b.Has(ActionDisable) {
		t.Errorf("b: %+v, want it disabled: the rule covers a* only", b)
	}

	// Every difference of a skill ignored: no change, no drift.
	all := Compute(desired, lv, Policy{Ignore: []config.IgnoreRule{ignoreRule(config.IgnoreFields, "*")}})
	if all.HasChanges() || all.HasDrift() || all.Drift().Status != DriftNone {
		t.Errorf("everything ignored: %+v", all.Changes)
	}
}

// TestIgnoredEnabledCountsAsLive: the active limit is the live space's,
// so an enabled state a rule ignores counts as the space has it.
func TestIgnoredEnabledCountsAsLive(t *testing.T) {
	var skills []fsrepo.Skill
	var remotes []remote.Skill
	for i := range 41 {
		slug := string(rune('a'+i/26)) + string(rune('a'+i%26))
		skills = append(skills, local(slug))
		remotes = append(remotes, live(slug))
	}
	// The repository disables one of the 41; a rule ignores enabled for it.
	skills[0].Enabled = false
	rule := []config.IgnoreRule{ignoreRule([]string{FieldEnabled}, skills[0].Slug)}
	p := Compute(repo(skills...), &Live{Space: "ab12", Skills: remotes}, Policy{Ignore: rule})
	if p.Summary.ActiveAfter != 41 || p.Summary.ActiveBefore != 41 || p.HasChanges() {
		t.Errorf("summary %+v, changes %d: want 41 active after, as live", p.Summary, len(p.Changes))
	}
}

// TestIgnoreKeepsUnmanagedEnabled: with unmanaged: disable, a rule that
// ignores enabled for an unmanaged skill leaves it enabled.
func TestIgnoreKeepsUnmanagedEnabled(t *testing.T) {
	lv := &Live{Space: "ab12", Skills: []remote.Skill{live("a"), live("extra"), live("other")}}
	p := Compute(repo(local("a")), lv, Policy{Unmanaged: config.UnmanagedDisable, Ignore: []config.IgnoreRule{ignoreRule([]string{FieldEnabled}, "extra")}})
	if len(p.Changes) != 1 || p.Changes[0].Slug != "other" {
		t.Errorf("changes %+v, want only other disabled", p.Changes)
	}
}

// TestDesiredHashOfIgnore: ignore rules are part of the desired state (a
// saved plan made before a rule changed is stale), and a repository
// without any hashes as before.
func TestDesiredHashOfIgnore(t *testing.T) {
	r := repo(local("a"))
	before := DesiredHash(r)
	r.Config.Ignore = []config.IgnoreRule{ignoreRule([]string{FieldEnabled}, "*")}
	with := DesiredHash(r)
	r.Config.Ignore[0].Fields = []string{FieldName}
	if with == before || DesiredHash(r) == with {
		t.Error("ignore rules do not change the desired hash")
	}
	r.Config.Ignore = nil
	if DesiredHash(r) != before {
		t.Error("no rules hash otherwise than before")
	}
}
