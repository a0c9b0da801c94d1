// Package forge holds what the clients of the code hosts that skillsync
// posts plans to (GitHub, GitLab) share: the error of an answer, which a
// caller branches on by its status and a person acts on by its hint; and
// the [Proposal], a change carried as one commit on a branch of its own
// and one pull (merge) request, which drift --pr and vendor update --pr
// make. [Changes] turns a proposal's files into the edits of the base
// commit and the id of the tree they make, reading only the folders that
// hold them, so that a host's client can tell that its branch already
// holds the proposal without writing anything.
package forge

import (
	"fmt"
	"net/http"
	"strings"
)

// Error is an answer from a code host that a caller may branch on
// (Status) and a person can act on (Hint).
type Error struct {
	// Host names the code host in the message: "GitHub", "GitLab".
	Host string
	// Op says what was being done: "listing comments of pull request #7".
	Op string
	// Status is the HTTP status the host answered with, 0 when it did not
	// answer: a network error, or a refusal before any request.
	Status int
	// Message is the host's own explanation (GitHub's with the details of
	// a 422), or, without a status, what went wrong.
	Message string
	// Hint says what to do about it, empty when there is nothing to add.
	Hint string
	// Err is the cause, for errors.Is and errors.As.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Op)
	b.WriteString(": ")
	if e.Status != 0 {
		fmt.Fprintf(&b, "%s answered %d %s", e.Host, e.Status, http.StatusText(e.Status))
		// GitLab's messages may start with the status ("404 Not Found").
		if m := strings.TrimPrefix(e.Message, fmt.Sprintf("%d ", e.Status)); m != "" && m != http.StatusText(e.Status) {
			b.WriteString(": ")
			b.WriteString(m)
		}
	} else {
		b.WriteString(e.Message)
	}
	if e.Hint != "" {
		b.WriteString("; ")
		b.WriteString(e.Hint)
	}
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// StatusOf is the status of r, 0 when there is no answer.
func StatusOf(r *http.Response) int {
	if r == nil {
		return 0
	}
	return r.StatusCode
}
