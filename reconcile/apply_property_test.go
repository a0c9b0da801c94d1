package reconcile

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/spec"
)

// TestApplyConverges checks the promise of DESIGN.md on random spaces and
// repositories: a plan with no errors, applied, leaves nothing to plan, and
// the active count never passes the higher of its counts before and after
// apply on the way (so never the limit).
func TestApplyConverges(t *testing.T) {
	iterations := 30
	if testing.Short() {
		iterations = 8
	}
	env := newApplyEnv(t, remotetest.Space{})
	texts := []string{"alpha\n", "beta\r\n\r\n", "\n\ngamma  \n", "delta", "# Title\n\nbody\n", "\uFEFFbom\n"}
	modes := []remotetest.NewlineMode{remotetest.KeepNewline, remotetest.TrimFinalNewline, remotetest.AddFinalNewline}
	applied, steps := 0, 0
	for it := range iterations {
		seed := uint64(it)
		r := rand.New(rand.NewPCG(seed, 42))
		space := fmt.Sprintf("p%03d", it)
		env.emu.AddSpace(remotetest.Space{ID: space})
		env.emu.SetFaults(remotetest.Faults{Newline: modes[r.IntN(len(modes))]})

		var want []fsrepo.Skill
		active := 0
		n := 1 + r.IntN(60)
		for i := range n {
			slug := fmt.Sprintf("k-%02d", i)
			enabled := r.IntN(3) > 0 && active < spec.MaxActiveSkills
			if enabled {
				active++
			}
			text := texts[r.IntN(len(texts))]
			seed := remotetest.SkillSeed{Slug: slug, Name: fmt.Sprintf("Skill %d", i),
				Description: "Does " + slug, Instructions: text, Enabled: enabled}
			env.emu.AddSkill(space, seed)
			if r.IntN(8) == 0 {
				continue // unmanaged
			}
			ls := fsrepo.Skill{Slug: slug, Path: "skills/" + slug + "/SKILL.md", Name: seed.Name,
				Description: seed.Description, Enabled: enabled, Instructions: spec.Canonical(text)}
			if r.IntN(4) == 0 {
				ls.Name = fmt.Sprintf("Renamed %d", i)
			}
			if r.IntN(4) == 0 {
				ls.Description = "Now does " + slug
			}
			if r.IntN(3) == 0 {
				ls.Instructions = spec.Canonical(texts[r.IntN(len(texts))] + "more\n")
			}
			if r.IntN(4) == 0 {
				ls.Enabled = !ls.Enabled
			}
			want = append(want, ls)
		}
		if r.IntN(4) == 0 {
			want = append(want, fsrepo.Skill{Slug: "zz-missing", Name: "Missing", Description: "d", Enabled: true})
		}
		desired := &fsrepo.Repo{Config: config.Config{Space: space}, Skills: want}
		pol := Policy{Missing: config.MissingWarn, Force: true, Unmanaged: config.UnmanagedIgnore}
		if r.IntN(2) == 0 {
			pol.Unmanaged = config.UnmanagedDisable
		}

		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("iteration %d (seed %d, %d skills): %s", it, seed, n, fmt.Sprintf(format, args...))
		}
		env.emu.ResetRequests() // the high-water mark starts at the seeded count
		live, err := fetch.Space(t.Context(), env.client, space, desired, fetch.Options{})
		if err != nil {
			fail("Fetch: %v", err)
		}
		p := Compute(desired, live, pol)
		if p.HasErrors() {
			for _, e := range p.Errors {
				if e.Code != CodeActiveLimit {
					fail("unexpected plan error %s: %s", e.Code, e.Message)
				}
			}
			if _, err := Apply(t.Context(), env.client, space, p, ApplyOptions{}); !errors.Is(err, ErrPlanHasErrors) {
				fail("Apply of a plan with errors = %v", err)
			}
			continue
		}
		res, err := Apply(t.Context(), env.client, space, p, ApplyOptions{Parallelism: 1 + r.IntN(12)})
		if err != nil {
			fail("Apply: %v", err)
		}
		if res.Failed() || res.Interrupted {
			var b strings.Builder
			for _, s := range res.Steps {
				fmt.Fprintf(&b, "\n  %s %s: %s %s %s", s.Action, s.Slug, s.Outcome, s.Reason, s.Mismatch)
			}
			fail("apply failed:%s", b.String())
		}
		// The emulator refuses enables at 40 itself, so the limit alone
		// would catch a wrong phase order only near it: at any count, the
		// space must never hold more active skills than before or after.
		if m, bound := env.emu.MaxActiveSeen(space), max(p.Summary.ActiveBefore, p.Summary.ActiveAfter); m > bound {
			fail("MaxActiveSeen = %d, more than the %d active before or after apply", m, bound)
		}
		live, err = fetch.Space(t.Context(), env.client, space, desired, fetch.Options{})
		if err != nil {
			fail("Fetch after apply: %v", err)
		}
		if p2 := Compute(desired, live, pol); p2.HasChanges() || p2.HasErrors() {
			fail("plan after apply is not empty:\n%s", planDump(p2))
		}
		applied++
		steps += len(res.Steps)
	}
	t.Logf("%d of %d iterations applied, %d steps in all", applied, iterations, steps)
	if applied < iterations/2 {
		t.Errorf("only %d of %d iterations had a plan without errors; the generator needs tuning", applied, iterations)
	}
}
