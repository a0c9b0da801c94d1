package fsrepo

import (
	"strings"

	"github.com/skillsync/skillsync/internal/names"
)

// Slugify is the slug the service would make from a skill name: lower case,
// every run of characters other than a-z and 0-9 replaced by one hyphen,
// hyphens trimmed from both ends, and "skill" when nothing is left (a name
// of letters outside a-z only). The emulator (remote/remotetest) makes
// slugs so. The service's exact rule is not specified, so a folder name
// that differs from Slugify(name) draws only a warning.
func Slugify(name string) string {
	s := names.JoinRuns(strings.ToLower(name), func(r rune) bool {
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
