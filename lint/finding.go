package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/visible"
)

// A Severity is how much a finding weighs: an error blocks (validate
// fails, plan stops), a warning and a note are reported.
type Severity int

// Severities, weakest first.
const (
	SeverityNote Severity = iota + 1
	SeverityWarning
	SeverityError
)

func (s Severity) String() string {
	switch s {
	case SeverityNote:
		return "note"
	case SeverityWarning:
		return "warning"
	case SeverityError:
		return "error"
	}
	return "none"
}

// MarshalText makes a Severity "note", "warning" or "error" in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// lower is the severity one step weaker, a note staying a note.
func (s Severity) lower() Severity { return max(s-1, SeverityNote) }

// A Finding is what a rule found in one file of a skill folder.
type Finding struct {
	// Rule is the rule's stable name (see [Rules]).
	Rule string `json:"rule"`
	// Severity is the rule's default, or weaker where the text reads as
	// documentation about attacks, or stronger where the text is hidden.
	Severity Severity `json:"severity"`
	// Path is the file within the skill folder, slash-separated.
	Path string `json:"path"`
	// Line and Col locate the match in the file as stored (frontmatter
	// included), counting from 1; Col counts characters (code points).
	Line int `json:"line"`
	Col  int `json:"col"`
	// Message says what was found, in a sentence without the secret.
	Message string `json:"message"`
	// Match is the text matched as it is, cut when long; a secret's value
	// never appears in it. Text for people shows it with visible.Line.
	Match string `json:"match"`
	// Decoded is what hidden or encoded text at the match spells, when
	// it spells something.
	Decoded string `json:"decoded,omitempty"`
	// Hash is [ContentHash] of the file judged: a waiver that names it
	// stops holding when the file changes.
	Hash string `json:"hash"`
}

// Why says why the finding's rule matters.
func (f Finding) Why() string {
	r, _ := ruleByName(f.Rule)
	return r.Why
}

// Waive says how to accept the finding in the skill slug: a waiver in git
// naming the rule, the skill and the hash of the content it accepted; or, for a secret of
// this process, which no waiver accepts, what to do instead.
func (f Finding) Waive(slug string) string {
	if f.Rule == RuleKnownSecret {
		return "remove it and rotate the token; a secret of this process is never waived"
	}
	return fmt.Sprintf("if this is intended, waive it in skillsync.yaml, under lint.waivers: {rule: %s, skill: %s, hash: %q, reason: why}; the waiver lapses when %s changes", f.Rule, slug, f.Hash, f.Path)
}

func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s [%s]", f.Path, f.Line, f.Col, f.Severity, f.Message, f.Rule)
}

// ContentHash is the hash a finding and its waiver name for the content
// of a file: "sha256:" and the hex SHA-256 of its bytes as stored.
func ContentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Diagnostic is f as a diagnostic of the file it was found in, under the
// skill folder dir (slash-separated, from the repository root): the
// message quotes the match and what it decodes to, what no one can see
// in them shown as markers, and ends with the rule; the hint says why it
// matters and how to waive it.
func (f Finding) Diagnostic(dir string) diag.Diagnostic {
	hint := f.Why() + "; " + f.Waive(path.Base(dir))
	msg := f.Message + `: "` + visible.Line(f.Match) + `"`
	if decoded := visible.Line(f.Decoded); decoded != "" && !strings.Contains(msg, decoded) {
		msg += `, which decodes to "` + decoded + `"`
	}
	sev := diag.SeverityError
	switch f.Severity {
	case SeverityWarning:
		sev = diag.SeverityWarning
	case SeverityNote:
		sev = diag.SeverityNote
	}
	return diag.Diagnostic{
		Path: path.Join(dir, f.Path), Line: f.Line, Col: f.Col, Severity: sev, Code: f.Rule,
		Message: msg + " [" + f.Rule + "]", Hint: hint,
		Match: f.Match, Decoded: f.Decoded, Hash: f.Hash,
	}
}
