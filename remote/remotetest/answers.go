package remotetest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"golang.org/x/text/unicode/norm"

	"github.com/skillsync/skillsync/remote"
)

// Answers switch the emulator from the strictest reading of a gap of the
// spec to another plausible one, as a real service built on a common
// framework may answer. The zero value is the strict reading the package
// doc describes; each field names the variant it switches to.
type Answers struct {
	// Errors is the shape of every error body.
	Errors ErrorStyle
	// RateLimit is how a 429 says when to come back.
	RateLimit RateLimitHeader
	// Form is the Unicode normal form of the text of skills and files the
	// service returns, whatever form it was sent or seeded in.
	Form NormalForm
	// Write is what update, enable and disable answer.
	Write WriteAnswer
	// AcceptedAfter is how long after a [WriteAccepted] answer the write
	// lands, by the emulator's clock ([Emulator.SetClock]).
	AcceptedAfter time.Duration
	// Times is the precision of createdAt and updatedAt.
	Times TimePrecision
	// Agents is the shape of agents in the list and publish answers.
	Agents AgentShape
	// NoHasMore leaves hasMore out of list envelopes.
	NoHasMore bool
	// NoTotal leaves total out of list envelopes.
	NoTotal bool
	// NoLimit leaves limit and offset out of list envelopes.
	NoLimit bool
	// PageCap, when positive, caps the items of a page below the limit
	// asked for; the envelope's limit (unless NoLimit) says the cap.
	PageCap int
	// StateKeepsTime leaves updatedAt as it was on an enable or disable
	// through the API: the skill keeps its place in the lists.
	StateKeepsTime bool
}

// envelope is a list page as a asks: data, then the fields it keeps.
// There is more when offset + limit < total, as the spec says.
func (a Answers) envelope(data any, total, limit, offset int) any {
	hasMore := offset+limit < total
	env := struct {
		Data    any   `json:"data"`
		Total   *int  `json:"total,omitempty"`
		Limit   *int  `json:"limit,omitempty"`
		Offset  *int  `json:"offset,omitempty"`
		HasMore *bool `json:"hasMore,omitempty"`
	}{Data: data}
	if !a.NoTotal {
		env.Total = &total
	}
	if !a.NoLimit {
		env.Limit, env.Offset = &limit, &offset
	}
	if !a.NoHasMore {
		env.HasMore = &hasMore
	}
	return env
}

// AgentShape is how agents are written where the spec's table is silent
// on types and presence.
type AgentShape int

// Agent shapes of [Answers].
const (
	// AgentsAsTable writes every field with the table's type.
	AgentsAsTable AgentShape = iota
	// AgentsLooseTypes writes temperature and categoryId as strings
	// ("0.20", "3"), conversation starters as plain strings, theme
	// colours as hex strings or without alpha, and a field the table
	// does not name.
	AgentsLooseTypes
	// AgentsSparse writes temperature and embedOptions as null and leaves
	// out categoryId, welcomeMessage and hasUnpublishedChanges.
	AgentsSparse
)

// agentAnswer is a as shape writes it.
func (shape AgentShape) agentAnswer(a remote.Agent) any {
	if shape == AgentsAsTable {
		return a
	}
	data, err := json.Marshal(a)
	if err != nil {
		panic("remotetest: encoding agent: " + err.Error())
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		panic("remotetest: decoding agent: " + err.Error())
	}
	switch shape {
	case AgentsLooseTypes:
		m["temperature"] = strconv.FormatFloat(a.Temperature, 'f', 2, 64)
		m["categoryId"] = strconv.FormatInt(a.CategoryID, 10)
		starters := make([]string, len(a.ConversationStarters))
		for i, cs := range a.ConversationStarters {
			starters[i] = cs.Text
		}
		m["conversationStarters"] = starters
		eo := m["embedOptions"].(map[string]any)
		eo["lightTheme"] = map[string]any{"backgroundColor": "#ffffff", "primaryColor": "#1a73e8"}
		eo["darkTheme"] = map[string]any{"backgroundColor": map[string]any{"h": 0, "s": 0, "v": 0.1}, "primaryColor": "#8ab4f8"}
		m["folderColor"] = "teal"
	case AgentsSparse:
		m["temperature"] = nil
		m["embedOptions"] = nil
		delete(m, "categoryId")
		delete(m, "welcomeMessage")
		delete(m, "hasUnpublishedChanges")
	}
	return m
}

// TimePrecision is the precision of the timestamps of skills.
type TimePrecision int

// Timestamp precisions of [Answers].
const (
	// TimeMillis gives milliseconds everywhere.
	TimeMillis TimePrecision = iota
	// TimeSeconds gives whole seconds everywhere, as a column of a
	// second-precision database type holds them.
	TimeSeconds
	// TimeMillisWritesSecondsReads gives milliseconds in the answer to a
	// write (the value the application set) and whole seconds in reads
	// (the value the database kept).
	TimeMillisWritesSecondsReads
	// TimeSecondsInLists gives whole seconds in list items and
	// milliseconds in single reads and writes (two serialisers).
	TimeSecondsInLists
)

// Kinds of answer a skill is stamped for.
const (
	inList = iota
	inGet
	inWrite
)

// stamp is s with its timestamps at precision p, for an answer of kind
// (inList, inGet, inWrite).
func (p TimePrecision) stamp(s remote.Skill, kind int) remote.Skill {
	if p == TimeSeconds || (p == TimeMillisWritesSecondsReads && kind != inWrite) || (p == TimeSecondsInLists && kind == inList) {
		s.CreatedAt, s.UpdatedAt = toSeconds(s.CreatedAt), toSeconds(s.UpdatedAt)
	}
	return s
}

func toSeconds(ts string) string {
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return ts
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// WriteAnswer is what a skill write (update, enable, disable) answers.
type WriteAnswer int

// Write answers of [Answers].
const (
	// WriteSkill answers 200 with the skill as written.
	WriteSkill WriteAnswer = iota
	// WriteNoContent answers 204 with no body.
	WriteNoContent
	// WriteEmpty answers 200 with an empty body.
	WriteEmpty
	// WriteSuccess answers 200 with {"success":true}.
	WriteSuccess
	// WriteAccepted answers 202 with {"success":true}: the write lands
	// [Answers.AcceptedAfter] later, as a queue would apply it.
	WriteAccepted
)

// writeDone answers a skill write that landed (or, accepted, will land)
// as a asks; s is the skill to show when the answer carries it.
func writeDone(w http.ResponseWriter, a WriteAnswer, s remote.Skill) {
	switch a {
	case WriteNoContent:
		w.WriteHeader(http.StatusNoContent)
	case WriteEmpty:
		w.Header().Set("Content-Length", "0")
		w.WriteHeader(http.StatusOK)
	case WriteSuccess:
		writeJSON(w, http.StatusOK, map[string]bool{"success": true})
	case WriteAccepted:
		writeJSON(w, http.StatusAccepted, map[string]bool{"success": true})
	default:
		writeJSON(w, http.StatusOK, singleSkill(s))
	}
}

// pendingWrite is a write accepted but not yet landed.
type pendingWrite struct {
	due  time.Time
	land func()
}

// landDue lands the accepted writes whose time has come, in the order
// they were accepted; e.mu is held.
func (e *Emulator) landDue() {
	now := e.clock.now()
	n := 0
	for _, p := range e.pending {
		if now.Before(p.due) {
			break
		}
		p.land()
		n++
	}
	e.pending = e.pending[n:]
}

// NormalForm is a Unicode normal form of returned text.
type NormalForm int

// Normal forms of [Answers].
const (
	// FormAsStored returns text as it was sent.
	FormAsStored NormalForm = iota
	// FormNFD returns text decomposed, as macOS file names and some
	// databases' collations hold it.
	FormNFD
	// FormNFC returns text composed, as most input methods type it.
	FormNFC
)

func (f NormalForm) text(s string) string {
	switch f {
	case FormNFD:
		return norm.NFD.String(s)
	case FormNFC:
		return norm.NFC.String(s)
	}
	return s
}

// skill is s with its text in form f.
func (f NormalForm) skill(s remote.Skill) remote.Skill {
	if f == FormAsStored {
		return s
	}
	s.Name, s.Description = f.text(s.Name), f.text(s.Description)
	if s.Instructions != nil {
		in := f.text(*s.Instructions)
		s.Instructions = &in
	}
	return s
}

// ErrorStyle is the shape of an error body.
type ErrorStyle int

// Error styles of [Answers].
const (
	// ErrorNested is {"error":{"code":"...","message":"..."}}.
	ErrorNested ErrorStyle = iota
	// ErrorNestJS is NestJS's {"statusCode":400,"message":"...","error":"Bad Request"}.
	ErrorNestJS
	// ErrorNestJSList is NestJS's validation pipe: message as a list of strings.
	ErrorNestJSList
	// ErrorSpring is Spring Boot's {"timestamp","status","error","message","path"}.
	ErrorSpring
)

// RateLimitHeader is the header a 429 carries.
type RateLimitHeader int

// Rate-limit headers of [Answers].
const (
	// RetryAfterSeconds is Retry-After in whole seconds.
	RetryAfterSeconds RateLimitHeader = iota
	// ResetSeconds is X-RateLimit-Reset in seconds from now, and no Retry-After.
	ResetSeconds
	// ResetEpoch is X-RateLimit-Reset as Unix epoch seconds, and no Retry-After.
	ResetEpoch
)

// SetAnswers replaces the answers the emulator gives where the spec is
// silent.
func (e *Emulator) SetAnswers(a Answers) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.answers = a
}

// setRateLimitHeader writes the header of a 429 asking to come back after d.
func setRateLimitHeader(h http.Header, style RateLimitHeader, d time.Duration, now time.Time) {
	secs := max(0, int64((d+time.Second-1)/time.Second))
	switch style {
	case ResetSeconds:
		h.Set("X-RateLimit-Reset", strconv.FormatInt(secs, 10))
	case ResetEpoch:
		h.Set("X-RateLimit-Reset", strconv.FormatInt(now.Unix()+secs, 10))
	default:
		h.Set("Retry-After", strconv.FormatInt(secs, 10))
	}
}

// errorBody is the body of an error answer in style.
func errorBody(style ErrorStyle, status int, code, msg, path string, now time.Time) any {
	switch style {
	case ErrorNestJS:
		return map[string]any{"statusCode": status, "message": msg, "error": http.StatusText(status)}
	case ErrorNestJSList:
		return map[string]any{"statusCode": status, "message": []string{msg}, "error": http.StatusText(status)}
	case ErrorSpring:
		return map[string]any{"timestamp": formatTime(now), "status": status, "error": http.StatusText(status), "message": msg, "path": path}
	}
	var b ErrorBody
	b.Error.Code, b.Error.Message = code, msg
	return b
}
