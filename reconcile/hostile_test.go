package reconcile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/skillsync/skillsync/remote"
)

// Hostile services: answers shaped so that work which searches what it
// has read grows with the square of their size. The tests hold the work
// (its CPU time, or its allocations) to linear growth; the benchmarks
// show the time at sizes n, 2n, 4n and 8n.

// missingAgainst is a repository of n skills the space lacks, and a space
// of n other skills, one of which differs from a folder only in case. All
// slugs begin alike, so that comparing two reads most of them.
func missingAgainst(n int) (*fsrepo.Repo, *Live) {
	const prefix = "a-prefix-that-every-slug-of-the-repository-and-the-space-has-"
	desired := &fsrepo.Repo{}
	live := &Live{Space: "ab12"}
	for i := range n {
		desired.Skills = append(desired.Skills, fsrepo.Skill{Slug: fmt.Sprintf(prefix+"local-%d", i), Name: "Local", Description: "A skill of the repository."})
		live.Skills = append(live.Skills, remote.Skill{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Slug: fmt.Sprintf(prefix+"remote-%d", i), Name: "Remote"})
	}
	live.Skills = append(live.Skills, remote.Skill{ID: "00000000-0000-4000-9000-000000000000", Slug: prefix + "Local-0"},
		remote.Skill{ID: "00000000-0000-4000-9000-000000000001", Slug: prefix + "LOCAL-0"})
	return desired, live
}

// TestMissingLooksUpCase: a folder the space has no skill of is told of
// the space's skill whose slug differs only in case. Each such folder
// searched every slug of the space: 8,000 folders against 8,000 skills
// took 160 ms, growing with their product (a space may list 100,000).
func TestMissingLooksUpCase(t *testing.T) {
	const n = 100
	desired, live := missingAgainst(n)
	p := Compute(desired, live, Policy{Missing: config.MissingWarn})
	if len(p.Missing) != n || !strings.Contains(p.Missing[0].Todo, `the space has a skill with slug "a-prefix-that-every-slug-of-the-repository-and-the-space-has-LOCAL-0"`) {
		t.Fatalf("%d missing, the first %+v; want %d, the first told of LOCAL-0", len(p.Missing), p.Missing[0], n)
	}
	lineartest.Time(t, 250, func(n int) {
		desired, live := missingAgainst(n)
		Compute(desired, live, Policy{Missing: config.MissingWarn})
	})
}

// BenchmarkComputeMissing plans n folders the space lacks against a space
// of n other skills.
func BenchmarkComputeMissing(b *testing.B) {
	for _, n := range []int{1000, 2000, 4000, 8000} {
		desired, live := missingAgainst(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compute(desired, live, Policy{Missing: config.MissingWarn})
			}
		})
	}
}

// ignoredAgainst is a repository of 5,000 skills, each differing from the
// space in every field, under an ignore rule of every field naming n
// globs that match none of them.
func ignoredAgainst(n int) (*fsrepo.Repo, *Live, Policy) {
	desired := &fsrepo.Repo{}
	live := &Live{Space: "ab12"}
	ins, other := "Do it.\n", "Do it otherwise.\n"
	for i := range 5000 {
		slug := fmt.Sprintf("skill-%d", i)
		desired.Skills = append(desired.Skills, fsrepo.Skill{Slug: slug, Name: "Name", Description: "Does it.", Instructions: ins, Enabled: true})
		live.Skills = append(live.Skills, remote.Skill{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Slug: slug,
			Name: "Other", Description: "Does it otherwise.", Instructions: &other})
	}
	r := config.IgnoreRule{Fields: []string{FieldName, FieldDescription, FieldInstructions, FieldEnabled}}
	for j := range n {
		r.Skills = append(r.Skills, config.Pattern{Glob: fmt.Sprintf("other-%d-*", j)})
	}
	return desired, live, Policy{Ignore: []config.IgnoreRule{r}, Force: true}
}

// BenchmarkComputeIgnored plans 5,000 skills that differ in every field
// under an ignore rule of up to fsrepo.MaxGlobs globs, none matching.
func BenchmarkComputeIgnored(b *testing.B) {
	for _, n := range []int{0, config.MaxGlobs / 4, config.MaxGlobs / 2, config.MaxGlobs} {
		desired, live, pol := ignoredAgainst(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Compute(desired, live, pol)
			}
		})
	}
}

// sharedAgentName is a space of n agents of one name, and a policy that
// names it n times in agents.publish.
func sharedAgentName(n int) (*Live, Policy) {
	live := &Live{Space: "ab12"}
	var pol Policy
	for i := range n {
		live.Agents = append(live.Agents, remote.Agent{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Name: "Bot"})
		pol.PublishAgents = append(pol.PublishAgents, "Bot")
	}
	return live, pol
}

// TestPublishRefsOnce: agents.publish names agents by id or name, and a
// name several agents share is an error listing their ids, once however
// often the name is said.
func TestPublishRefsOnce(t *testing.T) {
	live, pol := sharedAgentName(3)
	p := Compute(&fsrepo.Repo{}, live, pol)
	if len(p.Errors) != 1 || p.Errors[0].Code != CodeAgentAmbiguous || !strings.Contains(p.Errors[0].Message, "which 3 agents are called") {
		t.Fatalf("errors of a name of 3 agents said 3 times: %v", p.Errors)
	}
}
