//go:build linux || darwin

package lineartest

import (
	"time"

	"golang.org/x/sys/unix"
)

// cpuTime is the CPU time the calling thread spends in fn: unlike the
// time of day, it does not count the time other processes hold the CPU.
func cpuTime(fn func()) time.Duration {
	start := threadTime()
	fn()
	return threadTime() - start
}

func threadTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		panic(err) // supported by every Linux and macOS Go runs on
	}
	return time.Duration(ts.Nano())
}
