package reconcile

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
	"golang.org/x/sync/errgroup"
)

// ActionPublish is the action of an apply step that publishes an agent of
// [Plan.Publish]; it never appears in a [Change].
const ActionPublish Action = "publish"

// ErrPlanHasErrors is returned (wrapped, with the errors listed) by [Apply]
// for a plan with errors: such a plan must never be applied.
var ErrPlanHasErrors = errors.New("the plan has errors")

// DefaultGrace is how long requests in flight may still run after an apply
// is interrupted, unless [ApplyOptions.Grace] says otherwise.
const DefaultGrace = 30 * time.Second

// ApplyOptions tune [Apply].
type ApplyOptions struct {
	// Parallelism bounds the requests in flight within a phase (default
	// DefaultParallelism).
	Parallelism int
	// Journal, when set, gets two lines for every mutation attempted: one
	// written and synced before the request is sent (outcome
	// [OutcomeStarted]), and one with its outcome once it is known. A step
	// whose first line cannot be written is not sent. Package
	// reconcile/journal gives the file skillsync journals to.
	Journal JournalWriter
	// Progress, when set, is called after each step with the steps done and
	// the total; never concurrently.
	Progress func(done, total int)
	// Grace bounds how long requests in flight may run once ctx is
	// cancelled (default DefaultGrace); past it they are abandoned and
	// reported failed.
	Grace time.Duration
	// Accepted are journal lines of writes the service accepted but did
	// not show, from earlier applies (journal.RecentAccepted): the same write
	// of a skill still as it was before it is not sent again, and its
	// step is reported accepted.
	Accepted []JournalEntry
}

// Reasons of a step skipped because apply stopped starting steps.
const (
	reasonNoJournal = "not started: the journal could not be written"
	reasonBug       = "not started: apply stopped at an internal error"
)

// Apply makes the space match p, in phases so that the active count never
// passes the limit midway: every disable, then every update, then every
// enable, then every agent publish. The requests of a phase run in parallel.
//
// A failure stops nothing independent of it: the result says, step by step,
// what was applied, what failed with the service's reason, and what was
// skipped and why. A skill whose update did not apply is not enabled; when
// disables did not apply, the enables that would then pass the limit are
// skipped rather than sent to fail. Each response is checked against the
// request (instructions compared in canonical form, as a server may trim or
// add a final newline); a difference fails the step.
//
// Each update reads its skill right before it is sent: a skill the space
// moved away from since the plan read it (its updatedAt, or a field an
// update writes) is not written, so that an edit made in the app is never
// overwritten unjournaled; its step is skipped as changed in the space
// since the plan. Enables and disables overwrite no text and are sent with
// no read.
//
// Each request is journaled before it is sent and again with its outcome
// (see [OutcomeStarted]). An update's started line comes before its read,
// with the skill as planned, which the read must find for the update to be
// sent; so a restore brings back exactly what it replaced, and no other
// skill's line waits between the read and the write. The window that
// remains, from the read's answer to the write, is the API's: it has no
// conditional write.
// When ctx is cancelled no request starts; those in flight finish (within
// ApplyOptions.Grace) and are journaled; the rest are skipped and
// Result.Interrupted is set. Apply returns an error for a plan it must not
// apply (one with errors, or for another space), with no Result; and, with
// the Result, a [*bug.Error] when a request panicked: that step failed, and
// no request started after it.
func Apply(ctx context.Context, c Service, space string, p *Plan, o ApplyOptions) (*Result, error) {
	if err := checkApplicable(space, p); err != nil {
		return nil, err
	}
	if c == nil && p.HasChanges() {
		return nil, errors.New("no client to apply the plan with")
	}
	if o.Parallelism <= 0 {
		o.Parallelism = DefaultParallelism
	}
	if o.Grace <= 0 {
		o.Grace = DefaultGrace
	}

	// Requests run on a context that outlives an interrupt by the grace
	// period, so that a request in flight gets its answer and its journal
	// line rather than leaving the space in an unknown state.
	reqCtx, cancelReq := context.WithCancel(context.WithoutCancel(ctx))
	defer cancelReq()
	stopGrace := context.AfterFunc(ctx, func() { time.AfterFunc(o.Grace, cancelReq) })
	defer stopGrace()

	a := &applier{
		ctx:    ctx,
		reqCtx: reqCtx,
		c:      c,
		space:  space,
		plan:   p,
		opts:   o,
		res:    &Result{Target: p.Target, Space: space},
	}
	disables, updates, enables, publishes := a.build()
	a.runPhase(disables)
	a.runPhase(updates)
	a.planEnables(disables, enables)
	a.runPhase(enables)
	a.runPhase(publishes)
	return a.res, a.bug
}

// checkApplicable refuses a plan Apply must not run: one with errors, one
// for another space, or one that [Plan.Validate] rejects.
func checkApplicable(space string, p *Plan) error {
	if p == nil {
		return errors.New("no plan to apply")
	}
	if p.HasErrors() {
		msgs := make([]string, len(p.Errors))
		for i, e := range p.Errors {
			msgs[i] = e.Message
		}
		return fmt.Errorf("%w, so it cannot be applied: %s", ErrPlanHasErrors, strings.Join(msgs, "; "))
	}
	if p.Space != "" && p.Space != space {
		return fmt.Errorf("the plan is for space %s, not %s", p.Space, space)
	}
	if err := p.Validate(); err != nil {
		return fmt.Errorf("the plan cannot be applied: %w", err)
	}
	return nil
}

// step is one request of an apply.
type step struct {
	idx     int     // into Result.Steps
	change  *Change // nil for a publish
	agent   *AgentPublish
	action  Action
	update  remote.SkillUpdate // for an update
	after   *step              // this skill's update step, for an enable; nil if none
	skipWhy string             // set before the phase runs: skip with this reason
	// started and ended say which of its journal lines are written.
	started, ended bool
}

type applier struct {
	ctx, reqCtx context.Context
	c           Service
	space       string
	plan        *Plan
	opts        ApplyOptions
	res         *Result

	mu         sync.Mutex // guards res.Steps[i] while steps run, done, journalErr, bug and wrote
	done       int        // steps finished, for opts.Progress
	journalErr error
	bug        error // the first panic of a step, a *bug.Error
	// wrote holds the changes whose skill this apply's own disable
	// wrote: the update that follows must not take the updatedAt that
	// moved for an edit made in the app.
	wrote map[*Change]bool
}

func (a *applier) add(s *step) *step {
	s.idx = len(a.res.Steps)
	sr := StepResult{Action: s.action}
	if s.change != nil {
		sr.Slug, sr.ID = s.change.Slug, s.change.ID
	} else {
		sr.Slug, sr.ID = s.agent.Name, s.agent.ID
	}
	a.res.Steps = append(a.res.Steps, sr)
	return s
}

// build lays out the steps of each phase, in the order they run.
func (a *applier) build() (disables, updates, enables, publishes []*step) {
	updateOf := make(map[*Change]*step)
	for i := range a.plan.Changes {
		ch := &a.plan.Changes[i]
		if ch.Has(ActionDisable) {
			disables = append(disables, a.add(&step{change: ch, action: ActionDisable}))
		}
	}
	for i := range a.plan.Changes {
		ch := &a.plan.Changes[i]
		if ch.Has(ActionUpdate) {
			u, fields := updateBody(ch)
			s := a.add(&step{change: ch, action: ActionUpdate, update: u})
			a.res.Steps[s.idx].Fields = fields
			if len(fields) == 0 {
				s.skipWhy = "no field to send: the change names none of name, description, instructions"
			}
			updateOf[ch] = s
			updates = append(updates, s)
		}
	}
	for i := range a.plan.Changes {
		ch := &a.plan.Changes[i]
		if ch.Has(ActionEnable) {
			enables = append(enables, a.add(&step{change: ch, action: ActionEnable, after: updateOf[ch]}))
		}
	}
	for i := range a.plan.Publish {
		publishes = append(publishes, a.add(&step{agent: &a.plan.Publish[i], action: ActionPublish}))
	}
	return disables, updates, enables, publishes
}

// updateBody is the PATCH body of a change: exactly its fields among name,
// description and instructions, with the values it plans, instructions as
// [spec.InstructionsToSend] has them.
func updateBody(ch *Change) (remote.SkillUpdate, []string) {
	var u remote.SkillUpdate
	var fields []string
	for _, f := range ch.Fields {
		switch f {
		case FieldName:
			v := ch.After.Name
			u.Name = &v
		case FieldDescription:
			v := ch.After.Description
			u.Description = &v
		case FieldInstructions:
			v := spec.InstructionsToSend(*ch.After.Instructions)
			u.Instructions = &v
		default:
			continue
		}
		fields = append(fields, f)
	}
	return u, fields
}

// planEnables decides, once the disables and updates are done, which
// enables not to send: those of a skill whose update did not apply, and,
// when some disables did not apply, those that would pass the limit.
func (a *applier) planEnables(disables, enables []*step) {
	var notDisabled []string
	disabled := 0
	for _, s := range disables {
		if a.res.Steps[s.idx].Outcome == OutcomeApplied {
			if s.change.Before.Enabled {
				disabled++
			}
			continue
		}
		notDisabled = append(notDisabled, s.change.Slug)
	}
	room := -1 // unlimited: the plan was checked against the limit
	if len(notDisabled) > 0 {
		room = max(0, spec.MaxActiveSkills-(a.plan.Summary.ActiveBefore-disabled))
	}
	for _, s := range enables {
		if s.after != nil {
			switch update := a.res.Steps[s.after.idx]; update.Outcome {
			case OutcomeFailed:
				s.skipWhy = "update failed"
				continue
			case OutcomeAccepted:
				s.skipWhy = reasonAwaitsAccepted
				continue
			case OutcomeSkipped:
				s.skipWhy = "update was skipped: " + update.Reason
				if update.Reason == reasonInterrupted {
					s.skipWhy = reasonInterrupted
				}
				continue
			}
		}
		if room == 0 {
			s.skipWhy = fmt.Sprintf("enabling would pass the limit of %d active skills, because the disable of %s failed",
				spec.MaxActiveSkills, strings.Join(notDisabled, ", "))
			continue
		}
		if room > 0 {
			room--
		}
	}
}

// runPhase runs the steps of one phase, at most Parallelism at once, and
// waits for them all. A step that starts once apply must stop is skipped,
// so that no request starts after a bug, a journal failure or an interrupt.
func (a *applier) runPhase(steps []*step) {
	var g errgroup.Group
	g.SetLimit(a.opts.Parallelism)
	for _, s := range steps {
		if s.skipWhy != "" {
			a.finish(s, StepResult{Outcome: OutcomeSkipped, Reason: s.skipWhy})
			continue
		}
		g.Go(func() error {
			if why := a.stopReason(); why != "" {
				a.finish(s, StepResult{Outcome: OutcomeSkipped, Reason: why})
			} else if err := bug.Call(func() error { a.run(s); return nil }); err != nil {
				a.crashed(s, err)
			}
			return nil
		})
	}
	g.Wait()
}

// stopReason says why no further request may start, or "".
func (a *applier) stopReason() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.journalErr != nil {
		return reasonNoJournal
	}
	if a.bug != nil {
		return reasonBug
	}
	if a.ctx.Err() != nil {
		a.res.Interrupted = true
		return reasonInterrupted
	}
	return ""
}

// finish records the outcome of a step, keeping its name and action, and
// reports progress: one call at a time, in order.
func (a *applier) finish(s *step, r StepResult) {
	a.mu.Lock()
	defer a.mu.Unlock()
	sr := &a.res.Steps[s.idx]
	sr.Outcome, sr.Reason, sr.Status, sr.Mismatch = r.Outcome, r.Reason, r.Status, r.Mismatch
	a.done++
	if a.opts.Progress != nil {
		a.opts.Progress(a.done, len(a.res.Steps))
	}
}

// journal writes e, and records the first failure to, which stops apply.
func (a *applier) journal(e JournalEntry) error {
	if a.opts.Journal == nil {
		return nil
	}
	err := a.opts.Journal.Write(e)
	if err != nil {
		a.mu.Lock()
		if a.journalErr == nil {
			a.journalErr = err
			a.res.JournalError = err.Error()
		}
		a.mu.Unlock()
	}
	return err
}

// run journals the intent of one request, sends it, checks the answer,
// journals the outcome and records it. The intent is on disk before the
// request leaves, so that a process killed while it is in flight still
// leaves the text it may overwrite in the journal.
func (a *applier) run(s *step) {
	// An update's started line holds the skill as planned, and comes before
	// its read: nothing (another skill's journal line) waits between the
	// read and the write, and the read sends nothing unless it finds that.
	var before *SkillState
	if s.action == ActionUpdate {
		before = a.planned(s.change)
	}
	if e := a.acceptedBefore(s, before); e != nil {
		a.finish(s, StepResult{Outcome: OutcomeAccepted, Reason: fmt.Sprintf(
			"accepted by the service at %s, not visible yet: not sent again; run 'skillsync plan' later to see it land",
			e.Time.UTC().Format(time.RFC3339))})
		return
	}
	if err := a.journal(a.entry(s, before, nil, StepResult{Outcome: OutcomeStarted})); err != nil {
		a.finish(s, StepResult{Outcome: OutcomeSkipped, Reason: reasonNoJournal})
		return
	}
	s.started = true
	if s.action == ActionUpdate {
		if before = a.reread(s); before == nil {
			return
		}
	}
	var (
		r        StepResult
		err      error
		got      *remote.Skill
		mismatch string
	)
	switch s.action {
	case ActionDisable:
		got, err = a.c.DisableSkill(a.reqCtx, a.space, s.change.ID)
		if err == nil && got.Enabled {
			mismatch = "the service answered enabled: true to a disable"
		}
		if err == nil || errors.Is(err, remote.ErrNotVisible) {
			a.mu.Lock()
			if a.wrote == nil {
				a.wrote = make(map[*Change]bool)
			}
			a.wrote[s.change] = true
			a.mu.Unlock()
		}
	case ActionEnable:
		got, err = a.c.EnableSkill(a.reqCtx, a.space, s.change.ID)
		if err == nil && !got.Enabled {
			mismatch = "the service answered enabled: false to an enable"
		}
	case ActionUpdate:
		got, err = a.c.UpdateSkill(a.reqCtx, a.space, s.change.ID, s.update)
		if err == nil {
			mismatch = updateMismatch(s.update, got)
		}
	case ActionPublish:
		var ag *remote.Agent
		ag, err = a.c.PublishAgent(a.reqCtx, a.space, s.agent.ID)
		if err == nil && (!ag.Published || (ag.HasUnpublishedChanges && !ag.UnpublishedUnknown)) {
			mismatch = fmt.Sprintf("the service answered published: %t, hasUnpublishedChanges: %t to a publish", ag.Published, ag.HasUnpublishedChanges)
		}
	}
	var nv *remote.NotVisibleError
	switch {
	case errors.As(err, &nv):
		r.Outcome = OutcomeAccepted
		r.Reason = fmt.Sprintf("accepted by the service (%d %s), not visible yet after %s; run 'skillsync plan' later to see it land",
			nv.Status, http.StatusText(nv.Status), nv.Waited)
		r.Status = nv.Status
	case err != nil:
		r.Outcome = OutcomeFailed
		r.Reason, r.Status = failureReason(err)
		if a.reqCtx.Err() != nil {
			a.mu.Lock()
			a.res.Interrupted = true // abandoned after the grace period
			a.mu.Unlock()
		}
	case mismatch != "":
		r.Outcome = OutcomeFailed
		r.Mismatch = mismatch
	default:
		r.Outcome = OutcomeApplied
	}
	a.journal(a.entry(s, before, got, r)) // a failure stops the steps not yet started
	s.ended = true
	a.finish(s, r)
}

// reread reads the skill of an update right before it is written, and
// returns it; or it records why the update is not sent, journals that as
// the step's outcome (skipped), and returns nil. An edit made in the app
// since the plan read the skill (its updatedAt moved, or a field an update
// writes changed) would be overwritten: such a skill is left as it is,
// reported as changed in the space since the plan, and journaled with what
// the read returned.
func (a *applier) reread(s *step) *SkillState {
	got, err := a.c.GetSkill(a.reqCtx, a.space, s.change.ID)
	if err != nil && a.reqCtx.Err() != nil {
		// Abandoned after an interrupt: no write was sent.
		a.mu.Lock()
		a.res.Interrupted = true
		a.mu.Unlock()
		a.notSent(s, nil, StepResult{Outcome: OutcomeSkipped, Reason: reasonInterrupted})
		return nil
	}
	if err != nil {
		r := StepResult{Outcome: OutcomeFailed}
		r.Reason, r.Status = failureReason(err)
		r.Reason = "reading the skill before its update: " + r.Reason
		a.notSent(s, nil, r)
		return nil
	}
	now := StateOf(*got)
	if why := a.stopReason(); why != "" {
		a.notSent(s, &now, StepResult{Outcome: OutcomeSkipped, Reason: why})
		return nil
	}
	if moved := a.movedSincePlan(s.change, *got); moved != "" {
		a.notSent(s, &now, StepResult{Outcome: OutcomeSkipped, Reason: moved})
		return nil
	}
	return &now
}

// notSent ends the update s, whose started line is written, unsent: its
// outcome line says skipped (r's reason, and the skill as read, if it was),
// and the step ends with r.
func (a *applier) notSent(s *step, read *SkillState, r StepResult) {
	a.journal(a.entry(s, read, nil, StepResult{Outcome: OutcomeSkipped, Reason: r.Reason}))
	s.ended = true
	a.finish(s, r)
}

// planned is the skill of ch as the plan read it, enabled as this apply's
// own disable left it.
func (a *applier) planned(ch *Change) *SkillState {
	b := ch.Before
	a.mu.Lock()
	if _, ok := a.wrote[ch]; ok {
		b.Enabled = false
	}
	a.mu.Unlock()
	return &b
}

// movedSincePlan describes how a skill read right before its update differs
// from the skill the plan read, or "": its updatedAt (unless this apply's
// own disable wrote the skill, when only its fields tell) and the fields
// an update writes. A service may move updatedAt for its own reasons after
// a write, or spell it in another precision in reads: only a change
// skillsync did not make may hold an update back.
func (a *applier) movedSincePlan(ch *Change, got remote.Skill) string {
	a.mu.Lock()
	own := a.wrote[ch]
	a.mu.Unlock()
	var parts []string
	if was := ch.UpdatedAt; was != "" && !own && !spec.SameTime(got.UpdatedAt, was) {
		parts = append(parts, fmt.Sprintf("updatedAt %s -> %s", was, got.UpdatedAt))
	}
	// Enabled is not an update's to write, and this apply's own disable
	// may have moved it.
	fields := slices.DeleteFunc(spec.Differ(ch.Before, StateOf(got)),
		func(f string) bool { return f == FieldEnabled })
	if len(fields) > 0 {
		parts = append(parts, strings.Join(fields, ", ")+" changed")
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("changed in the space since the plan (%s); not overwritten: run 'skillsync plan' again", strings.Join(parts, "; "))
}

// crashed records err, the panic of the step s (a bug): no request starts
// after it, and s, unless it was done, fails with it, journaled as such
// when its request may have been sent.
func (a *applier) crashed(s *step, err error) {
	a.mu.Lock()
	if a.bug == nil {
		a.bug = err
	}
	open := a.res.Steps[s.idx].Outcome == ""
	a.mu.Unlock()
	r := StepResult{Outcome: OutcomeFailed, Reason: err.Error()}
	// Should the bug strike again here, the journal keeps the started line
	// with no outcome, as when the process is killed: the next plan shows
	// what the space holds.
	_ = bug.Call(func() error {
		if s.started && !s.ended {
			a.journal(a.entry(s, nil, nil, r))
		}
		if open {
			a.finish(s, r)
		}
		return nil
	})
}

// entry is the journal line of step s with result r. before is the skill
// as read right before an update; nil takes the plan's.
func (a *applier) entry(s *step, before *SkillState, got *remote.Skill, r StepResult) JournalEntry {
	e := JournalEntry{
		Time:     time.Now().UTC(),
		Space:    a.space,
		Target:   a.plan.Target,
		Action:   s.action,
		Outcome:  r.Outcome,
		Error:    r.Reason,
		Mismatch: r.Mismatch,
	}
	if s.change == nil {
		e.Slug, e.ID = s.agent.Name, s.agent.ID
		return e
	}
	e.Slug, e.ID = s.change.Slug, s.change.ID
	if before == nil {
		before = &s.change.Before
	}
	b := *before
	e.Before = &b
	if s.action == ActionUpdate {
		u := s.update
		e.Request = &u
	}
	if got != nil {
		after := StateOf(*got)
		e.After = &after
	}
	return e
}

// failureReason is how a failed request reads in a result: the service's
// status and message when it answered, else the client's error.
func failureReason(err error) (string, int) {
	var re *remote.Error
	if errors.As(err, &re) {
		reason := fmt.Sprintf("%d %s", re.StatusCode, http.StatusText(re.StatusCode))
		if re.Message != "" {
			reason += ": " + re.Message
		}
		return strings.TrimSpace(reason), re.StatusCode
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return "abandoned after the interrupt: no answer within the grace period; the change may or may not have been made: " + err.Error(), 0
	}
	return err.Error(), 0
}

// updateMismatch compares an update's response with its request: the
// fields sent, as [spec.Differ] compares them.
func updateMismatch(u remote.SkillUpdate, got *remote.Skill) string {
	answered := StateOf(*got)
	asked := answered
	if u.Name != nil {
		asked.Name = *u.Name
	}
	if u.Description != nil {
		asked.Description = *u.Description
	}
	if u.Instructions != nil {
		asked.Instructions = u.Instructions
	}
	var diffs []string
	for _, f := range spec.Differ(answered, asked) {
		switch f {
		case FieldName:
			diffs = append(diffs, fmt.Sprintf("name %q, not %q", got.Name, *u.Name))
		case FieldDescription:
			diffs = append(diffs, fmt.Sprintf("description %q, not %q", shortText(got.Description), shortText(*u.Description)))
		case FieldInstructions:
			if got.Instructions == nil {
				diffs = append(diffs, "instructions null")
				break
			}
			line := firstDifferentLine(spec.Canonical(*got.Instructions), spec.Canonical(*u.Instructions))
			diffs = append(diffs, fmt.Sprintf("instructions that differ from those sent from line %d", line))
		}
	}
	if len(diffs) == 0 {
		return ""
	}
	return "the service answered " + strings.Join(diffs, ", ")
}

// firstDifferentLine is the 1-based number of the first line where a and b
// differ, or 0 when they are equal.
func firstDifferentLine(a, b string) int {
	if a == b {
		return 0
	}
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

func shortText(s string) string {
	const most = 60
	r := []rune(s)
	if len(r) <= most {
		return s
	}
	return string(r[:most]) + "..."
}

// DefaultParallelism is how many requests [Apply] and the check of a
// saved plan run at once when their options leave it zero, as fetching
// does.
const DefaultParallelism = fetch.DefaultParallelism
