package fsrepo

// Config is skillsync.yaml, the file that marks a repository's root.
type Config struct {
	BaseURL           string       `yaml:"baseURL" json:"baseURL,omitempty"`
	Space             string       `yaml:"space" json:"space,omitempty"`
	SkillsDir         string       `yaml:"skillsDir" json:"skillsDir,omitempty"` // default "skills"
	Unmanaged         string       `yaml:"unmanaged" json:"unmanaged,omitempty"` // "ignore" (default) or "disable"
	Missing           string       `yaml:"missing" json:"missing,omitempty"`     // "error" (default) or "warn"
	MaxDisablePercent int          `yaml:"maxDisablePercent" json:"maxDisablePercent,omitempty"`
	Agents            AgentsConfig `yaml:"agents" json:"agents,omitempty"`
}

// AgentsConfig is the agents section of skillsync.yaml.
type AgentsConfig struct {
	Publish []string `yaml:"publish" json:"publish,omitempty"` // agent ids or names to publish on apply
}

// Policy values of [Config].
const (
	UnmanagedIgnore  = "ignore"
	UnmanagedDisable = "disable"
	MissingError     = "error"
	MissingWarn      = "warn"

	DefaultSkillsDir         = "skills"
	DefaultMaxDisablePercent = 30
	ConfigFile               = "skillsync.yaml"
	SkillFile                = "SKILL.md"
)

// Skill is one skill folder of the repository: the desired state of the
// remote skill whose slug is the folder's name.
type Skill struct {
	Slug         string         // folder name, the remote skill's slug
	Path         string         // SKILL.md, slash-separated and relative to the repository root
	Name         string         // frontmatter name
	Description  string         // frontmatter description
	Enabled      bool           // frontmatter enabled; true when absent
	Instructions string         // the body, in canonical form (see [Canonical])
	Extra        map[string]any // other frontmatter keys, kept and ignored
	Files        []File         // supporting files, sorted by path
	// Invalid is set when the skill has an error diagnostic: it holds what
	// could be parsed, and must never be applied.
	Invalid bool
}

// File is a supporting file of a skill folder (anything but SKILL.md).
type File struct {
	Path    string // relative to the skill folder, slash-separated
	Size    int64
	Binary  bool
	SHA256  string // hex digest of the content
	Content []byte // the content of a text file; nil for binary files
}

// Repo is the desired state read from a repository.
type Repo struct {
	Root   string // absolute path of the folder holding skillsync.yaml
	Config Config
	Skills []Skill // sorted by slug
	Ref    string  // the revision asked for; "" for the working tree
	Commit string  // the commit loaded, or HEAD's commit for the working tree; "" outside git
	Dirty  bool    // the working tree's skills folder differs from Commit
}
