package remotetest

import (
	"math/rand/v2"
	"strings"
	"time"

	"github.com/skillsync/skillsync/spec"
)

// Faults make the emulator behave like a service under stress. The zero
// value injects nothing. Rates are shares of requests, drawn from a
// generator seeded with Seed, so a run with the same requests in the same
// order sees the same faults. A request hit by a fault changes nothing
// (unless DropAfterWrite).
type Faults struct {
	// Latency delays every answer.
	Latency time.Duration
	// ErrorRate is the share of requests answered 500 or 503 (half each).
	ErrorRate float64
	// RateLimitRate is the share answered 429 with a Retry-After header.
	RateLimitRate float64
	// RetryAfter is the Retry-After of those answers, sent in whole
	// seconds rounded up; zero sends "Retry-After: 0" (retry at once),
	// which keeps tests fast.
	RetryAfter time.Duration
	// DropRate is the share of requests whose connection is closed with no
	// answer at all.
	DropRate float64
	// DropAfterWrite makes a dropped request take effect before its
	// connection is closed: the change is made, the answer is lost.
	DropAfterWrite bool
	// Seed seeds the fault generator.
	Seed int64
	// Newline is how the service normalises instructions it stores on
	// update.
	Newline NewlineMode
}

// NewlineMode is how stored instructions are normalised on update, like a
// service that normalises text.
type NewlineMode int

// Newline modes of [Faults].
const (
	// KeepNewline stores instructions exactly as sent.
	KeepNewline NewlineMode = iota
	// TrimFinalNewline removes every trailing "\n" (and "\r\n").
	TrimFinalNewline
	// AddFinalNewline appends "\n" to non-empty instructions that do not
	// end with one, unless that would pass the 50,000-character limit.
	AddFinalNewline
)

func (m NewlineMode) apply(s string) string {
	switch m {
	case TrimFinalNewline:
		return strings.TrimRight(s, "\r\n")
	case AddFinalNewline:
		// Never past the limit the service itself enforces.
		if s != "" && !strings.HasSuffix(s, "\n") && spec.UTF16Len(s) < spec.MaxInstructionsLen {
			return s + "\n"
		}
	}
	return s
}

// SetFaults replaces the fault configuration and reseeds the generator.
func (e *Emulator) SetFaults(f Faults) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.faults = f
	e.faultRand = newFaultRand(f.Seed)
}

type faultKind int

const (
	faultNone faultKind = iota
	faultDrop
	faultError500
	faultError503
	faultRateLimit
)

func newFaultRand(seed int64) *rand.Rand {
	return rand.New(rand.NewPCG(uint64(seed), 0x5ca1ab1e))
}

// drawFault picks the fault of one request; e.mu must be held. The same
// numbers are drawn per request whatever the rates, so the sequence only
// depends on the seed and the number of requests.
func (e *Emulator) drawFault() faultKind {
	u := e.faultRand.Float64()
	coin := e.faultRand.IntN(2)
	f := e.faults
	switch {
	case u < f.DropRate:
		return faultDrop
	case u < f.DropRate+f.ErrorRate:
		if coin == 0 {
			return faultError500
		}
		return faultError503
	case u < f.DropRate+f.ErrorRate+f.RateLimitRate:
		return faultRateLimit
	}
	return faultNone
}
