package journal

import (
	"slices"
	"strings"

	"github.com/skillsync/skillsync/reconcile"
)

// withhold returns e with every text that holds a secret found names left
// out: the field emptied, and named in Withheld with the secrets' names.
// What e points to is copied, never changed: apply still holds it.
func withhold(e reconcile.JournalEntry, found func(text string) []string) reconcile.JournalEntry {
	if found == nil {
		return e
	}
	w := map[string][]string{}
	check := func(field string, text *string) bool {
		names := found(*text)
		if len(names) == 0 {
			return false
		}
		slices.Sort(names)
		w[field] = slices.Compact(names)
		return true
	}
	if r := e.Request; r != nil {
		c := *r
		if c.Name != nil && check("request.name", c.Name) {
			c.Name = nil
		}
		if c.Description != nil && check("request.description", c.Description) {
			c.Description = nil
		}
		if c.Instructions != nil && check("request.instructions", c.Instructions) {
			c.Instructions = nil
		}
		e.Request = &c
	}
	state := func(prefix string, s *reconcile.SkillState) *reconcile.SkillState {
		if s == nil {
			return nil
		}
		c := *s
		if check(prefix+"name", &c.Name) {
			c.Name = ""
		}
		if check(prefix+"description", &c.Description) {
			c.Description = ""
		}
		if c.Instructions != nil && check(prefix+"instructions", c.Instructions) {
			c.Instructions = nil
		}
		return &c
	}
	// A slug, an error or a mismatch is replaced by a line naming its secrets.
	replace := func(field string, text *string) {
		if check(field, text) {
			*text = "withheld: it holds the value of " + strings.Join(w[field], ", ")
		}
	}
	// A publish's slug is the agent's name, which the space holds.
	replace("slug", &e.Slug)
	e.Before = state("before.", e.Before)
	e.After = state("after.", e.After)
	replace("error", &e.Error)
	replace("mismatch", &e.Mismatch)
	if len(w) > 0 {
		e.Withheld = w
	}
	return e
}
