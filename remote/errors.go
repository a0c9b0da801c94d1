package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// An Error is a response of the service with a status other than 2xx (after
// any retries). Callers branch on it with [IsNotFound], [IsConflict],
// [IsForbidden], [IsUnauthorized] and [IsRateLimited], or with errors.As.
type Error struct {
	StatusCode int
	Method     string
	Path       string // the request's path and query, relative to the base URL
	// Message is the message of a JSON error body ({"error":{"message":..}},
	// {"message":..} or {"error":".."}), else a short excerpt of the body.
	Message string
	// RetryAfter is the delay the service asked for in a Retry-After
	// header; zero when it sent none.
	RetryAfter time.Duration
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
// which enable returns when the space already has [MaxActiveSkills] active.
func IsConflict(err error) bool { return hasStatus(err, http.StatusConflict) }

// IsForbidden reports whether err is, or wraps, an [*Error] with status 403.
func IsForbidden(err error) bool { return hasStatus(err, http.StatusForbidden) }

// IsUnauthorized reports whether err is, or wraps, an [*Error] with status
// 401: the token is missing, malformed or expired.
func IsUnauthorized(err error) bool { return hasStatus(err, http.StatusUnauthorized) }

// IsRateLimited reports whether err is, or wraps, an [*Error] with status
// 429, which the client returns only once its retries are spent.
func IsRateLimited(err error) bool { return hasStatus(err, http.StatusTooManyRequests) }

func hasStatus(err error, code int) bool {
	var e *Error
	return errors.As(err, &e) && e.StatusCode == code
}

// ErrTokenInAnswer is wrapped by the error of a call whose answer holds
// the client's own access token (in a skill's text, say): the client
// refuses the answer rather than hand the token on to be printed, stored
// in a plan or a journal, or posted to a pull request.
var ErrTokenInAnswer = errors.New("the answer holds the access token this client sends; it is neither shown nor stored: remove the token from the space, where anyone who can read it sees it, and rotate it")

// ErrNoResponse is wrapped by the error of a request that got no answer
// within the client's per-request timeout (after any retries).
var ErrNoResponse = errors.New("no response")

const (
	maxExcerpt = 200 // characters of a non-JSON error body kept in Error.Message
	maxMessage = 500 // characters of a server's message kept in Error.Message
)

// errorMessage finds the message of an error body in the shapes services
// commonly use, falling back to an excerpt of the body.
func errorMessage(body []byte) string {
	var v struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
	}
	if json.Unmarshal(body, &v) == nil {
		var s string
		var nested struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(v.Error, &nested) == nil && nested.Message != "":
			return shorten(nested.Message, maxMessage)
		case json.Unmarshal(v.Error, &s) == nil && s != "":
			return shorten(s, maxMessage)
		case json.Unmarshal(v.Message, &s) == nil && s != "":
			return shorten(s, maxMessage)
		}
	}
	return shorten(string(body), maxExcerpt)
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
