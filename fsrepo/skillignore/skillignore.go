// Package skillignore says which files of a skill folder are development
// files, never synced with a space: the test cases the Agent Skills guide
// keeps in evals/ (always, unless a pattern includes them again), the
// patterns of skillsync.yaml's excludeFiles, and those of the folder's
// .skillignore files, all in gitignore syntax, matched by go-git's
// gitignore package.
//
// An excluded file is never compared, pulled, counted as drift, hashed into
// skillsync.lock, or linted as a file of the skill.
package skillignore

import (
	"cmp"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"

	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

// FileName is the name of the file of gitignore patterns a skill folder,
// or any folder of it, may hold. It is a development file itself.
const FileName = ".skillignore"

// DefaultPattern excludes the evals/ folder at the top of a skill folder,
// where the Agent Skills guide keeps a skill's test cases.
const DefaultPattern = "/evals/"

// A Matcher tells the excluded files of one skill folder.
type Matcher struct {
	m gitignore.Matcher
}

// New is the Matcher of a skill folder: DefaultPattern, then the
// repository-wide patterns, then the lines of each .skillignore among
// files, the folder's files by slash-separated path in it. A deeper
// file's patterns win over a shallower one's, and a later pattern over an
// earlier one, as in git.
func New(repoWide []string, files map[string][]byte) Matcher {
	ps := []gitignore.Pattern{gitignore.ParsePattern(DefaultPattern, nil)}
	for _, p := range repoWide {
		ps = append(ps, gitignore.ParsePattern(p, nil))
	}
	var rels []string // none, and no allocation, in most folders
	for rel := range files {
		if IsIgnoreFile(rel) {
			rels = append(rels, rel)
		}
	}
	slices.SortFunc(rels, func(a, b string) int {
		return cmp.Or(cmp.Compare(strings.Count(a, "/"), strings.Count(b, "/")), strings.Compare(a, b))
	})
	for _, rel := range rels {
		var domain []string
		if dir := path.Dir(rel); dir != "." {
			domain = strings.Split(dir, "/")
		}
		for _, line := range Lines(files[rel]) {
			ps = append(ps, gitignore.ParsePattern(line, domain))
		}
	}
	return Matcher{gitignore.NewMatcher(ps)}
}

// Excludes reports whether the file at rel, slash-separated in the skill
// folder, is a development file. A .skillignore always is; the SKILL.md
// at the top, the skill itself, never is. The zero Matcher excludes
// only these.
func (m Matcher) Excludes(rel string) bool {
	switch {
	case rel == skillmd.FileName:
		return false
	case path.Base(rel) == FileName:
		return true
	case m.m == nil:
		return false
	}
	return m.m.Match(strings.Split(rel, "/"), false)
}

// IsIgnoreFile reports whether the file at rel in a skill folder is a
// .skillignore, whose patterns [New] takes.
func IsIgnoreFile(rel string) bool { return path.Base(rel) == FileName }

// Lines are the patterns of a .skillignore: its lines but blank ones and
// comments (beginning with '#'), with CRLF line endings read as LF.
func Lines(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, line)
	}
	return out
}

// Check returns an error saying what is wrong with pattern, nil when it is
// a pattern gitignore syntax reads: a glob ([path.Match]) between slashes.
func Check(pattern string) error {
	p := strings.TrimPrefix(pattern, "!")
	p = strings.Trim(p, "/")
	if strings.TrimSpace(p) == "" {
		return fmt.Errorf("pattern %q matches no file: write a name or a glob, such as \"*.draft.md\" or \"fixtures/\"", pattern)
	}
	for _, part := range strings.Split(p, "/") {
		if _, err := path.Match(part, ""); err != nil {
			return fmt.Errorf("pattern %q: %q is not a valid glob (an unclosed '[' or a trailing '\\'?)", pattern, part)
		}
	}
	return nil
}
