// Package yamlnode says what is wrong with YAML that people write, the
// same way for every file skillsync reads (SKILL.md's frontmatter,
// skillsync.yaml, skillsync.lock): [Problems] puts yaml.v3's errors at the
// line to fix, with a hint for the mistakes people make, and [Kind],
// [Describe] and [Quote] name values in messages as a reader knows them.
package yamlnode

import (
	"cmp"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"go.yaml.in/yaml/v3"
)

// A Problem is one error of yaml.v3, at a line of the text read.
type Problem struct {
	Line int    // from 1; 0 when yaml.v3 gives none and none can be guessed
	Msg  string // yaml.v3's message, less its "yaml: line N:" prefix
	Hint string // what to do about it; may be empty
}

// WithHint is the message followed by the hint, when there is one.
func (p Problem) WithHint() string {
	if p.Hint == "" {
		return p.Msg
	}
	return p.Msg + ": " + p.Hint
}

var errLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`)

// Problems are the problems err, an error of yaml.v3 reading the text of
// lines, reports: one for each of a [*yaml.TypeError]'s messages.
func Problems(err error, lines []string) []Problem {
	var te *yaml.TypeError
	msgs := []string{err.Error()}
	if errors.As(err, &te) {
		msgs = te.Errors
	}
	var out []Problem
	for _, m := range msgs {
		n, text := 0, strings.TrimPrefix(m, "yaml: ")
		if sub := errLine.FindStringSubmatch(m); sub != nil {
			n, _ = strconv.Atoi(sub[1])
			text = sub[2]
			n = blameLine(text, lines, n)
		} else {
			n = guessLine(text, lines) // no line for a tab before the first key
		}
		p := Problem{Line: n, Msg: text}
		if n >= 1 && n <= len(lines) {
			p.Hint = hint(text, lines[n-1])
		}
		out = append(out, p)
	}
	return out
}

// blameLine is the line (from 1) to show for a yaml.v3 error reported at
// line n. For "did not find expected ..." yaml.v3 names the line where the
// construct it was reading began, often the one before the mistake: when
// line n reads as YAML on its own and the next line does not, the next is
// the one to fix.
func blameLine(msg string, lines []string, n int) int {
	if !strings.Contains(msg, "did not find expected") || n < 1 || n >= len(lines) {
		return n
	}
	alone := func(l string) bool {
		var v any
		return yaml.Unmarshal([]byte(strings.TrimSpace(l)), &v) == nil
	}
	if alone(lines[n-1]) && !alone(lines[n]) {
		return n + 1
	}
	return n
}

// guessLine is, for a yaml.v3 error given without a line, the line (from 1)
// it most likely concerns: the first one indented with a tab for "found
// character that cannot start any token", the first holding a control
// character for "control characters are not allowed"; 0 for any other
// error, or when no line is such.
func guessLine(msg string, lines []string) int {
	var at func(string) bool
	switch {
	case strings.Contains(msg, "control characters"):
		at = func(l string) bool {
			return strings.ContainsFunc(l, func(r rune) bool { return r != '\t' && r != '\r' && unicode.IsControl(r) })
		}
	case strings.Contains(msg, "cannot start any token"), strings.Contains(msg, "tab"):
		at = func(l string) bool { return strings.HasPrefix(strings.TrimLeft(l, " "), "\t") }
	default:
		return 0
	}
	for i, l := range lines {
		if at(l) {
			return i + 1
		}
	}
	return 0
}

// blockOnKeyLine is a key whose block indicator has text after it on the
// same line: "description: | Use when ...".
var blockOnKeyLine = regexp.MustCompile(`^\s*([A-Za-z0-9_-]+):[ \t]+([|>][-+0-9]*)[ \t]+([^#\s].*?)\s*$`)

var keyValueLine = regexp.MustCompile(`^(\s*)([A-Za-z0-9_-]+):[ \t]+(.*\S)\s*$`)

// hint says how to fix the error msg at the line src.
func hint(msg, src string) string {
	if m := blockOnKeyLine.FindStringSubmatch(src); m != nil {
		return fmt.Sprintf("a block value (%s) starts on the next line, indented: move %q below %q, or remove the %s", m[2], m[3], m[1]+":", m[2])
	}
	switch {
	case strings.Contains(src, "\t") && (strings.HasPrefix(src, "\t") || strings.Contains(msg, "tab")):
		return "YAML does not allow tabs for indentation; indent with spaces"
	case strings.Contains(msg, "mapping values are not allowed"),
		strings.Contains(msg, "cannot start any token"),
		strings.Contains(msg, "did not find expected"):
		if m := keyValueLine.FindStringSubmatch(src); m != nil {
			indent, key, value := m[1], m[2], m[3]
			switch {
			case !strings.HasPrefix(value, `"`) && !strings.HasPrefix(value, `'`):
				return fmt.Sprintf(`quote the value, which holds characters YAML reads as syntax: %s%s: %s`, indent, key, Quote(value))
			case len(value) > 2 && value[0] == '\'' && strings.Contains(value[1:len(value)-1], `'`):
				inner := strings.TrimSuffix(value[1:], `'`)
				return fmt.Sprintf(`inside single quotes an apostrophe is written twice (''); or use double quotes: %s%s: %s`, indent, key, Quote(inner))
			}
		}
		if strings.Contains(msg, "mapping values") {
			return `a value holding ": " must be quoted`
		}
	case strings.Contains(msg, "already defined"):
		return "remove one of them"
	}
	return ""
}

// Quote quotes s as a YAML double-quoted scalar.
func Quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}

// Kind names the kind of n, with an article: "a list", "a number".
func Kind(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		return cmp.Or(map[string]string{
			"!!int": "a number", "!!float": "a number", "!!bool": "a boolean",
			"!!null": "null", "!!str": "a string", "!!timestamp": "a date",
		}[n.Tag], "a "+strings.TrimPrefix(n.Tag, "!!"))
	}
	return "a value"
}

// Describe names what a value is, for an error message: "a list", "a
// mapping", "empty", or the scalar quoted.
func Describe(n *yaml.Node) string {
	switch {
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Tag == "!!null":
		return "empty"
	}
	return strconv.Quote(n.Value)
}

// Resolve is the node the alias n stands for, or n when it is none.
func Resolve(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

// ClosingQuote is the index of the quote closing the quoted scalar that
// opens at open in line, or -1: in a single-quoted scalar two quotes are
// one, in a double-quoted one a backslash escapes the next character.
func ClosingQuote(line string, open int) int {
	q := line[open]
	for i := open + 1; i < len(line); i++ {
		switch {
		case q == '"' && line[i] == '\\':
			i++
		case line[i] == q && q == '\'' && i+1 < len(line) && line[i+1] == '\'':
			i++
		case line[i] == q:
			return i
		}
	}
	return -1
}
