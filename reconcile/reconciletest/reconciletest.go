// Package reconciletest makes the two sides a plan compares, for tests of
// planning and rendering: a skill of the repository ([Local]) and its twin
// in the space ([Live]) are equal until options make them differ.
package reconciletest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/remote"
)

// Space is the space of [Repo] and of every [Live] skill.
const Space = "ab12"

// Ptr returns a pointer to v.
func Ptr[T any](v T) *T { return &v }

// ID is the remote id of the skill slug.
func ID(slug string) string { return "id-" + slug }

// Local is the skill slug of the repository, enabled, with opts applied.
func Local(slug string, opts ...func(*fsrepo.Skill)) fsrepo.Skill {
	s := fsrepo.Skill{
		Slug:         slug,
		Path:         "skills/" + slug + "/SKILL.md",
		Name:         "Skill " + slug,
		Description:  "Use for " + slug + ".",
		Enabled:      true,
		Instructions: "# " + slug + "\n\nDo the " + slug + " thing.\n",
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Live is the twin of Local(slug) in the space, with opts applied.
func Live(slug string, opts ...func(*remote.Skill)) remote.Skill {
	s := remote.Skill{
		ID:           ID(slug),
		SpaceID:      Space,
		Name:         "Skill " + slug,
		Description:  "Use for " + slug + ".",
		Slug:         slug,
		Source:       remote.SourceManual,
		Enabled:      true,
		UpdatedAt:    "2026-01-02T03:04:05Z",
		Instructions: Ptr("# " + slug + "\n\nDo the " + slug + " thing.\n"),
	}
	for _, o := range opts {
		o(&s)
	}
	return s
}

// Disabled asks for the skill of the repository disabled.
func Disabled(s *fsrepo.Skill) { s.Enabled = false }

// RemoteDisabled disables the skill of the space.
func RemoteDisabled(s *remote.Skill) { s.Enabled = false }

// WithFiles gives the skill of the repository its supporting files.
func WithFiles(files ...fsrepo.File) func(*fsrepo.Skill) {
	return func(s *fsrepo.Skill) { s.Files = files }
}

// TextFile is a supporting text file as fsrepo loads it.
func TextFile(path, content string) fsrepo.File {
	sum := sha256.Sum256([]byte(content))
	return fsrepo.File{Path: path, Size: int64(len(content)), SHA256: hex.EncodeToString(sum[:]), Content: []byte(content)}
}

// LargeFile is a text file over fsrepo.MaxCompareBytes, as fsrepo loads
// one: hashed, its content not kept.
func LargeFile(path string) fsrepo.File {
	return fsrepo.File{Path: path, Size: 3 << 20, SHA256: strings.Repeat("ab", 32), TooLarge: true}
}

// Repo is a repository of the space [Space] at a fixed commit.
func Repo(skills ...fsrepo.Skill) *fsrepo.Repo {
	return &fsrepo.Repo{Config: config.Config{Space: Space}, Skills: skills, Commit: "0123456789abcdef0123456789abcdef01234567"}
}
