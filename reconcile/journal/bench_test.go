package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/spec"
)

// BenchmarkJournalWrite writes journal lines to a file, each synced before
// Write returns, from 1 and from 8 writers at once, as apply does at
// parallelism 1 and 8. An op is one line; beside the time it reports the
// size of a line (line-bytes).
//
//	go test -run '^$' -bench JournalWrite -benchtime 2000x ./reconcile/journal
func BenchmarkJournalWrite(b *testing.B) {
	text := strings.Repeat("Do the thing, then check it twice.\n", 30) // about 1 KB, in request and before
	e := reconcile.JournalEntry{Time: time.Now().UTC(), Space: "ab12", Slug: "skill-00001", ID: "00000000-0000-4000-8000-000000000001",
		Action: reconcile.ActionUpdate, Request: &remote.SkillUpdate{Instructions: &text}, Before: &reconcile.SkillState{Name: "Skill", Instructions: &text},
		Outcome: reconcile.OutcomeStarted}
	line, err := json.Marshal(e)
	if err != nil {
		b.Fatal(err)
	}
	for _, writers := range []int{1, 8} {
		b.Run(fmt.Sprintf("writers=%d", writers), func(b *testing.B) {
			j, err := Open(filepath.Join(b.TempDir(), "j.jsonl"))
			if err != nil {
				b.Fatal(err)
			}
			defer j.Close()
			b.ResetTimer()
			var wg sync.WaitGroup
			next := make(chan struct{})
			for range writers {
				wg.Go(func() {
					for range next {
						if err := j.Write(e); err != nil {
							b.Error(err)
						}
					}
				})
			}
			for range b.N {
				next <- struct{}{}
			}
			close(next)
			wg.Wait()
			b.StopTimer()
			b.ReportMetric(float64(len(line)+1), "line-bytes")
		})
	}
}

// BenchmarkApply500Journal applies 500 instruction updates at parallelism
// 8, as BenchmarkApply500 does, without a journal (off) and with one (on):
// two lines synced for each update, the started one before its request.
// The on run reports its time over the off run's (overhead-%).
//
//	go test -run '^$' -bench Apply500Journal -benchtime 3x -count 5 ./reconcile/journal
func BenchmarkApply500Journal(b *testing.B) {
	const n, par = 500, 8
	env := reconciletest.NewEnv(b, remotetest.Space{})
	desired := reconciletest.Repo()
	for i := range n {
		slug := fmt.Sprintf("skill-%05d", i)
		text := fmt.Sprintf("# %s\n\nDo the thing number %d.\n", slug, i)
		on := i < 20 // at most 40 may be active
		env.Seed(slug, text, on)
		desired.Skills = append(desired.Skills, reconciletest.Want(slug, text, on))
	}
	// As a distant service answers.
	env.Emu.SetFaults(remotetest.Faults{Latency: 20 * time.Millisecond})
	version := 0
	nextPlan := func(b *testing.B) *reconcile.Plan {
		version++
		for i := range desired.Skills {
			s := &desired.Skills[i]
			s.Instructions = spec.Canonical(fmt.Sprintf("# %s\n\nVersion %d.\n", s.Slug, version))
		}
		p := reconcile.Compute(desired, &reconcile.Live{Space: reconciletest.Space, Skills: env.Emu.Skills(reconciletest.Space)}, reconcile.Policy{})
		if len(p.Changes) != n || p.HasErrors() {
			b.Fatalf("plan: %d changes, %d errors; want %d updates", len(p.Changes), len(p.Errors), n)
		}
		return p
	}
	var off time.Duration
	for _, journal := range []bool{false, true} {
		name := map[bool]string{false: "off", true: "on"}[journal]
		b.Run(name, func(b *testing.B) {
			var j *File
			if journal {
				var err error
				if j, err = Open(filepath.Join(b.TempDir(), "j.jsonl")); err != nil {
					b.Fatal(err)
				}
				defer j.Close()
			}
			b.ResetTimer()
			for range b.N {
				b.StopTimer()
				p := nextPlan(b)
				o := reconcile.ApplyOptions{Parallelism: par}
				if j != nil {
					o.Journal = j
				}
				b.StartTimer()
				res, err := reconcile.Apply(context.Background(), env.Client, reconciletest.Space, p, o)
				if err != nil {
					b.Fatal(err)
				}
				if res.Failed() {
					b.Fatalf("apply failed: %+v", res.Counts())
				}
			}
			b.StopTimer()
			perOp := b.Elapsed() / time.Duration(b.N)
			if !journal {
				off = perOp
				return
			}
			if off > 0 {
				b.ReportMetric(100*(float64(perOp)/float64(off)-1), "overhead-%")
			}
		})
	}
}
