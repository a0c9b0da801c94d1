package config

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/skillsync/skillsync/internal/visible"
	"go.yaml.in/yaml/v3"
)

// Defaults of the descriptions: section.
const (
	// DefaultDescriptionBudget is the characters of the active skills'
	// names and descriptions that agents commonly show before they hide
	// skills (Claude Code and Codex both cap the list near 8,000).
	DefaultDescriptionBudget = 8000
	// DefaultOverlapPercent is the similarity, in percent, from which two
	// active skills' descriptions overlap.
	DefaultOverlapPercent = 30

	LevelWarning = "warning"
	LevelError   = "error"
	LevelOff     = "off"
)

// Descriptions is the descriptions: section of skillsync.yaml, top-level
// or of a target: what the AI of a space sees of the active skills
// together. A field left out is nil or "", and takes the top-level value,
// then the default (see [Descriptions.WithDefaults]).
type Descriptions struct {
	// Budget is the characters the active skills' names and descriptions
	// may take after apply.
	Budget *int `json:"budget,omitempty"`
	// BudgetLevel is what over budget is: "warning" or "error".
	BudgetLevel string `json:"budgetLevel,omitempty"`
	// Overlap is the similarity in percent (1 to 100) from which two
	// active skills' descriptions overlap.
	Overlap *int `json:"overlap,omitempty"`
	// OverlapLevel is what an overlapping pair is: "warning", "error" or
	// "off".
	OverlapLevel string `json:"overlapLevel,omitempty"`
}

// over is d with each field o sets taken from o.
func (d Descriptions) over(o Descriptions) Descriptions {
	d.Budget = cmp.Or(o.Budget, d.Budget)
	d.BudgetLevel = cmp.Or(o.BudgetLevel, d.BudgetLevel)
	d.Overlap = cmp.Or(o.Overlap, d.Overlap)
	d.OverlapLevel = cmp.Or(o.OverlapLevel, d.OverlapLevel)
	return d
}

// WithDefaults is d with the defaults for what it leaves out.
func (d Descriptions) WithDefaults() Descriptions {
	defaults := Descriptions{Budget: new(DefaultDescriptionBudget), BudgetLevel: LevelWarning,
		Overlap: new(DefaultOverlapPercent), OverlapLevel: LevelWarning}
	return defaults.over(d)
}

// parseDescriptions reads a descriptions: section (named shown in
// messages), whose shape checkKeys has checked.
func parseDescriptions(v *yaml.Node, shown string, fail func(int, string, ...any)) Descriptions {
	var d Descriptions
	if v == nil || v.Kind != yaml.MappingNode {
		return d
	}
	level := func(key string, allowed ...string) string {
		x := mappingValue(v, key)
		if x == nil {
			return ""
		}
		if slices.Contains(allowed, x.Value) {
			return x.Value
		}
		fail(x.Line, "%s.%s must be one of %q, not %s", shown, key, allowed, visible.Quote(x.Value))
		return ""
	}
	d.Budget = numberValue(v, shown, "budget", 1, 1_000_000, fail)
	d.BudgetLevel = level("budgetLevel", LevelWarning, LevelError)
	d.Overlap = numberValue(v, shown, "overlap", 1, 100, fail)
	d.OverlapLevel = level("overlapLevel", LevelWarning, LevelError, LevelOff)
	return d
}

// numberValue is the whole number of key in the mapping m (named shown in
// messages, "" at the top level), or nil when it is left out; one out of
// the range lo to hi is an error at its line.
func numberValue(m *yaml.Node, shown, key string, lo, hi int, fail func(int, string, ...any)) *int {
	x := mappingValue(m, key)
	if x == nil {
		return nil
	}
	var n int // checkType saw to it that int holds the number
	if err := x.Decode(&n); err != nil {
		fail(x.Line, "%s: %v", dotted(shown, key), err)
		return nil
	}
	if n < lo || n > hi {
		fail(x.Line, "%s must be %d to %d, not %d", dotted(shown, key), lo, hi, n)
	}
	return &n
}

// descriptionsExample is the example of the section in messages.
var descriptionsExample = fmt.Sprintf("descriptions: {budget: %d, budgetLevel: error, overlap: %d, overlapLevel: warning}", DefaultDescriptionBudget, DefaultOverlapPercent)
