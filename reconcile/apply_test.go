package reconcile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// The tests of Fetch and Apply run against the emulator over real HTTP,
// through the real client.

const (
	envSpace   = reconciletest.Space
	envToken   = reconciletest.Token
	envROToken = reconciletest.ROToken
)

// applyEnv is an emulator with space ab12 served on loopback, a read-write
// and a read-only token, and a client with the read-write one.
type applyEnv struct {
	*reconciletest.Env
	t      testing.TB
	emu    *remotetest.Emulator
	srv    *remotetest.Server
	client *remote.Client
}

func newApplyEnv(t testing.TB, sp remotetest.Space) *applyEnv {
	t.Helper()
	e := reconciletest.NewEnv(t, sp)
	return &applyEnv{Env: e, t: t, emu: e.Emu, srv: e.Srv, client: e.Client}
}

func (e *applyEnv) clientWith(token string) *remote.Client { return e.ClientWith(token) }

// seed adds a remote skill named after its slug.
func (e *applyEnv) seed(slug, instructions string, enabled bool, opts ...func(*remotetest.SkillSeed)) remote.Skill {
	return e.Seed(slug, instructions, enabled, opts...)
}

// plan fetches the live state and plans against it.
func (e *applyEnv) plan(desired *fsrepo.Repo, pol Policy) *Plan {
	e.t.Helper()
	live, err := fetch.Space(context.Background(), e.client, envSpace, desired, fetch.Options{})
	if err != nil {
		e.t.Fatalf("Fetch: %v", err)
	}
	return Compute(desired, live, pol)
}

func (e *applyEnv) apply(ctx context.Context, p *Plan, o ApplyOptions) *Result {
	e.t.Helper()
	res, err := Apply(ctx, e.client, envSpace, p, o)
	if err != nil {
		e.t.Fatalf("Apply: %v", err)
	}
	return res
}

// planDump is p for a failure message.
func planDump(p *Plan) string {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// converged fails the test unless planning again finds nothing to do.
func (e *applyEnv) converged(desired *fsrepo.Repo, pol Policy) {
	e.t.Helper()
	p := e.plan(desired, pol)
	if p.HasChanges() {
		e.t.Fatalf("the plan after apply still has changes:\n%s", planDump(p))
	}
}

func (e *applyEnv) skill(slug string) remote.Skill { return e.Skill(slug) }

// wantSkill is a skill of the repository named after its slug, as seed
// names the remote one.
func wantSkill(slug, instructions string, enabled bool, opts ...func(*fsrepo.Skill)) fsrepo.Skill {
	return reconciletest.Want(slug, instructions, enabled, opts...)
}

func desiredRepo(skills ...fsrepo.Skill) *fsrepo.Repo { return reconciletest.Repo(skills...) }

func stepOf(t testing.TB, r *Result, slug string, a Action) StepResult {
	t.Helper()
	for _, s := range r.Steps {
		if s.Slug == slug && s.Action == a {
			return s
		}
	}
	t.Fatalf("no %s step for %s in %+v", a, slug, r.Steps)
	return StepResult{}
}

// journalOutcomes checks the pairing of a journal's lines: every outcome
// line follows a started line of the same mutation with the same request
// and before, and a started line has no after. A skipped line (an update
// not sent) stands alone, with a before and no request nor after. It
// returns the outcome lines, skipped ones included, and the started lines
// no outcome line followed, which must be what Unfinished finds.
func journalOutcomes(t testing.TB, es []JournalEntry) (outcomes, unfinished []JournalEntry) {
	t.Helper()
	type key struct {
		space, id, slug string
		action          Action
	}
	open := map[key][]int{}
	for i, e := range es {
		k := key{e.Space, e.ID, e.Slug, e.Action}
		if e.Outcome == OutcomeStarted {
			if e.After != nil || e.Error != "" || e.Mismatch != "" {
				t.Errorf("journal line %d: started line with an outcome: %+v", i+1, e)
			}
			open[k] = append(open[k], i)
			continue
		}
		outcomes = append(outcomes, e)
		if e.Outcome == OutcomeSkipped {
			if e.Before == nil || e.After != nil || e.Error == "" {
				t.Errorf("journal line %d: skipped line with an after, or no before or reason: %+v", i+1, e)
			}
			if n := len(open[k]); n > 0 && e.Request != nil { // an update not sent after its read
				st := es[open[k][n-1]]
				open[k] = open[k][:n-1]
				if !reflect.DeepEqual(st.Request, e.Request) {
					t.Errorf("journal line %d: skipped line with another request than its started line's: %+v", i+1, e)
				}
			}
			continue
		}
		n := len(open[k])
		if n == 0 {
			t.Errorf("journal line %d: %s %s %s with no started line before it", i+1, e.Action, e.Slug, e.Outcome)
			continue
		}
		st := es[open[k][n-1]]
		open[k] = open[k][:n-1]
		if !reflect.DeepEqual(st.Request, e.Request) || !reflect.DeepEqual(st.Before, e.Before) || st.Time.After(e.Time) {
			t.Errorf("journal line %d: %s %s does not match its started line:\n%+v\n%+v", i+1, e.Action, e.Slug, st, e)
		}
	}
	var idx []int
	for _, is := range open {
		idx = append(idx, is...)
	}
	sort.Ints(idx)
	for _, i := range idx {
		unfinished = append(unfinished, es[i])
	}
	if got := Unfinished(es); !reflect.DeepEqual(got, unfinished) {
		t.Errorf("Unfinished = %+v, want %+v", got, unfinished)
	}
	return outcomes, unfinished
}

func TestApplyEveryKindOfChange(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	env.seed("rename", "same\n", true)
	env.seed("redescribe", "same\n", true)
	env.seed("rewrite", "old text\nline 2\n", true)
	env.seed("turn-on", "same\n", false)
	env.seed("turn-off", "same\n", true)
	env.seed("combo", "old combo\n", false)
	env.seed("stray", "not in git\n", true)
	env.seed("untouched", "same\n", true)
	agent := env.emu.AddAgent(envSpace, remote.Agent{Name: "Helper", HasUnpublishedChanges: true})

	desired := desiredRepo(
		wantSkill("rename", "same\n", true, func(s *fsrepo.Skill) { s.Name = "Renamed" }),
		wantSkill("redescribe", "same\n", true, func(s *fsrepo.Skill) { s.Description = "A new description" }),
		wantSkill("rewrite", "new text\nline 2\n", true),
		wantSkill("turn-on", "same\n", true),
		wantSkill("turn-off", "same\n", false),
		wantSkill("combo", "new combo\n", true),
		wantSkill("untouched", "same\n", true),
	)
	pol := Policy{Unmanaged: config.UnmanagedDisable, PublishAgents: []string{"Helper"}}
	p := env.plan(desired, pol)
	if p.HasErrors() {
		t.Fatalf("plan errors: %+v", p.Errors)
	}

	j := &memJournal{}
	var calls []int
	res := env.apply(t.Context(), p, ApplyOptions{Journal: j, Progress: func(done, total int) { calls = append(calls, done*1000+total) }})

	if res.Failed() || res.Interrupted {
		t.Fatalf("apply failed: %+v", res)
	}
	// Phases: disables, updates, enables, publishes, each in plan order.
	var got []string
	for _, s := range res.Steps {
		got = append(got, string(s.Action)+" "+s.Slug)
	}
	want := []string{
		"disable stray", "disable turn-off",
		"update combo", "update redescribe", "update rename", "update rewrite",
		"enable combo", "enable turn-on",
		"publish Helper",
	}
	if strings.Join(got, ", ") != strings.Join(want, ", ") {
		t.Errorf("steps:\n got %s\nwant %s", strings.Join(got, ", "), strings.Join(want, ", "))
	}
	if n := res.Counts(); n != (Counts{Applied: len(want)}) {
		t.Errorf("counts = %+v", n)
	}
	if len(calls) != len(want) || calls[len(calls)-1] != len(want)*1001 {
		t.Errorf("progress calls = %v", calls)
	}

	if s := env.skill("rename"); s.Name != "Renamed" {
		t.Errorf("rename: name %q", s.Name)
	}
	if s := env.skill("redescribe"); s.Description != "A new description" {
		t.Errorf("redescribe: description %q", s.Description)
	}
	if s := env.skill("rewrite"); *s.Instructions != "new text\nline 2\n" {
		t.Errorf("rewrite: instructions %q", *s.Instructions)
	}
	if s := env.skill("stray"); s.Enabled {
		t.Error("stray (unmanaged) still enabled")
	}
	if s := env.skill("combo"); !s.Enabled || *s.Instructions != "new combo\n" {
		t.Errorf("combo = %+v", s)
	}
	if a, ok := env.emu.PublishedAgent(envSpace, agent.ID); !ok || a.Name != "Helper" {
		t.Errorf("agent not published")
	}
	req := env.emu.Requests()
	if req[remotetest.KeyUpdateSkill] != 4 || req[remotetest.KeyEnableSkill] != 2 ||
		req[remotetest.KeyDisableSkill] != 2 || req[remotetest.KeyPublishAgent] != 1 {
		t.Errorf("requests = %v", req)
	}
	env.converged(desired, pol)

	// The journal: two lines per mutation, started then its outcome, with
	// exactly the fields sent and the instructions replaced.
	all := j.lines(t)
	es, unfinished := journalOutcomes(t, all)
	if len(all) != 2*len(want) || len(es) != len(want) || len(unfinished) != 0 {
		t.Fatalf("journal has %d lines, %d outcomes and %d unfinished, want %d, %d and 0", len(all), len(es), len(unfinished), 2*len(want), len(want))
	}
	byKey := map[string]JournalEntry{}
	for _, e := range es {
		if e.Outcome != OutcomeApplied || e.Space != envSpace || e.Time.IsZero() || e.ID == "" {
			t.Errorf("journal entry %+v", e)
		}
		byKey[string(e.Action)+" "+e.Slug] = e
	}
	rw := byKey["update rewrite"]
	if rw.Before == nil || rw.Before.Instructions == nil || *rw.Before.Instructions != "old text\nline 2\n" {
		t.Errorf("journal of rewrite lacks the old instructions: %+v", rw.Before)
	}
	if rw.After == nil || *rw.After.Instructions != "new text\nline 2\n" {
		t.Errorf("journal of rewrite: after %+v", rw.After)
	}
	if r := rw.Request; r == nil || r.Instructions == nil || r.Name != nil || r.Description != nil {
		t.Errorf("journal of rewrite: request %+v, want instructions only", r)
	}
	if r := byKey["update rename"].Request; r == nil || r.Name == nil || *r.Name != "Renamed" || r.Instructions != nil || r.Description != nil {
		t.Errorf("journal of rename: request %+v, want name only", r)
	}
	if r := byKey["disable stray"]; r.Request != nil || r.After == nil || r.After.Enabled || !r.Before.Enabled {
		t.Errorf("journal of disable stray: %+v", r)
	}
	if _, ok := byKey["publish Helper"]; !ok {
		t.Error("publish not journaled")
	}
}

func TestApplyRefusesPlanWithErrors(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	desired := desiredRepo(wantSkill("nowhere", "x\n", true))
	p := env.plan(desired, Policy{})
	if !p.HasErrors() {
		t.Fatal("a missing skill should be a plan error")
	}
	before := env.emu.Requests()
	_, err := Apply(t.Context(), env.client, envSpace, p, ApplyOptions{})
	if !errors.Is(err, ErrPlanHasErrors) || !strings.Contains(err.Error(), "nowhere") {
		t.Errorf("Apply = %v, want ErrPlanHasErrors naming the skill", err)
	}
	_, err = Apply(t.Context(), env.client, "zz99", &Plan{Space: envSpace}, ApplyOptions{})
	if err == nil || !strings.Contains(err.Error(), "zz99") {
		t.Errorf("Apply to another space = %v", err)
	}
	if after := env.emu.Requests(); fmt.Sprint(after) != fmt.Sprint(before) {
		t.Errorf("requests sent by refused applies: %v -> %v", before, after)
	}
}

// many seeds n enabled or disabled skills slug-NN with the same instructions.
func (e *applyEnv) many(prefix string, n int, enabled bool) []fsrepo.Skill {
	var out []fsrepo.Skill
	for i := range n {
		slug := fmt.Sprintf("%s-%02d", prefix, i)
		e.seed(slug, "body\n", enabled)
		out = append(out, wantSkill(slug, "body\n", enabled))
	}
	return out
}

func TestApplyActiveLimitCountsBuiltins(t *testing.T) {
	// 3 hidden built-ins + 37 listed = 40 active; the plan sees 37 and
	// enables one more, which the service refuses.
	env := newApplyEnv(t, remotetest.Space{BuiltinActive: 3})
	skills := env.many("on", 36, true)
	env.seed("extra", "body\n", false)
	env.seed("edit", "old\n", true)
	skills = append(skills, wantSkill("extra", "body\n", true), wantSkill("edit", "new\n", true))
	desired := desiredRepo(skills...)
	p := env.plan(desired, Policy{})
	if p.HasErrors() || p.Summary.ActiveAfter != 38 {
		t.Fatalf("plan: errors %+v, active after %d", p.Errors, p.Summary.ActiveAfter)
	}
	res := env.apply(t.Context(), p, ApplyOptions{})
	en := stepOf(t, res, "extra", ActionEnable)
	if en.Outcome != OutcomeFailed || en.Status != http.StatusConflict || !strings.Contains(en.Reason, "409 Conflict") ||
		!strings.Contains(en.Reason, "already has 40 active skills") {
		t.Errorf("enable of extra = %+v, want failed with the service's 409 reason", en)
	}
	if up := stepOf(t, res, "edit", ActionUpdate); up.Outcome != OutcomeApplied {
		t.Errorf("the update of edit should not depend on the failed enable: %+v", up)
	}
	if !res.Failed() {
		t.Error("Failed() = false with a failed step")
	}
	if got := *env.skill("edit").Instructions; got != "new\n" {
		t.Errorf("edit not updated: %q", got)
	}
	// The 3 hidden built-ins count too: 37 listed before, 38 after (the
	// enable was refused, so 40 was the most).
	if m, bound := env.emu.MaxActiveSeen(envSpace), max(p.Summary.ActiveBefore, p.Summary.ActiveAfter)+3; m > bound {
		t.Errorf("MaxActiveSeen = %d, more than the %d active before or after apply", m, bound)
	}
}

func TestApplySwapAtTheLimit(t *testing.T) {
	// n active; swap 5 of them for 5 disabled ones, with every request of a
	// phase in parallel: the count must never pass n. At 40 the service
	// would refuse an early enable itself; below it, only the phase order
	// keeps the count down.
	for _, n := range []int{40, 20} {
		t.Run(fmt.Sprintf("%d active", n), func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			on := env.many("on", n, true)
			off := env.many("off", 5, false)
			for i := range 5 {
				on[i].Enabled = false
				off[i].Enabled = true
			}
			desired := desiredRepo(append(on, off...)...)
			pol := Policy{Force: true}
			p := env.plan(desired, pol)
			if p.HasErrors() || p.Summary.ActiveBefore != n || p.Summary.ActiveAfter != n {
				t.Fatalf("plan: errors %+v, active %d -> %d", p.Errors, p.Summary.ActiveBefore, p.Summary.ActiveAfter)
			}
			env.emu.ResetRequests()
			env.emu.SetFaults(remotetest.Faults{Latency: 2 * time.Millisecond})
			res := env.apply(t.Context(), p, ApplyOptions{Parallelism: 10})
			if res.Failed() {
				t.Fatalf("apply failed: %+v", res.Steps)
			}
			if m, bound := env.emu.MaxActiveSeen(envSpace), max(p.Summary.ActiveBefore, p.Summary.ActiveAfter); m != bound {
				t.Errorf("MaxActiveSeen = %d, want %d, the count before and after apply", m, bound)
			}
			env.emu.SetFaults(remotetest.Faults{})
			env.converged(desired, pol)
		})
	}
}

func TestApplyFailedDisableSkipsEnablesOverTheLimit(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	on := env.many("on", 40, true)
	off := env.many("off", 2, false)
	on[0].Enabled, on[1].Enabled = false, false
	off[0].Enabled, off[1].Enabled = true, true
	desired := desiredRepo(append(on, off...)...)
	p := env.plan(desired, Policy{Force: true})
	if p.HasErrors() {
		t.Fatalf("plan errors: %+v", p.Errors)
	}
	// on-00 vanishes from the API (but still counts as active) between
	// plan and apply: its disable fails, so one enable must not be sent.
	env.emu.EditSkill(envSpace, env.skill("on-00").ID, func(s *remotetest.SkillSeed) { s.Builtin = true })
	env.emu.ResetRequests()
	res := env.apply(t.Context(), p, ApplyOptions{})

	if d := stepOf(t, res, "on-00", ActionDisable); d.Outcome != OutcomeFailed || d.Status != http.StatusNotFound {
		t.Errorf("disable of on-00 = %+v", d)
	}
	if d := stepOf(t, res, "on-01", ActionDisable); d.Outcome != OutcomeApplied {
		t.Errorf("disable of on-01 = %+v", d)
	}
	e0, e1 := stepOf(t, res, "off-00", ActionEnable), stepOf(t, res, "off-01", ActionEnable)
	if e0.Outcome != OutcomeApplied {
		t.Errorf("enable of off-00 = %+v", e0)
	}
	if e1.Outcome != OutcomeSkipped || !strings.Contains(e1.Reason, "on-00") || !strings.Contains(e1.Reason, "limit of 40") {
		t.Errorf("enable of off-01 = %+v, want skipped naming the failed disable", e1)
	}
	if n := env.emu.Requests()[remotetest.KeyEnableSkill]; n != 1 {
		t.Errorf("%d enables sent, want 1", n)
	}
	// on-00 went hidden but still counts; it was listed, so the plan's
	// counts include it.
	if m, bound := env.emu.MaxActiveSeen(envSpace), max(p.Summary.ActiveBefore, p.Summary.ActiveAfter); m > bound {
		t.Errorf("MaxActiveSeen = %d, more than the %d active before or after apply", m, bound)
	}
}

func TestApplyPartialFailure(t *testing.T) {
	t.Run("read-only token", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("a", "old\n", false)
		env.seed("b", "same\n", true)
		desired := desiredRepo(wantSkill("a", "new\n", true), wantSkill("b", "same\n", false))
		p := env.plan(desired, Policy{})
		res, err := Apply(t.Context(), env.clientWith(envROToken), envSpace, p, ApplyOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.Steps {
			switch {
			case s.Action == ActionEnable:
				if s.Outcome != OutcomeSkipped || s.Reason != "update failed" {
					t.Errorf("%s %s = %+v, want skipped: update failed", s.Action, s.Slug, s)
				}
			case s.Outcome != OutcomeFailed || s.Status != http.StatusForbidden || !strings.Contains(s.Reason, "read-only"):
				t.Errorf("%s %s = %+v, want failed 403 with the service's reason", s.Action, s.Slug, s)
			}
		}
		if c := res.Counts(); c != (Counts{Failed: 2, Skipped: 1}) {
			t.Errorf("counts = %+v", c)
		}
	})
	t.Run("skill gone between plan and apply", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("gone", "old\n", true)
		env.seed("kept", "old\n", true)
		desired := desiredRepo(wantSkill("gone", "new\n", true), wantSkill("kept", "new\n", true))
		p := env.plan(desired, Policy{})
		env.emu.EditSkill(envSpace, env.skill("gone").ID, func(s *remotetest.SkillSeed) { s.Builtin = true })
		res := env.apply(t.Context(), p, ApplyOptions{})
		if s := stepOf(t, res, "gone", ActionUpdate); s.Outcome != OutcomeFailed || s.Reason == "" {
			t.Errorf("update of gone = %+v", s)
		}
		if s := stepOf(t, res, "kept", ActionUpdate); s.Outcome != OutcomeApplied {
			t.Errorf("update of kept = %+v", s)
		}
	})
}

func TestApplyTrimmingServerConverges(t *testing.T) {
	for _, mode := range []remotetest.NewlineMode{remotetest.TrimFinalNewline, remotetest.AddFinalNewline} {
		t.Run(fmt.Sprint(mode), func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.emu.SetFaults(remotetest.Faults{Newline: mode})
			env.seed("a", "old\n", true)
			env.seed("b", "", true)
			desired := desiredRepo(wantSkill("a", "new text\n\n", true), wantSkill("b", "body", true))
			p := env.plan(desired, Policy{})
			res := env.apply(t.Context(), p, ApplyOptions{})
			if res.Failed() {
				t.Fatalf("apply: %+v", res.Steps)
			}
			env.converged(desired, Policy{})
		})
	}
}

func TestApplyReportsMismatch(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	env.seed("a", "old\n", true)
	desired := desiredRepo(wantSkill("a", "new\n", true))
	p := env.plan(desired, Policy{})
	// A proxy that changes what the service answers: the step is failed
	// though the service answered 200.
	srv := rewritingServer(t, env.emu, func(body []byte) []byte {
		return bytes.Replace(body, []byte(`"instructions":"new\n"`), []byte(`"instructions":"other\n"`), 1)
	})
	c, err := remote.New(remote.Options{BaseURL: srv, Token: envToken})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(t.Context(), c, envSpace, p, ApplyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := stepOf(t, res, "a", ActionUpdate)
	if s.Outcome != OutcomeFailed || !strings.Contains(s.Mismatch, "instructions") || !strings.Contains(s.Mismatch, "line 1") {
		t.Errorf("update = %+v, want failed with a mismatch of the instructions", s)
	}
}

// TestApplyMismatchComparesAsPlanning: an update's answer is checked with
// the comparison of planning. A service that keeps a description without
// the final newline sent says the same description (the next plan shows no
// change), so the update applied; one that answers another description
// did not.
func TestApplyMismatchComparesAsPlanning(t *testing.T) {
	for _, tc := range []struct {
		name, answer string
		want         Outcome
	}{
		{"final newline dropped", `"description":"About a, anew"`, OutcomeApplied},
		{"another description", `"description":"Something else"`, OutcomeFailed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := newApplyEnv(t, remotetest.Space{})
			env.seed("a", "old\n", true)
			desired := desiredRepo(wantSkill("a", "old\n", true, func(s *fsrepo.Skill) { s.Description = "About a, anew\n" }))
			p := env.plan(desired, Policy{})
			srv := rewritingServer(t, env.emu, func(body []byte) []byte {
				return bytes.Replace(body, []byte(`"description":"About a, anew\n"`), []byte(tc.answer), 1)
			})
			c, err := remote.New(remote.Options{BaseURL: srv, Token: envToken})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(t.Context(), c, envSpace, p, ApplyOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if s := stepOf(t, res, "a", ActionUpdate); s.Outcome != tc.want {
				t.Errorf("update = %+v, want %s", s, tc.want)
			}
		})
	}
}

// rewritingServer serves h with every response body passed through
// rewrite.
func rewritingServer(t *testing.T, h http.Handler, rewrite func([]byte) []byte) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		w.Write(rewrite(rec.Body.Bytes()))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func TestApplyInterrupted(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	var skills []fsrepo.Skill
	for i := range 24 {
		slug := fmt.Sprintf("s-%02d", i)
		env.seed(slug, "old\n", i%2 == 0)
		skills = append(skills, wantSkill(slug, "new\n", true))
	}
	desired := desiredRepo(skills...)
	p := env.plan(desired, Policy{})
	if p.HasErrors() {
		t.Fatalf("plan errors: %+v", p.Errors)
	}

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var mu sync.Mutex
	patches := 0
	env.emu.SetFaults(remotetest.Faults{Latency: 20 * time.Millisecond})
	env.emu.SetOnRequest(func(r *http.Request) {
		if r.Method != http.MethodPatch {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if patches++; patches == 6 {
			cancel() // as Ctrl-C would, with requests in flight
		}
	})
	j := &memJournal{}
	res := env.apply(ctx, p, ApplyOptions{Journal: j, Parallelism: 4})
	env.emu.SetOnRequest(nil)
	env.emu.SetFaults(remotetest.Faults{})

	if !res.Interrupted {
		t.Fatal("Interrupted = false")
	}
	n := res.Counts()
	if n.Applied < 6 || n.Skipped == 0 || n.Failed != 0 {
		t.Errorf("counts = %+v: requests in flight must finish, the rest be skipped", n)
	}
	for _, s := range res.Steps {
		if s.Outcome == OutcomeSkipped && s.Reason != reasonInterrupted {
			t.Errorf("%s %s skipped: %q", s.Action, s.Slug, s.Reason)
		}
	}
	if res.Failed() {
		t.Error("Failed() = true for an interrupted apply with no failure")
	}
	// Every request in flight got its answer: each started line has its
	// outcome line.
	es, unfinished := journalOutcomes(t, j.lines(t))
	if len(unfinished) != 0 {
		t.Errorf("%d started lines with no outcome after an interrupt with a grace period", len(unfinished))
	}
	journaled := map[string]bool{}
	applied := 0
	for _, e := range es {
		switch {
		case e.Outcome == OutcomeApplied:
			journaled[string(e.Action)+" "+e.ID] = true
			applied++
		case e.Outcome == OutcomeSkipped && e.Error == reasonInterrupted && e.Request != nil:
			// An update interrupted between its started line and its
			// write: not sent.
		default:
			t.Errorf("journal entry %+v", e)
		}
	}
	for _, s := range res.Steps {
		if s.Outcome == OutcomeApplied && !journaled[string(s.Action)+" "+s.ID] {
			t.Errorf("applied %s %s has no journal line", s.Action, s.Slug)
		}
	}
	if applied != n.Applied || applied != patches {
		t.Errorf("journal has %d lines applied, %d steps applied, %d PATCHes reached the service", applied, n.Applied, patches)
	}

	// Planning and applying again finishes the job.
	p2 := env.plan(desired, Policy{})
	if res2 := env.apply(t.Context(), p2, ApplyOptions{}); res2.Failed() || res2.Interrupted {
		t.Fatalf("second apply: %+v", res2)
	}
	env.converged(desired, Policy{})
}

func TestApplyStopsWhenTheJournalFails(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	env.seed("a", "old\n", true)
	env.seed("b", "old\n", true)
	p := env.plan(desiredRepo(wantSkill("a", "new\n", true), wantSkill("b", "new\n", true)), Policy{})
	env.emu.ResetRequests()
	res := env.apply(t.Context(), p, ApplyOptions{Journal: brokenJournal{}, Parallelism: 1})
	if res.JournalError == "" || !res.Failed() {
		t.Errorf("result = %+v, want the journal error reported", res)
	}
	// The started line of the first step cannot be written, so not even
	// it is sent: a change the journal does not hold could not be restored.
	if c := res.Counts(); c.Applied != 0 || c.Skipped != 2 {
		t.Errorf("counts = %+v: no step may start once the journal fails", c)
	}
	for _, s := range res.Steps {
		if s.Reason != reasonNoJournal {
			t.Errorf("%s %s: %s %q, want skipped %q", s.Action, s.Slug, s.Outcome, s.Reason, reasonNoJournal)
		}
	}
	if n := env.emu.Requests()[remotetest.KeyUpdateSkill]; n != 0 {
		t.Errorf("%d updates sent with no journal line", n)
	}
}

// TestApplyJournalsBeforeEachRequest reads the journal from the service's
// side as each mutation arrives: its started line, with the request and
// the text it overwrites, is already written (the file journal syncs each
// line before Write returns), so a process killed while the request is in
// flight leaves it restorable.
func TestApplyJournalsBeforeEachRequest(t *testing.T) {
	env := newApplyEnv(t, remotetest.Space{})
	env.seed("rewrite", "old text\n", true)
	env.seed("turn-off", "same\n", true)
	env.seed("turn-on", "same\n", false)
	desired := desiredRepo(wantSkill("rewrite", "new text\n", true), wantSkill("turn-off", "same\n", false), wantSkill("turn-on", "same\n", true))
	p := env.plan(desired, Policy{Force: true})
	if p.HasErrors() || len(p.Changes) != 3 {
		t.Fatalf("plan: %d changes, errors %+v", len(p.Changes), p.Errors)
	}
	j := &memJournal{}
	ids := map[string]string{}
	for _, ch := range p.Changes {
		ids[ch.ID] = ch.Slug
	}
	var mu sync.Mutex
	seen := 0
	env.emu.SetOnRequest(func(r *http.Request) {
		if r.Method == http.MethodGet {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		seen++
		// Parallelism 1: nothing else writes the journal meanwhile.
		es := j.lines(t)
		if len(es) == 0 {
			t.Errorf("%s %s: empty journal, want its started line written", r.Method, r.URL.Path)
			return
		}
		last := es[len(es)-1]
		if last.Outcome != OutcomeStarted || !strings.Contains(r.URL.Path, last.ID) || ids[last.ID] != last.Slug || last.Before == nil {
			t.Errorf("%s %s: the last journal line is %+v, want the started line of this request", r.Method, r.URL.Path, last)
		}
		if r.Method == http.MethodPatch && (last.Request == nil || last.Request.Instructions == nil ||
			last.Before.Instructions == nil || *last.Before.Instructions != "old text\n") {
			t.Errorf("started line of the update: %+v, want the request and the instructions it replaces", last)
		}
	})
	res := env.apply(t.Context(), p, ApplyOptions{Journal: j, Parallelism: 1})
	env.emu.SetOnRequest(nil)
	if res.Failed() {
		t.Fatalf("apply: %+v", res.Steps)
	}
	if seen != 3 {
		t.Errorf("%d write requests, want 3", seen)
	}
	if es, unfinished := journalOutcomes(t, j.lines(t)); len(es) != 3 || len(unfinished) != 0 {
		t.Errorf("journal: %d outcomes, %d unfinished; want 3 and 0", len(es), len(unfinished))
	}
}

func TestApplyAbandonsRequestsAfterTheGracePeriod(t *testing.T) {
	// The update in flight when the interrupt comes gets no answer within
	// the grace period: it may or may not have been made.
	t.Run("write in flight", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("slow", "old\n", true)
		p := env.plan(desiredRepo(wantSkill("slow", "new\n", true)), Policy{})
		ctx, cancel := context.WithCancel(t.Context())
		env.emu.SetOnRequest(func(r *http.Request) {
			if r.Method != http.MethodPatch {
				return
			}
			cancel()
			select { // a slow write, until the client gives up
			case <-r.Context().Done():
			case <-time.After(2 * time.Second):
			}
		})
		start := time.Now()
		res := env.apply(ctx, p, ApplyOptions{Grace: 50 * time.Millisecond})
		if d := time.Since(start); d > time.Second {
			t.Errorf("apply took %s; the grace period is 50ms", d)
		}
		s := stepOf(t, res, "slow", ActionUpdate)
		if !res.Interrupted || s.Outcome != OutcomeFailed || !strings.Contains(s.Reason, "may or may not") {
			t.Errorf("result = %+v", res)
		}
	})
	// Abandoned while reading the skill right before its update: no write
	// was sent, so the update is skipped, not in doubt.
	t.Run("read in flight", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("slow", "old\n", true)
		p := env.plan(desiredRepo(wantSkill("slow", "new\n", true)), Policy{})
		ctx, cancel := context.WithCancel(t.Context())
		env.emu.ResetRequests()
		env.emu.SetFaults(remotetest.Faults{Latency: 2 * time.Second})
		env.emu.SetOnRequest(func(*http.Request) { cancel() })
		start := time.Now()
		res := env.apply(ctx, p, ApplyOptions{Grace: 50 * time.Millisecond})
		if d := time.Since(start); d > time.Second {
			t.Errorf("apply took %s; the grace period is 50ms", d)
		}
		s := stepOf(t, res, "slow", ActionUpdate)
		if !res.Interrupted || s.Outcome != OutcomeSkipped || s.Reason != reasonInterrupted || res.Failed() {
			t.Errorf("result = %+v", res)
		}
		if n := env.emu.Requests()[remotetest.KeyUpdateSkill]; n != 0 {
			t.Errorf("%d updates sent after the interrupt", n)
		}
	})
}

// TestUpdateMismatch: an update's answer differs from its request in the
// fields sent, as planning compares them, and only those.
func TestUpdateMismatch(t *testing.T) {
	str := func(s string) *string { return &s }
	got := remote.Skill{Name: "N", Description: "D", Instructions: str("a\nb\n"), Enabled: true}
	for _, tc := range []struct {
		name string
		u    remote.SkillUpdate
		want string
	}{
		{"as sent", remote.SkillUpdate{Name: str("N"), Description: str("D"), Instructions: str("a\nb\n")}, ""},
		{"the same but for what canonical form and descriptions allow", remote.SkillUpdate{Description: str("D\n"), Instructions: str("a\r\nb")}, ""},
		{"a field not sent", remote.SkillUpdate{Name: str("N")}, ""},
		{"name", remote.SkillUpdate{Name: str("M")}, `the service answered name "N", not "M"`},
		{"every field", remote.SkillUpdate{Name: str("M"), Description: str("E"), Instructions: str("a\nc\n")},
			`the service answered name "N", not "M", description "D", not "E", instructions that differ from those sent from line 2`},
	} {
		if m := updateMismatch(tc.u, &got); m != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, m, tc.want)
		}
	}
	null := got
	null.Instructions = nil
	if m := updateMismatch(remote.SkillUpdate{Instructions: str("x")}, &null); m != "the service answered instructions null" {
		t.Errorf("null instructions: %q", m)
	}
}
