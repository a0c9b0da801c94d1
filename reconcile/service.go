package reconcile

import (
	"context"

	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
)

// Service is the part of the service's API (space-api.md) that reconcile
// reads and writes through: [fetch.Space] and [Apply] take one, and so
// does the check of a saved plan (package reconcile/planfile). Of package
// remote, reconcile uses nothing else but its wire types (Skill, Agent,
// SkillUpdate, SkillFile, the ListOptions of a list), the rules of an
// update body ([remote.CheckUpdate]) and the helpers that
// classify its errors ([remote.IsNotFound], [remote.ErrTooLarge]).
// *remote.Client is the Service of the real service; a test may give a
// small in-memory one, with no HTTP at all.
//
// Every method takes the space's id first, as the endpoints do, and
// answers a failure the service explained with a [*remote.Error], so that
// a 404 reads as "gone" whichever Service gave it.
type Service interface {
	// The lists and reads of fetching: [fetch.Service].
	fetch.Service
	// GetSkillFile reads a text file of a skill's folder.
	GetSkillFile(ctx context.Context, space, skillID, path string) (*remote.SkillFile, error)
	// UpdateSkill, EnableSkill and DisableSkill change a skill and answer
	// it as the service now holds it.
	UpdateSkill(ctx context.Context, space, skillID string, u remote.SkillUpdate) (*remote.Skill, error)
	EnableSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	DisableSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	// PublishAgent copies an agent's draft over its published version.
	PublishAgent(ctx context.Context, space, agentID string) (*remote.Agent, error)
}
