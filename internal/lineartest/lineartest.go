// Package lineartest holds a test's work to linear growth in the size of
// its input, measured alike by the tests of hostile inputs of several
// packages. Only tests import it.
package lineartest

import (
	"runtime"
	"testing"
	"time"
)

// Time fails t unless run(16n) takes at most 64 times the CPU time of
// run(n): linear work takes about 16 times as long (up to 3 times that
// again where the larger input no longer fits the CPU's caches),
// quadratic work 256. Each size counts the fastest of three runs, in CPU
// time of the calling thread, which the load of the machine barely
// changes; run must work on the goroutine that calls it.
func Time(t testing.TB, n int, run func(n int)) {
	t.Helper()
	run(n) // compiles what is compiled once (regular expressions, ...)
	var small, large time.Duration
	for range 2 { // once more, should something have held up the first try
		small, large = fastest(n, run), fastest(16*n, run)
		t.Logf("lineartest: %v for n=%d, %v for 16n: %.1f", small, n, large, float64(large)/float64(small))
		if large <= 64*small {
			return
		}
	}
	t.Errorf("took %v for n=%d and %v for 16n: %.1f times as long, where linear work takes about 16",
		small, n, large, float64(large)/float64(small))
}

func fastest(n int, run func(n int)) time.Duration {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	best := time.Duration(0)
	for i := range 3 {
		runtime.GC() // of what earlier runs left
		if d := cpuTime(func() { run(n) }); i == 0 || d < best {
			best = d
		}
	}
	return best
}

// Allocs fails t unless run(4n) allocates at most 8 times the bytes
// run(n) does: linear work allocates about 4 times as much, quadratic
// work 16. The test must not run in parallel with others.
func Allocs(t testing.TB, n int, run func(n int)) {
	t.Helper()
	run(n) // compiles what is compiled once (regular expressions, ...)
	small, large := Allocated(func() { run(n) }), Allocated(func() { run(4 * n) })
	if large > 8*small {
		t.Errorf("allocated %d KB for n=%d and %d KB for 4n: %.1f times as much, where linear work allocates about 4",
			small>>10, n, large>>10, float64(large)/float64(small))
	}
}

// Allocated is the bytes fn allocates, its own if nothing else runs.
func Allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}
