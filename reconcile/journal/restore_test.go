package journal

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
)

func strp(s string) *string { return &s }

func TestPlanRestoreRefuses(t *testing.T) {
	before := &reconcile.SkillState{Name: "A", Description: "d", Instructions: strp("# A\n"), Enabled: true}
	tests := []struct {
		name    string
		entries []reconcile.JournalEntry
		want    string
	}{
		{"empty", nil, "holds no change"},
		{"two spaces", []reconcile.JournalEntry{
			{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionDisable, Before: before},
			{Space: "cd34", Slug: "b", ID: "2", Action: reconcile.ActionDisable, Before: before},
		}, "spaces ab12 and cd34"},
		{"no before", []reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionDisable}}, "line 1: the disable of a has no before state"},
		{"update without request", []reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionUpdate, Before: before}}, "has no request"},
		{"slug of two ids", []reconcile.JournalEntry{
			{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionDisable, Before: before},
			{Space: "ab12", Slug: "a", ID: "2", Action: reconcile.ActionEnable, Before: before},
		}, "line 2: slug a names skill 2"},
		{"unknown action", []reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "1", Action: "delete", Before: before}}, `unknown action "delete"`},
		{"no space", []reconcile.JournalEntry{{Slug: "a", ID: "1", Action: reconcile.ActionDisable, Before: before}}, "names no space"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := PlanRestore(tt.entries)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want one saying %q", err, tt.want)
			}
		})
	}
}

// TestRestorePlan: only the fields the journal changed go back, to their
// value before the first change; what cannot be restored is a warning.
func TestRestorePlan(t *testing.T) {
	name := "Release Notes v2"
	entries := []reconcile.JournalEntry{
		// An update of name and instructions, then a disable of the same
		// skill by a later apply appended to the same journal.
		{Space: "ab12", Slug: "notes", ID: "n1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeStarted,
			Request: &remote.SkillUpdate{Name: &name, Instructions: strp("# New\n")},
			Before:  &reconcile.SkillState{Name: "Release Notes", Description: "Old description", Instructions: strp("# Old\n"), Enabled: true}},
		{Space: "ab12", Slug: "notes", ID: "n1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
			Request: &remote.SkillUpdate{Name: &name, Instructions: strp("# New\n")},
			Before:  &reconcile.SkillState{Name: "Release Notes", Description: "Old description", Instructions: strp("# Old\n"), Enabled: true}},
		{Space: "ab12", Slug: "notes", ID: "n1", Action: reconcile.ActionDisable, Outcome: reconcile.OutcomeFailed,
			Before: &reconcile.SkillState{Name: name, Description: "Old description", Instructions: strp("# New\n"), Enabled: true}},
		// A skill deleted in the app since.
		{Space: "ab12", Slug: "gone", ID: "g1", Action: reconcile.ActionEnable, Outcome: reconcile.OutcomeApplied,
			Before: &reconcile.SkillState{Name: "Gone", Description: "d", Enabled: false}},
		// An update whose before text the journal does not hold.
		{Space: "ab12", Slug: "blank", ID: "b1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
			Request: &remote.SkillUpdate{Instructions: strp("# B\n")},
			Before:  &reconcile.SkillState{Name: "Blank", Description: "d", Enabled: true}},
		{Space: "ab12", Slug: "Support Bot", ID: "ag1", Action: reconcile.ActionPublish, Outcome: reconcile.OutcomeApplied},
	}
	rs, err := PlanRestore(entries)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(rs.Slugs(), ","); got != "blank,gone,notes" {
		t.Errorf("slugs %s", got)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{
		{ID: "n1", Slug: "notes", Name: name, Description: "Edited in the app", Instructions: strp("# New\n"), Enabled: false},
		{ID: "b1", Slug: "blank", Name: "Blank", Description: "d", Instructions: strp("# B\n"), Enabled: true},
		{ID: "o1", Slug: "other", Name: "Other", Description: "d", Enabled: true},
	}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if p.HasErrors() {
		t.Fatalf("errors: %+v", p.Errors)
	}
	if len(p.Changes) != 1 {
		t.Fatalf("changes = %+v, want one, of notes", p.Changes)
	}
	ch := p.Changes[0]
	if ch.Slug != "notes" || !ch.Has(reconcile.ActionUpdate) || !ch.Has(reconcile.ActionEnable) {
		t.Errorf("change %+v, want an update and an enable of notes", ch)
	}
	if ch.After.Name != "Release Notes" || *ch.After.Instructions != "# Old\n" || !ch.After.Enabled {
		t.Errorf("after %+v, want the state before the first change", ch.After)
	}
	if ch.After.Description != "Edited in the app" || ch.Changes(reconcile.FieldDescription) {
		t.Errorf("the description, which the journal never changed, was not left alone: %+v", ch)
	}
	codes := map[string]bool{}
	for _, w := range p.Warnings {
		codes[w.Code] = true
	}
	for _, c := range []string{CodeRestoreGone, CodeRestoreUnknownText, CodeRestorePublish} {
		if !codes[c] {
			t.Errorf("no warning %s in %+v", c, p.Warnings)
		}
	}
	if len(p.Unmanaged) != 0 {
		t.Errorf("unmanaged %+v: the skills the journal did not change are no part of a restore", p.Unmanaged)
	}
	for _, ch := range p.Changes {
		if ch.Slug == "other" {
			t.Errorf("restore changes %s, which the journal never changed", ch.Slug)
		}
	}
}

// TestRestoreKeepsAppEditsBetweenApplies: a journal of two applies puts
// each field back as it was before the first change of that field, so an
// edit made in the app between the applies, which the second overwrote, is
// what comes back.
func TestRestoreKeepsAppEditsBetweenApplies(t *testing.T) {
	entries := []reconcile.JournalEntry{
		// reconcile.Apply 1 renames; the instructions are I0 then.
		{Space: "ab12", Slug: "a", ID: "a1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
			Request: &remote.SkillUpdate{Name: strp("A2")},
			Before:  &reconcile.SkillState{Name: "A", Description: "d", Instructions: strp("I0\n"), Enabled: true}},
		// The app edits the instructions to I1; apply 2 overwrites them.
		{Space: "ab12", Slug: "a", ID: "a1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
			Request: &remote.SkillUpdate{Instructions: strp("I2\n")},
			Before:  &reconcile.SkillState{Name: "A2", Description: "d", Instructions: strp("I1\n"), Enabled: true}},
	}
	rs, err := PlanRestore(entries)
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "a1", Slug: "a", Name: "A2", Description: "d", Instructions: strp("I2\n"), Enabled: true}}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 {
		t.Fatalf("changes = %+v", p.Changes)
	}
	if after := p.Changes[0].After; after.Name != "A" || *after.Instructions != "I1\n" {
		t.Errorf("after = %+v, want name A (before apply 1) and instructions I1 (the app's edit, before apply 2)", after)
	}
}

// TestRestoreReplacedSlug: a skill deleted and made again with the same
// slug is another skill; restore leaves it alone.
func TestRestoreReplacedSlug(t *testing.T) {
	rs, err := PlanRestore([]reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "old", Action: reconcile.ActionDisable,
		Before: &reconcile.SkillState{Name: "A", Description: "d", Instructions: strp("x"), Enabled: true}}})
	if err != nil {
		t.Fatal(err)
	}
	p := RestorePlan(rs, &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "new", Slug: "a", Name: "A", Description: "d", Instructions: strp("x")}}}, reconcile.Policy{})
	if p.HasChanges() || len(p.Warnings) != 1 || p.Warnings[0].Code != CodeRestoreReplaced {
		t.Errorf("changes %+v, warnings %+v; want none and one %s", p.Changes, p.Warnings, CodeRestoreReplaced)
	}
}

// TestRestoreKeepsLaterEdits: a field edited in the space after the
// journal's change (neither the value written nor the one replaced) is
// kept, with a warning; the other fields of the skill are restored.
func TestRestoreKeepsLaterEdits(t *testing.T) {
	rs, err := PlanRestore([]reconcile.JournalEntry{{Space: "ab12", Slug: "a", ID: "a1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
		Request: &remote.SkillUpdate{Name: strp("A2"), Description: strp("D2")},
		Before:  &reconcile.SkillState{Name: "A", Description: "D", Instructions: strp("I\n"), Enabled: true}}})
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "a1", Slug: "a", Name: "A2", Description: "Edited in the app.", Instructions: strp("I\n"), Enabled: true}}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 || p.Changes[0].After.Name != "A" || p.Changes[0].Changes(reconcile.FieldDescription) {
		t.Fatalf("changes = %+v, want the name restored and the description kept", p.Changes)
	}
	found := false
	for _, w := range p.Warnings {
		found = found || (w.Code == CodeRestoreEditedSince && w.Slug == "a" && strings.Contains(w.Message, "description of a changed in the space after"))
	}
	if !found {
		t.Errorf("no warning that the description was kept: %+v", p.Warnings)
	}
}

// TestRestoreFailedLastLine: a later line of the journal whose request
// failed does not make the value an earlier line wrote look like an edit
// made since: it is restored. So is a value the service answered with
// (normalized) rather than the one asked for.
func TestRestoreFailedLastLine(t *testing.T) {
	rs, err := PlanRestore([]reconcile.JournalEntry{
		{Space: "ab12", Slug: "a", ID: "a1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeApplied,
			Request: &remote.SkillUpdate{Description: strp("D1"), Name: strp(" Named ")},
			Before:  &reconcile.SkillState{Name: "A", Description: "D0", Instructions: strp("I\n"), Enabled: true},
			After:   &reconcile.SkillState{Name: "Named", Description: "D1", Instructions: strp("I\n"), Enabled: true}},
		{Space: "ab12", Slug: "a", ID: "a1", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeFailed,
			Request: &remote.SkillUpdate{Description: strp("D2")},
			Before:  &reconcile.SkillState{Name: "Named", Description: "D1", Instructions: strp("I\n"), Enabled: true}},
	})
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "a1", Slug: "a", Name: "Named", Description: "D1", Instructions: strp("I\n"), Enabled: true}}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 || p.Changes[0].After.Description != "D0" || p.Changes[0].After.Name != "A" {
		t.Fatalf("changes = %+v, want description D0 and name A back", p.Changes)
	}
	for _, w := range p.Warnings {
		if w.Code == CodeRestoreEditedSince {
			t.Errorf("unexpected warning: %+v", w)
		}
	}
}

// TestRestoreSkippedLines: the line of an update an older version did not
// send (the skill moved since the plan) stands alone, with no request:
// restore reads nothing from it, as no request went out, and still puts
// back what the started line before it may have overwritten.
func TestRestoreSkippedLines(t *testing.T) {
	in := `{"time":"2026-01-02T03:04:07Z","space":"ab12","slug":"b","id":"2","action":"update","request":{"name":"B"},"before":{"name":"Old B","description":"d","instructions":"old\n","enabled":true},"outcome":"started"}
{"time":"2026-01-02T04:00:02Z","space":"ab12","slug":"b","id":"2","action":"update","before":{"name":"App B","description":"d","instructions":"app\n","enabled":true},"outcome":"skipped","error":"changed in the space since the plan"}
`
	es, err := Read(strings.NewReader(in))
	if err != nil || len(es) != 2 {
		t.Fatalf("Read = %d entries, %v", len(es), err)
	}
	rs, err := PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	live := &reconcile.Live{Space: "ab12", Skills: []remote.Skill{{ID: "2", Slug: "b", Name: "B", Description: "d", Instructions: strp("app\n"), Enabled: true}}}
	p := RestorePlan(rs, live, reconcile.Policy{})
	if len(p.Changes) != 1 || p.Changes[0].After.Name != "Old B" || p.Changes[0].Changes(reconcile.FieldInstructions) {
		t.Errorf("restore changes = %+v, want the name of the started line back and nothing from the skipped line", p.Changes)
	}
	if _, err := PlanRestore(es[1:]); err == nil || !strings.Contains(err.Error(), "holds no change") {
		t.Errorf("PlanRestore of a journal of skipped lines only: %v, want nothing to restore", err)
	}
}

// TestRestorePassesOverUnsentUpdates: an update apply did not send (the
// skill moved since the plan) has its started line closed by a skipped
// line with the request: restore puts nothing of that skill back.
func TestRestorePassesOverUnsentUpdates(t *testing.T) {
	before := &reconcile.SkillState{Name: "Skill a", Description: "d", Instructions: strp("old\n"), Enabled: true}
	app := &reconcile.SkillState{Name: "Skill a", Description: "d", Instructions: strp("app\n"), Enabled: true}
	req := &remote.SkillUpdate{Instructions: strp("new\n")}
	es := []reconcile.JournalEntry{
		{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionUpdate, Request: req, Before: before, Outcome: reconcile.OutcomeStarted},
		{Space: "ab12", Slug: "a", ID: "1", Action: reconcile.ActionUpdate, Request: req, Before: app, Outcome: reconcile.OutcomeSkipped},
		{Space: "ab12", Slug: "b", ID: "2", Action: reconcile.ActionDisable, Before: before, Outcome: reconcile.OutcomeStarted},
		{Space: "ab12", Slug: "b", ID: "2", Action: reconcile.ActionDisable, Before: before, Outcome: reconcile.OutcomeApplied},
	}
	rs, err := PlanRestore(es)
	if err != nil {
		t.Fatal(err)
	}
	if got := rs.Slugs(); len(got) != 1 || got[0] != "b" {
		t.Errorf("restore would put back %v, want b only: the update of a was not sent", got)
	}
}

// TestRestoreReadsTheTarget: restore reads back the target a journal
// names (none for the one space of a skillsync.yaml without targets), and
// refuses a journal of two targets.
func TestRestoreReadsTheTarget(t *testing.T) {
	before := &reconcile.SkillState{Name: "A", Description: "d", Enabled: false}
	for _, target := range []string{"prod", ""} {
		es := []reconcile.JournalEntry{{Space: "ab12", Target: target, Slug: "a", ID: "1", Action: reconcile.ActionEnable, Before: before, Outcome: reconcile.OutcomeApplied}}
		rs, err := PlanRestore(es)
		if err != nil || rs.Target != target || rs.Space != "ab12" {
			t.Errorf("restore of target %q: %+v, %v", target, rs, err)
		}
	}
	mixed := []reconcile.JournalEntry{{Space: "ab12", Target: "a", Action: reconcile.ActionEnable, ID: "x", Slug: "x", Outcome: reconcile.OutcomeSkipped},
		{Space: "ab12", Target: "b", Action: reconcile.ActionEnable, ID: "y", Slug: "y", Outcome: reconcile.OutcomeSkipped}}
	if _, err := PlanRestore(mixed); err == nil || !strings.Contains(err.Error(), `targets "a" and "b"`) {
		t.Errorf("journal of two targets: %v", err)
	}
}
