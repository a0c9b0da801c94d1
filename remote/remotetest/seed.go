package remotetest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// SeedConfigFile is the optional file of a seed directory that lists
// spaces and tokens.
const SeedConfigFile = "emulator.yaml"

// seedConfig is emulator.yaml.
type seedConfig struct {
	Spaces []Space      `yaml:"spaces"`
	Tokens []tokenEntry `yaml:"tokens"`
}

// tokenEntry is a token as emulator.yaml and the state file list it.
type tokenEntry struct {
	Token      string   `yaml:"token" json:"token"`
	Permission string   `yaml:"permission" json:"permission"`
	Spaces     []string `yaml:"spaces" json:"spaces,omitempty"`
}

// parse is the token t describes; n counts it from 1 in an error.
func (t tokenEntry) parse(n int) (TokenInfo, error) {
	if t.Token == "" {
		return TokenInfo{}, fmt.Errorf("token %d is empty", n)
	}
	perm, err := parsePermission(t.Permission)
	if err != nil {
		return TokenInfo{}, fmt.Errorf("token %d: %w", n, err)
	}
	return newToken(t.Token, perm, t.Spaces), nil
}

// skillFrontmatter is the frontmatter of a seed's SKILL.md. Keys other
// than these (license, metadata, ...) are ignored.
type skillFrontmatter struct {
	ID          string  `yaml:"id"`
	Name        string  `yaml:"name"`
	Description string  `yaml:"description"`
	Enabled     *bool   `yaml:"enabled"`
	Source      string  `yaml:"source"`
	SourceURL   *string `yaml:"sourceUrl"`
	Builtin     bool    `yaml:"builtin"`
	Unreadable  bool    `yaml:"unreadable"`
}

// LoadSeed adds the spaces, tokens, skills, agents and assets of a seed
// directory (layout in the package documentation) to the emulator. On an
// error the emulator may hold part of the seed.
func (e *Emulator) LoadSeed(dir string) error {
	return e.LoadSeedFS(os.DirFS(dir), ".")
}

// LoadSeedFS is [Emulator.LoadSeed] reading dir of fsys, for seeds
// embedded in a binary.
func (e *Emulator) LoadSeedFS(fsys fs.FS, dir string) error {
	cfgPath := path.Join(dir, SeedConfigFile)
	var cfg seedConfig
	switch data, err := fs.ReadFile(fsys, cfgPath); {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("reading seed: %w", err)
	default:
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&cfg); err != nil && !errors.Is(err, io.EOF) {
			return fmt.Errorf("seed %s: %w", cfgPath, err)
		}
	}
	for _, s := range cfg.Spaces {
		if err := spec.CheckSpaceID(s.ID); err != nil {
			return fmt.Errorf("seed %s: %w", cfgPath, err)
		}
		e.AddSpace(s)
	}
	for i, t := range cfg.Tokens {
		tok, err := t.parse(i + 1)
		if err != nil {
			return fmt.Errorf("seed %s: %w", cfgPath, err)
		}
		e.mu.Lock()
		e.tokens[t.Token] = tok
		e.mu.Unlock()
	}

	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return fmt.Errorf("reading seed: %w", err)
	}
	for _, ent := range entries {
		if !ent.IsDir() {
			continue // emulator.yaml, a README, ...
		}
		spaceID := ent.Name()
		if err := spec.CheckSpaceID(spaceID); err != nil {
			return fmt.Errorf("seed %s: folder is not a space: %w", path.Join(dir, spaceID), err)
		}
		e.mu.Lock()
		_, known := e.spaces[spaceID]
		e.mu.Unlock()
		if !known {
			e.AddSpace(Space{ID: spaceID})
		}
		if err := e.loadSpace(fsys, path.Join(dir, spaceID), spaceID); err != nil {
			return err
		}
	}
	return nil
}

func (e *Emulator) loadSpace(fsys fs.FS, dir, spaceID string) error {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return fmt.Errorf("reading seed: %w", err)
	}
	for _, ent := range entries {
		p := path.Join(dir, ent.Name())
		if !ent.IsDir() {
			return fmt.Errorf("seed %s: unexpected file; a space folder holds skills/, agents/ and assets/", p)
		}
		var err error
		switch ent.Name() {
		case "skills":
			err = e.loadSkills(fsys, p, spaceID)
		case "agents":
			err = e.loadJSONDir(fsys, p, func(file string, data []byte) error {
				var aj agentJSON
				dec := json.NewDecoder(bytes.NewReader(data))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&aj); err != nil {
					return err
				}
				a := remote.Agent(aj)
				if a.SpaceID != "" && a.SpaceID != spaceID {
					return fmt.Errorf("spaceId %q is not the folder's space %q", a.SpaceID, spaceID)
				}
				_, err := e.addAgent(spaceID, a)
				return err
			})
		case "assets":
			err = e.loadJSONDir(fsys, p, func(file string, data []byte) error {
				id := strings.TrimSuffix(file, ".json")
				if err := spec.CheckUUID("asset file name", id); err != nil {
					return err
				}
				if !isJSONObject(data) {
					return errors.New("not a JSON object")
				}
				e.AddAsset(spaceID, id, data)
				return nil
			})
		default:
			err = fmt.Errorf("seed %s: unexpected folder; a space folder holds skills/, agents/ and assets/", p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (e *Emulator) loadJSONDir(fsys fs.FS, dir string, add func(file string, data []byte) error) error {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return fmt.Errorf("reading seed: %w", err)
	}
	for _, ent := range entries {
		p := path.Join(dir, ent.Name())
		if ent.IsDir() || !strings.HasSuffix(ent.Name(), ".json") {
			return fmt.Errorf("seed %s: expected only .json files here", p)
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("reading seed: %w", err)
		}
		if err := add(ent.Name(), data); err != nil {
			return fmt.Errorf("seed %s: %w", p, err)
		}
	}
	return nil
}

// loadSkills adds one skill per folder, in slug order, so the last slug is
// the most recently updated.
func (e *Emulator) loadSkills(fsys fs.FS, dir, spaceID string) error {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return fmt.Errorf("reading seed: %w", err)
	}
	for _, ent := range entries {
		p := path.Join(dir, ent.Name())
		if !ent.IsDir() {
			return fmt.Errorf("seed %s: expected only skill folders here", p)
		}
		seed, err := readSkillFolder(fsys, p)
		if err != nil {
			return err
		}
		seed.Slug = ent.Name()
		if err := checkSeedSkill(seed); err != nil {
			return fmt.Errorf("seed %s: %w", path.Join(p, skillFileName), err)
		}
		if _, err := e.addSkill(spaceID, seed); err != nil {
			return fmt.Errorf("seed %s: %w", p, err)
		}
	}
	return nil
}

func readSkillFolder(fsys fs.FS, dir string) (SkillSeed, error) {
	mdPath := path.Join(dir, skillFileName)
	md, err := fs.ReadFile(fsys, mdPath)
	if err != nil {
		return SkillSeed{}, fmt.Errorf("reading seed: %w", err)
	}
	split := frontmatter.Parse(md)
	switch split.State {
	case frontmatter.None:
		return SkillSeed{}, fmt.Errorf("seed %s: does not start with a '---' frontmatter line", mdPath)
	case frontmatter.Unclosed:
		return SkillSeed{}, fmt.Errorf("seed %s: frontmatter has no closing '---' line", mdPath)
	}
	body := string(split.Body)
	// JSON-style surrogate pairs ("\uD83D\uDD2D") are valid YAML 1.2, which
	// yaml.v3 refuses; skillsync's loader reads them, and so does the seed.
	block, err := frontmatter.JoinSurrogates(split.Block)
	if err != nil {
		return SkillSeed{}, fmt.Errorf("seed %s: frontmatter: %w", mdPath, err)
	}
	var fm skillFrontmatter
	if err := yaml.Unmarshal(block, &fm); err != nil {
		return SkillSeed{}, fmt.Errorf("seed %s: frontmatter: %w", mdPath, err)
	}
	seed := SkillSeed{
		ID:           fm.ID,
		Name:         fm.Name,
		Description:  fm.Description,
		Instructions: body,
		Enabled:      fm.Enabled == nil || *fm.Enabled,
		Source:       fm.Source,
		SourceURL:    fm.SourceURL,
		Builtin:      fm.Builtin,
		Unreadable:   fm.Unreadable,
		Files:        make(map[string]string),
	}
	err = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == mdPath {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(p, dir+"/")
		if utf8.Valid(data) && !bytes.ContainsRune(data, 0) {
			seed.Files[rel] = string(data)
		} else {
			seed.BinaryFiles = append(seed.BinaryFiles, rel)
		}
		return nil
	})
	if err != nil {
		return SkillSeed{}, fmt.Errorf("reading seed: %w", err)
	}
	slices.Sort(seed.BinaryFiles)
	return seed, nil
}

// checkSeedSkill holds a seeded skill to the field table of the spec, so
// that the emulator never serves a skill the service could not hold.
func checkSeedSkill(s SkillSeed) error {
	if s.Slug == "" || url.PathEscape(s.Slug) != s.Slug || strings.Trim(s.Slug, ".") == "" {
		return fmt.Errorf("folder name %q is not a URL-safe slug: use letters, digits and hyphens", s.Slug)
	}
	if err := spec.CheckName(s.Name); err != nil {
		return err
	}
	if err := spec.CheckDescription(s.Description); err != nil {
		return err
	}
	if err := spec.CheckInstructions(s.Instructions); err != nil {
		return err
	}
	switch s.Source {
	case "", remote.SourceManual, remote.SourceUpload, remote.SourceGitHub, remote.SourceAIGenerated:
	default:
		return fmt.Errorf("source %q is none of %s, %s, %s, %s", s.Source,
			remote.SourceManual, remote.SourceUpload, remote.SourceGitHub, remote.SourceAIGenerated)
	}
	if s.SourceURL != nil && s.Source != remote.SourceGitHub {
		return fmt.Errorf("sourceUrl is set, but the spec has it only for imported skills (source %s)", remote.SourceGitHub)
	}
	return nil
}
