package config

import (
	"strings"
	"testing"
)

// TestDescriptionsPerTarget: a target's descriptions: section overrides
// the top-level one field by field, and defaults fill the rest.
func TestDescriptionsPerTarget(t *testing.T) {
	cfg, err := Parse([]byte("descriptions: {budget: 6000, overlap: 40}\ntargets:\n  prod:\n    space: pr01\n    descriptions: {budget: 4000, budgetLevel: error}\n  stg:\n    space: st01\n"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		target       string
		budget       int
		level        string
		overlap      int
		overlapLevel string
	}{
		{"prod", 4000, LevelError, 40, LevelWarning},
		{"stg", 6000, LevelWarning, 40, LevelWarning},
	} {
		c, _ := cfg.ForTarget(tc.target)
		d := c.Descriptions.WithDefaults()
		if *d.Budget != tc.budget || d.BudgetLevel != tc.level || *d.Overlap != tc.overlap || d.OverlapLevel != tc.overlapLevel {
			t.Errorf("%s: %d %s %d %s, want %+v", tc.target, *d.Budget, d.BudgetLevel, *d.Overlap, d.OverlapLevel, tc)
		}
	}
	d := Config{}.Descriptions.WithDefaults()
	if *d.Budget != DefaultDescriptionBudget || *d.Overlap != DefaultOverlapPercent || d.BudgetLevel != LevelWarning {
		t.Errorf("defaults: %+v", d)
	}
	for in, want := range map[string]string{
		"descriptions: {budget: 0}\n":                                         "descriptions.budget must be 1 to 1000000, not 0",
		"descriptions: {overlapLevel: fatal}\n":                               `descriptions.overlapLevel must be one of ["warning" "error" "off"], not "fatal"`,
		"targets:\n  p:\n    space: pr01\n    descriptions: {overlap: 101}\n": "targets.p.descriptions.overlap must be 1 to 100, not 101",
	} {
		if _, err := Parse([]byte(in)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
