package reconcile

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// TestApplyKeepsAnEditMadeInTheApp: an edit made in the app after the plan
// read a skill and before apply writes it is not overwritten. Apply reads
// each skill it updates right before the update, leaves one the space moved
// away from (saying so, and what to do), applies the rest, and journals
// what it saw; enables and disables, which overwrite no text, are sent
// without a read.
func TestApplyKeepsAnEditMadeInTheApp(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	edited := env.seed("edited", "old edited\n", false)
	env.seed("rewrite", "old rewrite\n", true)
	env.seed("combo", "old combo\n", true) // its own disable moves its updatedAt before its update
	env.seed("turn-on", "same\n", false)
	desired := desiredRepo(
		wantSkill("edited", "new edited\n", true),
		wantSkill("rewrite", "new rewrite\n", true),
		wantSkill("combo", "new combo\n", false),
		wantSkill("turn-on", "same\n", true),
	)
	p := env.plan(desired, Policy{})
	if p.HasErrors() || p.Summary.Update != 3 || p.Summary.Enable != 2 || p.Summary.Disable != 1 {
		t.Fatalf("plan: summary %+v, errors %+v", p.Summary, p.Errors)
	}

	// The edit lands once apply has started: with the first request it
	// sends, the disable of combo, before any update.
	const appText = "Edited in the app while apply ran.\n"
	env.emu.ResetRequests()
	var once sync.Once
	env.emu.SetOnRequest(func(*http.Request) {
		once.Do(func() {
			env.emu.EditSkill(envSpace, edited.ID, func(s *remotetest.SkillSeed) { s.Instructions = appText })
		})
	})
	j := &memJournal{}
	res := env.apply(t.Context(), p, ApplyOptions{Journal: j})
	env.emu.SetOnRequest(nil)

	up := stepOf(t, res, "edited", ActionUpdate)
	if up.Outcome != OutcomeSkipped || !strings.Contains(up.Reason, "changed in the space since the plan (updatedAt "+edited.UpdatedAt+" -> ") ||
		!strings.Contains(up.Reason, "instructions changed") || !strings.Contains(up.Reason, "run 'skillsync plan' again") {
		t.Errorf("update of edited = %+v, want skipped as changed in the space since the plan", up)
	}
	if en := stepOf(t, res, "edited", ActionEnable); en.Outcome != OutcomeSkipped || !strings.HasPrefix(en.Reason, "update was skipped: changed in the space") {
		t.Errorf("enable of edited = %+v, want skipped with its update", en)
	}
	for _, k := range []struct {
		slug string
		a    Action
	}{{"rewrite", ActionUpdate}, {"combo", ActionDisable}, {"combo", ActionUpdate}, {"turn-on", ActionEnable}} {
		if s := stepOf(t, res, k.slug, k.a); s.Outcome != OutcomeApplied {
			t.Errorf("%s of %s = %+v, want applied", k.a, k.slug, s)
		}
	}
	if !res.Failed() {
		t.Error("Failed() = false with a skill left unwritten")
	}
	if s := env.skill("edited"); s.Instructions == nil || *s.Instructions != appText || s.Enabled {
		t.Errorf("edited after apply = %+v, want the app's edit kept and the skill still disabled", s)
	}
	if s := env.skill("combo"); *s.Instructions != "new combo\n" || s.Enabled {
		t.Errorf("combo after apply = %+v", s)
	}
	// One read per update, right before it; none for enables and disables.
	req := env.emu.Requests()
	if req[remotetest.KeyGetSkill] != 3 || req[remotetest.KeyUpdateSkill] != 2 ||
		req[remotetest.KeyEnableSkill] != 1 || req[remotetest.KeyDisableSkill] != 1 || len(req) != 4 {
		t.Errorf("requests = %v, want 3 gets (one per update), 2 updates, 1 enable, 1 disable", req)
	}

	all := j.lines(t)
	outcomes, unfinished := journalOutcomes(t, all)
	if len(unfinished) != 0 {
		t.Errorf("unfinished journal lines: %+v", unfinished)
	}
	var editedLines []JournalEntry
	for _, e := range all {
		if e.Slug == "edited" {
			editedLines = append(editedLines, e)
		}
	}
	if len(editedLines) != 2 {
		t.Fatalf("journal lines of edited: %+v, want two", editedLines)
	}
	if e := editedLines[0]; e.Outcome != OutcomeStarted || e.Before == nil || *e.Before.Instructions != "old edited\n" {
		t.Errorf("first journal line of edited = %+v, want started, with the text planned", e)
	}
	if e := editedLines[1]; e.Outcome != OutcomeSkipped || e.Action != ActionUpdate || e.Request == nil || e.After != nil ||
		e.Before == nil || e.Before.Instructions == nil || *e.Before.Instructions != appText || !strings.Contains(e.Error, "changed in the space since the plan") {
		t.Errorf("second journal line of edited = %+v, want skipped, with the text read and the request not sent", e)
	}
	for _, e := range outcomes {
		if e.Slug == "combo" && e.Action == ActionUpdate {
			// The read right before the update, after combo's own
			// disable: what the update replaced.
			if e.Before == nil || e.Before.Enabled || *e.Before.Instructions != "old combo\n" {
				t.Errorf("journal of combo's update: before %+v, want the skill as read right before the update", e.Before)
			}
		}
	}
}

// TestApplyRereadComparesAsPlanning: the read right before an update calls
// the skill moved only where planning would see a change: a description
// the plan read with a final newline, read now without it (updatedAt
// unmoved), is the same description, and the update is sent.
func TestApplyRereadComparesAsPlanning(t *testing.T) {
	for _, tc := range []struct {
		name, planned string
		want          Outcome
	}{
		{"final newline", "About edit\n", OutcomeApplied},
		{"another description", "About something else", OutcomeSkipped},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.seed("edit", "old\n", true)
			p := env.plan(desiredRepo(wantSkill("edit", "new\n", true)), Policy{})
			p.Changes[0].Before.Description = tc.planned
			res := env.apply(t.Context(), p, ApplyOptions{})
			if s := stepOf(t, res, "edit", ActionUpdate); s.Outcome != tc.want {
				t.Errorf("update = %+v, want %s", s, tc.want)
			}
		})
	}
}

// TestApplyRereadFailure: a skill that cannot be read right before its
// update is not written; an interrupt during that read skips the update
// as interrupted, since no write was sent.
func TestApplyRereadFailure(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	gone := env.seed("gone", "old\n", true)
	env.seed("kept", "old\n", true)
	p := env.plan(desiredRepo(wantSkill("gone", "new\n", true), wantSkill("kept", "new\n", true)), Policy{})
	env.emu.DeleteSkill(envSpace, gone.ID)
	env.emu.ResetRequests()
	res := env.apply(t.Context(), p, ApplyOptions{})
	if s := stepOf(t, res, "gone", ActionUpdate); s.Outcome != OutcomeFailed || s.Status != http.StatusNotFound ||
		!strings.Contains(s.Reason, "reading the skill before its update") {
		t.Errorf("update of a deleted skill = %+v, want failed on the read", s)
	}
	if s := stepOf(t, res, "kept", ActionUpdate); s.Outcome != OutcomeApplied {
		t.Errorf("update of kept = %+v", s)
	}
	if n := env.emu.Requests()[remotetest.KeyUpdateSkill]; n != 1 {
		t.Errorf("%d updates sent, want 1", n)
	}
}

// TestSkippedJournalLines: the line of an update an older version did not
// send (the skill moved since the plan) stands alone, with no request. It
// closes no started line of an earlier apply, which may still have
// overwritten text (restore reading nothing from it is journal's
// TestRestoreSkippedLines).
func TestSkippedJournalLines(t *testing.T) {
	in := `{"time":"2026-01-02T03:04:07Z","space":"ab12","slug":"b","id":"2","action":"update","request":{"name":"B"},"before":{"name":"Old B","description":"d","instructions":"old\n","enabled":true},"outcome":"started"}
{"time":"2026-01-02T04:00:02Z","space":"ab12","slug":"b","id":"2","action":"update","before":{"name":"App B","description":"d","instructions":"app\n","enabled":true},"outcome":"skipped","error":"changed in the space since the plan"}
`
	es := decodeLines(t, in)
	if got := Unfinished(es); len(got) != 1 || got[0].Outcome != OutcomeStarted {
		t.Errorf("Unfinished = %+v, want the started line, which the skipped line does not close", got)
	}
}

// slowJournal keeps the lines of an apply in memory, and holds the
// started line of one skill's update until release is closed, as a
// journal busy with other skills' lines (each synced to disk) would.
type slowJournal struct {
	memJournal
	slug    string
	held    chan struct{} // closed once the held line waits
	release chan struct{}
	once    sync.Once
}

func (j *slowJournal) Write(e JournalEntry) error {
	if e.Slug == j.slug && e.Action == ActionUpdate && e.Outcome == OutcomeStarted {
		j.once.Do(func() { close(j.held) })
		<-j.release
	}
	return j.memJournal.Write(e)
}

// TestApplyEditDuringOtherWrites: at --parallelism 8, an edit made in the
// app while one skill's update waits on the journal, and other skills are
// written meanwhile, is not overwritten: the skill is read right before
// its own write, with nothing to wait for in between.
func TestApplyEditDuringOtherWrites(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	var wants []fsrepo.Skill
	for i := range 12 {
		slug := fmt.Sprintf("skill-%02d", i)
		env.seed(slug, "old "+slug+"\n", true)
		wants = append(wants, wantSkill(slug, "new "+slug+"\n", true))
	}
	edited, _ := env.emu.SkillBySlug(envSpace, "skill-05")
	p := env.plan(desiredRepo(wants...), Policy{})
	if p.HasErrors() || p.Summary.Update != 12 {
		t.Fatalf("plan: summary %+v, errors %+v", p.Summary, p.Errors)
	}
	j := &slowJournal{slug: "skill-05", held: make(chan struct{}), release: make(chan struct{})}
	// The edit lands while another skill is written, once skill-05's
	// update waits on the journal.
	const appText = "Edited in the app while other skills were written.\n"
	var once sync.Once
	env.emu.SetOnRequest(func(r *http.Request) {
		if r.Method != http.MethodPatch || strings.HasSuffix(r.URL.Path, "/"+edited.ID) {
			return
		}
		select {
		case <-j.held:
		default:
			return
		}
		once.Do(func() {
			env.emu.EditSkill(envSpace, edited.ID, func(s *remotetest.SkillSeed) { s.Instructions = appText })
			close(j.release)
		})
	})
	res := env.apply(t.Context(), p, ApplyOptions{Journal: j, Parallelism: 8})
	env.emu.SetOnRequest(nil)
	select {
	case <-j.release:
	default:
		t.Fatal("no other skill was written while skill-05 waited: the test tests nothing")
	}
	if s := env.skill("skill-05"); s.Instructions == nil || *s.Instructions != appText {
		t.Errorf("skill-05 after apply = %q, want the app's edit kept", *s.Instructions)
	}
	if s := stepOf(t, res, "skill-05", ActionUpdate); s.Outcome != OutcomeSkipped || !strings.Contains(s.Reason, "changed in the space since the plan") {
		t.Errorf("update of skill-05 = %+v, want skipped as changed in the space since the plan", s)
	}
	// What the journal says of skill-05 is a started line closed by a
	// skipped one with its request: not sent, which restore passes over
	// (journal's TestRestorePassesOverUnsentUpdates).
	var lines []JournalEntry
	for _, e := range j.lines(t) {
		if e.Slug == "skill-05" {
			lines = append(lines, e)
		}
	}
	if len(lines) != 2 || lines[0].Outcome != OutcomeStarted || lines[1].Outcome != OutcomeSkipped || lines[1].Request == nil || lines[1].Action != ActionUpdate {
		t.Errorf("journal lines of skill-05 = %+v, want its started update closed by a skipped one with the request not sent", lines)
	}
}
