// Package diag is how skillsync reports a problem of a repository's files:
// a [Diagnostic] at a file:line:col position, with a [Severity] (an error
// blocks validate, plan and apply; a warning does not), a hint saying what
// to do and a stable code. [Diagnostics] are all the problems found at
// once, in the order of [Diagnostics.Sort].
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Severity says whether a [Diagnostic] blocks (an error) or only warns
// (a warning, or a note: a weak signal of a security rule).
type Severity int

// Severities of a [Diagnostic].
const (
	SeverityError Severity = iota
	SeverityWarning
	SeverityNote
)

// severityNames are the names of the severities, by value.
var severityNames = []string{SeverityError: "error", SeverityWarning: "warning", SeverityNote: "note"}

func (s Severity) String() string {
	if s < 0 || int(s) >= len(severityNames) {
		return "error"
	}
	return severityNames[s]
}

// MarshalText makes a Severity "error" or "warning" in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error", "warning" or "note".
func (s *Severity) UnmarshalText(b []byte) error {
	i := slices.Index(severityNames, string(b))
	if i < 0 {
		return fmt.Errorf("unknown severity %q", b)
	}
	*s = Severity(i)
	return nil
}

// A Diagnostic is one problem found in the repository, at a position of a
// file. Line and Col count from 1; 0 means the problem concerns the whole
// file or folder. Lines are those of the file itself (a SKILL.md's lines
// count from its first line, not from the start of the frontmatter).
type Diagnostic struct {
	Path     string   `json:"path"` // relative to the repository root, slash-separated
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Hint     string   `json:"hint"` // what to do about it; may be empty
	Code     string   `json:"code"` // short stable identifier, such as "name-invalid"
	// Match, Decoded and Hash are set for a finding of a security rule:
	// the exact text matched (the message shows it with markers), what
	// hidden or encoded text there decodes to, and the hash of the file
	// judged, which a waiver names.
	Match   string `json:"match,omitempty"`
	Decoded string `json:"decoded,omitempty"`
	Hash    string `json:"hash,omitempty"`
	// Target is the target of skillsync.yaml the diagnostic concerns
	// alone, "" when it concerns every target: a plan of another target
	// leaves it out.
	Target string `json:"target,omitempty"`
}

// String formats d as "path:line:col: error: message", the form compilers
// use and editors understand. The hint is not included.
func (d Diagnostic) String() string {
	return d.Location() + ": " + d.Severity.String() + ": " + d.Message
}

// Location is "path:line:col", or the path alone for a diagnostic of a
// whole file.
func (d Diagnostic) Location() string {
	if d.Line <= 0 {
		return d.Path
	}
	return d.Path + ":" + strconv.Itoa(d.Line) + ":" + strconv.Itoa(max(d.Col, 1))
}

// Diagnostics is a list of problems, in the order of [Diagnostics.Sort].
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	return slices.ContainsFunc(ds, func(d Diagnostic) bool { return d.Severity == SeverityError })
}

// Count returns the number of errors and of warnings (notes included).
func (ds Diagnostics) Count() (errors, warnings int) {
	for _, d := range ds {
		if d.Severity == SeverityError {
			errors++
		} else {
			warnings++
		}
	}
	return errors, warnings
}

// Sort orders ds by path, then position; diagnostics at the same position
// keep the order in which they were found.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(strings.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// InvalidUTF8 finds the first byte of data that is not UTF-8, as a line
// and column (in characters) of the text, for a diagnostic that points at it.
func InvalidUTF8(data []byte) (line, col int, b byte) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, col, data[i]
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
		i += size
	}
	return line, col, 0
}
