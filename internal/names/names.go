// Package names holds the rules on the names of skill folders and their
// files that the packages of the repository side share: the folder names
// a URL path carries as they are ([URLSafe]), the paths git takes for its
// own ([InGitDir]), names compared but for case ([FoldCase]), and a name
// mended by joining what is left of it with hyphens ([JoinRuns]).
package names

import (
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
