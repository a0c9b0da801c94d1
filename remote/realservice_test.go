package remote_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// These tests run the client against the emulator switched to the answers
// a real service may give where the spec is silent (remotetest.Answers).

const variantSpace = "ab12"

// variantFixture is an emulator with one space, one skill and a client
// whose waits are recorded rather than slept.
type variantFixture struct {
	e     *remotetest.Emulator
	c     *remote.Client
	skill remote.Skill
	mu    sync.Mutex
	waits []time.Duration
}

func newVariant(t *testing.T, a remotetest.Answers, mod func(*remote.Options)) *variantFixture {
	t.Helper()
	f := &variantFixture{e: remotetest.New()}
	f.e.AddSpace(remotetest.Space{ID: variantSpace})
	f.e.AddToken("tok", remotetest.ReadWrite)
	f.skill = f.e.AddSkill(variantSpace, remotetest.SkillSeed{Name: "Sql Style", Description: "d", Instructions: "body\n", Enabled: true})
	f.e.SetAnswers(a)
	srv := testserver.New(t, f.e)
	o := remote.Options{BaseURL: srv.URL, Token: "tok", MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
		Sleep: func(ctx context.Context, d time.Duration) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.waits = append(f.waits, d)
			return ctx.Err()
		}}
	if mod != nil {
		mod(&o)
	}
	c, err := remote.New(o)
	if err != nil {
		t.Fatal(err)
	}
	f.c = c
	return f
}

func (f *variantFixture) recorded() []time.Duration {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]time.Duration(nil), f.waits...)
}

// The message of an error body survives every framework's shape: the user
// reads what the service said, not the status text twice.
func TestErrorStylesKeepTheMessage(t *testing.T) {
	for _, style := range []struct {
		name string
		s    remotetest.ErrorStyle
	}{
		{"nested", remotetest.ErrorNested},
		{"NestJS", remotetest.ErrorNestJS},
		{"NestJS validation list", remotetest.ErrorNestJSList},
		{"Spring", remotetest.ErrorSpring},
	} {
		t.Run(style.name, func(t *testing.T) {
			f := newVariant(t, remotetest.Answers{Errors: style.s}, nil)
			f.e.AddSkill(variantSpace, remotetest.SkillSeed{ID: "00000000-0000-4000-8000-000000000001", Name: "Builtin", Description: "d", Builtin: true})
			_, err := f.c.GetSkill(t.Context(), variantSpace, "00000000-0000-4000-8000-000000000002")
			if !remote.IsNotFound(err) || !strings.HasSuffix(err.Error(), ": 404 Not Found: skill not found: 00000000-0000-4000-8000-000000000002") {
				t.Errorf("404: %v", err)
			}
			long := strings.Repeat("x", 65)
			_, err = f.c.UpdateSkill(t.Context(), variantSpace, f.skill.ID, remote.SkillUpdate{Name: &long})
			if err == nil {
				t.Fatal("a 65-character name was sent")
			}
			name := "Café"
			_, err = f.c.UpdateSkill(t.Context(), variantSpace, f.skill.ID, remote.SkillUpdate{Name: &name})
			if !strings.Contains(err.Error(), "400 Bad Request: name may contain only ASCII letters") {
				t.Errorf("400: %v", err)
			}
		})
	}
}

// A 429 that says when to come back only in X-RateLimit-Reset (seconds
// from now, or an epoch second) is waited out, not given up after the
// backoff.
func TestRateLimitResetHonoured(t *testing.T) {
	for _, style := range []remotetest.RateLimitHeader{remotetest.RetryAfterSeconds, remotetest.ResetSeconds, remotetest.ResetEpoch} {
		f := newVariant(t, remotetest.Answers{RateLimit: style}, func(o *remote.Options) { o.MaxAttempts = 20 })
		f.e.SetFaults(remotetest.Faults{RateLimitRate: 0.5, RetryAfter: 5 * time.Second, Seed: 3})
		for range 10 {
			if _, err := f.c.GetSkill(t.Context(), variantSpace, f.skill.ID); err != nil {
				t.Fatalf("style %d: %v", style, err)
			}
		}
		waits := f.recorded()
		if len(waits) == 0 {
			t.Fatalf("style %d: no 429 was answered", style)
		}
		for _, w := range waits {
			// An epoch second read against the client's clock may be a
			// second short.
			if w < 4*time.Second || w > 5*time.Second {
				t.Errorf("style %d: waited %s, want the 5s the service asked for", style, w)
			}
		}
	}
}

// fakeTime is a clock the emulator follows and the client's waits move.
type fakeTime struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeTime) now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeTime) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// A write the service answers without the skill (204, an empty 200,
// {"success":true}, 202) is read back: the client returns the skill as
// the space holds it once the read shows the write.
func TestWriteAnswersWithoutTheSkill(t *testing.T) {
	for _, w := range []struct {
		name string
		a    remotetest.WriteAnswer
	}{
		{"204", remotetest.WriteNoContent},
		{"empty 200", remotetest.WriteEmpty},
		{"success flag", remotetest.WriteSuccess},
		{"202 landing 3s later", remotetest.WriteAccepted},
	} {
		t.Run(w.name, func(t *testing.T) {
			clock := &fakeTime{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
			f := newVariant(t, remotetest.Answers{Write: w.a, AcceptedAfter: 3 * time.Second}, func(o *remote.Options) {
				o.Sleep = func(ctx context.Context, d time.Duration) error { clock.advance(d); return ctx.Err() }
			})
			f.e.SetClock(clock.now)
			ctx := t.Context()
			text := "new body\n"
			s, err := f.c.UpdateSkill(ctx, variantSpace, f.skill.ID, remote.SkillUpdate{Instructions: &text})
			if err != nil || s.Instructions == nil || *s.Instructions != text || s.ID != f.skill.ID {
				t.Fatalf("UpdateSkill = %+v, %v; want the skill with the new text", s, err)
			}
			if s, err := f.c.DisableSkill(ctx, variantSpace, f.skill.ID); err != nil || s.Enabled {
				t.Fatalf("DisableSkill = %+v, %v", s, err)
			}
			if s, err := f.c.EnableSkill(ctx, variantSpace, f.skill.ID); err != nil || !s.Enabled {
				t.Fatalf("EnableSkill = %+v, %v", s, err)
			}
		})
	}
}

// A 202 whose write does not show within the client's wait is neither
// done nor failed: the error says accepted, not visible yet, after a
// bounded wait.
func TestAcceptedWriteNotVisible(t *testing.T) {
	clock := &fakeTime{t: time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)}
	f := newVariant(t, remotetest.Answers{Write: remotetest.WriteAccepted, AcceptedAfter: time.Hour}, func(o *remote.Options) {
		o.Sleep = func(ctx context.Context, d time.Duration) error { clock.advance(d); return ctx.Err() }
	})
	f.e.SetClock(clock.now)
	text := "new body\n"
	start := clock.now()
	_, err := f.c.UpdateSkill(t.Context(), variantSpace, f.skill.ID, remote.SkillUpdate{Instructions: &text})
	var nv *remote.NotVisibleError
	if !errors.As(err, &nv) || !errors.Is(err, remote.ErrNotVisible) || nv.Status != 202 || nv.Skill == nil || *nv.Skill.Instructions != "body\n" {
		t.Fatalf("error = %v, want a 202 not visible yet with the skill as read", err)
	}
	if waited := clock.now().Sub(start); waited != remote.WriteWait {
		t.Errorf("waited %s, want the WriteWait of %s", waited, remote.WriteWait)
	}
	if !strings.Contains(err.Error(), "accepted by the service, not visible yet") {
		t.Errorf("error = %q", err)
	}
}

// agentFixture is an emulator with a published agent, switched to shape.
func agentFixture(t *testing.T, shape remotetest.AgentShape) *variantFixture {
	f := newVariant(t, remotetest.Answers{Agents: shape}, nil)
	f.e.AddAgent(variantSpace, remote.Agent{
		ID: "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d", Name: "Support Bot", Temperature: 0.2, CategoryID: 3,
		ConversationStarters: []remote.ConversationStarter{{Text: "Hi", ID: "1a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d"}},
		SkillIDs:             []string{f.skill.ID}, Published: true,
		EmbedEnabled: true, EmbedID: "emb-1", EmbedOptions: remote.EmbedOptions{DomainWhitelist: []string{"example.com"}},
	})
	return f
}

// Agents whose fields skillsync does not act on come with other types
// than the table's: they are listed, and shown as the service sent them.
func TestAgentsOfLooseTypes(t *testing.T) {
	f := agentFixture(t, remotetest.AgentsLooseTypes)
	agents, err := f.c.StreamAgents(t.Context(), variantSpace, remote.ListOptions{})
	if err != nil {
		t.Fatalf("ListAllAgents: %v", err)
	}
	a := agents[0]
	if a.Name != "Support Bot" || len(a.SkillIDs) != 1 || a.SkillIDs[0] != f.skill.ID || !a.Published || a.HasUnpublishedChanges ||
		!a.EmbedEnabled || a.EmbedID != "emb-1" || len(a.EmbedOptions.DomainWhitelist) != 1 {
		t.Errorf("agent = %+v", a)
	}
	data, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"temperature":"0.20"`, `"categoryId":"3"`, `"conversationStarters":["Hi"]`, `"folderColor":"teal"`, `"primaryColor":"#1a73e8"`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("encoded agent lacks %s: %s", want, data)
		}
	}
	// A field skillsync acts on must still have its type.
	bad := []byte(`{"id":"9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d","name":"x","skillIds":"all"}`)
	if err := json.Unmarshal(bad, new(remote.Agent)); err == nil {
		t.Error("skillIds as a string decoded")
	}
}

// An agent without hasUnpublishedChanges is not taken as having none, and
// fields left null or out are shown as such, not as zeros.
func TestAgentsSparse(t *testing.T) {
	f := agentFixture(t, remotetest.AgentsSparse)
	agents, err := f.c.StreamAgents(t.Context(), variantSpace, remote.ListOptions{})
	if err != nil {
		t.Fatalf("ListAllAgents: %v", err)
	}
	a := agents[0]
	if !a.UnpublishedUnknown || !a.HasUnpublishedChanges {
		t.Errorf("agent without hasUnpublishedChanges: unknown %v, has %v; want both true", a.UnpublishedUnknown, a.HasUnpublishedChanges)
	}
	data, _ := json.Marshal(a)
	for _, want := range []string{`"temperature":null`, `"embedOptions":null`} {
		if !strings.Contains(string(data), want) {
			t.Errorf("encoded agent lacks %s: %s", want, data)
		}
	}
	for _, not := range []string{`"categoryId"`, `"hasUnpublishedChanges"`, `"welcomeMessage"`} {
		if strings.Contains(string(data), not) {
			t.Errorf("encoded agent has %s, which the service did not send: %s", not, data)
		}
	}
	if _, err := f.c.PublishAgent(t.Context(), variantSpace, a.ID); err != nil {
		t.Errorf("PublishAgent: %v", err)
	}
}

// A list is read whole whatever the envelope leaves out (hasMore, total,
// limit) and whether the service caps pages below the limit asked for.
func TestListsReadWhole(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    remotetest.Answers
	}{
		{"no hasMore", remotetest.Answers{NoHasMore: true}},
		{"no total", remotetest.Answers{NoTotal: true}},
		{"no hasMore nor total", remotetest.Answers{NoHasMore: true, NoTotal: true}},
		{"bare data", remotetest.Answers{NoHasMore: true, NoTotal: true, NoLimit: true}},
		{"capped pages", remotetest.Answers{PageCap: 30}},
		{"capped pages, no hasMore", remotetest.Answers{PageCap: 30, NoHasMore: true}},
		{"capped pages, no total", remotetest.Answers{PageCap: 30, NoTotal: true}},
		{"capped pages, bare data", remotetest.Answers{PageCap: 30, NoHasMore: true, NoTotal: true, NoLimit: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newVariant(t, tc.a, nil)
			for i := range 249 {
				f.e.AddSkill(variantSpace, remotetest.SkillSeed{Name: fmt.Sprintf("Skill %d", i), Description: "d", Instructions: "b\n"})
			}
			for i := range 130 {
				f.e.AddAgent(variantSpace, remote.Agent{Name: fmt.Sprintf("Agent %d", i)})
			}
			check := func(what string, n int, ids []string, err error, want int) {
				t.Helper()
				seen := make(map[string]bool)
				for _, id := range ids {
					seen[id] = true
				}
				if err != nil || n != want || len(seen) != want {
					t.Errorf("%s: %d items (%d distinct), %v; want %d", what, n, len(seen), err, want)
				}
			}
			skillIDs := func(ss []remote.Skill) []string {
				var out []string
				for _, s := range ss {
					out = append(out, s.ID)
				}
				return out
			}
			ss, err := f.c.StreamSkills(t.Context(), variantSpace, remote.ListOptions{})
			check("ListAllSkills", len(ss), skillIDs(ss), err, 250)
			ss, err = f.c.StreamSkills(t.Context(), variantSpace, remote.ListOptions{Parallelism: 4})
			check("StreamSkills", len(ss), skillIDs(ss), err, 250)
			as, err := f.c.StreamAgents(t.Context(), variantSpace, remote.ListOptions{})
			var aids []string
			for _, a := range as {
				aids = append(aids, a.ID)
			}
			check("ListAllAgents", len(as), aids, err, 130)
		})
	}
}
