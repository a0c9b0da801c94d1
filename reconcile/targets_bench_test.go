package reconcile

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
	"github.com/skillsync/skillsync/spec"
)

// BenchmarkPlanTargets plans 10 targets of 300 managed, unchanged skills
// each, every target a space of its own, at benchLatency, all at once in
// one process sharing one Budget of P requests in flight, as plan and
// drift do with several targets: every target's lists, then every
// target's reads. It reports:
//
//	requests/op      every request the emulator received
//	min-requests     the sum of each target's minimum (its list pages, its
//	                 agents page and a read of each skill); more fails
//	bound-ms         1.3 × min-requests ÷ P × latency, the target of issue 16
//	x-bound          time per op over bound-ms: <= 1 when the targets
//	                 overlap rather than run one after another
//
// One op takes about 8 s at P=8:
//
//	go test -run '^$' -bench PlanTargets -benchtime 1x ./reconcile
func BenchmarkPlanTargets(b *testing.B) {
	const targets, n, par = 10, 300, 8
	e := remotetest.New()
	e.AddToken(benchToken, remotetest.ReadWrite)
	srv := testserver.New(b, e)
	type target struct {
		space   string
		client  *remote.Client
		desired *fsrepo.Repo
	}
	ts := make([]target, targets)
	for i := range ts {
		space := fmt.Sprintf("t%02d", i)
		e.AddSpace(remotetest.Space{ID: space})
		c, err := remote.New(remote.Options{BaseURL: srv.URL, Token: benchToken})
		if err != nil {
			b.Fatal(err)
		}
		desired := &fsrepo.Repo{Root: "/repo", Config: config.Config{Space: space}}
		for j := range n {
			slug := fmt.Sprintf("skill-%05d", j)
			text := fmt.Sprintf("# %s\n\nDo the thing number %d in %s.\n", slug, j, space)
			on := j < 20
			e.AddSkill(space, remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug,
				Description: "About " + slug, Instructions: text, Enabled: on})
			desired.Skills = append(desired.Skills, fsrepo.Skill{Slug: slug, Path: "skills/" + slug + "/SKILL.md",
				Name: "Skill " + slug, Description: "About " + slug, Instructions: spec.Canonical(text), Enabled: on})
		}
		ts[i] = target{space: space, client: c, desired: desired}
	}
	e.SetFaults(remotetest.Faults{Latency: benchLatency})

	minRequests := 0
	for range ts {
		for _, l := range [][]int{listReads(n, true), listReads(0, false)} { // skills, agents
			minRequests += len(l)
			for _, g := range l {
				minRequests += g
			}
		}
	}
	e.ResetRequests()
	b.ResetTimer()
	for range b.N {
		budget := fetch.NewBudget(par)
		listings := make([]*fetch.Listing, len(ts))
		plans := make([]*Plan, len(ts))
		errs := make([]error, len(ts))
		var wg sync.WaitGroup
		for i, t := range ts {
			wg.Go(func() {
				listings[i], errs[i] = fetch.List(context.Background(), t.client, t.space, fetch.Options{Parallelism: par, Budget: budget})
			})
		}
		wg.Wait()
		for i, t := range ts {
			wg.Go(func() {
				if errs[i] != nil {
					return
				}
				live, err := listings[i].Read(context.Background(), t.desired, nil)
				if err != nil {
					errs[i] = err
					return
				}
				plans[i] = Compute(t.desired, live, Policy{})
			})
		}
		wg.Wait()
		for i, p := range plans {
			if errs[i] != nil {
				b.Fatalf("target %s: %v", ts[i].space, errs[i])
			}
			if p.HasChanges() || p.HasErrors() {
				b.Fatalf("plan of unchanged skills in %s: %d changes, %d errors", ts[i].space, len(p.Changes), len(p.Errors))
			}
		}
	}
	b.StopTimer()
	reqs := 0
	for _, v := range e.Requests() {
		reqs += v
	}
	perOpReqs := float64(reqs) / float64(b.N)
	if int(perOpReqs) != minRequests {
		b.Errorf("%.0f requests/op, want exactly the sum of the targets' minimums, %d", perOpReqs, minRequests)
	}
	bound := time.Duration(1.3 * float64(minRequests) / par * float64(benchLatency))
	perOp := b.Elapsed() / time.Duration(b.N)
	b.ReportMetric(perOpReqs, "requests/op")
	b.ReportMetric(float64(minRequests), "min-requests")
	b.ReportMetric(float64(bound)/float64(time.Millisecond), "bound-ms")
	b.ReportMetric(float64(perOp)/float64(bound), "x-bound")
}
