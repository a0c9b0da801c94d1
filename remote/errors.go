package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/redact"
)

// An Error is a response of the service with a status other than 2xx (after
// any retries). Callers branch on it with [IsNotFound], [IsConflict],
// [IsForbidden] and [IsUnauthorized], or with errors.As.
type Error struct {
	StatusCode int
	Method     string
	Path       string // the request's path and query, relative to the base URL
	// Message is the message of a JSON error body ({"error":{"message":..}},
	// {"message":..}, {"error":".."}, or an RFC 7807 problem's "detail" or
	// "title"), else a short excerpt of the body; the client's token is
	// redacted from it however the body spelt it.
	Message string
	// RetryAfter is the delay the service asked for in a Retry-After
	// header, or in the reset of its rate-limit window when it sent no
	// Retry-After; zero when it sent neither.
	RetryAfter time.Duration
	// RetryAt is when the answer came plus RetryAfter: the time to say to
	// a user; zero when RetryAfter is.
	RetryAt time.Time
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %d", e.Method, e.Path, e.StatusCode)
	if text := http.StatusText(e.StatusCode); text != "" {
		b.WriteString(" " + text)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// IsNotFound reports whether err is, or wraps, an [*Error] with status 404.
func IsNotFound(err error) bool { return hasStatus(err, http.StatusNotFound) }

// IsConflict reports whether err is, or wraps, an [*Error] with status 409,
// which enable returns when the space already has [spec.MaxActiveSkills] active.
func IsConflict(err error) bool { return hasStatus(err, http.StatusConflict) }

// IsForbidden reports whether err is, or wraps, an [*Error] with status 403.
func IsForbidden(err error) bool { return hasStatus(err, http.StatusForbidden) }

// IsUnauthorized reports whether err is, or wraps, an [*Error] with status
// 401: the token is missing, malformed or expired.
func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }

func hasStatus(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == code
}

// ErrTokenInAnswer is wrapped by the error of a call whose answer holds
// the client's own access token (in a skill's text, say): the client
// refuses the answer rather than hand the token on to be printed, stored
// in a plan or a journal, or posted to a pull request.
var ErrTokenInAnswer = errors.New("the answer holds the access token this client sends; it is neither shown nor stored: remove the token from the space, where anyone who can read it sees it, and rotate it")

// ErrTooLarge is wrapped by the error of a call whose answer is larger than
// the client takes (32 MiB) or the call asked for
// ([Client.GetSkillFileUpTo]). The answer is not read past the limit.
var ErrTooLarge = errors.New("answer too large")

// tooLargeError says how an answer is too large, and is [ErrTooLarge].
type tooLargeError struct{ msg string }

func (e *tooLargeError) Error() string        { return e.msg }
func (e *tooLargeError) Is(target error) bool { return target == ErrTooLarge }

func tooLarge(format string, args ...any) error {
	return &tooLargeError{fmt.Sprintf(format, args...)}
}

// ErrNotVisible is wrapped by the error of a write the service took (a 202,
// or a 2xx with no skill in it) but that reads of the skill did not show
// within 15 seconds: neither done nor failed, as far as anyone can tell
// yet.
var ErrNotVisible = errors.New("accepted by the service, not visible yet")

// A NotVisibleError is a write reads did not show in time; it is
// [ErrNotVisible].
type NotVisibleError struct {
	Method, Path string
	// Status is the service's answer to the write (202, 204, 200).
	Status int
	// Waited is how long reads were retried.
	Waited time.Duration
	// Skill is the last read of the skill.
	Skill *Skill
}

func (e *NotVisibleError) Error() string {
	return fmt.Sprintf("%s %s: the service answered %d %s with no skill, and reads did not show the write within %s: %v",
		e.Method, e.Path, e.Status, http.StatusText(e.Status), e.Waited, ErrNotVisible)
}

// Is makes a NotVisibleError [ErrNotVisible].
func (e *NotVisibleError) Is(target error) bool { return target == ErrNotVisible }

// ErrNoResponse is wrapped by the error of a request that got no answer
// within the client's per-request timeout (after any retries).
var ErrNoResponse = errors.New("no response")

const (
	maxExcerpt = 200 // characters of a non-JSON error body kept in Error.Message
	maxMessage = 500 // characters of a server's message kept in Error.Message
)

// errorMessage finds the message of an error body in the shapes services
// commonly use ({"error":{"message":..}}, {"message":..} with the message
// a string or a list as NestJS's validation gives, Spring's and NestJS's
// {"error":"Bad Request","message":..}, an RFC 7807 problem's detail or
// title, {"error":..}), falling back to an excerpt of the body. A message
// wins over an "error" that is only the status text. The token is
// redacted from the body as it is, which any field of any shape may echo
// in any spelling, and from the message once decoded, before the cut: a
// token the cut split would no longer be found.
func errorMessage(body []byte, r *redact.Redactor) string {
	raw := r.Redact(string(body))
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Title   json.RawMessage `json:"title"`
	}
	if json.Unmarshal([]byte(raw), &v) == nil {
		var nested struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(v.Error, &nested) == nil && nested.Message != "" {
			return excerpt(r, nested.Message, maxMessage)
		}
		for _, field := range []json.RawMessage{v.Message, v.Detail, v.Title, v.Error} {
			if s := messageText(field); s != "" {
				return excerpt(r, s, maxMessage)
			}
		}
	}
	return excerpt(r, raw, maxExcerpt)
}

// messageText is a message field as a string: a JSON string, or a list of
// strings joined with "; "; "" for anything else.
func messageText(field json.RawMessage) string {
	var s string
	if json.Unmarshal(field, &s) == nil {
		return s
	}
	var list []string
	if json.Unmarshal(field, &list) == nil {
		return strings.Join(slices.DeleteFunc(list, func(s string) bool { return s == "" }), "; ")
	}
	return ""
}

// excerpt is s redacted, then shortened to max characters; what the cut
// left of a token beside its "..." is redacted too.
func excerpt(r *redact.Redactor, s string, max int) string {
	return r.Redact(shorten(r.Redact(s), max))
}

// shorten makes s printable on one line and at most max characters long.
func shorten(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
	if utf8.RuneCountInString(s) > max {
		s = string([]rune(s)[:max]) + "..."
	}
	return s
}
