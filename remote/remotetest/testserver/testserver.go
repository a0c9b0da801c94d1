// Package testserver starts the emulator of [remotetest] for a test. It
// is a package of its own so that the skillsync binary, which serves the
// emulator, links no test code.
package testserver

import (
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
)

// New starts e on a free loopback port for the length of a test.
func New(tb testing.TB, e *remotetest.Emulator) *remotetest.Server {
	tb.Helper()
	s, err := e.Start("")
	if err != nil {
		tb.Fatalf("testserver: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
