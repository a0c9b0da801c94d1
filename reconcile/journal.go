package reconcile

import (
	"time"

	"github.com/skillsync/skillsync/remote"
)

// OutcomeStarted is the outcome of the journal line [Apply] writes, and
// syncs, before it sends a mutation: the request and the before it may
// overwrite, on disk before the service can act on it. The line of the
// outcome (applied or failed) follows once the answer is in.
//
// A started line with no outcome line after it for the same space, skill
// (or agent) and action means the request may have been applied: the
// process ended while it was in flight (killed, or the machine went down),
// and the service may or may not have made the change. Its Before can
// restore what the change overwrote.
const OutcomeStarted Outcome = "started"

// JournalEntry is one line of a journal. Every mutation [Apply] attempts
// has two: one with outcome [OutcomeStarted] before the request is sent,
// and one with its outcome after, whatever it is. A failed request may
// still have taken effect (the answer can be lost after the write), so
// failures are journaled too.
//
// An update apply did not send, because the skill read right before it
// had changed in the space since the plan (or the read failed), has its
// started line, with the skill as planned, then an outcome line
// [OutcomeSkipped] with the request not sent and the skill as read in
// Before: it changed nothing, so restore passes over both. (Older
// versions wrote the skipped line alone, with no Request.)
type JournalEntry struct {
	// Time is when the line was written: just before the request for a
	// started line, when the answer came for the others; RFC 3339 in UTC.
	Time  time.Time `json:"time"`
	Space string    `json:"space"`
	// Target is the target of skillsync.yaml applied; none for the one
	// space of a skillsync.yaml without targets.
	Target string `json:"target,omitempty"`
	// Slug and ID name the skill; for a publish, Slug is the agent's name
	// and ID its id.
	Slug   string `json:"slug"`
	ID     string `json:"id"`
	Action Action `json:"action"`
	// Request is the body of an update: exactly the fields sent (or, on a
	// skipped line, not sent). Enable, disable and publish have none.
	Request *remote.SkillUpdate `json:"request,omitempty"`
	// Before is, for an update, the skill as read right before the
	// request: the text it replaced, so that it can be restored; for an
	// enable or disable, the skill as planned against. None for a publish.
	Before *SkillState `json:"before,omitempty"`
	// After is the skill as the response showed it; none for a started
	// line, when the request failed, or for a publish.
	After    *SkillState `json:"after,omitempty"`
	Outcome  Outcome     `json:"outcome"`
	Error    string      `json:"error,omitempty"`    // why the request failed
	Mismatch string      `json:"mismatch,omitempty"` // how the response differed from the request
	// Withheld names the texts left out of the line because they held a
	// secret of this process ("before.instructions", "request.name",
	// "error", ...), each with the names of its secrets: restore cannot
	// put such a text back.
	Withheld map[string][]string `json:"withheld,omitempty"`
}

// A JournalWriter records the lines of an apply: [Apply] writes a
// [JournalEntry] through it before each request and after each answer, and
// sends no request whose line could not be written, so Write must return
// only once the line would survive a crash. The file of package
// reconcile/journal is the one skillsync writes; a test may keep the lines
// in memory.
type JournalWriter interface {
	Write(JournalEntry) error
}
