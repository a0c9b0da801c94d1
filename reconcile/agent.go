package reconcile

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/remote"
)

// FindAgent finds the agent ref names among agents: the one whose id is
// ref, else the one whose name is exactly ref, case included. A name that
// several agents share is a [*AgentAmbiguousError], never a guess, and no
// match an [*AgentNotFoundError]. agents.publish in skillsync.yaml and
// `skillsync agents publish` name agents this way.
func FindAgent(agents []remote.Agent, ref string) (remote.Agent, error) {
	var byName []remote.Agent
	for _, a := range agents {
		if a.ID == ref {
			return a, nil
		}
		if a.Name == ref {
			byName = append(byName, a)
		}
	}
	switch len(byName) {
	case 1:
		return byName[0], nil
	case 0:
		nf := &AgentNotFoundError{Ref: ref}
		for _, a := range agents {
			if strings.EqualFold(strings.TrimSpace(a.Name), strings.TrimSpace(ref)) {
				nf.Near = append(nf.Near, a.Name)
			}
		}
		return remote.Agent{}, nf
	}
	amb := &AgentAmbiguousError{Ref: ref}
	for _, a := range byName {
		amb.IDs = append(amb.IDs, a.ID)
	}
	sort.Strings(amb.IDs)
	return remote.Agent{}, amb
}

// An AgentNotFoundError is returned by [FindAgent] when no agent has the
// id or the exact name asked for.
type AgentNotFoundError struct {
	Ref string
	// Near are the names of agents that differ from Ref only in case or
	// in spaces around it: likely what was meant.
	Near []string
}

func (e *AgentNotFoundError) Error() string { return fmt.Sprintf("no agent %q", e.Ref) }

// An AgentAmbiguousError is returned by [FindAgent] when several agents
// have the name asked for.
type AgentAmbiguousError struct {
	Ref string
	IDs []string // of the agents of that name, sorted
}

func (e *AgentAmbiguousError) Error() string {
	return fmt.Sprintf("%d agents are named %q", len(e.IDs), e.Ref)
}

// ErrEmbedNoDomain is the reason the service refuses to publish an agent
// whose draft has the embed widget enabled and no allowed domain
// (space-api.md: embedOptions.domainWhitelist must then be non-empty).
var ErrEmbedNoDomain = errors.New("the embed widget is enabled with no allowed domain")

// CheckPublish returns why the service would refuse to publish a, before
// any request: [ErrEmbedNoDomain], or nil.
func CheckPublish(a remote.Agent) error {
	if a.EmbedEnabled && len(a.EmbedOptions.DomainWhitelist) == 0 {
		return ErrEmbedNoDomain
	}
	return nil
}

// NeedsPublish reports whether publishing a would change anything: it was
// never published, or its draft has changed since, or the service did not
// say whether it has (a publish is idempotent: unknown is not false).
func NeedsPublish(a remote.Agent) bool {
	return !a.Published || a.HasUnpublishedChanges
}
