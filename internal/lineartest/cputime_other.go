//go:build !linux && !darwin

package lineartest

import "time"

// cpuTime is the time fn takes, where the CPU time of a thread is not at
// hand.
func cpuTime(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}
