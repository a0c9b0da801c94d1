package planfile

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A Leak is a skill of a saved plan that holds secrets of this process;
// with no slug, another part of the plan does.
type Leak struct {
	Target string
	Slug   string
	Names  []string // the names of the secrets, never their values
}

// A SecretsError is returned by [CheckSecrets] for plans that hold a
// secret this process knows: they are not to be written to a file.
type SecretsError struct {
	Leaks []Leak
}

func (e *SecretsError) Error() string {
	parts := make([]string, len(e.Leaks))
	for i, l := range e.Leaks {
		what := "the plan"
		if l.Slug != "" {
			what = l.Slug
		}
		if l.Target != "" {
			what += " (target " + l.Target + ")"
		}
		parts[i] = fmt.Sprintf("%s holds the value of %s", what, strings.Join(l.Names, ", "))
	}
	return "not saved, as no secret of this process is ever written to a file: " + strings.Join(parts, "; ")
}

// CheckSecrets returns a [*SecretsError] when a plan of sps holds the
// value of a secret that found names (the text of a skill typed into the
// app, say), naming each skill and secret; nil when none does.
func CheckSecrets(sps []*Saved, found func(text string) []string) error {
	if found == nil {
		return nil
	}
	var leaks []Leak
	for _, sp := range sps {
		if sp == nil || sp.Plan == nil {
			continue
		}
		p := sp.Plan
		var named []string
		for i := range p.Changes {
			if names := foundIn(&p.Changes[i], found); len(names) > 0 {
				leaks = append(leaks, Leak{Target: p.Target, Slug: p.Changes[i].Slug, Names: names})
				named = append(named, names...)
			}
		}
		// Anything else of the plan (a problem's text, say) is named as
		// the plan's.
		var rest []string
		for _, n := range foundIn(p, found) {
			if !slices.Contains(named, n) {
				rest = append(rest, n)
			}
		}
		if len(rest) > 0 {
			leaks = append(leaks, Leak{Target: p.Target, Names: rest})
		}
	}
	if len(leaks) > 0 {
		return &SecretsError{Leaks: leaks}
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
