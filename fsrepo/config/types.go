package config

import (
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/lint"
)

// Config is skillsync.yaml, the file that marks a repository's root.
type Config struct {
	BaseURL           string       `yaml:"baseURL" json:"baseURL,omitempty"`
	Space             string       `yaml:"space" json:"space,omitempty"`
	SkillsDir         string       `yaml:"skillsDir" json:"skillsDir,omitempty"` // default "skills"
	Unmanaged         string       `yaml:"unmanaged" json:"unmanaged,omitempty"` // "ignore" (default) or "disable"
	Missing           string       `yaml:"missing" json:"missing,omitempty"`     // "error" (default) or "warn"
	MaxDisablePercent int          `yaml:"maxDisablePercent" json:"maxDisablePercent,omitempty"`
	Agents            AgentsConfig `yaml:"agents" json:"agents,omitempty"`
	Lint              lint.Config  `yaml:"lint" json:"lint,omitempty"`
	// ExcludeFiles are gitignore patterns of the development files of
	// every skill folder, on top of evals/ and each folder's .skillignore
	// (see package skillignore).
	ExcludeFiles []string `yaml:"excludeFiles" json:"excludeFiles,omitempty"`
	// Descriptions sets the description budget and the overlap check of
	// every target; a target's own section overrides it field by field.
	Descriptions Descriptions `yaml:"-" json:"descriptions,omitempty"`
	// Ignore are the differences never planned nor reported as drift, in
	// every target.
	Ignore []IgnoreRule `yaml:"-" json:"ignore,omitempty"`
	// Targets are the spaces the repository drives, in file order; none
	// for a skillsync.yaml that names one space (Space).
	Targets []Target `yaml:"-" json:"targets,omitempty"`
	// Notify are the destinations of events of every target.
	Notify notify.Config `yaml:"-" json:"notify,omitempty"`
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
	FileName                 = "skillsync.yaml"
)

// MaxBytes is the largest skillsync.yaml that is read: a real one is a few
// hundred bytes.
const MaxBytes = 1 << 20
