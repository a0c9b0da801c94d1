//go:build race

package lint

// raceEnabled: the race detector is on, and sync.Pool drops what it is
// given, so allocations measure the pools, not the judging.
const raceEnabled = true
