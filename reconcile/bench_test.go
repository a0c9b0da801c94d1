package reconcile

import (
	"context"
	"fmt"
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

// The benchmarks run Fetch and Apply against the emulator over loopback
// HTTP with benchLatency added to every answer, as a distant service would.
// Each reports what the performance issue asks of it with b.ReportMetric:
//
//	requests/op   every request the emulator received
//	x-bound       time per op over its lower bound: the requests a
//	              parallelism-P run must wait for one after another
//	speedup       time per op at parallelism 1 over this one (reported by
//	              the par=8 run when par=1 ran before it)
//
// Run them with, for instance:
//
//	go test -run '^$' -bench 'Plan1000|Apply500|WarmCache' -benchtime 2x ./reconcile

const (
	benchLatency = 20 * time.Millisecond
	benchSpace   = "ab12"
	benchToken   = "bench-token"
)

// perfEnv is an emulator with n skills, served on loopback, and a client.
type perfEnv struct {
	emu     *remotetest.Emulator
	client  *remote.Client
	desired *fsrepo.Repo
}

func newPerfEnv(tb testing.TB, n int, opts remote.Options) *perfEnv {
	tb.Helper()
	e := remotetest.New()
	e.AddSpace(remotetest.Space{ID: benchSpace})
	e.AddToken(benchToken, remotetest.ReadWrite)
	// The service's clock an hour behind: a skill's updatedAt is then never
	// too close to a read to trust its cache entry (see racy).
	e.SetClock(func() time.Time { return time.Now().Add(-time.Hour) })
	srv := testserver.New(tb, e)
	opts.BaseURL, opts.Token = srv.URL, benchToken
	c, err := remote.New(opts)
	if err != nil {
		tb.Fatal(err)
	}
	env := &perfEnv{emu: e, client: c, desired: &fsrepo.Repo{Root: "/repo", Config: config.Config{Space: benchSpace}}}
	for i := range n {
		slug := fmt.Sprintf("skill-%05d", i)
		text := fmt.Sprintf("# %s\n\nDo the thing number %d.\n", slug, i)
		// At most 40 may be active: keep the first 20 on.
		on := i < 20
		e.AddSkill(benchSpace, remotetest.SkillSeed{Slug: slug, Name: "Skill " + slug,
			Description: "About " + slug, Instructions: text, Enabled: on})
		env.desired.Skills = append(env.desired.Skills, fsrepo.Skill{Slug: slug,
			Path: "skills/" + slug + "/SKILL.md", Name: "Skill " + slug,
			Description: "About " + slug, Instructions: spec.Canonical(text), Enabled: on})
	}
	return env
}

func (env *perfEnv) requests() int {
	n := 0
	for _, v := range env.emu.Requests() {
		n += v
	}
	return n
}

// planOnce fetches and plans, failing on any error or change.
func (env *perfEnv) planOnce(tb testing.TB, o fetch.Options) *Plan {
	live, err := fetch.Space(context.Background(), env.client, benchSpace, env.desired, o)
	if err != nil {
		tb.Fatal(err)
	}
	return Compute(env.desired, live, Policy{})
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }

// BenchmarkPlan1000 plans 1,000 managed, unchanged skills at parallelism 1
// and 8. The minimum is ceil(1000/100) list pages, one agents page and 1,000
// gets; the lower bound of the time is the list pages, read one after
// another, plus ceil(1000/P) rounds of gets.
func BenchmarkPlan1000(b *testing.B) {
	const n = 1000
	env := newPerfEnv(b, n, remote.Options{})
	env.emu.SetFaults(remotetest.Faults{Latency: benchLatency})
	minRequests := ceilDiv(n, spec.MaxPageLimit) + 1 + n
	var par1 time.Duration // time per op at parallelism 1, when measured
	for _, par := range []int{1, 8} {
		b.Run(fmt.Sprintf("par=%d", par), func(b *testing.B) {
			env.emu.ResetRequests()
			b.ResetTimer()
			for range b.N {
				if p := env.planOnce(b, fetch.Options{Parallelism: par}); p.HasChanges() || p.HasErrors() {
					b.Fatalf("plan of unchanged skills: %d changes, %d errors", len(p.Changes), len(p.Errors))
				}
			}
			b.StopTimer()
			perOp := b.Elapsed() / time.Duration(b.N)
			reqs := float64(env.requests()) / float64(b.N)
			if int(reqs) > minRequests {
				b.Errorf("%.0f requests/op, more than the minimum %d", reqs, minRequests)
			}
			bound := time.Duration(ceilDiv(n, spec.MaxPageLimit)+ceilDiv(n, par)) * benchLatency
			b.ReportMetric(reqs, "requests/op")
			b.ReportMetric(float64(perOp)/float64(bound), "x-bound")
			if par == 1 {
				par1 = perOp
			} else if par1 > 0 {
				b.ReportMetric(float64(par1)/float64(perOp), "speedup")
			}
		})
	}
}

// BenchmarkPlan1000WarmCache plans 1,000 unchanged skills with a warm
// instruction cache: only the lists are read.
func BenchmarkPlan1000WarmCache(b *testing.B) {
	const n = 1000
	env := newPerfEnv(b, n, remote.Options{})
	cache, err := fetch.OpenCache(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	env.planOnce(b, fetch.Options{Cache: cache}) // warm it
	env.emu.SetFaults(remotetest.Faults{Latency: benchLatency})
	env.emu.ResetRequests()
	b.ResetTimer()
	for range b.N {
		if p := env.planOnce(b, fetch.Options{Cache: cache}); p.HasChanges() || p.HasErrors() {
			b.Fatalf("plan of unchanged skills: %d changes, %d errors", len(p.Changes), len(p.Errors))
		}
	}
	b.StopTimer()
	reqs := float64(env.requests()) / float64(b.N)
	if want := ceilDiv(n, spec.MaxPageLimit) + 1; int(reqs) > want {
		b.Errorf("%.0f requests/op with a warm cache, want %d (the lists only)", reqs, want)
	}
	b.ReportMetric(reqs, "requests/op")
}

// BenchmarkApply500 applies 500 instruction updates at parallelism 1 and 8.
// Each op applies a plan computed (untimed, with no request) from the
// emulator's state, alternating two versions of the instructions.
func BenchmarkApply500(b *testing.B) {
	const n = 500
	env := newPerfEnv(b, n, remote.Options{})
	env.emu.SetFaults(remotetest.Faults{Latency: benchLatency})
	version := 0
	nextPlan := func(b *testing.B) *Plan {
		version++
		for i := range env.desired.Skills {
			s := &env.desired.Skills[i]
			s.Instructions = spec.Canonical(fmt.Sprintf("# %s\n\nVersion %d.\n", s.Slug, version))
		}
		live := &Live{Space: benchSpace, Skills: env.emu.Skills(benchSpace)}
		p := Compute(env.desired, live, Policy{})
		if len(p.Changes) != n || p.HasErrors() {
			b.Fatalf("plan: %d changes, %d errors; want %d updates", len(p.Changes), len(p.Errors), n)
		}
		return p
	}
	var par1 time.Duration
	for _, par := range []int{1, 8} {
		b.Run(fmt.Sprintf("par=%d", par), func(b *testing.B) {
			env.emu.ResetRequests()
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				p := nextPlan(b)
				b.StartTimer()
				res, err := Apply(context.Background(), env.client, benchSpace, p, ApplyOptions{Parallelism: par})
				if err != nil {
					b.Fatal(err)
				}
				if res.Failed() {
					b.Fatalf("apply failed: %+v", res.Counts())
				}
			}
			b.StopTimer()
			perOp := b.Elapsed() / time.Duration(b.N)
			// Each update is two requests one after another: the read
			// right before it, and the update.
			bound := time.Duration(2*ceilDiv(n, par)) * benchLatency
			b.ReportMetric(float64(env.requests())/float64(b.N), "requests/op")
			b.ReportMetric(float64(perOp)/float64(bound), "x-bound")
			if par == 1 {
				par1 = perOp
			} else if par1 > 0 {
				b.ReportMetric(float64(par1)/float64(perOp), "speedup")
			}
		})
	}
}
