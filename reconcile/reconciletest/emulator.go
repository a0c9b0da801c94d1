package reconciletest

import (
	"context"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
	"github.com/skillsync/skillsync/spec"
)

// Tokens of an [Env]'s emulator.
const (
	Token   = "rw-token"
	ROToken = "ro-token"
)

// Env is an emulator serving space [Space] on loopback, with a read-write
// ([Token]) and a read-only ([ROToken]) token, and a client of it with
// the read-write one: the real client over real HTTP.
type Env struct {
	T      testing.TB
	Emu    *remotetest.Emulator
	Srv    *remotetest.Server
	Client *remote.Client
}

// NewEnv serves sp (space [Space] when it names none) for the test.
func NewEnv(t testing.TB, sp remotetest.Space) *Env {
	t.Helper()
	if sp.ID == "" {
		sp.ID = Space
	}
	e := remotetest.New()
	e.AddSpace(sp)
	e.AddToken(Token, remotetest.ReadWrite)
	e.AddToken(ROToken, remotetest.ReadOnly)
	env := &Env{T: t, Emu: e, Srv: testserver.New(t, e)}
	env.Client = env.ClientWith(Token)
	return env
}

// ClientWith is a client of the emulator with token, whose retries do not
// sleep.
func (e *Env) ClientWith(token string) *remote.Client {
	e.T.Helper()
	c, err := remote.New(remote.Options{BaseURL: e.Srv.URL, Token: token, MaxAttempts: 3,
		MinBackoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond, Sleep: InstantWait})
	if err != nil {
		e.T.Fatal(err)
	}
	return c
}

// InstantWait is a remote.Options Sleep that returns at once: a test's
// retries need not sleep through a backoff.
func InstantWait(ctx context.Context, d time.Duration) error { return ctx.Err() }

// Seed adds a remote skill named and described after its slug, as [Want]
// names the skill of the repository.
func (e *Env) Seed(slug, instructions string, enabled bool, opts ...func(*remotetest.SkillSeed)) remote.Skill {
	s := remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug, Description: "About " + slug,
		Instructions: instructions, Enabled: enabled}
	for _, o := range opts {
		o(&s)
	}
	return e.Emu.AddSkill(Space, s)
}

// Skill is the skill slug as the emulator holds it now.
func (e *Env) Skill(slug string) remote.Skill {
	e.T.Helper()
	s, ok := e.Emu.SkillBySlug(Space, slug)
	if !ok {
		e.T.Fatalf("no skill %s in the emulator", slug)
	}
	return s
}

// Want is a skill of the repository named after its slug, as [Env.Seed]
// names the remote one.
func Want(slug, instructions string, enabled bool, opts ...func(*fsrepo.Skill)) fsrepo.Skill {
	s := fsrepo.Skill{Slug: slug, Path: "skills/" + slug + "/SKILL.md", Name: "Skill " + slug,
		Description: "About " + slug, Enabled: enabled, Instructions: spec.Canonical(instructions)}
	for _, o := range opts {
		o(&s)
	}
	return s
}
