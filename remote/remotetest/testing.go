package remotetest

import "testing"

// NewServer starts e on a free loopback port for the length of a test.
func NewServer(tb testing.TB, e *Emulator) *Server {
	tb.Helper()
	s, err := e.Start("")
	if err != nil {
		tb.Fatalf("remotetest: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}
