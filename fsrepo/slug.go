package fsrepo

import (
	"strings"
	"unicode"
)

// Slugify is the slug the service would make from a skill name: lower case,
// every run of characters other than a-z and 0-9 replaced by one hyphen,
// hyphens trimmed from both ends, and "skill" when nothing is left (a name
// of letters outside a-z only). The emulator (remote/remotetest) makes
// slugs so. The service's exact rule is not specified, so a folder name
// that differs from Slugify(name) draws only a warning.
func Slugify(name string) string {
	s := joinRuns(strings.ToLower(name), func(r rune) bool {
		return ('a' <= r && r <= 'z') || ('0' <= r && r <= '9')
	})
	if s == "" {
		return "skill"
	}
	return s
}

// slugOf reports whether slug is one the service may have made from name
// when the skill was created: Slugify(name), or, when the space already
// had that slug, Slugify(name) with "-2", "-3", ... appended.
func slugOf(slug, name string) bool {
	base := Slugify(name)
	if slug == base {
		return true
	}
	n, ok := strings.CutPrefix(slug, base+"-")
	return ok && n != "" && n[0] != '0' && n != "1" && strings.Trim(n, "0123456789") == ""
}

// joinRuns keeps the characters of s that keep accepts and puts one hyphen
// in place of each run of others between them; runs at either end are
// dropped.
func joinRuns(s string, keep func(rune) bool) string {
	var b strings.Builder
	b.Grow(len(s))
	dash := false
	for _, r := range s {
		if keep(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	return b.String()
}

// urlSafe reports whether a folder name can be a slug: a non-empty run of
// the characters a URL path segment carries unescaped (RFC 3986's
// "unreserved": letters, digits, '-', '.', '_', '~'), not "." or "..".
func urlSafe(s string) bool {
	if s == "" || s == "." || s == ".." {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
			c == '-' || c == '.' || c == '_' || c == '~') {
			return false
		}
	}
	return true
}

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }
