package reconcile

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote"
)

// FindAgent finds the agent ref names among agents: the one whose id is
// ref, else the one whose name is exactly ref, case included. A name that
// several agents share is a [*AgentAmbiguousError], never a guess, and no
// match an [*AgentNotFoundError]. agents.publish in skillsync.yaml and
// `skillsync agents publish` name agents this way.
func FindAgent(agents []remote.Agent, ref string) (remote.Agent, error) {
	return newAgentIndex(agents).find(ref)
}

// An agentIndex finds agents as [FindAgent] does, by lookup: a plan finds
// every agent agents.publish names, and a search of the space's agents
// for each cost their product.
type agentIndex struct {
	byID   map[string]remote.Agent   // the first of each id
	byName map[string][]remote.Agent // in their order
	near   map[string][]string       // names by [fsrepo.FoldCase] of their trimmed form, in order
}

func newAgentIndex(agents []remote.Agent) *agentIndex {
	x := &agentIndex{byID: map[string]remote.Agent{}, byName: map[string][]remote.Agent{}, near: map[string][]string{}}
	for _, a := range agents {
		if _, ok := x.byID[a.ID]; !ok {
			x.byID[a.ID] = a
		}
		x.byName[a.Name] = append(x.byName[a.Name], a)
		k := fsrepo.FoldCase(strings.TrimSpace(a.Name))
		x.near[k] = append(x.near[k], a.Name)
	}
	return x
}

func (x *agentIndex) find(ref string) (remote.Agent, error) {
	if a, ok := x.byID[ref]; ok {
		return a, nil
	}
	byName := x.byName[ref]
	switch len(byName) {
	case 1:
		return byName[0], nil
	case 0:
		return remote.Agent{}, &AgentNotFoundError{Ref: ref, Near: x.near[fsrepo.FoldCase(strings.TrimSpace(ref))]}
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
// never published, or its draft has changed since.
func NeedsPublish(a remote.Agent) bool {
	return !a.Published || a.HasUnpublishedChanges
}
