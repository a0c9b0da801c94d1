package spec

import (
	"strings"
	"time"
)

// SameTime reports whether two timestamps of the service name the same
// moment as far as both can tell: equal as written, or equal instants, or,
// when either is written in whole seconds, equal to the second. A service
// may answer a write in milliseconds and truncate the same value in reads.
func SameTime(a, b string) bool {
	if a == b {
		return true
	}
	ta, errA := time.Parse(time.RFC3339Nano, a)
	tb, errB := time.Parse(time.RFC3339Nano, b)
	if errA != nil || errB != nil {
		return false
	}
	if WholeSeconds(a) || WholeSeconds(b) {
		return ta.Truncate(time.Second).Equal(tb.Truncate(time.Second))
	}
	return ta.Equal(tb)
}

// WholeSeconds reports whether an RFC 3339 timestamp has no fraction of a
// second: two moments of one second cannot be told apart by it.
func WholeSeconds(ts string) bool {
	return !strings.Contains(ts, ".")
}
