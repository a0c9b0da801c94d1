package fsrepo

import (
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/spec"
)

// Skill is one skill folder of the repository: the desired state of the
// remote skill whose slug is the folder's name.
type Skill struct {
	Slug         string         // folder name, the remote skill's slug
	Path         string         // SKILL.md, slash-separated and relative to the repository root
	Name         string         // frontmatter name
	Description  string         // frontmatter description
	Enabled      bool           // frontmatter enabled; true when absent
	Instructions string         // the body, in canonical form (see [spec.Canonical])
	Extra        map[string]any // other frontmatter keys, kept and ignored
	Files        []File         // supporting files, sorted by path
	// Invalid is set when the skill has an error diagnostic: it holds what
	// could be parsed, and must never be applied.
	Invalid bool
}

// Fields are the fields of s that [spec.Differ] compares.
func (s Skill) Fields() spec.Fields {
	text := s.Instructions
	return spec.Fields{Name: s.Name, Description: s.Description, Instructions: &text, Enabled: s.Enabled}
}

// File is a supporting file of a skill folder (anything but SKILL.md).
type File struct {
	Path    string // relative to the skill folder, slash-separated
	Size    int64
	Binary  bool
	SHA256  string // hex digest of the content
	Content []byte // the content of a text file; nil for binary files and TooLarge ones
	// TooLarge is set for a text file over MaxCompareBytes: it is hashed,
	// but its content is not kept, so it cannot be compared as text.
	TooLarge bool
}

// Repo is the desired state read from a repository.
type Repo struct {
	Root   string // absolute path of the folder holding skillsync.yaml
	Config config.Config
	Skills []Skill // sorted by slug
	Commit string  // the commit loaded, or HEAD's commit for the working tree; "" outside git
	Dirty  bool    // the working tree's skills folder differs from Commit
}

// Bounds on what a load holds in memory. A repository may hold files of any
// size; these keep reading it within tens of megabytes, whatever it holds.
const (
	// MaxSkillMDBytes is the largest SKILL.md that is parsed. It stays well
	// above any SKILL.md the service can take, so a larger one is an error,
	// hashed as a stream as any large file is, and never parsed.
	MaxSkillMDBytes = 1 << 20
	// MaxCompareBytes is the largest supporting file compared as text with
	// its copy in the space; a larger one is hashed as a stream and
	// reported as too large to compare.
	MaxCompareBytes = 1 << 20
)
