package planfile

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
)

// CheckSecrets refuses the plans of sps when one holds the value of a
// secret that found names (the text of a skill typed into the app, say).
// The error names each skill holding one, or the plan for any other part
// of it, with its target and the secrets' names, never their values.
func CheckSecrets(sps []*Saved, found func(text string) []string) error {
	if found == nil {
		return nil
	}
	var leaks []string // "SKILL (target T) holds the value of NAMES"
	for _, sp := range sps {
		if sp == nil || sp.Plan == nil {
			continue
		}
		p := sp.Plan
		target := ""
		if p.Target != "" {
			target = " (target " + p.Target + ")"
		}
		var named []string
		for i := range p.Changes {
			if names := foundIn(&p.Changes[i], found); len(names) > 0 {
				leaks = append(leaks, p.Changes[i].Slug+target+" holds the value of "+strings.Join(names, ", "))
				named = append(named, names...)
			}
		}
		// Anything else of the plan (a problem's text, say) is named as
		// the plan's.
		rest := slices.DeleteFunc(foundIn(p, found), func(n string) bool { return slices.Contains(named, n) })
		if len(rest) > 0 {
			leaks = append(leaks, "the plan"+target+" holds the value of "+strings.Join(rest, ", "))
		}
	}
	if len(leaks) > 0 {
		return errors.New("not saved, as no secret of this process is ever written to a file: " + strings.Join(leaks, "; "))
	}
	return nil
}

// foundIn names the secrets v holds as JSON, sorted, each once.
func foundIn(v any, found func(string) []string) []string {
	data, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	names := found(string(data))
	slices.Sort(names)
	return slices.Compact(names)
}
