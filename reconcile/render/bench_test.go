package render

import (
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
	"github.com/skillsync/skillsync/remote"
)

// The render benchmarks take the largest plan of the scale model: a space
// of 5,000 skills of 50,000 characters of instructions, half of which the
// repository rewrites whole (the largest diffs). Beside the time and the
// bytes allocated, each reports with b.ReportMetric:
//
//	instr-MB     the instructions the plan holds, before and after
//	base-MB      the heap in use before the op: the plan, and the test's own
//	peak-MB      the most heap in use while the op ran (live objects and
//	             garbage not yet freed, sampled every 100µs)
//	peak/instr   peak-MB over instr-MB: the scale model allows at most 3
//	out-MB       the bytes written
//
// Run them with:
//
//	go test -run '^$' -bench RenderLarge -benchtime 1x ./reconcile
//
// The peak resident memory of a whole run, which adds planning to
// rendering, is measured on the test binary:
//
//	go test -c -o /tmp/reconcile.test ./reconcile
//	/usr/bin/time -v /tmp/reconcile.test -test.run '^$' -test.bench 'RenderLarge/json$' -test.benchtime 1x

const (
	largeSkills  = 5000
	largeChanged = largeSkills / 2 // every other skill
	largeSize    = 50_000          // characters of instructions, before and after
)

// largeInputs makes the repository and space of the large plan: the
// instructions of every other skill in the space are other prose than the
// repository's.
func largeInputs() (*fsrepo.Repo, *reconcile.Live) {
	r := rand.New(rand.NewPCG(15, 3))
	desired, lv := reconciletest.Repo(), &reconcile.Live{Space: "ab12"}
	for i := range largeSkills {
		slug := fmt.Sprintf("skill-%04d", i)
		new := strings.Join(reconciletest.Prose(r, largeSize), "")
		old := new
		if i%2 == 0 {
			old = strings.Join(reconciletest.Prose(r, largeSize), "")
		}
		desired.Skills = append(desired.Skills, reconciletest.Local(slug, reconciletest.Disabled, func(s *fsrepo.Skill) { s.Instructions = new }))
		lv.Skills = append(lv.Skills, reconciletest.Live(slug, reconciletest.RemoteDisabled, func(s *remote.Skill) { s.Instructions = &old }))
	}
	return desired, lv
}

// largePlan is the plan of largeInputs, computed once for every benchmark
// of a run: it takes seconds.
var largePlan = sync.OnceValue(func() *reconcile.Plan {
	desired, lv := largeInputs()
	p := reconcile.Compute(desired, lv, reconcile.Policy{})
	if len(p.Changes) != largeChanged {
		panic(fmt.Sprintf("large plan: %d changes, want %d", len(p.Changes), largeChanged))
	}
	return p
})

// instructionBytes counts the instructions p holds, before and after.
func instructionBytes(p *reconcile.Plan) int {
	n := 0
	for _, c := range p.Changes {
		for _, s := range []*string{c.Before.Instructions, c.After.Instructions} {
			if s != nil {
				n += len(*s)
			}
		}
	}
	return n
}

// heapSampler records the most heap in use while it runs.
type heapSampler struct {
	stop chan struct{}
	done chan uint64
}

// heapInUse is the heap occupied by objects, live or not yet freed.
func heapInUse() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

func sampleHeap() *heapSampler {
	h := &heapSampler{stop: make(chan struct{}), done: make(chan uint64)}
	go func() {
		peak := heapInUse()
		t := time.NewTicker(100 * time.Microsecond)
		defer t.Stop()
		for {
			select {
			case <-h.stop:
				h.done <- max(peak, heapInUse())
				return
			case <-t.C:
				peak = max(peak, heapInUse())
			}
		}
	}()
	return h
}

func (h *heapSampler) peak() uint64 {
	close(h.stop)
	return <-h.done
}

// countingWriter counts what is written to it.
type countingWriter struct{ n int64 }

func (w *countingWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	return len(p), nil
}

// reportMemory runs op b.N times, reporting the metrics above.
func reportMemory(b *testing.B, instr int, op func(w io.Writer) error) {
	b.Helper()
	b.ReportAllocs()
	var base, peak uint64
	var out countingWriter
	for range b.N {
		b.StopTimer()
		runtime.GC()
		runtime.GC() // the second frees what a sync.Pool kept through the first
		base = max(base, heapInUse())
		out.n = 0
		h := sampleHeap()
		b.StartTimer()
		if err := op(&out); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		peak = max(peak, h.peak())
	}
	const mb = 1 << 20
	b.ReportMetric(float64(instr)/mb, "instr-MB")
	b.ReportMetric(float64(base)/mb, "base-MB")
	b.ReportMetric(float64(peak)/mb, "peak-MB")
	b.ReportMetric(float64(peak)/float64(instr), "peak/instr")
	b.ReportMetric(float64(out.n)/mb, "out-MB")
}

// BenchmarkRenderLarge renders the large plan in each format, and (plan)
// computes it from its inputs, which are then all the heap holds besides.
func BenchmarkRenderLarge(b *testing.B) {
	b.Run("plan", func(b *testing.B) {
		desired, lv := largeInputs()
		instr := 0
		for i := range desired.Skills {
			instr += len(desired.Skills[i].Instructions) + len(*lv.Skills[i].Instructions)
		}
		reportMemory(b, instr, func(io.Writer) error {
			if p := reconcile.Compute(desired, lv, reconcile.Policy{}); len(p.Changes) != largeChanged {
				return fmt.Errorf("%d changes, want %d", len(p.Changes), largeChanged)
			}
			return nil
		})
	})
	p := largePlan()
	instr := instructionBytes(p)
	b.Run("text", func(b *testing.B) {
		reportMemory(b, instr, func(w io.Writer) error { return Text(w, p, TextOptions{}) })
	})
	b.Run("json", func(b *testing.B) {
		reportMemory(b, instr, func(w io.Writer) error { return JSON(w, []*reconcile.Plan{p}) })
	})
	// What encoding/json takes to encode the same document whole, each
	// diff made as its change is encoded: the plain encoding JSON
	// would be, were it within the memory bound.
	b.Run("json-whole", func(b *testing.B) {
		reportMemory(b, instr, func(w io.Writer) error { return encodeWhole(w, []*reconcile.Plan{p}) })
	})
	b.Run("markdown", func(b *testing.B) {
		reportMemory(b, instr, func(w io.Writer) error { return Markdown(w, p, MarkdownOptions{}) })
	})
	// A comment of 64 KB has no room left for any diff after the table of
	// 2,500 skills. One of 1 MiB (a job summary's limit) has: every diff is
	// made and sized, then each written, cut to its share.
	b.Run("markdown-1MiB", func(b *testing.B) {
		reportMemory(b, instr, func(w io.Writer) error { return Markdown(w, p, MarkdownOptions{MaxLen: 1 << 20}) })
	})
}

// encodeWhole writes the document of JSON with one json.Encoder.
func encodeWhole(w io.Writer, plans []*reconcile.Plan) error {
	type plan struct {
		*reconcile.Plan
		Changes []wholeChange `json:"changes"`
	}
	doc := struct {
		FormatVersion string                   `json:"format_version"`
		Summary       reconcile.TargetsSummary `json:"summary"`
		Targets       []plan                   `json:"targets"`
	}{FormatVersion, reconcile.SummarizeTargets(plans), nil}
	for _, p := range plans {
		cs := make([]wholeChange, len(p.Changes))
		for i := range p.Changes {
			cs[i] = wholeChange{&p.Changes[i]}
		}
		doc.Targets = append(doc.Targets, plan{p, cs})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// wholeChange encodes a change as the document has it, its diff made
// when it is encoded.
type wholeChange struct{ c *reconcile.Change }

func (w wholeChange) MarshalJSON() ([]byte, error) { return json.Marshal(jsonForm(w.c)) }
