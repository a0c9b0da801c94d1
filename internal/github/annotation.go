package github

import (
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
)

// An Annotation is a message the runner shows on a line of a file of the
// pull request's diff, or on the run when it names no file.
type Annotation struct {
	// Level is "error", "warning" or "notice"; any other level is taken as
	// "notice".
	Level string
	// File is the path from the repository's root; empty for none.
	File string
	// Line and Col count from 1; 0 leaves them out (Col needs Line).
	Line, Col int
	// Title heads the annotation; empty for none.
	Title   string
	Message string
}

// String returns the workflow command that makes the runner show a. It
// must be printed alone on a line of stdout or stderr.
//
// Data and property values are escaped as GitHub's toolkit does: % CR LF in
// the message, and also : and , in properties, whose syntax they delimit.
// Before that, what no one can see in them is shown (see package visible):
// the file, title and message are text of the repository or the space,
// which reviewers read on the pull request.
func (a Annotation) String() string {
	level := a.Level
	if !slices.Contains([]string{"error", "warning", "notice"}, level) {
		level = "notice"
	}
	var props []string
	if a.File != "" {
		props = append(props, "file="+escapeProperty(visible.String(a.File)))
	}
	if a.Line > 0 {
		props = append(props, "line="+strconv.Itoa(a.Line))
		if a.Col > 0 {
			props = append(props, "col="+strconv.Itoa(a.Col))
		}
	}
	if a.Title != "" {
		props = append(props, "title="+escapeProperty(visible.String(a.Title)))
	}
	var b strings.Builder
	b.WriteString("::")
	b.WriteString(level)
	if len(props) > 0 {
		b.WriteString(" ")
		b.WriteString(strings.Join(props, ","))
	}
	b.WriteString("::")
	b.WriteString(escapeData(visible.String(a.Message)))
	return b.String()
}

// WriteAnnotations writes each annotation on a line of its own, all in one
// write, so that lines of other writers never come between them.
func WriteAnnotations(w io.Writer, as []Annotation) error {
	if len(as) == 0 {
		return nil
	}
	var b strings.Builder
	for _, a := range as {
		b.WriteString(a.String())
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

var (
	dataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	propertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

func escapeData(s string) string     { return dataEscaper.Replace(s) }
func escapeProperty(s string) string { return propertyEscaper.Replace(s) }
