package journal

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// Problem codes of a restore.
const (
	CodeRestoreGone        = "restore-gone"         // the skill is no longer in the space
	CodeRestoreReplaced    = "restore-replaced"     // another skill holds the slug now
	CodeRestoreUnknownText = "restore-unknown-text" // the journal does not hold the text replaced
	CodeRestorePublish     = "restore-publish"      // a publish cannot be undone
	CodeRestoreEditedSince = "restore-edited-since" // a field changed again after the journal: kept
	CodeRestoreSecret      = "restore-secret"       // the text replaced held a secret, never journaled
)

// A Restore is what undoing the mutations of a journal takes: for every
// skill the journal changed, the fields it changed and their values before
// its first change. [Restore.Desired] turns it into a desired state for
// [reconcile.Compute], so that putting a space back is planned, checked against the
// 40-active limit, shown and applied like any other change.
//
// Only the fields the journal changed are put back: an update restores the
// fields its request sent, an enable or disable the enabled flag. A field
// edited in the app since, that the journal never touched, is left as it is.
// Every line of a request counts, whatever its outcome: a failed or
// unfinished request may have taken effect, and restoring a field that did
// not change plans no change. A skipped line is no request, and changes
// nothing.
type Restore struct {
	Space string
	// Target is the target of skillsync.yaml the journal was written for;
	// "" for the one space of a skillsync.yaml without targets, or a
	// journal of a version that did not record it.
	Target string
	// Notes are what the journal changed that cannot be restored.
	Notes []reconcile.Problem

	skills map[string]*restoreSkill // by slug
}

type restoreSkill struct {
	id string
	// before holds, for each field in fields, its value before the first
	// journal line that changed it. The other fields are unset.
	before reconcile.SkillState
	fields map[string]bool // the fields of reconcile: name, description, instructions, enabled
	// known holds, per field, every value the journal shows it with:
	// asked for, replaced, or answered (normalized by the service). A
	// current value outside it was written by someone else since.
	known map[string]map[string]bool
	// withheld holds, per field, the names of the secrets its value
	// before held: the journal left that value out.
	withheld map[string][]string
	// unknownWrite holds, per field, the names of the secrets a value the
	// journal wrote (or was answered) held: left out, so that a current
	// value cannot be told from an edit made since.
	unknownWrite map[string][]string
}

// know records v as a value field f had or was given in the journal.
func (s *restoreSkill) know(f, v string) {
	if s.known[f] == nil {
		s.known[f] = map[string]bool{}
	}
	s.known[f][spec.Normalize(f, v)] = true
}

// knowState records the fields of st as known values.
func (s *restoreSkill) knowState(st *reconcile.SkillState) {
	if st == nil {
		return
	}
	s.know(reconcile.FieldName, st.Name)
	s.know(reconcile.FieldDescription, st.Description)
	if st.Instructions != nil {
		s.know(reconcile.FieldInstructions, *st.Instructions)
	}
}

// unsentLines returns the indexes of the started lines of entries whose
// outcome line says skipped: requests never sent. A skipped line with no
// request, as older versions wrote them, stands alone.
func unsentLines(entries []reconcile.JournalEntry) map[int]bool {
	out := map[int]bool{}
	open := map[string]int{} // the started line of a mutation, by space, skill and action
	for i, e := range entries {
		k := e.Space + "\x00" + e.ID + "\x00" + string(e.Action)
		switch e.Outcome {
		case reconcile.OutcomeStarted:
			open[k] = i
		case reconcile.OutcomeSkipped:
			if j, ok := open[k]; ok && e.Request != nil {
				out[j] = true
				delete(open, k)
			}
		default:
			delete(open, k)
		}
	}
	return out
}

// PlanRestore reads what undoing entries (a journal, in file order) takes.
// Each field of a skill changed several times is put back as it was
// before the first change of that field. A journal of several spaces, or of no mutation, is an error.
func PlanRestore(entries []reconcile.JournalEntry) (*Restore, error) {
	r := &Restore{skills: map[string]*restoreSkill{}}
	published := map[string]bool{}
	unsent := unsentLines(entries)
	for i, e := range entries {
		if e.Space == "" {
			return nil, fmt.Errorf("journal line %d names no space", i+1)
		}
		if r.Space == "" {
			r.Space, r.Target = e.Space, e.Target
		} else if e.Space != r.Space {
			return nil, fmt.Errorf("the journal holds changes of spaces %s and %s; restore one journal of one apply at a time", r.Space, e.Space)
		} else if e.Target != r.Target {
			return nil, fmt.Errorf("the journal holds changes of targets %q and %q; restore one journal of one apply at a time", r.Target, e.Target)
		}
		if e.Outcome == reconcile.OutcomeSkipped || unsent[i] {
			continue // not sent: it changed nothing
		}
		switch e.Action {
		case reconcile.ActionPublish:
			if !published[e.ID] {
				published[e.ID] = true
				r.Notes = append(r.Notes, reconcile.Problem{Code: CodeRestorePublish, Agent: e.ID,
					Message: fmt.Sprintf("agent %s (%s) was published; a publish cannot be undone", e.Slug, e.ID),
					Hint:    "the API has no unpublish; the agent's earlier version can only be brought back in the app"})
			}
			continue
		case reconcile.ActionUpdate, reconcile.ActionEnable, reconcile.ActionDisable:
		default:
			return nil, fmt.Errorf("journal line %d: unknown action %q", i+1, e.Action)
		}
		if e.Slug == "" || e.ID == "" {
			return nil, fmt.Errorf("journal line %d: a %s with no skill slug or id", i+1, e.Action)
		}
		if e.Before == nil {
			return nil, fmt.Errorf("journal line %d: the %s of %s has no before state to restore", i+1, e.Action, e.Slug)
		}
		s := r.skills[e.Slug]
		if s == nil {
			s = &restoreSkill{id: e.ID, fields: map[string]bool{}, known: map[string]map[string]bool{},
				withheld: map[string][]string{}, unknownWrite: map[string][]string{}}
			r.skills[e.Slug] = s
		} else if s.id != e.ID {
			return nil, fmt.Errorf("journal line %d: slug %s names skill %s, but an earlier line names %s", i+1, e.Slug, e.ID, s.id)
		}
		// Each field goes back to its value before the first line that
		// changed it: a later apply's before may hold an edit made in the
		// app between the two, which an earlier line's before would lose.
		touch := func(field string) {
			if s.fields[field] {
				return
			}
			s.fields[field] = true
			if names := e.Withheld["before."+field]; len(names) > 0 {
				s.withheld[field] = names
			}
			setField(&s.before, *e.Before, field)
		}
		s.knowState(e.Before)
		s.knowState(e.After)
		for k, names := range e.Withheld {
			if f, ok := strings.CutPrefix(k, "request."); ok {
				s.unknownWrite[f] = names
			} else if f, ok := strings.CutPrefix(k, "after."); ok {
				s.unknownWrite[f] = names
			}
		}
		switch e.Action {
		case reconcile.ActionEnable, reconcile.ActionDisable:
			touch(reconcile.FieldEnabled)
		case reconcile.ActionUpdate:
			if e.Request == nil {
				return nil, fmt.Errorf("journal line %d: the update of %s has no request", i+1, e.Slug)
			}
			// A request text withheld for a secret was still sent.
			for _, f := range []struct {
				name string
				sent *string
			}{
				{reconcile.FieldName, e.Request.Name},
				{reconcile.FieldDescription, e.Request.Description},
				{reconcile.FieldInstructions, e.Request.Instructions},
			} {
				if f.sent != nil || e.Withheld["request."+f.name] != nil {
					touch(f.name)
				}
				if f.sent != nil {
					s.know(f.name, *f.sent)
				}
			}
		}
	}
	if len(r.skills) == 0 && len(r.Notes) == 0 {
		return nil, errors.New("the journal holds no change to restore")
	}
	return r, nil
}

// Slugs are the skills the journal changed, sorted.
func (r *Restore) Slugs() []string {
	return slices.Sorted(maps.Keys(r.skills))
}

// Wanted is the state for [fetch.Space]: the skills to read, by slug, with
// nothing else. It reads their instructions, which [Restore.Desired]
// needs for the fields it does not put back.
func (r *Restore) Wanted() *fsrepo.Repo {
	repo := &fsrepo.Repo{Config: config.Config{Space: r.Space}}
	for _, slug := range r.Slugs() {
		repo.Skills = append(repo.Skills, fsrepo.Skill{Slug: slug, Path: restorePath(slug)})
	}
	return repo
}

// Desired is the state that undoes the journal, given the space as it is
// now (fetched for [Restore.Wanted]): each skill of the journal as live,
// with the fields the journal changed set back. A skill that is gone, whose
// slug another skill holds now, or whose text cannot be known, is left out
// with a warning saying why.
func (r *Restore) Desired(live *reconcile.Live) (*fsrepo.Repo, []reconcile.Problem) {
	repo := &fsrepo.Repo{Config: config.Config{Space: r.Space}}
	warnings := append([]reconcile.Problem(nil), r.Notes...)
	bySlug := map[string][]remote.Skill{}
	for _, s := range live.Skills {
		bySlug[s.Slug] = append(bySlug[s.Slug], s)
	}
	for _, slug := range r.Slugs() {
		rs := r.skills[slug]
		var cur *remote.Skill
		for i, s := range bySlug[slug] {
			if s.ID == rs.id {
				cur = &bySlug[slug][i]
			}
		}
		if cur == nil {
			pr := reconcile.Problem{Code: CodeRestoreGone, Slug: slug, Hint: "nothing of it can be restored through the API"}
			pr.Message = fmt.Sprintf("skill %s (%s) is no longer in the space", slug, rs.id)
			if len(bySlug[slug]) > 0 {
				pr.Code = CodeRestoreReplaced
				pr.Message = fmt.Sprintf("skill %s (%s) is no longer in the space; another skill holds its slug now and is left alone", slug, rs.id)
			}
			warnings = append(warnings, pr)
			continue
		}
		// A field whose value is neither what the journal wrote nor what
		// it replaced was edited again since: restoring it would undo
		// that edit, so it is kept, and said so.
		fields := map[string]bool{}
		var kept, unknown, unknownNames []string
		for f := range rs.fields {
			switch {
			case rs.editedSince(f, cur) && len(rs.unknownWrite[f]) > 0:
				unknown = append(unknown, f)
				unknownNames = append(unknownNames, rs.unknownWrite[f]...)
			case rs.editedSince(f, cur):
				kept = append(kept, f)
			default:
				fields[f] = true
			}
		}
		if len(unknown) > 0 {
			slices.Sort(unknown)
			slices.Sort(unknownNames)
			warnings = append(warnings, reconcile.Problem{Code: CodeRestoreSecret, Slug: slug,
				Message: fmt.Sprintf("%s of %s: what the journal's change wrote held the value of %s, which skillsync never writes to a file, so an edit since cannot be told from it; kept as it is",
					strings.Join(unknown, ", "), slug, strings.Join(slices.Compact(unknownNames), ", ")),
				Hint: "restore it by hand if need be, and rotate the token: whoever can read the space has read it"})
		}
		if len(kept) > 0 {
			slices.Sort(kept)
			warnings = append(warnings, reconcile.Problem{Code: CodeRestoreEditedSince, Slug: slug,
				Message: fmt.Sprintf("%s of %s changed in the space after the journal's change; kept as it is", strings.Join(kept, ", "), slug),
				Hint:    "restore it by hand if the journal's earlier value is the one wanted"})
		}
		if pr, ok := rs.withheldProblem(slug, fields); ok {
			warnings = append(warnings, pr)
			continue
		}
		// The skill as it is now, with the fields to put back as they were.
		st := reconcile.StateOf(*cur)
		for f := range fields {
			setField(&st, rs.before, f)
		}
		if st.Instructions == nil {
			// Planning this skill would write text no one knows: leave
			// it out rather than guess.
			pr := reconcile.Problem{Code: CodeRestoreUnknownText, Slug: slug,
				Hint: "restore it in the app; its other fields are left as they are too"}
			pr.Message = fmt.Sprintf("the journal does not hold the instructions %s had, or the space cannot show its current ones; it is left out", slug)
			warnings = append(warnings, pr)
			continue
		}
		repo.Skills = append(repo.Skills, fsrepo.Skill{Slug: slug, Path: restorePath(slug), Name: st.Name,
			Description: st.Description, Enabled: st.Enabled, Instructions: spec.Canonical(*st.Instructions)})
	}
	return repo, warnings
}

// setField sets field f of dst to its value in src.
func setField(dst *reconcile.SkillState, src reconcile.SkillState, f string) {
	switch f {
	case reconcile.FieldName:
		dst.Name = src.Name
	case reconcile.FieldDescription:
		dst.Description = src.Description
	case reconcile.FieldInstructions:
		dst.Instructions = src.Instructions
	case reconcile.FieldEnabled:
		dst.Enabled = src.Enabled
	}
}

// withheldProblem says, when a field to put back held a secret of the
// process before the journal's change (so the journal left it out), that
// the skill cannot be restored, and why.
func (rs *restoreSkill) withheldProblem(slug string, fields map[string]bool) (reconcile.Problem, bool) {
	var parts, names []string
	for _, f := range []string{reconcile.FieldName, reconcile.FieldDescription, reconcile.FieldInstructions} {
		if fields[f] && len(rs.withheld[f]) > 0 {
			parts = append(parts, f)
			names = append(names, rs.withheld[f]...)
		}
	}
	if len(parts) == 0 {
		return reconcile.Problem{}, false
	}
	slices.Sort(names)
	return reconcile.Problem{Code: CodeRestoreSecret, Slug: slug,
		Message: fmt.Sprintf("the journal does not hold the %s %s had: it held the value of %s, which skillsync never writes to a file; %s is left out",
			strings.Join(parts, " and "), slug, strings.Join(slices.Compact(names), ", "), slug),
		Hint: "restore it in the app, without the secret, and rotate the token: whoever can read the space has read it"}, true
}

// editedSince reports whether field f of cur holds a value the journal
// never shows for it (asked for, replaced or answered): an edit made by
// someone else after the journal.
func (rs *restoreSkill) editedSince(f string, cur *remote.Skill) bool {
	var v string
	switch f {
	case reconcile.FieldName:
		v = cur.Name
	case reconcile.FieldDescription:
		v = cur.Description
	case reconcile.FieldInstructions:
		if cur.Instructions == nil {
			return false // unknown: Desired says so
		}
		v = *cur.Instructions
	default:
		return false // enabled: a boolean is always one the journal shows
	}
	return !rs.known[f][spec.Normalize(f, v)]
}

// RestorePlan plans undoing r against live: [reconcile.Compute] of
// [Restore.Desired] under p (skills the journal did not change are left
// alone whatever p says), with the warnings of the restore added.
func RestorePlan(r *Restore, live *reconcile.Live, p reconcile.Policy) *reconcile.Plan {
	desired, warnings := r.Desired(live)
	p.Unmanaged = config.UnmanagedIgnore
	p.Missing = config.MissingWarn
	p.PublishAgents = nil
	pl := reconcile.Compute(desired, live, p)
	pl.Warnings = append(warnings, pl.Warnings...)
	// The skills the journal did not change are no part of a restore;
	// listing them as "unmanaged" would only mislead.
	pl.Unmanaged = nil
	pl.Normalize()
	return pl
}

// restorePath stands for the SKILL.md of a skill as it was before: the
// label of the "after" side of its diffs, next to "live/SLUG/SKILL.md".
func restorePath(slug string) string { return "before/" + slug + "/SKILL.md" }
