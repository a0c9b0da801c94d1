package remotetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

// The conformance tests run the remote client against the emulator over
// real HTTP, row by row of the spec, so that the two agree on every
// answer.

func newClient(t *testing.T, f *fixture, token string) *remote.Client {
	t.Helper()
	c, err := remote.New(remote.Options{
		BaseURL:     f.srv.URL,
		Token:       token,
		MinBackoff:  time.Millisecond,
		MaxBackoff:  5 * time.Millisecond,
		MaxAttempts: 10,
	})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func statusOf(err error) int {
	var e *remote.Error
	if errors.As(err, &e) {
		return e.StatusCode
	}
	return 0
}

func TestConformanceSkills(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	c := newClient(t, f, rwToken)
	seeded := f.e.AddSkill(testSpace, SkillSeed{Name: "Code Review", Description: "Reviews code", Instructions: "body\n", Enabled: true,
		Files: map[string]string{"references/guide.md": "guide"}, BinaryFiles: []string{"logo.png"}})

	all, err := c.StreamSkills(ctx, testSpace, remote.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 || all[0].Instructions != nil || all[0].ID != seeded.ID || all[0].Slug != "code-review" {
		t.Fatalf("ListAllSkills %+v", all)
	}
	got, err := c.GetSkill(ctx, testSpace, seeded.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Instructions == nil || *got.Instructions != "body\n" {
		t.Errorf("GetSkill instructions %v", got.Instructions)
	}
	g, w := *got, seeded
	g.Instructions, w.Instructions = nil, nil
	if g != w {
		t.Errorf("GetSkill %+v\nwant %+v", got, seeded)
	}

	name, desc, instr := "Reviewer", "Reviews: all code", "new body"
	up, err := c.UpdateSkill(ctx, testSpace, seeded.ID, remote.SkillUpdate{Name: &name, Description: &desc, Instructions: &instr})
	if err != nil {
		t.Fatal(err)
	}
	if up.Slug != "code-review" || up.Name != name || *up.Instructions != instr || up.UpdatedAt <= seeded.UpdatedAt {
		t.Errorf("UpdateSkill %+v", up)
	}
	file, err := c.GetSkillFile(ctx, testSpace, seeded.ID, "SKILL.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "---\nname: Reviewer\ndescription: 'Reviews: all code'\n---\nnew body"; file.Content != want || file.Path != "SKILL.md" {
		t.Errorf("SKILL.md %q, want %q", file.Content, want)
	}
	if file, err := c.GetSkillFile(ctx, testSpace, seeded.ID, "references/guide.md"); err != nil || file.Content != "guide" {
		t.Errorf("guide: %v %v", file, err)
	}
	for _, p := range []string{"logo.png", "nope.md"} {
		if _, err := c.GetSkillFile(ctx, testSpace, seeded.ID, p); !remote.IsNotFound(err) {
			t.Errorf("file %s: %v, want 404", p, err)
		}
	}

	dis, err := c.DisableSkill(ctx, testSpace, seeded.ID)
	if err != nil || dis.Enabled || dis.Instructions == nil {
		t.Fatalf("DisableSkill %+v %v", dis, err)
	}
	again, err := c.DisableSkill(ctx, testSpace, seeded.ID)
	if err != nil || again.UpdatedAt != dis.UpdatedAt {
		t.Errorf("second disable %+v %v", again, err)
	}
	en, err := c.EnableSkill(ctx, testSpace, seeded.ID)
	if err != nil || !en.Enabled {
		t.Fatalf("EnableSkill %+v %v", en, err)
	}

	unknown := "00000000-0000-4000-8000-000000000000"
	if _, err := c.GetSkill(ctx, testSpace, unknown); !remote.IsNotFound(err) {
		t.Errorf("get unknown: %v", err)
	}
	if _, err := c.EnableSkill(ctx, testSpace, unknown); !remote.IsNotFound(err) {
		t.Errorf("enable unknown: %v", err)
	}
	if _, err := c.StreamSkills(ctx, "zz99", remote.ListOptions{}); !remote.IsNotFound(err) {
		t.Errorf("unknown space: %v", err)
	}
}

func TestConformanceEnableLimit(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.e.AddSpace(Space{ID: testSpace, BuiltinActive: 1})
	f.e.AddSkill(testSpace, SkillSeed{Name: "builtin", Description: "d", Enabled: true, Builtin: true})
	var ids []string
	for i := range 40 {
		ids = append(ids, f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("s%d", i), Description: "d", Enabled: i < 38}).ID)
	}
	c := newClient(t, f, rwToken)
	_, err := c.EnableSkill(ctx, testSpace, ids[39])
	if !remote.IsConflict(err) {
		t.Fatalf("enable at 40 (38 user + 2 built-in): %v, want 409", err)
	}
	// The service's 409 has no condition on the skill: at 40, an enabled
	// skill is refused too. The client reads it back and succeeds.
	if r := f.req(http.MethodPost, skillPath(testSpace, ids[0], "enable")); r.status != http.StatusConflict {
		t.Errorf("enable of an enabled skill at 40: status %d, want 409", r.status)
	}
	if s, err := c.EnableSkill(ctx, testSpace, ids[0]); err != nil || !s.Enabled {
		t.Errorf("client enable of an enabled skill at 40: %+v, %v", s, err)
	}
	if _, err := c.DisableSkill(ctx, testSpace, ids[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := c.EnableSkill(ctx, testSpace, ids[39]); err != nil {
		t.Errorf("enable after a disable: %v", err)
	}
	if f.e.MaxActiveSeen(testSpace) != 40 {
		t.Errorf("max active %d", f.e.MaxActiveSeen(testSpace))
	}
}

func TestConformancePermissions(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	ag := f.e.AddAgent(testSpace, remote.Agent{Name: "a"})
	ro := newClient(t, f, roToken)
	if _, err := ro.StreamSkills(ctx, testSpace, remote.ListOptions{}); err != nil {
		t.Errorf("read-only list: %v", err)
	}
	name := "b"
	for what, err := range map[string]error{
		"update":  second(ro.UpdateSkill(ctx, testSpace, sk.ID, remote.SkillUpdate{Name: &name})),
		"enable":  second(ro.EnableSkill(ctx, testSpace, sk.ID)),
		"disable": second(ro.DisableSkill(ctx, testSpace, sk.ID)),
		"publish": second(ro.PublishAgent(ctx, testSpace, ag.ID)),
		"delete":  ro.DeleteAgent(ctx, testSpace, ag.ID),
	} {
		if !remote.IsForbidden(err) {
			t.Errorf("read-only %s: %v, want 403", what, err)
		}
	}
	if _, err := newClient(t, f, "unknown").StreamSkills(ctx, testSpace, remote.ListOptions{}); !remote.IsUnauthorized(err) {
		t.Errorf("unknown token: %v, want 401", err)
	}
	f.e.AddSpace(Space{ID: testSpace, SkillsFeatureDisabled: true})
	rw := newClient(t, f, rwToken)
	if _, err := rw.EnableSkill(ctx, testSpace, sk.ID); !remote.IsForbidden(err) {
		t.Errorf("enable with the feature disabled: %v, want 403", err)
	}
}

func second[T any](_ T, err error) error { return err }

func TestConformanceAgents(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	c := newClient(t, f, rwToken)
	a := f.e.AddAgent(testSpace, remote.Agent{Name: "a", EmbedEnabled: true})
	b := f.e.AddAgent(testSpace, remote.Agent{Name: "b", Published: true})

	agents, err := c.StreamAgents(ctx, testSpace, remote.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) != 2 || agents[0].ID != b.ID || agents[0].WelcomeMessage == nil {
		t.Fatalf("ListAllAgents %+v", agents)
	}
	if _, err := c.PublishAgent(ctx, testSpace, a.ID); statusOf(err) != 422 {
		t.Errorf("publish with empty whitelist: %v, want 422", err)
	}
	f.e.EditAgent(testSpace, a.ID, func(d *remote.Agent) { d.EmbedOptions.DomainWhitelist = []string{"example.com"} })
	p, err := c.PublishAgent(ctx, testSpace, a.ID)
	if err != nil || !p.Published || p.HasUnpublishedChanges {
		t.Fatalf("publish: %+v %v", p, err)
	}
	p2, err := c.PublishAgent(ctx, testSpace, a.ID)
	if err != nil || p2.UpdatedAt != p.UpdatedAt {
		t.Errorf("idempotent publish: %+v %v", p2, err)
	}
	if err := c.DeleteAgent(ctx, testSpace, a.ID); err != nil {
		t.Fatal(err)
	}
	if err := c.DeleteAgent(ctx, testSpace, a.ID); !remote.IsNotFound(err) {
		t.Errorf("second delete: %v, want 404", err)
	}
	if _, err := c.PublishAgent(ctx, testSpace, a.ID); !remote.IsNotFound(err) {
		t.Errorf("publish deleted: %v, want 404", err)
	}
	if agents, _ := c.StreamAgents(ctx, testSpace, remote.ListOptions{}); len(agents) != 1 {
		t.Errorf("%d agents after delete", len(agents))
	}
}

func TestConformanceAsset(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	id := "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	rec := `{"id":"` + id + `","name":"handbook.pdf","mimeType":"application/pdf","connector":{"type":"upload"},"metadata":{"pages":42},"processingState":"done"}`
	f.e.AddAsset(testSpace, id, json.RawMessage(rec))
	f.e.AddSpace(Space{ID: "cd34"})
	f.e.AddToken("cd34", ReadOnly, "cd34")
	a, err := newClient(t, f, roToken).GetAsset(ctx, testSpace, id)
	if err != nil {
		t.Fatal(err)
	}
	if string(a.Raw) != rec || a.Name != "handbook.pdf" || a.MIMEType != "application/pdf" || a.ProcessingState != "done" {
		t.Errorf("asset %+v", a)
	}
	if _, err := newClient(t, f, "cd34").GetAsset(ctx, testSpace, id); !remote.IsForbidden(err) {
		t.Errorf("asset without access: %v, want 403", err)
	}
	if _, err := newClient(t, f, roToken).GetAsset(ctx, testSpace, "00000000-0000-4000-8000-000000000000"); !remote.IsNotFound(err) {
		t.Errorf("unknown asset: %v", err)
	}
}

// TestConformanceListShift edits a skill of the last page while the client
// pages: the edit moves it to the front, the next page repeats an item, and
// the client must list again to return every skill once, edit included.
func TestConformanceListShift(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var ids []string // oldest first
	for i := range 250 {
		ids = append(ids, f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("s%03d", i), Description: "d"}).ID)
	}
	var mu sync.Mutex
	lists := 0
	f.e.SetOnRequest(func(r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/skills") {
			return
		}
		mu.Lock()
		lists++
		n := lists
		mu.Unlock()
		if n == 2 { // between the first and second page
			f.e.EditSkill(testSpace, ids[0], func(s *SkillSeed) { s.Description = "edited" })
		}
	})
	c := newClient(t, f, rwToken)
	all, err := c.StreamSkills(ctx, testSpace, remote.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 250 {
		t.Fatalf("%d skills, want 250", len(all))
	}
	seen := make(map[string]bool)
	for _, s := range all {
		if seen[s.ID] {
			t.Errorf("%s listed twice", s.ID)
		}
		seen[s.ID] = true
		if s.ID == ids[0] && s.Description != "edited" {
			t.Errorf("edited skill listed with its old description")
		}
	}
	if all[0].ID != ids[0] {
		t.Errorf("first skill %s, want the edited one", all[0].Slug)
	}
	if n := f.e.Requests()[KeyListSkills]; n != 6 {
		t.Errorf("%d list requests, want 6 (a spoilt pass of 3 pages, a clean one of 3)", n)
	}
}

// TestConformanceUnderFaults runs a whole workflow while a third of the
// requests are rate limited or dropped after taking effect: the client's
// retries must make every call succeed, and the state must be right.
func TestConformanceUnderFaults(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var ids []string
	for i := range 30 {
		ids = append(ids, f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("s%d", i), Description: "d", Enabled: i%2 == 0}).ID)
	}
	ag := f.e.AddAgent(testSpace, remote.Agent{Name: "a"})
	f.e.SetFaults(Faults{RateLimitRate: 0.2, DropRate: 0.15, DropAfterWrite: true, Seed: 3, Newline: TrimFinalNewline})
	c := newClient(t, f, rwToken)
	for i, id := range ids {
		instr := fmt.Sprintf("body %d\n", i)
		var err error
		if i%2 == 0 {
			_, err = c.DisableSkill(ctx, testSpace, id)
		} else {
			_, err = c.EnableSkill(ctx, testSpace, id)
		}
		if err == nil {
			_, err = c.UpdateSkill(ctx, testSpace, id, remote.SkillUpdate{Instructions: &instr})
		}
		if err != nil {
			t.Fatalf("skill %d: %v", i, err)
		}
	}
	if _, err := c.PublishAgent(ctx, testSpace, ag.ID); err != nil {
		t.Fatal(err)
	}
	all, err := c.StreamSkills(ctx, testSpace, remote.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 30 {
		t.Errorf("%d skills", len(all))
	}
	f.e.SetFaults(Faults{})
	for i, id := range ids {
		s, _ := f.e.Skill(testSpace, id)
		if s.Enabled != (i%2 == 1) || *s.Instructions != fmt.Sprintf("body %d", i) {
			t.Errorf("skill %d: enabled %v instructions %q", i, s.Enabled, *s.Instructions)
		}
	}
	req := f.e.Requests()
	if req[KeyUpdateSkill] <= 30 && req[KeyEnableSkill]+req[KeyDisableSkill] <= 30 {
		t.Errorf("no retries happened: %v", req)
	}

	f.e.SetFaults(Faults{ErrorRate: 1, Seed: 1})
	if _, err := c.GetSkill(ctx, testSpace, ids[0]); statusOf(err) != 500 && statusOf(err) != 503 {
		t.Errorf("under errors: %v, want 500 or 503", err)
	}
}

func TestConformanceConcurrentClients(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	var ids []string
	for i := range 45 {
		ids = append(ids, f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("s%d", i), Description: "d"}).ID)
	}
	c := newClient(t, f, rwToken)
	var wg sync.WaitGroup
	var mu sync.Mutex
	enabled, conflicts := 0, 0
	for _, id := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := c.EnableSkill(ctx, testSpace, id)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				enabled++
			case remote.IsConflict(err):
				conflicts++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		if _, err := c.StreamSkills(ctx, testSpace, remote.ListOptions{}); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
	if enabled != 40 || conflicts != 5 || f.e.MaxActiveSeen(testSpace) != 40 {
		t.Errorf("enabled %d, conflicts %d, max active %d; want 40, 5, 40", enabled, conflicts, f.e.MaxActiveSeen(testSpace))
	}
	n := 0
	for _, s := range f.e.Skills(testSpace) {
		if s.Enabled {
			n++
		}
	}
	if n != 40 {
		t.Errorf("%d enabled", n)
	}
}
