// Package names holds the rules on the names of skill folders and their
// files that the packages of the repository side share: the folder names
// a URL path carries as they are ([URLSafe]), the paths git takes for its
// own ([InGitDir]), names compared but for case ([FoldCase]), a name
// mended by joining what is left of it with hyphens ([JoinRuns]), and the
// slug the service makes of a display name ([Slug], [SlugOf]). It also
// says how every message names a count of things ([Plural], [Count]).
package names

import (
	"fmt"
	"strings"
	"unicode"
)

// JoinRuns keeps the characters of s that keep accepts and puts one hyphen
// in place of each run of others between them; runs at either end are
// dropped.
func JoinRuns(s string, keep func(rune) bool) string {
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

// URLSafe reports whether a folder name can be a slug: a non-empty run of
// the characters a URL path segment carries unescaped (RFC 3986's
// "unreserved": letters, digits, '-', '.', '_', '~'), not "." or "..".
func URLSafe(s string) bool {
	const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
	return s != "" && s != "." && s != ".." && strings.Trim(s, unreserved) == ""
}

// InGitDir reports whether the slash-separated path rel has a segment git
// takes for its own folder: ".git" in any case, with trailing dots or
// spaces (which some file systems drop), or its 8.3 short name "git~1".
// Such a file written into a working tree can make git run commands.
func InGitDir(rel string) bool {
	for _, seg := range strings.Split(rel, "/") {
		seg = strings.ToLower(strings.TrimRight(seg, ". "))
		if seg == ".git" || seg == "git~1" {
			return true
		}
	}
	return false
}

// FoldCase is s with each character replaced by the least of those it
// equals but for case: two names are equal folded exactly when
// strings.EqualFold says they are.
func FoldCase(s string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for x := unicode.SimpleFold(r); x != r; x = unicode.SimpleFold(x) {
			least = min(least, x)
		}
		return least
	}, s)
}

// Slug is the slug the service would make from a skill's display name:
// lower case, every run of characters other than a-z and 0-9 replaced by
// one hyphen, hyphens trimmed from both ends, and "skill" when nothing is
// left (a name of letters outside a-z only). The emulator makes slugs so.
func Slug(name string) string {
	s := JoinRuns(strings.ToLower(name), func(r rune) bool {
		return ('a' <= r && r <= 'z') || ('0' <= r && r <= '9')
	})
	if s == "" {
		return "skill"
	}
	return s
}

// SlugOf reports whether slug is one the service may have made from name
// when the skill was created: Slug(name), or, when the space already had
// that slug, Slug(name) with "-2", "-3", ... appended.
func SlugOf(slug, name string) bool {
	base := Slug(name)
	if slug == base {
		return true
	}
	n, ok := strings.CutPrefix(slug, base+"-")
	return ok && n != "" && n[0] != '0' && n != "1" && strings.Trim(n, "0123456789") == ""
}

// Plural is the noun for n things: one when n is 1, else many.
func Plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Count is n with the noun that fits it: "1 error", "2 errors".
func Count(n int, one, many string) string {
	return fmt.Sprintf("%d %s", n, Plural(n, one, many))
}
