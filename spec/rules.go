package spec

import (
	"fmt"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Limits of the service, from the Limits table of the interface specification.
const (
	MaxActiveSkills     = 40
	MaxPageLimit        = 100
	MaxNameLen          = 64
	MaxDescriptionLen   = 1024
	MaxInstructionsLen  = 50000
	MaxFilePathLen      = 512
	DefaultPageLimit    = 50
	longSpaceIDLen      = 21
	minShortSpaceIDLen  = 2
	maxShortSpaceIDLen  = 6
	canonicalUUIDLength = 36
)

// A RuleError says which field broke which rule of the service. Every
// argument check of this package returns one, before any request is sent.
type RuleError struct {
	Field string // "name", "spaceId", "path", ...
	Value string // the offending value, shortened for display
	Rule  string // the rule, in words
	Found rune   // the character that breaks the rule, when one does; 0 otherwise
}

func (e *RuleError) Error() string {
	msg := fmt.Sprintf("invalid %s: %s", e.Field, e.Rule)
	if e.Value != "" {
		msg = fmt.Sprintf("invalid %s %q: %s", e.Field, e.Value, e.Rule)
	}
	if e.Found != 0 {
		msg += fmt.Sprintf(" (found %q)", e.Found)
	}
	return msg
}

// foundError is the RuleError of a value that holds r, which the rule of
// field does not allow.
func foundError(field, value, rule string, r rune) *RuleError {
	e := ruleError(field, value, rule)
	e.Found = r
	return e
}

func ruleError(field, value, rule string) *RuleError {
	const max = 40
	if utf8.RuneCountInString(value) > max {
		value = string([]rune(value)[:max]) + "..."
	}
	return &RuleError{Field: field, Value: value, Rule: rule}
}

// UTF16Len is the length of s as the service counts it: in UTF-16 code units,
// as JavaScript and JSON Schema validators do. An emoji counts as two.
func UTF16Len(s string) int {
	n := 0
	for _, r := range s {
		if l := utf16.RuneLen(r); l > 0 {
			n += l
		} else {
			n++ // not encodable; sent as U+FFFD
		}
	}
	return n
}

// CheckSpaceID checks a space identifier in either of its forms: 2 to 6
// characters, or exactly 21. Only the enable endpoint takes the long form
// in its path; see [CheckShortSpaceID] for every other endpoint.
func CheckSpaceID(id string) error {
	n := utf8.RuneCountInString(id)
	if (n >= minShortSpaceIDLen && n <= maxShortSpaceIDLen) || n == longSpaceIDLen {
		if strings.ContainsAny(id, "/?#%\\") || strings.TrimSpace(id) != id {
			return ruleError("spaceId", id, "must not contain '/', '\\', '?', '#', '%' or surrounding spaces")
		}
		// A character the path must carry escaped is one the service may
		// read either way; refuse it rather than guess.
		if url.PathEscape(id) != id {
			return ruleError("spaceId", id, "may contain only characters a URL path carries unescaped (letters, digits and - . _ ~ among them)")
		}
		// A path segment of dots would be resolved away by proxies and
		// servers, sending the request to another path.
		if strings.Trim(id, ".") == "" {
			return ruleError("spaceId", id, "must not be only dots")
		}
		for _, r := range id {
			if unicode.IsControl(r) {
				return ruleError("spaceId", id, "must not contain control characters")
			}
		}
		return nil
	}
	return ruleError("spaceId", id, fmt.Sprintf("must be 2 to 6 characters or exactly 21 characters long (got %d)", n))
}

// CheckShortSpaceID checks a spaceId path parameter of every endpoint but
// enable: space-api.md documents those with 2 to 6 characters, so a
// 21-character id is refused before the request the service would refuse.
func CheckShortSpaceID(id string) error {
	if err := CheckSpaceID(id); err != nil {
		return err
	}
	if n := utf8.RuneCountInString(id); n > maxShortSpaceIDLen {
		return ruleError("spaceId", id, fmt.Sprintf("must be 2 to 6 characters long (got %d): only the enable endpoint accepts a 21-character spaceId, so skills cannot be listed, read or updated in such a space", n))
	}
	return nil
}

// CheckUUID checks that id is a UUID in its canonical 8-4-4-4-12 hex form.
func CheckUUID(field, id string) error {
	if len(id) != canonicalUUIDLength {
		return ruleError(field, id, "must be a UUID such as 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return ruleError(field, id, "must be a UUID such as 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
			}
		default:
			if !isHex(c) {
				return ruleError(field, id, "must be a UUID such as 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
			}
		}
	}
	return nil
}

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}

// CheckName checks a skill name: 1 to 64 characters, beginning and ending with
// a letter or digit, inner characters letters, digits, spaces or hyphens.
// Lengths here and below are counted as the service counts them, in UTF-16
// code units, the strictest reading of "characters".
func CheckName(name string) error {
	n := UTF16Len(name)
	if n < 1 || n > MaxNameLen {
		return ruleError("name", name, fmt.Sprintf("must be 1 to %d characters long (got %d)", MaxNameLen, n))
	}
	runes := []rune(name)
	for i, r := range runes {
		alnum := unicode.IsLetter(r) || unicode.IsDigit(r)
		if i == 0 || i == len(runes)-1 {
			if !alnum {
				return foundError("name", name, "must begin and end with a letter or digit", r)
			}
			continue
		}
		if !alnum && r != ' ' && r != '-' {
			return foundError("name", name, "may contain only letters, digits, spaces and hyphens", r)
		}
	}
	return nil
}

// CheckDescription checks a skill description: 1 to 1024 characters.
func CheckDescription(d string) error {
	n := UTF16Len(d)
	if n < 1 || n > MaxDescriptionLen {
		return ruleError("description", "", fmt.Sprintf("must be 1 to %d characters long (got %d)", MaxDescriptionLen, n))
	}
	return nil
}

// CheckInstructions checks a SKILL.md body: at most 50000 characters, counted
// in UTF-16 code units.
func CheckInstructions(s string) error {
	if len(s) <= MaxInstructionsLen {
		return nil // no text has more UTF-16 code units than UTF-8 bytes
	}
	if n := UTF16Len(s); n > MaxInstructionsLen {
		return ruleError("instructions", "", fmt.Sprintf("must be at most %d characters (UTF-16 code units) long (got %d)", MaxInstructionsLen, n))
	}
	return nil
}

// CheckFilePath checks a path of the files endpoint: 1 to 512 characters of
// letters, digits, '_', '-', '.' and '/', with no empty or '.' segment and
// no ".." anywhere.
func CheckFilePath(p string) error {
	if len(p) < 1 || len(p) > MaxFilePathLen {
		return ruleError("path", p, fmt.Sprintf("must be 1 to %d characters long (got %d)", MaxFilePathLen, len(p)))
	}
	for _, r := range p {
		if !(r < utf8.RuneSelf && (r == '_' || r == '-' || r == '.' || r == '/' ||
			('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9'))) {
			return foundError("path", p, "may contain only letters, digits, '_', '-', '.' and '/'", r)
		}
	}
	// space-api.md: "must not contain `..`, `.` or empty segments". Read
	// strictly, ".." is refused anywhere, not only as a whole segment.
	if strings.Contains(p, "..") {
		return ruleError("path", p, `must not contain ".."`)
	}
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "":
			return ruleError("path", p, "must not have empty segments (leading, trailing or double '/')")
		case ".":
			return ruleError("path", p, `must not have "." segments`)
		}
	}
	return nil
}

// CheckPage checks the limit and offset of a list request.
func CheckPage(limit, offset int) error {
	if limit < 1 || limit > MaxPageLimit {
		return ruleError("limit", fmt.Sprint(limit), fmt.Sprintf("must be 1 to %d", MaxPageLimit))
	}
	if offset < 0 {
		return ruleError("offset", fmt.Sprint(offset), "must be 0 or more")
	}
	return nil
}
