package reconcile

import (
	"context"

	"github.com/skillsync/skillsync/remote"
)

// Service is the part of the service's API (space-api.md) that reconcile
// reads and writes through: [Fetch], [Apply] and [CheckStale] take
// one. Of package remote, reconcile uses nothing else but its wire types
// (Skill, Agent, SkillUpdate, SkillFile, the ListOptions of a list), the
// rules of an update body ([remote.CheckUpdate]) and the helpers that
// classify its errors ([remote.IsNotFound], [remote.ErrTooLarge]).
// *remote.Client is the Service of the real service; a test may give a
// small in-memory one, with no HTTP at all.
//
// Every method takes the space's id first, as the endpoints do, and
// answers a failure the service explained with a [*remote.Error], so that
// a 404 reads as "gone" whichever Service gave it.
type Service interface {
	// BaseURL is the address of the service, which tells apart spaces of
	// the same id in [InstructionCache] entries.
	BaseURL() string
	// StreamSkills and StreamAgents list every skill or agent of the
	// space, once each, reading up to o.Parallelism pages at once.
	StreamSkills(ctx context.Context, space string, o remote.ListOptions) ([]remote.Skill, error)
	StreamAgents(ctx context.Context, space string, o remote.ListOptions) ([]remote.Agent, error)
	// GetSkill reads a skill with its instructions.
	GetSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	// GetSkillFile reads a text file of a skill's folder; GetSkillFileUpTo
	// reads one of at most maxBytes and fails with [remote.ErrTooLarge]
	// for a larger one.
	GetSkillFile(ctx context.Context, space, skillID, path string) (*remote.SkillFile, error)
	GetSkillFileUpTo(ctx context.Context, space, skillID, path string, maxBytes int64) (*remote.SkillFile, error)
	// UpdateSkill, EnableSkill and DisableSkill change a skill and answer
	// it as the service now holds it.
	UpdateSkill(ctx context.Context, space, skillID string, u remote.SkillUpdate) (*remote.Skill, error)
	EnableSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	DisableSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	// PublishAgent copies an agent's draft over its published version.
	PublishAgent(ctx context.Context, space, agentID string) (*remote.Agent, error)
}

// listSkills lists the skills of a space, one page after another.
func listSkills(ctx context.Context, c Service, space string) ([]remote.Skill, error) {
	return c.StreamSkills(ctx, space, remote.ListOptions{})
}

// listAgents lists the agents of a space, one page after another.
func listAgents(ctx context.Context, c Service, space string) ([]remote.Agent, error) {
	return c.StreamAgents(ctx, space, remote.ListOptions{})
}
