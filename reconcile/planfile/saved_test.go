package planfile

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// The tests of CheckStale run against the emulator over real HTTP,
// through the real client, and against a space in memory.

// applyEnv plans and applies against an emulator.
type applyEnv struct{ *reconciletest.Env }

func newApplyEnv(t testing.TB, sp remotetest.Space) *applyEnv {
	return &applyEnv{reconciletest.NewEnv(t, sp)}
}

func (e *applyEnv) seed(slug, instructions string, enabled bool, opts ...func(*remotetest.SkillSeed)) remote.Skill {
	return e.Seed(slug, instructions, enabled, opts...)
}

func (e *applyEnv) skill(slug string) remote.Skill { return e.Skill(slug) }

// plan fetches the live state and plans against it.
func (e *applyEnv) plan(desired *fsrepo.Repo, pol reconcile.Policy) *reconcile.Plan {
	e.T.Helper()
	live, err := fetch.Space(context.Background(), e.Client, reconciletest.Space, desired, fetch.Options{})
	if err != nil {
		e.T.Fatalf("Fetch: %v", err)
	}
	return reconcile.Compute(desired, live, pol)
}

func (e *applyEnv) apply(ctx context.Context, p *reconcile.Plan, o reconcile.ApplyOptions) *reconcile.Result {
	e.T.Helper()
	res, err := reconcile.Apply(ctx, e.Client, reconciletest.Space, p, o)
	if err != nil {
		e.T.Fatalf("Apply: %v", err)
	}
	return res
}

func strp(s string) *string { return &s }

// TestCheckStaleWithoutHTTP: CheckStale reads through the Service
// interface alone; a plan applied already has every skill moved.
func TestCheckStaleWithoutHTTP(t *testing.T) {
	svc := reconciletest.NewService(reconciletest.Space)
	edit := svc.Add("edit", "old\n", true)
	svc.Add("wake", "same\n", false)
	svc.Add("stray", "x\n", true)
	desired := reconciletest.Repo(reconciletest.Want("edit", "new\n", true), reconciletest.Want("wake", "same\n", true))
	desired.Config.Unmanaged = config.UnmanagedDisable
	live, err := fetch.Space(t.Context(), svc, reconciletest.Space, desired, fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p := reconcile.Compute(desired, live, reconcile.PolicyFromConfig(desired.Config))
	if len(p.Changes) != 3 || p.HasErrors() {
		t.Fatalf("plan: %d changes, errors %+v", len(p.Changes), p.Errors)
	}
	if stale, err := CheckStale(t.Context(), svc, &Saved{Plan: p}, reconciletest.Space, svc.BaseURL(), desired); err != nil || len(stale) != 0 {
		t.Fatalf("CheckStale of a fresh plan: %q, %v", stale, err)
	}
	res, err := reconcile.Apply(t.Context(), svc, reconciletest.Space, p, reconcile.ApplyOptions{})
	if err != nil || res.Failed() {
		t.Fatalf("Apply: %+v, %v", res, err)
	}
	stale, err := CheckStale(t.Context(), svc, &Saved{Plan: p}, reconciletest.Space, svc.BaseURL(), desired)
	if err != nil || len(stale) != 3 || !strings.HasPrefix(stale[0], "edit: changed in the space since the plan") || edit.ID == "" {
		t.Errorf("CheckStale of the applied plan: %q, %v; want its 3 skills moved", stale, err)
	}
}

// TestCheckStaleReadPanicIsAnError: a read that panics, which Go would
// turn into the end of the process with exit code 2 (skillsync's
// "changes"), is returned as a *bug.Error.
func TestCheckStaleReadPanicIsAnError(t *testing.T) {
	svc := reconciletest.NewService(reconciletest.Space)
	s := svc.Add("a", "x\n", true)
	svc.Hook = func(call string) {
		if call == "GET "+s.ID {
			panic("planted bug")
		}
	}
	p := &reconcile.Plan{Space: reconciletest.Space, Changes: []reconcile.Change{{Slug: "a", ID: s.ID, Actions: []reconcile.Action{reconcile.ActionEnable},
		Fields: []string{reconcile.FieldEnabled}, UpdatedAt: s.UpdatedAt}}}
	_, err := CheckStale(t.Context(), svc, &Saved{Plan: p}, reconciletest.Space, svc.BaseURL(), nil)
	var be *bug.Error
	if !errors.As(err, &be) || be.Value != "planted bug" {
		t.Errorf("CheckStale returned %v (%T), want the panic as a *bug.Error", err, err)
	}
}

// savedFixture is a space with a plan of an update, an enable and an
// unmanaged disable, saved and read back.
func savedFixture(t *testing.T, publish bool) (*applyEnv, *fsrepo.Repo, reconcile.Policy, *Saved) {
	t.Helper()
	env := newApplyEnv(t, remotetest.Space{})
	env.seed("edit", "old\n", true)
	env.seed("wake", "same\n", false)
	env.seed("stray", "x\n", true)
	env.seed("quiet", "same\n", true)
	env.Emu.AddAgent(reconciletest.Space, remote.Agent{Name: "Helper", HasUnpublishedChanges: true})
	desired := reconciletest.Repo(reconciletest.Want("edit", "new\n", true), reconciletest.Want("wake", "same\n", true), reconciletest.Want("quiet", "same\n", true))
	// The policy comes from skillsync.yaml, as it does for the CLI: the
	// saved plan's desired hash covers it.
	desired.Config.Unmanaged = config.UnmanagedDisable
	desired.Config.MaxDisablePercent = config.DefaultMaxDisablePercent
	if publish {
		desired.Config.Agents.Publish = []string{"Helper"}
	}
	pol := reconcile.PolicyFromConfig(desired.Config)
	p := env.plan(desired, pol)
	if p.HasErrors() || len(p.Changes) != 3 {
		t.Fatalf("plan: %d changes, errors %+v", len(p.Changes), p.Errors)
	}
	sp := throughFile(t, &Saved{BaseURL: env.Srv.URL, Plan: p})
	if !reflect.DeepEqual(sp.Plan, p) {
		t.Fatalf("saved plan did not round-trip:\n got %+v\nwant %+v", sp.Plan, p)
	}
	return env, desired, pol, sp
}

func TestCheckStale(t *testing.T) {
	t.Run("fresh", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		env.Emu.ResetRequests()
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL+"/", desired)
		if err != nil || len(stale) != 0 {
			t.Fatalf("CheckStale = %q, %v", stale, err)
		}
		want := map[string]int{remotetest.KeyGetSkill: 3, remotetest.KeyListSkills: 1}
		if got := env.Emu.Requests(); !reflect.DeepEqual(got, want) {
			t.Errorf("requests = %v, want exactly one get per change and one list for the enable", got)
		}
		res := env.apply(t.Context(), sp.Plan, reconcile.ApplyOptions{})
		if res.Failed() {
			t.Fatalf("apply: %+v", res.Steps)
		}
	})
	t.Run("edited in the app", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		before := env.skill("edit")
		env.Emu.EditSkill(reconciletest.Space, before.ID, func(s *remotetest.SkillSeed) { s.Instructions = "edited in the app\n" })
		env.Emu.EditSkill(reconciletest.Space, env.skill("stray").ID, func(s *remotetest.SkillSeed) { s.Enabled = false })
		env.Emu.EditSkill(reconciletest.Space, env.skill("quiet").ID, func(s *remotetest.SkillSeed) { s.Name = "Renamed" }) // not in the plan
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(stale, "\n")
		// stray, disabled in the app, also moves the active count the
		// plan's enable of wake was made with.
		if len(stale) != 3 ||
			!strings.Contains(got, "the space has 2 active skills, the plan was made with 3") ||
			!strings.Contains(got, "edit: changed in the space since the plan (updatedAt "+before.UpdatedAt+" -> ") ||
			!strings.Contains(got, "instructions changed") ||
			!strings.Contains(got, "stray: changed in the space since the plan") || !strings.Contains(got, "enabled changed") {
			t.Errorf("stale =\n%s", got)
		}
	})
	// readAs makes the plan's change of edit one planned from a read whose
	// description was desc, its updatedAt that of the skill now.
	readAs := func(env *applyEnv, sp *Saved, desc string) {
		for i := range sp.Plan.Changes {
			if ch := &sp.Plan.Changes[i]; ch.Slug == "edit" {
				read := env.skill("edit")
				read.Description = desc
				ch.Before.Description, ch.After.Description = desc, desc
				ch.LiveHash = reconcile.LiveHash(read)
			}
		}
	}
	t.Run("a description that says the same", func(t *testing.T) {
		// The plan read "About edit" with a final newline, as a block
		// scalar writes it; the space now spells it without one, its
		// updatedAt unmoved. Planning calls the two the same description
		// (spec.SameDescription), so the staleness check must too: the
		// skill has not moved, and the plan applies as planned.
		env, desired, _, sp := savedFixture(t, false)
		readAs(env, sp, "About edit\n")
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 0 {
			t.Fatalf("CheckStale = %q, %v; want the plan fresh", stale, err)
		}
		if res := env.apply(t.Context(), sp.Plan, reconcile.ApplyOptions{}); res.Failed() {
			t.Errorf("apply: %+v", res.Steps)
		}
		if s := env.skill("edit"); *s.Instructions != "new\n" || s.Description != "About edit" {
			t.Errorf("edit after apply = %q, %q; want the new text, the description untouched", *s.Instructions, s.Description)
		}
	})
	t.Run("a description that says something else", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		readAs(env, sp, "About something else")
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 1 || stale[0] != "edit: changed in the space since the plan (description changed)" {
			t.Errorf("CheckStale = %q, %v; want edit's description changed", stale, err)
		}
	})
	t.Run("skills enabled in the app", func(t *testing.T) {
		// The plan enables wake with 3 skills active; once someone enables
		// another in the app, the enable could pass the limit at merge,
		// though no skill of the plan changed.
		env, desired, _, sp := savedFixture(t, false)
		if sp.Plan.Summary.ActiveBefore != 3 {
			t.Fatalf("fixture: %d active before, want 3", sp.Plan.Summary.ActiveBefore)
		}
		env.seed("newcomer", "x\n", true)
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 1 || stale[0] != "the space has 4 active skills, the plan was made with 3" {
			t.Errorf("CheckStale = %q, %v", stale, err)
		}
	})
	t.Run("no enable, no list", func(t *testing.T) {
		env := newApplyEnv(t, remotetest.Space{})
		env.seed("edit", "old\n", true)
		desired := reconciletest.Repo(reconciletest.Want("edit", "new\n", true))
		p := env.plan(desired, reconcile.Policy{})
		if p.Summary.Update != 1 || p.Summary.Enable != 0 {
			t.Fatalf("plan summary %+v, want one update", p.Summary)
		}
		env.seed("newcomer", "x\n", true) // active count moved, but nothing is enabled
		env.Emu.ResetRequests()
		stale, err := CheckStale(t.Context(), env.Client, &Saved{BaseURL: env.Srv.URL, Plan: p}, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 0 {
			t.Errorf("CheckStale = %q, %v", stale, err)
		}
		want := map[string]int{remotetest.KeyGetSkill: 1}
		if got := env.Emu.Requests(); !reflect.DeepEqual(got, want) {
			t.Errorf("requests = %v, want one get and no list", got)
		}
	})
	t.Run("repository changed", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		changed := *desired
		changed.Skills = append([]fsrepo.Skill(nil), desired.Skills...)
		changed.Skills[0].Instructions = "newer\n"
		changed.Commit = "fedcba9876543210fedc"
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, &changed)
		if err != nil {
			t.Fatal(err)
		}
		if len(stale) != 1 || !strings.HasPrefix(stale[0], "repository changed since the plan (commit 0123456789ab -> fedcba987654): edit: instructions") {
			t.Errorf("stale = %q", stale)
		}
		// Another commit with the same desired state (a merge commit, say)
		// is not a change.
		same := *desired
		same.Commit = "fedcba9876543210fedc"
		if stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, &same); err != nil || len(stale) != 0 {
			t.Errorf("a new commit with the same skills: %q, %v", stale, err)
		}
	})
	t.Run("policy changed", func(t *testing.T) {
		// The skills are the same, but skillsync.yaml now says what apply
		// does differently: the saved plan no longer holds.
		env, desired, _, sp := savedFixture(t, false)
		for name, edit := range map[string]func(*config.Config){
			"unmanaged":         func(c *config.Config) { c.Unmanaged = config.UnmanagedIgnore },
			"maxDisablePercent": func(c *config.Config) { c.MaxDisablePercent = 55 },
			"agents.publish":    func(c *config.Config) { c.Agents.Publish = []string{"Support bot"} },
		} {
			changed := *desired
			edit(&changed.Config)
			stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, &changed)
			if err != nil || len(stale) != 1 || !strings.Contains(stale[0], "skillsync.yaml's policy") {
				t.Errorf("%s changed: CheckStale = %q, %v", name, stale, err)
			}
		}
	})
	t.Run("another target", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		env.Emu.ResetRequests()
		stale, _ := CheckStale(t.Context(), env.Client, sp, "zz99", env.Srv.URL, desired)
		if len(stale) != 1 || !strings.Contains(stale[0], "for space ab12, not zz99") {
			t.Errorf("other space: %q", stale)
		}
		stale, _ = CheckStale(t.Context(), env.Client, sp, reconciletest.Space, "https://tenant.example.com", desired)
		if len(stale) != 1 || !strings.Contains(stale[0], "not https://tenant.example.com") {
			t.Errorf("other service: %q", stale)
		}
		if n := len(env.Emu.Requests()); n != 0 {
			t.Errorf("%d requests made for a plan of another target", n)
		}
	})
	t.Run("agents", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, true)
		env.Emu.ResetRequests()
		if stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired); err != nil || len(stale) != 0 {
			t.Fatalf("CheckStale = %q, %v", stale, err)
		}
		if n := env.Emu.Requests()[remotetest.KeyListAgents]; n != 1 {
			t.Errorf("%d agent lists", n)
		}
		env.Emu.EditAgent(reconciletest.Space, sp.Plan.Publish[0].ID, func(a *remote.Agent) { a.Description = "edited" })
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 1 || !strings.HasPrefix(stale[0], "agent Helper: changed in the space since the plan (updatedAt") {
			t.Errorf("CheckStale = %q, %v", stale, err)
		}
	})
	t.Run("skill deleted", func(t *testing.T) {
		env, desired, _, sp := savedFixture(t, false)
		env.Emu.EditSkill(reconciletest.Space, env.skill("wake").ID, func(s *remotetest.SkillSeed) { s.Builtin = true })
		stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil || len(stale) != 1 || !strings.HasPrefix(stale[0], "wake: no longer in the space") {
			t.Errorf("CheckStale = %q, %v", stale, err)
		}
	})
}

// TestCheckStaleEditedChanges: a saved plan is applied as it is, so its
// changes must be those its repository state and the space, re-read, give.
// One whose changes were edited in the file (its desired hash kept) is
// refused, naming the skill and what differs; nothing is sent.
func TestCheckStaleEditedChanges(t *testing.T) {
	change := func(t *testing.T, p *reconcile.Plan, slug string) *reconcile.Change {
		t.Helper()
		for i := range p.Changes {
			if p.Changes[i].Slug == slug {
				return &p.Changes[i]
			}
		}
		t.Fatalf("no change of %s in the plan", slug)
		return nil
	}
	tests := []struct {
		name    string
		publish bool
		edit    func(t *testing.T, env *applyEnv, p *reconcile.Plan)
		want    []string
	}{
		{"after text", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			change(t, p, "edit").After.Instructions = strp("rm -rf /\n")
		}, []string{"edit: ", "after.instructions"}},
		{"after name", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			change(t, p, "edit").After.Name = "Other name"
		}, []string{"edit: ", "after.name"}},
		{"an action added", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			ch := change(t, p, "wake")
			ch.Actions = []reconcile.Action{reconcile.ActionUpdate, reconcile.ActionEnable}
			ch.Fields = []string{reconcile.FieldInstructions, reconcile.FieldEnabled}
			ch.After.Instructions = strp("injected\n")
		}, []string{"wake: ", "actions", "fields", "after.instructions"}},
		{"before text", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			// What the journal would hold, and restore bring back.
			change(t, p, "edit").Before.Instructions = strp("not what the space held\n")
		}, []string{"edit: ", "before.instructions"}},
		{"a change added", false, func(t *testing.T, env *applyEnv, p *reconcile.Plan) {
			q := env.skill("quiet")
			ch := reconcile.Change{Slug: "quiet", ID: q.ID, Actions: []reconcile.Action{reconcile.ActionDisable}, Fields: []string{reconcile.FieldEnabled},
				Before: reconcile.StateOf(q), UpdatedAt: q.UpdatedAt, LiveHash: reconcile.LiveHash(q)}
			ch.After = ch.Before
			ch.After.Enabled = false
			p.Changes = append(p.Changes, ch)
		}, []string{"quiet: ", "no change"}},
		{"a managed skill made unmanaged", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			change(t, p, "wake").Unmanaged = true
		}, []string{"wake: ", "unmanaged"}},
		{"a change twice", false, func(t *testing.T, _ *applyEnv, p *reconcile.Plan) {
			p.Changes = append(p.Changes, *change(t, p, "edit"))
		}, []string{"edit: ", "more than once"}},
		{"a publish added", true, func(t *testing.T, env *applyEnv, p *reconcile.Plan) {
			a := env.Emu.AddAgent(reconciletest.Space, remote.Agent{Name: "Other bot", HasUnpublishedChanges: true})
			p.Publish = append(p.Publish, reconcile.AgentPublish{ID: a.ID, Name: a.Name, HasUnpublishedChanges: true, UpdatedAt: a.UpdatedAt})
		}, []string{"agent Other bot: ", "agents.publish"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			env, desired, _, sp := savedFixture(t, tt.publish)
			tt.edit(t, env, sp.Plan)
			sp = throughFile(t, sp) // as apply FILE reads it
			env.Emu.ResetRequests()
			stale, err := CheckStale(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(stale, "\n")
			if len(stale) != 1 {
				t.Errorf("stale = %q, want one finding", stale)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("stale =\n%s\nwant it to say %q", got, w)
				}
			}
			for k := range env.Emu.Requests() {
				if !strings.HasPrefix(k, "GET ") {
					t.Errorf("CheckStale sent %s", k)
				}
			}
		})
	}
}

// TestCheckSavedApplied: a saved plan is applied already only when the
// space holds every step of it, its agent publishes included; a plan whose
// skill changes went through but whose publish did not stays stale, so
// that applying it again never skips the publish.
func TestCheckSavedApplied(t *testing.T) {
	env, desired, _, sp := savedFixture(t, true)
	if len(sp.Plan.Publish) != 1 {
		t.Fatalf("the plan publishes %d agents, want 1", len(sp.Plan.Publish))
	}
	check := func() Check {
		t.Helper()
		chk, err := CheckSaved(t.Context(), env.Client, sp, reconciletest.Space, env.Srv.URL, desired)
		if err != nil {
			t.Fatal(err)
		}
		return chk
	}
	if chk := check(); chk.AllApplied || len(chk.Applied) != 0 || len(chk.Stale) != 0 {
		t.Fatalf("fresh plan: %+v, want neither applied nor stale", chk)
	}
	// Every skill as the plan would leave it, the agent not published.
	for _, ch := range sp.Plan.Changes {
		env.Emu.EditSkill(reconciletest.Space, ch.ID, func(s *remotetest.SkillSeed) {
			s.Name, s.Description, s.Enabled = ch.After.Name, ch.After.Description, ch.After.Enabled
			if ch.After.Instructions != nil {
				s.Instructions = *ch.After.Instructions
			}
		})
	}
	chk := check()
	if chk.AllApplied || len(chk.Applied) != 3 || len(chk.Stale) == 0 {
		t.Fatalf("skills applied, publish not: %+v, want 3 applied and stale", chk)
	}
	// Published since: the whole plan went through.
	if _, err := env.Client.PublishAgent(t.Context(), reconciletest.Space, sp.Plan.Publish[0].ID); err != nil {
		t.Fatal(err)
	}
	if chk := check(); !chk.AllApplied || len(chk.Stale) != 0 || len(chk.Notes) != 0 {
		t.Fatalf("all applied: %+v, want applied already", chk)
	}
	// The repository moved on since: still applied, and said.
	desired.Skills[0].Description = "Moved on"
	if chk := check(); !chk.AllApplied || len(chk.Notes) != 1 || !strings.Contains(chk.Notes[0], "repository") {
		t.Fatalf("applied, repository moved: %+v, want applied with a note", chk)
	}
}

// throughFile is sp as apply FILE reads it back: its plan written as JSON
// and read, checked and normalized as the reader of saved plans does. The
// tests of reconcile/render hold its document to encoding/json's.
func throughFile(t *testing.T, sp *Saved) *Saved {
	t.Helper()
	data, err := json.Marshal(sp.Plan)
	if err != nil {
		t.Fatal(err)
	}
	var p reconcile.Plan
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	p.Normalize()
	return &Saved{BaseURL: sp.BaseURL, Plan: &p}
}
