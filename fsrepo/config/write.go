package config

import (
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"
)

// Default is the configuration of a repository whose skillsync.yaml
// sets nothing.
func Default() Config {
	cfg, err := Parse(nil)
	if err != nil {
		panic("fsrepo: default config: " + err.Error())
	}
	return cfg
}

// Write creates root/skillsync.yaml with the service address, the
// space and the skills folder of c (the defaults for the rest), below
// [SchemaComment], so that editors check it against the schema. It never
// writes a token: there is no field for one. It never replaces an existing
// file (or a symlink by that name): the error then wraps [fs.ErrExist].
func Write(root string, c Config) error {
	if c.SkillsDir == "" {
		c.SkillsDir = DefaultSkillsDir
	}
	doc := struct {
		BaseURL   string `yaml:"baseURL,omitempty"`
		Space     string `yaml:"space,omitempty"`
		SkillsDir string `yaml:"skillsDir"`
	}{c.BaseURL, c.Space, c.SkillsDir}
	body, err := yaml.Marshal(doc)
	if err != nil {
		return fmt.Errorf("writing %s: %w", FileName, err)
	}
	data := append([]byte(SchemaComment+"\n"+
		"# skillsync configuration: https://github.com/skillsync/skillsync\n"+
		"# The token is never kept here: set SKILLSYNC_TOKEN or pass --token-file.\n"), body...)
	// Refuse to write what the loader would refuse to read.
	if _, err := Parse(data); err != nil {
		return fmt.Errorf("writing %s: %w", FileName, err)
	}
	name := filepath.Join(root, FileName)
	// O_EXCL also fails on a symlink, dangling or not, so nothing is
	// written through one.
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return fmt.Errorf("writing %s: %w", FileName, err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return fmt.Errorf("writing %s: %w", FileName, err)
	}
	return nil
}
