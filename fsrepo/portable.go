package fsrepo

import (
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"

	"github.com/skillsync/skillsync/internal/visible"
)

// gitControlFile reports whether the slash-separated path rel names a
// file git reads for itself in any folder of a working tree: .gitignore,
// .gitattributes or .gitmodules, in any case and with any trailing dots
// or spaces (which Windows drops). Written into a skill folder, one would
// change what git tracks, or how it shows a file.
func gitControlFile(rel string) bool {
	switch strings.ToLower(strings.TrimRight(path.Base(rel), ". ")) {
	case ".gitignore", ".gitattributes", ".gitmodules":
		return true
	}
	return false
}

// gitControlReason says why [gitControlFile]'s files are never written.
const gitControlReason = "a file git reads for itself (what it ignores, how it shows a file, its submodules) is never written into a skill folder"

// Unwritable returns, for each of the slash-separated paths rels of one
// skill folder that a [SkillWriter] skips, why: a file git reads for
// itself, a name a checkout on Windows cannot hold, or one that differs
// only in case from an earlier path's (byte order), which is written.
// Paths the writer refuses outright (see [CheckLocalPath]) are not here.
func Unwritable(rels []string) map[string]string {
	sorted := slices.Sorted(slices.Values(rels))
	twins := caseTwins(sorted)
	out := map[string]string{}
	for _, rel := range sorted {
		switch twin, ok := twins[rel]; {
		case gitControlFile(rel):
			out[rel] = gitControlReason
		case unportable(rel) != "":
			out[rel] = unportable(rel)
		case ok:
			out[rel] = twin.reason("")
		}
	}
	return out
}

// unportable says why the slash-separated path rel cannot be checked out
// as written on Windows, or "" when it can: a name that is a device name
// (con, prn, aux, nul, com1-9, lpt1-9), with any extension and in any
// case, or that ends with a dot or a space, which Windows drops.
func unportable(rel string) string {
	for _, name := range strings.Split(rel, "/") {
		switch {
		case strings.HasSuffix(name, ".") && name != "." && name != "..":
			return fmt.Sprintf("the name %s ends with a dot, which Windows drops: a checkout there cannot hold it", visible.Quote(name))
		case strings.HasSuffix(name, " "):
			return fmt.Sprintf("the name %s ends with a space, which Windows drops: a checkout there cannot hold it", visible.Quote(name))
		case deviceName(name):
			return fmt.Sprintf("the name %s is a device name on Windows, where a checkout cannot hold it", visible.Quote(name))
		}
	}
	return ""
}

// deviceName reports whether Windows takes name for a device: its part
// before the first dot, spaces trimmed, is one in any case.
func deviceName(name string) bool {
	stem, _, _ := strings.Cut(name, ".")
	stem = strings.ToLower(strings.TrimRight(stem, " "))
	switch stem {
	case "con", "prn", "aux", "nul":
		return true
	}
	return len(stem) == 4 && (strings.HasPrefix(stem, "com") || strings.HasPrefix(stem, "lpt")) && '1' <= stem[3] && stem[3] <= '9'
}

// foldName is name as a file system that ignores case (and Unicode
// normalisation, as macOS's does) compares it.
func foldName(name string) string {
	if strings.ContainsFunc(name, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return cases.Fold().String(norm.NFC.String(name))
	}
	return strings.ToLower(name)
}

// A caseTwin is a folder or file of a path that differs only in case
// from one of an earlier path.
type caseTwin struct {
	at    string // the folder or file, a prefix of the path
	first string // the earlier one
}

// caseTwins returns, for each path of rels (slash-separated, sorted) that
// a checkout on Windows or macOS cannot hold beside an earlier one, its
// folder or file that differs only in case from one of that earlier path.
func caseTwins(rels []string) map[string]caseTwin {
	seen := map[string]string{} // folded prefix: the prefix as first seen
	twins := map[string]caseTwin{}
	for _, rel := range rels {
		for i := 0; i <= len(rel); i++ {
			if i < len(rel) && rel[i] != '/' {
				continue
			}
			prefix := rel[:i]
			key := foldName(prefix)
			first, ok := seen[key]
			if !ok {
				seen[key] = prefix
				continue
			}
			if _, done := twins[rel]; !done && first != prefix {
				twins[rel] = caseTwin{at: prefix, first: first}
			}
		}
	}
	return twins
}

// reason says why a path of c is refused, with the folder
// or file names relative to dir.
func (c caseTwin) reason(dir string) string {
	return fmt.Sprintf("%s differs only in case from %s: a checkout on Windows or macOS holds only one of them", path.Join(dir, c.at), path.Join(dir, c.first))
}
