package reconcile

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/spec"
)

// TestFaultSoak plans and applies against an emulator that answers 10% of
// requests 500 or 503, 5% 429 with Retry-After, and drops 2% of
// connections (half the runs after making the change, so the answer of a
// write is lost). Every seeded run must converge: the plan afterwards is
// empty, the active count never passed its count before or after apply
// (so never the limit), every mutation is
// journaled, and every change of the plan reached the space.
//
// The client's waits between attempts are recorded, not slept through: the
// 429s ask for a 2s Retry-After, which the client must wait for each time,
// at no cost to the soak's time. -short makes it smaller.
func TestFaultSoak(t *testing.T) {
	runs, skills := 20, 200
	if testing.Short() {
		runs, skills = 4, 60
	}
	start := time.Now()
	for run := range runs {
		t.Run(fmt.Sprintf("seed=%d", run), func(t *testing.T) {
			soakRun(t, uint64(run), skills)
		})
	}
	t.Logf("%d runs of %d skills in %s", runs, skills, time.Since(start).Round(time.Millisecond))
}

func soakRun(t *testing.T, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 0x50a4))
	var retries retryLog
	opts := remote.Options{MaxAttempts: 10, MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond}
	env := newPerfEnv(t, 0, retries.options(opts))

	// A space near the limit, and a repository that disables some of its
	// active skills and enables as many others: applied in the wrong
	// order, the count would pass 40.
	live := 0
	for i := range n {
		slug := fmt.Sprintf("soak-%03d", i)
		on := live < spec.MaxActiveSkills-2 && r.IntN(4) == 0
		if on {
			live++
		}
		text := fmt.Sprintf("# %s\n\nVersion one of skill %d.\n", slug, i)
		env.emu.AddSkill(benchSpace, remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug,
			Description: "About " + slug, Instructions: text, Enabled: on})
		ls := fsrepo.Skill{Slug: slug, Path: "skills/" + slug + "/SKILL.md", Name: "Skill " + slug,
			Description: "About " + slug, Instructions: spec.Canonical(text), Enabled: on}
		switch r.IntN(6) {
		case 0, 1:
			ls.Instructions = spec.Canonical(fmt.Sprintf("# %s\n\nVersion two, seed %d.\n", slug, seed))
		case 2:
			ls.Description = fmt.Sprintf("Now about %s (seed %d)", slug, seed)
		case 3:
			ls.Name = fmt.Sprintf("Renamed %s", slug)
		}
		env.desired.Skills = append(env.desired.Skills, ls)
	}
	// Swap: disable a third of the active skills, enable as many others.
	var on, off []int
	for i, s := range env.desired.Skills {
		if s.Enabled {
			on = append(on, i)
		} else {
			off = append(off, i)
		}
	}
	swaps := min(len(on)/3, len(off))
	r.Shuffle(len(off), func(i, j int) { off[i], off[j] = off[j], off[i] })
	for k := range swaps {
		env.desired.Skills[on[k]].Enabled = false
		env.desired.Skills[off[k]].Enabled = true
	}

	env.emu.SetFaults(remotetest.Faults{
		ErrorRate:      0.10,
		RateLimitRate:  0.05,
		DropRate:       0.02,
		RetryAfter:     2 * time.Second,
		DropAfterWrite: seed%2 == 1,
		Seed:           int64(seed),
	})
	env.emu.ResetRequests()
	ctx := context.Background()
	pol := Policy{Force: true}

	live0, err := fetch.Space(ctx, env.client, benchSpace, env.desired, fetch.Options{})
	if err != nil {
		t.Fatalf("fetch under faults: %v", err)
	}
	p := Compute(env.desired, live0, pol)
	if p.HasErrors() {
		t.Fatalf("plan errors: %+v", p.Errors)
	}
	if p.Summary.Disable == 0 || p.Summary.Enable == 0 || p.Summary.Update == 0 {
		t.Fatalf("the plan does not exercise every phase: %+v", p.Summary)
	}

	j := &memJournal{}
	res, err := Apply(ctx, env.client, benchSpace, p, ApplyOptions{Journal: j})
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if res.Failed() || res.Interrupted {
		for _, s := range res.Steps {
			if s.Outcome != OutcomeApplied {
				t.Logf("%s %s: %s %s %s", s.Action, s.Slug, s.Outcome, s.Reason, s.Mismatch)
			}
		}
		t.Fatalf("apply under faults did not complete: %+v", res.Counts())
	}

	// Every step of the plan is journaled, once, as applied, after its
	// started line; none is left started with no outcome.
	outcomes, unfinished := journalOutcomes(t, j.lines(t))
	for _, e := range unfinished {
		t.Errorf("journal: %s %s started, with no outcome", e.Action, e.Slug)
	}
	journaled := make(map[string]int)
	for _, e := range outcomes {
		if e.Outcome != OutcomeApplied {
			t.Errorf("journal: %s %s %s: %s", e.Action, e.Slug, e.Outcome, e.Error)
		}
		if e.Before == nil || (e.Action == ActionUpdate && e.Request == nil) || e.After == nil {
			t.Errorf("journal: %s %s lacks its before, request or after", e.Action, e.Slug)
		}
		journaled[string(e.Action)+" "+e.ID]++
	}
	steps := 0
	for _, ch := range p.Changes {
		for _, a := range ch.Actions {
			steps++
			if k := string(a) + " " + ch.ID; journaled[k] != 1 {
				t.Errorf("%s %s journaled %d times, want once", a, ch.Slug, journaled[k])
			}
		}
	}
	if len(journaled) != steps {
		t.Errorf("journal has %d distinct mutations, the plan %d", len(journaled), steps)
	}

	// The emulator refuses enables at 40 itself; below the limit only this
	// bound catches enables sent before the disables.
	if got, bound := env.emu.MaxActiveSeen(benchSpace), max(p.Summary.ActiveBefore, p.Summary.ActiveAfter); got > bound {
		t.Errorf("the active count reached %d during apply, more than the %d active before or after", got, bound)
	}
	// No operation lost: the space holds exactly what the repository says.
	for _, ls := range env.desired.Skills {
		s, ok := env.emu.SkillBySlug(benchSpace, ls.Slug)
		if !ok {
			t.Fatalf("skill %s vanished", ls.Slug)
		}
		if s.Name != ls.Name || s.Description != ls.Description || s.Enabled != ls.Enabled ||
			s.Instructions == nil || spec.Canonical(*s.Instructions) != ls.Instructions {
			t.Errorf("skill %s after apply: %+v, want %+v", ls.Slug, s, ls)
		}
	}
	// And planning again, still under faults, finds nothing to do.
	live1, err := fetch.Space(ctx, env.client, benchSpace, env.desired, fetch.Options{})
	if err != nil {
		t.Fatalf("fetch after apply: %v", err)
	}
	if p2 := Compute(env.desired, live1, pol); p2.HasChanges() || p2.HasErrors() {
		t.Errorf("plan after apply: %d changes, %d errors", len(p2.Changes), len(p2.Errors))
	}
	// Faults did strike: more requests than a clean run needs (each
	// update reads its skill right before it).
	clean := 2*(n+ceilDiv(n, spec.MaxPageLimit)+1) + steps + p.Summary.Update
	if got := env.requests(); got <= clean {
		t.Errorf("%d requests, no more than a run with no fault (%d): were faults injected?", got, clean)
	} else {
		t.Logf("%d steps, %d requests (%d with no fault)", steps, got, clean)
	}
	retries.check(t, opts, 2*time.Second)
}
