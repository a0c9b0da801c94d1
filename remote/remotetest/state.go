package remotetest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// StateFormatVersion is the format_version of the state file that
// [Emulator.SaveState] writes; [Emulator.LoadState] refuses any other.
const StateFormatVersion = 1

// stateFile is the whole emulator as [Emulator.SaveState] writes it: what
// a seed holds, and what a seed cannot (timestamps, published versions of
// agents, the clock), so that a restart changes nothing a client sees.
type stateFile struct {
	FormatVersion int          `json:"format_version"`
	Clock         string       `json:"clock"`
	Spaces        []stateSpace `json:"spaces"`
	Tokens        []tokenEntry `json:"tokens"`
}

type stateSpace struct {
	Space
	Skills []stateSkill `json:"skills"`
	Agents []stateAgent `json:"agents"`
	// Assets are the records by id, each as a string holding its JSON
	// byte for byte, as the asset endpoint serves it.
	Assets map[string]string `json:"assets"`
}

type stateSkill struct {
	SkillSeed
	CreatedAt string `json:"createdAt"`
	UpdatedAt string `json:"updatedAt"`
}

type stateAgent struct {
	Draft agentJSON `json:"draft"`
	// Published is the copy made by the last publish, null when none.
	Published       *agentJSON `json:"published"`
	PublishedUnseen bool       `json:"publishedUnseen"`
}

// SaveState writes everything the emulator holds (spaces and their skills,
// agents and assets, tokens, the clock) to the file path as JSON, atomically:
// a reader sees the old file or the new one, never a part. Saves are taken
// one at a time, each of the state as it is when its turn comes, so the
// last save to return wrote the latest state.
func (e *Emulator) SaveState(path string) error {
	e.saveMu.Lock()
	defer e.saveMu.Unlock()
	data, err := e.marshalState()
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".emulator-state-*")
	if err != nil {
		return fmt.Errorf("saving emulator state: %w", err)
	}
	defer os.Remove(tmp.Name()) // gone after the rename; left only on a failure
	_, err = tmp.Write(data)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("saving emulator state to %s: %w", path, err)
	}
	return nil
}

// LoadState replaces everything the emulator holds with the state file
// path written by [Emulator.SaveState]. A missing file is an error that
// wraps [fs.ErrNotExist]; a file that breaks the format or the spec's
// rules is refused whole, leaving the emulator as it was.
func (e *Emulator) LoadState(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("reading emulator state: %w", err)
	}
	if err := e.unmarshalState(data); err != nil {
		return fmt.Errorf("emulator state %s: %w", path, err)
	}
	return nil
}

func (e *Emulator) marshalState() ([]byte, error) {
	e.mu.Lock()
	st := stateFile{FormatVersion: StateFormatVersion, Clock: formatTime(e.clock.last), Spaces: []stateSpace{}, Tokens: []tokenEntry{}}
	for _, id := range slices.Sorted(maps.Keys(e.spaces)) {
		sp := e.spaces[id]
		ss := stateSpace{Space: sp.Space, Skills: []stateSkill{}, Agents: []stateAgent{}, Assets: map[string]string{}}
		for id, rec := range sp.assets {
			ss.Assets[id] = string(rec)
		}
		for _, skID := range slices.Sorted(maps.Keys(sp.skills)) {
			sk := sp.skills[skID]
			ss.Skills = append(ss.Skills, stateSkill{
				SkillSeed: sk.clone(), CreatedAt: formatTime(sk.createdAt), UpdatedAt: formatTime(sk.updatedAt),
			})
		}
		for _, agID := range slices.Sorted(maps.Keys(sp.agents)) {
			ag := sp.agents[agID]
			sa := stateAgent{Draft: agentJSON(cloneAgent(ag.draft)), PublishedUnseen: ag.publishedUnseen}
			if ag.published != nil {
				p := agentJSON(cloneAgent(*ag.published))
				sa.Published = &p
			}
			ss.Agents = append(ss.Agents, sa)
		}
		st.Spaces = append(st.Spaces, ss)
	}
	for _, tok := range slices.Sorted(maps.Keys(e.tokens)) {
		t := e.tokens[tok]
		st.Tokens = append(st.Tokens, tokenEntry{Token: tok, Permission: t.Permission.String(), Spaces: t.Spaces})
	}
	e.mu.Unlock()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(st); err != nil {
		return nil, fmt.Errorf("encoding emulator state: %w", err)
	}
	return buf.Bytes(), nil
}

// unmarshalState builds the whole state aside and swaps it in only when
// every part of it is valid.
func (e *Emulator) unmarshalState(data []byte) error {
	var st stateFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&st); err != nil {
		return err
	}
	if st.FormatVersion != StateFormatVersion {
		return fmt.Errorf("format_version %d is not %d; start again from a seed, or use the skillsync that wrote it", st.FormatVersion, StateFormatVersion)
	}
	var clk clock
	if st.Clock != "" {
		t, err := time.Parse(time.RFC3339Nano, st.Clock)
		if err != nil {
			return fmt.Errorf("clock %q is not RFC 3339", st.Clock)
		}
		clk.observe(t)
	}
	spaces := make(map[string]*space)
	for _, ss := range st.Spaces {
		if err := spec.CheckSpaceID(ss.ID); err != nil {
			return err
		}
		if spaces[ss.ID] != nil {
			return fmt.Errorf("space %s is listed twice", ss.ID)
		}
		sp, err := loadStateSpace(ss, &clk)
		if err != nil {
			return fmt.Errorf("space %s: %w", ss.ID, err)
		}
		spaces[ss.ID] = sp
	}
	tokens := make(map[string]TokenInfo)
	for i, t := range st.Tokens {
		tok, err := t.parse(i + 1)
		if err != nil {
			return err
		}
		tokens[t.Token] = tok
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.spaces, e.tokens = spaces, tokens
	e.clock.last = clk.last
	clear(e.maxActive)
	for id := range spaces {
		e.observeActive(id)
	}
	return nil
}

func loadStateSpace(ss stateSpace, clk *clock) (*space, error) {
	sp := newSpace(ss.Space)
	slugs := make(map[string]bool)
	for _, s := range ss.Skills {
		seed := s.SkillSeed
		if seed.Files == nil {
			seed.Files = make(map[string]string)
		}
		if err := spec.CheckUUID("skill id", s.ID); err != nil {
			return nil, err
		}
		if err := checkSeedSkill(seed); err != nil {
			return nil, fmt.Errorf("skill %s: %w", s.Slug, err)
		}
		seed.Source = cmp.Or(seed.Source, remote.SourceManual)
		if sp.skills[s.ID] != nil || slugs[s.Slug] {
			return nil, fmt.Errorf("skill %s (%s) is listed twice", s.Slug, s.ID)
		}
		created, err := parseTime(s.CreatedAt, "skill "+s.Slug+" createdAt", clk)
		if err != nil {
			return nil, err
		}
		updated, err := parseTime(s.UpdatedAt, "skill "+s.Slug+" updatedAt", clk)
		if err != nil {
			return nil, err
		}
		sp.skills[s.ID] = &skill{SkillSeed: seed, spaceID: ss.ID, createdAt: created, updatedAt: updated}
		slugs[s.Slug] = true
	}
	for _, sa := range ss.Agents {
		a := remote.Agent(sa.Draft)
		if err := spec.CheckUUID("agent id", a.ID); err != nil {
			return nil, err
		}
		if sp.agents[a.ID] != nil {
			return nil, fmt.Errorf("agent %s is listed twice", a.ID)
		}
		if a.SpaceID != ss.ID {
			return nil, fmt.Errorf("agent %s: spaceId %q is not the space's", a.ID, a.SpaceID)
		}
		versions := []*remote.Agent{&a}
		if sa.Published != nil {
			p := remote.Agent(*sa.Published)
			versions = append(versions, &p)
		}
		for _, v := range versions {
			if err := checkAgent(*v); err != nil {
				return nil, fmt.Errorf("agent %s: %w", a.ID, err)
			}
			normaliseAgent(v)
		}
		updated, err := parseTime(a.UpdatedAt, "agent "+a.ID+" updatedAt", clk)
		if err != nil {
			return nil, err
		}
		if _, err := parseTime(a.CreatedAt, "agent "+a.ID+" createdAt", clk); err != nil {
			return nil, err
		}
		ag := &agent{draft: a, updatedAt: updated, publishedUnseen: sa.PublishedUnseen}
		if len(versions) == 2 {
			ag.published = versions[1]
		}
		sp.agents[a.ID] = ag
	}
	for id, rec := range ss.Assets {
		if err := spec.CheckUUID("asset id", id); err != nil {
			return nil, err
		}
		if !isJSONObject([]byte(rec)) {
			return nil, fmt.Errorf("asset %s is not a JSON object", id)
		}
		sp.assets[id] = json.RawMessage(rec)
	}
	return sp, nil
}

// parsePermission reads a permission as the seed and the state write it.
func parsePermission(s string) (Permission, error) {
	switch s {
	case "", ReadWrite.String():
		return ReadWrite, nil
	case ReadOnly.String():
		return ReadOnly, nil
	}
	return 0, fmt.Errorf("permission %q is neither %s nor %s", s, ReadWrite, ReadOnly)
}
