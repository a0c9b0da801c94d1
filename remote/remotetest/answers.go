package remotetest

import (
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
