package remote_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// TestAgainstEmulator runs the client against the emulator, the other
// reading of the same spec, with faults injected, so a disagreement between
// the two shows up here rather than in a user's CI.
func TestAgainstEmulator(t *testing.T) {
	const space = "ab12"
	e := remotetest.New()
	e.AddSpace(remotetest.Space{ID: space})
	e.AddToken("tok", remotetest.ReadWrite)
	var ids []string
	for i := range 250 {
		s := e.AddSkill(space, remotetest.SkillSeed{
			Name: fmt.Sprintf("Skill %d", i), Description: "d", Instructions: "body\n",
			Enabled: i < 40, Files: map[string]string{"scripts/run.sh": "echo\n"},
		})
		ids = append(ids, s.ID)
	}
	e.SetFaults(remotetest.Faults{ErrorRate: 0.1, RateLimitRate: 0.1, DropRate: 0.05, RetryAfter: 2 * time.Second, Seed: 7})
	srv := testserver.New(t, e)
	// The waits between attempts are recorded, not slept through.
	var (
		mu                  sync.Mutex
		waits               []time.Duration
		retries, rateLimits int
	)
	c, err := remote.New(remote.Options{BaseURL: srv.URL, Token: "tok", MaxAttempts: 10,
		MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond,
		OnRequest: func(ri remote.RequestInfo) {
			mu.Lock()
			defer mu.Unlock()
			if ri.Attempt > 1 {
				retries++
			}
			if ri.Status == http.StatusTooManyRequests {
				rateLimits++
			}
		},
		Sleep: func(ctx context.Context, d time.Duration) error {
			mu.Lock()
			defer mu.Unlock()
			waits = append(waits, d)
			return ctx.Err()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		// Each retry came after one wait: the 429's Retry-After, else a
		// backoff between half MinBackoff and MaxBackoff.
		mu.Lock()
		defer mu.Unlock()
		retryAfters := 0
		for _, d := range waits {
			switch {
			case d == 2*time.Second:
				retryAfters++
			case d < time.Millisecond/2 || d > 5*time.Millisecond:
				t.Errorf("waited %s: neither the Retry-After nor a backoff", d)
			}
		}
		if retries == 0 || rateLimits == 0 {
			t.Errorf("%d retries, %d rate-limited answers: were faults injected?", retries, rateLimits)
		}
		if len(waits) != retries {
			t.Errorf("%d waits for %d retries", len(waits), retries)
		}
		if retryAfters != rateLimits {
			t.Errorf("waited the Retry-After %d times for %d rate-limited answers", retryAfters, rateLimits)
		}
	}()
	ctx := t.Context()

	all, err := c.StreamSkills(ctx, space, remote.ListOptions{})
	if err != nil || len(all) != 250 {
		t.Fatalf("ListAllSkills: %d skills, %v", len(all), err)
	}
	name := "Renamed Skill"
	s, err := c.UpdateSkill(ctx, space, ids[0], remote.SkillUpdate{Name: &name})
	if err != nil || s.Name != name || s.Instructions == nil || *s.Instructions != "body\n" {
		t.Fatalf("UpdateSkill = %+v, %v", s, err)
	}
	if f, err := c.GetSkillFile(ctx, space, ids[0], "scripts/run.sh"); err != nil || f.Content != "echo\n" {
		t.Errorf("GetSkillFile = %+v, %v", f, err)
	}
	if _, err := c.EnableSkill(ctx, space, ids[100]); !remote.IsConflict(err) {
		t.Errorf("enabling a 41st skill: %v, want a 409", err)
	}
	if _, err := c.DisableSkill(ctx, space, ids[1]); err != nil {
		t.Errorf("DisableSkill: %v", err)
	}
	if s, err := c.EnableSkill(ctx, space, ids[100]); err != nil || !s.Enabled {
		t.Errorf("EnableSkill = %+v, %v", s, err)
	}
	// At 40 active the service refuses an enable whatever the skill's
	// state; the client reads the skill and, enabled, takes it as done:
	// a retried enable whose first answer was lost must not fail.
	if e.ActiveCount(space) != 40 {
		t.Fatalf("active = %d, want 40", e.ActiveCount(space))
	}
	if s, err := c.EnableSkill(ctx, space, ids[2]); err != nil || !s.Enabled || s.ID != ids[2] {
		t.Errorf("enabling an enabled skill at 40 active = %+v, %v; want it returned", s, err)
	}
	if _, err := c.GetSkill(ctx, space, "00000000-0000-4000-8000-000000000000"); !remote.IsNotFound(err) {
		t.Errorf("GetSkill of an unknown id: %v, want a 404", err)
	}
	if agents, err := c.StreamAgents(ctx, space, remote.ListOptions{}); err != nil || len(agents) != 0 {
		t.Errorf("ListAllAgents = %v, %v", agents, err)
	}

	bad, err := remote.New(remote.Options{BaseURL: srv.URL, Token: "wrong", MaxAttempts: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bad.ListSkills(ctx, space, 10, 0); !remote.IsUnauthorized(err) {
		t.Errorf("unknown token: %v, want a 401", err)
	}
}
