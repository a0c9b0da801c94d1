package remotetest

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// Emulator is an in-memory space service. It implements [http.Handler] and
// is safe for concurrent use: every request and every method holds one lock
// for the whole of its state change, so the 40-active rule can never be
// raced past.
type Emulator struct {
	mu        sync.Mutex
	saveMu    sync.Mutex // one SaveState at a time
	spaces    map[string]*space
	tokens    map[string]TokenInfo // by token
	clock     clock
	faults    Faults
	answers   Answers
	pending   []pendingWrite // accepted writes not landed yet, by due time
	faultRand *rand.Rand
	requests  map[string]int
	maxActive map[string]int
	onRequest func(*http.Request)
	logf      func(format string, args ...any)
}

// New returns an empty emulator: no spaces, no tokens. Every request is
// answered 401 until a token is added with [Emulator.AddToken].
func New() *Emulator {
	return &Emulator{
		spaces:    make(map[string]*space),
		tokens:    make(map[string]TokenInfo),
		requests:  make(map[string]int),
		maxActive: make(map[string]int),
		clock:     clock{now: time.Now},
		faultRand: newFaultRand(0),
	}
}

// Space describes a space of the emulator. Its YAML is a space of a
// seed's emulator.yaml, its JSON one of the state file.
type Space struct {
	ID string `yaml:"id" json:"id"`
	// SkillsFeatureDisabled makes every skill write (update, enable,
	// disable) of the space fail with 403, as the spec says of enable.
	SkillsFeatureDisabled bool `yaml:"skillsFeatureDisabled" json:"skillsFeatureDisabled"`
	// BuiltinActive is a number of hidden built-in skills that count as
	// active toward the limit of 40 but are never listed.
	BuiltinActive int `yaml:"builtinActive" json:"builtinActive"`
}

// Permission is what a token may do.
type Permission int

// Permissions of a token.
const (
	// ReadWrite may read and change skills and agents.
	ReadWrite Permission = iota
	// ReadOnly may read; every write is answered 403.
	ReadOnly
)

func (p Permission) String() string {
	switch p {
	case ReadWrite:
		return "read-write"
	case ReadOnly:
		return "read-only"
	}
	return fmt.Sprintf("Permission(%d)", int(p))
}

// TokenInfo describes a token the emulator accepts.
type TokenInfo struct {
	Token      string
	Permission Permission
	// Spaces are the spaces the token may reach, sorted; nil for every
	// space.
	Spaces []string
}

// newToken is tok with perm for spaces, or for every space when none.
func newToken(tok string, perm Permission, spaces []string) TokenInfo {
	t := TokenInfo{Token: tok, Permission: perm}
	if len(spaces) > 0 {
		t.Spaces = slices.Compact(slices.Sorted(slices.Values(spaces)))
	}
	return t
}

func (t TokenInfo) allows(spaceID string) bool {
	return t.Spaces == nil || slices.Contains(t.Spaces, spaceID)
}

// SkillSeed is a skill as the emulator stores it; the test-support methods
// take and give it to set up or inspect a space. Its JSON is a skill of
// the state file ([Emulator.SaveState]).
type SkillSeed struct {
	// ID is generated when empty: a UUID derived from the space and the
	// slug, so that seeded spaces are reproducible.
	ID string `json:"id"`
	// Slug is generated from Name when empty: lower case, every run of
	// characters other than a-z and 0-9 replaced by '-', trimmed of '-';
	// "-2", "-3", ... is appended when the space already has the slug.
	Slug         string `json:"slug"`
	Name         string `json:"name"`
	Description  string `json:"description"`
	Instructions string `json:"instructions"`
	// Enabled is the skill's state. Mind that the zero value seeds a
	// disabled skill, while the service creates skills enabled (and a seed
	// directory's SKILL.md defaults to enabled: true).
	Enabled bool `json:"enabled"`
	// Source is "manual" when empty.
	Source    string  `json:"source"`
	SourceURL *string `json:"sourceUrl"`
	// Files are the supporting text files of the skill folder by path.
	// "SKILL.md" is ignored here: it is always rendered from Name,
	// Description and Instructions.
	Files map[string]string `json:"files"`
	// BinaryFiles are paths of binary files of the folder; the files
	// endpoint answers 404 for them, as only text files are readable.
	BinaryFiles []string `json:"binaryFiles"`
	// Unreadable makes instructions null, as when the service cannot read
	// the SKILL.md; an update that sets instructions makes it readable.
	Unreadable bool `json:"unreadable"`
	// Builtin skills are hidden from every endpoint and count as active
	// when Enabled.
	Builtin bool `json:"builtin"`
}

func (s SkillSeed) clone() SkillSeed {
	c := s
	if s.SourceURL != nil {
		u := *s.SourceURL
		c.SourceURL = &u
	}
	c.Files = maps.Clone(s.Files)
	c.BinaryFiles = slices.Clone(s.BinaryFiles)
	return c
}

type space struct {
	Space
	skills map[string]*skill // by id, built-in ones included
	// sorted caches sortedSkills. Every change to the skills sets it to
	// nil, so that no page is served in a stale order.
	sorted []*skill
	agents map[string]*agent
	assets map[string]json.RawMessage
}

func newSpace(sp Space) *space {
	return &space{
		Space:  sp,
		skills: make(map[string]*skill),
		agents: make(map[string]*agent),
		assets: make(map[string]json.RawMessage),
	}
}

type skill struct {
	SkillSeed
	spaceID   string
	createdAt time.Time
	updatedAt time.Time
}

type agent struct {
	draft     remote.Agent
	published *remote.Agent // the copy made by the last publish
	// publishedUnseen: the agent was added as published with unpublished
	// changes, so its published version differs from the draft in a way
	// the emulator does not hold; only a publish clears it.
	publishedUnseen bool
	updatedAt       time.Time
}

// AddSpace adds a space, or replaces the settings of an existing one and
// keeps its content. It panics on an ID that breaks the spaceId rule.
func (e *Emulator) AddSpace(sp Space) {
	if err := spec.CheckSpaceID(sp.ID); err != nil {
		panic("remotetest: AddSpace: " + err.Error())
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.spaces[sp.ID]; ok {
		s.Space = sp
	} else {
		e.spaces[sp.ID] = newSpace(sp)
	}
	e.observeActive(sp.ID)
}

// AddToken registers a bearer token. With no spaces it is valid for every
// space; otherwise every other space answers it 403.
func (e *Emulator) AddToken(tok string, perm Permission, spaces ...string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.tokens[tok] = newToken(tok, perm, spaces)
}

// RemoveToken unregisters a token; it is answered 401 from then on.
func (e *Emulator) RemoveToken(tok string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.tokens, tok)
}

// Tokens returns the tokens the emulator accepts, sorted.
func (e *Emulator) Tokens() []TokenInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []TokenInfo
	for _, tok := range slices.Sorted(maps.Keys(e.tokens)) {
		t := e.tokens[tok]
		t.Spaces = slices.Clone(t.Spaces)
		out = append(out, t)
	}
	return out
}

// SpaceIDs returns the ids of the emulator's spaces, sorted.
func (e *Emulator) SpaceIDs() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Sorted(maps.Keys(e.spaces))
}

// spaceOf is the space of that id, or an empty one when there is none,
// for the methods that report what a space holds; e.mu is held.
func (e *Emulator) spaceOf(spaceID string) *space {
	if sp, ok := e.spaces[spaceID]; ok {
		return sp
	}
	return &space{Space: Space{ID: spaceID}} // its nil maps read as empty
}

func (e *Emulator) mustSpace(op, spaceID string) *space {
	sp, ok := e.spaces[spaceID]
	if !ok {
		panic(fmt.Sprintf("remotetest: %s: unknown space %q (call AddSpace first)", op, spaceID))
	}
	return sp
}

// AddSkill adds a skill to a space and returns it as the get endpoint
// would. Empty ID and Slug are generated (see [SkillSeed]). It panics on an
// unknown space, a duplicate ID or slug, an ID that is not a UUID, or a
// skill the service could not hold (the field table's rules, as for a
// seed).
func (e *Emulator) AddSkill(spaceID string, s SkillSeed) remote.Skill {
	sk, err := e.addSkill(spaceID, s)
	if err != nil {
		panic("remotetest: AddSkill: " + err.Error())
	}
	return sk
}

// addSkill is [Emulator.AddSkill] returning its error, for the app and seeds.
func (e *Emulator) addSkill(spaceID string, s SkillSeed) (remote.Skill, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, ok := e.spaces[spaceID]
	if !ok {
		return remote.Skill{}, fmt.Errorf("unknown space %q (call AddSpace first)", spaceID)
	}
	return e.addSkillLocked(sp, s)
}

// addSkillLocked adds a skill to sp; e.mu is held.
func (e *Emulator) addSkillLocked(sp *space, s SkillSeed) (remote.Skill, error) {
	spaceID := sp.ID
	s = s.clone()
	if s.Slug == "" {
		s.Slug = uniqueSlug(sp, names.Slug(s.Name))
	}
	for _, o := range sp.skills {
		if o.Slug == s.Slug {
			return remote.Skill{}, fmt.Errorf("space %s already has slug %q", spaceID, s.Slug)
		}
	}
	if s.ID == "" {
		s.ID = nameUUID(spaceID, "skill", s.Slug)
	}
	if err := spec.CheckUUID("id", s.ID); err != nil {
		return remote.Skill{}, err
	}
	if _, dup := sp.skills[s.ID]; dup {
		return remote.Skill{}, fmt.Errorf("space %s already has skill %s", spaceID, s.ID)
	}
	if err := checkSeedSkill(s); err != nil {
		return remote.Skill{}, err
	}
	s.Source = cmp.Or(s.Source, remote.SourceManual)
	now := e.clock.tick()
	sk := &skill{SkillSeed: s, spaceID: spaceID, createdAt: now, updatedAt: now}
	sp.skills[s.ID] = sk
	sp.sorted = nil
	e.observeActive(spaceID)
	return sk.view(true), nil
}

// EditSkill changes a skill the way an edit in the end-user app would: f
// gets a copy of the stored skill, and whatever it changes is stored, the
// ID and slug excepted (they are immutable). updatedAt moves even when f
// changes nothing. The 40-active limit is not applied: the app may well
// count differently. It panics on an unknown space or skill.
func (e *Emulator) EditSkill(spaceID, skillID string, f func(*SkillSeed)) {
	err := e.editSkill(spaceID, skillID, func(_ *space, s *SkillSeed) error {
		f(s)
		return nil
	})
	if err != nil {
		panic("remotetest: EditSkill: " + err.Error())
	}
}

// editSkill is [Emulator.EditSkill] for the app: f also sees the space,
// under the emulator's lock, and an error from it leaves the skill as it
// was.
func (e *Emulator) editSkill(spaceID, skillID string, f func(*space, *SkillSeed) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, ok := e.spaces[spaceID]
	if !ok {
		return fmt.Errorf("unknown space %q (call AddSpace first)", spaceID)
	}
	sk, ok := sp.skills[skillID]
	if !ok {
		return fmt.Errorf("space %s has no skill %s", spaceID, skillID)
	}
	c := sk.SkillSeed.clone()
	if err := f(sp, &c); err != nil {
		return err
	}
	c.ID, c.Slug = sk.ID, sk.Slug
	c.Source = cmp.Or(c.Source, remote.SourceManual)
	sk.SkillSeed = c
	sk.updatedAt = e.clock.tick()
	sp.sorted = nil
	e.observeActive(spaceID)
	return nil
}

// DeleteSkill removes a skill and its files, as deleting it in the app
// would (the API itself cannot delete a skill).
func (e *Emulator) DeleteSkill(spaceID, skillID string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp := e.mustSpace("DeleteSkill", spaceID)
	if _, ok := sp.skills[skillID]; !ok {
		panic(fmt.Sprintf("remotetest: DeleteSkill: space %s has no skill %s", spaceID, skillID))
	}
	delete(sp.skills, skillID)
	sp.sorted = nil
	e.observeActive(spaceID)
}

// Skill returns a snapshot of a skill, instructions included, built-in
// skills included.
func (e *Emulator) Skill(spaceID, skillID string) (remote.Skill, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sk, ok := e.spaceOf(spaceID).skills[skillID]
	if !ok {
		return remote.Skill{}, false
	}
	return sk.view(true), true
}

// SkillBySlug returns a snapshot of the skill with the given slug.
func (e *Emulator) SkillBySlug(spaceID, slug string) (remote.Skill, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for _, sk := range e.spaceOf(spaceID).skills {
		if sk.Slug == slug {
			return sk.view(true), true
		}
	}
	return remote.Skill{}, false
}

// Skills returns snapshots of the user-created skills of a space, with
// instructions, in list order.
func (e *Emulator) Skills(spaceID string) []remote.Skill {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []remote.Skill
	for _, sk := range e.spaceOf(spaceID).sortedSkills() {
		out = append(out, sk.view(true))
	}
	return out
}

// SkillFiles returns the text files the files endpoint serves for a skill,
// SKILL.md included (rendered), by path.
func (e *Emulator) SkillFiles(spaceID, skillID string) map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	sk, ok := e.spaceOf(spaceID).skills[skillID]
	if !ok {
		return nil
	}
	out := make(map[string]string)
	for p, c := range sk.Files {
		if p != skillFileName {
			out[p] = c
		}
	}
	if !sk.Unreadable {
		out[skillFileName] = sk.renderSkillFile()
	}
	return out
}

// AddAgent adds an agent (draft) to a space and returns it as the list
// endpoint would. An empty ID is generated, empty timestamps are set to
// now, SpaceID is set, nil arrays become empty ones and an empty
// welcomeMessage becomes {}. An agent that is not Published always has
// HasUnpublishedChanges, as the spec defines it; a Published one is taken
// to be published as it stands, with HasUnpublishedChanges as given. Given
// true, the published version stands for one the emulator does not hold:
// the flag stays set through edits until a publish.
func (e *Emulator) AddAgent(spaceID string, a remote.Agent) remote.Agent {
	a, err := e.addAgent(spaceID, a)
	if err != nil {
		panic("remotetest: AddAgent: " + err.Error())
	}
	return a
}

// addAgent is [Emulator.AddAgent] returning its error, for the app and seeds.
func (e *Emulator) addAgent(spaceID string, a remote.Agent) (remote.Agent, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, ok := e.spaces[spaceID]
	if !ok {
		return remote.Agent{}, fmt.Errorf("unknown space %q (call AddSpace first)", spaceID)
	}
	a = cloneAgent(a) // without Raw: the emulator answers what it holds
	if a.ID == "" {
		a.ID = nameUUID(spaceID, "agent", fmt.Sprint(len(sp.agents)), a.Name)
	}
	if err := spec.CheckUUID("id", a.ID); err != nil {
		return remote.Agent{}, err
	}
	if err := checkAgent(a); err != nil {
		return remote.Agent{}, err
	}
	if _, dup := sp.agents[a.ID]; dup {
		return remote.Agent{}, fmt.Errorf("space %s already has agent %s", spaceID, a.ID)
	}
	a.SpaceID = spaceID
	var created, updated time.Time // zero unless given
	var err error
	if a.CreatedAt != "" {
		if created, err = parseTime(a.CreatedAt, "createdAt", &e.clock); err != nil {
			return remote.Agent{}, err
		}
	}
	if a.UpdatedAt != "" {
		if updated, err = parseTime(a.UpdatedAt, "updatedAt", &e.clock); err != nil {
			return remote.Agent{}, err
		}
	}
	// A time not given is now, later than those given, or the update's:
	// an agent is never updated before it was created.
	if updated.IsZero() {
		updated = e.clock.tick()
	}
	if created.IsZero() {
		created = updated
	}
	a.CreatedAt, a.UpdatedAt = formatTime(created), formatTime(updated)
	normaliseAgent(&a)
	ag := &agent{draft: a, updatedAt: updated}
	if !a.Published {
		ag.draft.HasUnpublishedChanges = true
	} else {
		p := cloneAgent(a)
		ag.published = &p
		ag.publishedUnseen = a.HasUnpublishedChanges
	}
	sp.agents[a.ID] = ag
	return cloneAgent(ag.draft), nil
}

// EditAgent changes an agent's draft the way the app's editor would: f
// gets a copy of the draft; what it changes is stored (ID, SpaceID,
// CreatedAt, Published excepted) and updatedAt moves. HasUnpublishedChanges
// then says whether the draft differs from the published version, as the
// spec defines it: an edit that puts the draft back as published clears
// it. It panics on an unknown agent.
func (e *Emulator) EditAgent(spaceID, agentID string, f func(*remote.Agent)) {
	err := e.editAgent(spaceID, agentID, func(a *remote.Agent) error {
		f(a)
		return nil
	})
	if err != nil {
		panic("remotetest: EditAgent: " + err.Error())
	}
}

// editAgent is [Emulator.EditAgent] for the app: an error from f, or a
// draft that breaks the agent table, leaves the agent as it was.
func (e *Emulator) editAgent(spaceID, agentID string, f func(*remote.Agent) error) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	sp, ok := e.spaces[spaceID]
	if !ok {
		return fmt.Errorf("unknown space %q (call AddSpace first)", spaceID)
	}
	ag, ok := sp.agents[agentID]
	if !ok {
		return fmt.Errorf("space %s has no agent %s", spaceID, agentID)
	}
	c := cloneAgent(ag.draft)
	if err := f(&c); err != nil {
		return err
	}
	c.ID, c.SpaceID, c.CreatedAt, c.Published = ag.draft.ID, ag.draft.SpaceID, ag.draft.CreatedAt, ag.draft.Published
	if err := checkAgent(c); err != nil {
		return err
	}
	normaliseAgent(&c)
	c.HasUnpublishedChanges = ag.published == nil || ag.publishedUnseen || !sameAgentContent(c, *ag.published)
	ag.updatedAt = e.clock.tick()
	c.UpdatedAt = formatTime(ag.updatedAt)
	ag.draft = c
	return nil
}

// sameAgentContent reports whether two versions of an agent hold the same
// content: everything but the fields that describe the version itself.
func sameAgentContent(a, b remote.Agent) bool {
	for _, x := range []*remote.Agent{&a, &b} {
		x.UpdatedAt, x.Published, x.HasUnpublishedChanges = "", false, false
	}
	return reflect.DeepEqual(a, b)
}

// Agents returns the drafts of a space's agents in list order.
func (e *Emulator) Agents(spaceID string) []remote.Agent {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []remote.Agent
	for _, ag := range e.spaceOf(spaceID).sortedAgents() {
		out = append(out, cloneAgent(ag.draft))
	}
	return out
}

// PublishedAgent returns the version of an agent copied by its last
// publish; false when it was never published (or does not exist).
func (e *Emulator) PublishedAgent(spaceID, agentID string) (remote.Agent, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ag, ok := e.spaceOf(spaceID).agents[agentID]
	if !ok || ag.published == nil {
		return remote.Agent{}, false
	}
	return cloneAgent(*ag.published), true
}

// AddAsset stores a knowledge-base record; the asset endpoint returns it
// byte for byte. It panics unless record is a JSON object and assetID a
// UUID.
func (e *Emulator) AddAsset(spaceID, assetID string, record json.RawMessage) {
	if err := spec.CheckUUID("assetId", assetID); err != nil {
		panic("remotetest: AddAsset: " + err.Error())
	}
	if !isJSONObject(record) {
		panic(fmt.Sprintf("remotetest: AddAsset: record of %s is not a JSON object", assetID))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	sp := e.mustSpace("AddAsset", spaceID)
	sp.assets[assetID] = slices.Clone(record)
}

// ActiveCount is the number of active skills of a space as the limit of 40
// counts them: enabled user skills, enabled built-in skills and
// [Space.BuiltinActive].
func (e *Emulator) ActiveCount(spaceID string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.spaceOf(spaceID).activeCount()
}

// MaxActiveSeen is the highest [Emulator.ActiveCount] the space has had
// since it was added or since [Emulator.ResetRequests].
func (e *Emulator) MaxActiveSeen(spaceID string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.maxActive[spaceID]
}

// Request counter keys of [Emulator.Requests], one per endpoint of the spec.
const (
	KeyListSkills   = "GET /skills"
	KeyGetSkill     = "GET /skills/{id}"
	KeyUpdateSkill  = "PATCH /skills/{id}"
	KeyEnableSkill  = "POST /enable"
	KeyDisableSkill = "POST /disable"
	KeyGetFile      = "GET /files"
	KeyListAgents   = "GET /agents"
	KeyPublishAgent = "POST /publish"
	KeyDeleteAgent  = "DELETE /agents/{id}"
	KeyGetAsset     = "GET /assets"
	// KeyOther counts requests that match no endpoint (404, 405).
	KeyOther = "other"
)

// Requests returns how many requests each endpoint received, by the Key
// constants. Every request that reached the emulator counts, whatever its
// answer, injected faults and drops included.
func (e *Emulator) Requests() map[string]int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return maps.Clone(e.requests)
}

// ResetRequests zeroes the request counters and restarts every space's
// active high-water mark from its current active count.
func (e *Emulator) ResetRequests() {
	e.mu.Lock()
	defer e.mu.Unlock()
	clear(e.requests)
	clear(e.maxActive)
	for id := range e.spaces {
		e.observeActive(id)
	}
}

// SetOnRequest installs a hook called at the start of every request, before
// any check and outside the emulator's lock, so it may call the emulator's
// methods (for instance [Emulator.EditSkill] to shift the list order between
// two page requests). nil removes it.
func (e *Emulator) SetOnRequest(f func(r *http.Request)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.onRequest = f
}

// SetLog installs a logger called once per request with its method, path
// (query included), status and duration. The Authorization header is never
// passed to it. nil removes it.
func (e *Emulator) SetLog(logf func(format string, args ...any)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.logf = logf
}

// SetClock replaces the wall clock the logical clock follows (time.Now by
// default), for reproducible timestamps.
func (e *Emulator) SetClock(now func() time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.clock.now = now
}

// observeActive updates the high-water mark; e.mu must be held.
func (e *Emulator) observeActive(spaceID string) {
	if n := e.spaceOf(spaceID).activeCount(); n > e.maxActive[spaceID] {
		e.maxActive[spaceID] = n
	}
}

func (sp *space) activeCount() int {
	n := sp.BuiltinActive
	for _, sk := range sp.skills {
		if sk.Enabled {
			n++
		}
	}
	return n
}

// sortedSkills are the user-created skills in list order: most recently
// updated first, ties broken by id ascending. The slice is shared: callers
// must not modify it.
func (sp *space) sortedSkills() []*skill {
	if sp.sorted != nil {
		return sp.sorted
	}
	out := []*skill{}
	for _, sk := range sp.skills {
		if !sk.Builtin {
			out = append(out, sk)
		}
	}
	slices.SortFunc(out, func(a, b *skill) int {
		return cmp.Or(b.updatedAt.Compare(a.updatedAt), strings.Compare(a.ID, b.ID))
	})
	sp.sorted = out
	return out
}

func (sp *space) sortedAgents() []*agent {
	out := slices.Collect(maps.Values(sp.agents))
	slices.SortFunc(out, func(a, b *agent) int {
		return cmp.Or(b.updatedAt.Compare(a.updatedAt), strings.Compare(a.draft.ID, b.draft.ID))
	})
	return out
}

// view is the skill as the service shows it; list items carry no
// instructions.
func (sk *skill) view(withInstructions bool) remote.Skill {
	s := remote.Skill{
		ID:          sk.ID,
		SpaceID:     sk.spaceID,
		Name:        sk.Name,
		Description: sk.Description,
		Slug:        sk.Slug,
		Source:      sk.Source,
		Enabled:     sk.Enabled,
		CreatedAt:   formatTime(sk.createdAt),
		UpdatedAt:   formatTime(sk.updatedAt),
	}
	if sk.SourceURL != nil {
		u := *sk.SourceURL
		s.SourceURL = &u
	}
	if withInstructions && !sk.Unreadable {
		in := sk.Instructions
		s.Instructions = &in
	}
	return s
}

func uniqueSlug(sp *space, base string) string {
	taken := make(map[string]bool)
	for _, sk := range sp.skills {
		taken[sk.Slug] = true
	}
	if !taken[base] {
		return base
	}
	for i := 2; ; i++ {
		if s := fmt.Sprintf("%s-%d", base, i); !taken[s] {
			return s
		}
	}
}

// nameUUID derives a version-5-style UUID from its parts, so generated IDs
// are stable from run to run.
func nameUUID(parts ...string) string {
	sum := sha1.Sum([]byte("skillsync-remotetest\x00" + strings.Join(parts, "\x00")))
	b := sum[:16]
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// agentJSON is an agent as the spec's table types it, decoded exactly:
// the emulator holds its seeds and state to the table, where the client
// decodes leniently ([remote.Agent]).
type agentJSON remote.Agent

// cloneAgent is a copy of a that shares no slice or map with it, whatever
// fields the type has: its JSON, read back, as the emulator would serve it.
// Raw and UnpublishedUnknown, which are not part of it, are left zero.
func cloneAgent(a remote.Agent) remote.Agent {
	data, err := json.Marshal(agentJSON(a))
	if err != nil {
		panic("remotetest: copying agent: " + err.Error())
	}
	var c agentJSON
	if err := json.Unmarshal(data, &c); err != nil {
		panic("remotetest: copying agent: " + err.Error())
	}
	return remote.Agent(c)
}

// checkAgent holds an agent to the types of the spec's agent table where
// Go's types do not: uuid strings, and an object for welcomeMessage. The
// fields are checked in the table's order, so the error is always the same.
func checkAgent(a remote.Agent) error {
	for _, f := range []struct {
		field string
		ids   []string
	}{
		{"attachmentIds", a.AttachmentIDs}, {"folderIds", a.FolderIDs},
		{"contentIds", a.ContentIDs}, {"skillIds", a.SkillIDs},
	} {
		for i, id := range f.ids {
			if err := spec.CheckUUID(fmt.Sprintf("%s[%d]", f.field, i), id); err != nil {
				return err
			}
		}
	}
	for i, cs := range a.ConversationStarters {
		if err := spec.CheckUUID(fmt.Sprintf("conversationStarters[%d].id", i), cs.ID); err != nil {
			return err
		}
	}
	for i, ac := range a.Actions {
		if err := spec.CheckUUID(fmt.Sprintf("actions[%d].id", i), ac.ID); err != nil {
			return err
		}
	}
	if w := bytes.TrimSpace(a.WelcomeMessage); len(w) > 0 && string(w) != "null" && w[0] != '{' {
		return fmt.Errorf("welcomeMessage must be an object, not %s", w)
	}
	return nil
}

// normaliseAgent gives every array and object field a JSON value of its
// type (never null), as the spec's field table types them.
func normaliseAgent(a *remote.Agent) {
	orEmpty := func(s []string) []string {
		if s == nil {
			return []string{}
		}
		return s
	}
	if a.ConversationStarters == nil {
		a.ConversationStarters = []remote.ConversationStarter{}
	}
	if len(a.WelcomeMessage) == 0 || string(a.WelcomeMessage) == "null" {
		a.WelcomeMessage = json.RawMessage(`{}`)
	}
	a.AttachmentIDs = orEmpty(a.AttachmentIDs)
	a.FolderIDs = orEmpty(a.FolderIDs)
	a.ContentIDs = orEmpty(a.ContentIDs)
	a.SkillIDs = orEmpty(a.SkillIDs)
	a.EmbedOptions.DomainWhitelist = orEmpty(a.EmbedOptions.DomainWhitelist)
	if a.Actions == nil {
		a.Actions = []remote.Action{}
	}
	for i := range a.Actions {
		if a.Actions[i].DefaultValues == nil {
			a.Actions[i].DefaultValues = map[string]any{}
		}
	}
}

func isJSONObject(b []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(b, &m) == nil && m != nil
}

// clock is the emulator's logical clock: it follows the wall clock at
// millisecond resolution (the resolution of the timestamps it formats) but
// never repeats or goes back, so every change gets a strictly later
// updatedAt even when several happen within one millisecond.
type clock struct {
	now  func() time.Time
	last time.Time
}

func (c *clock) tick() time.Time {
	t := c.now().UTC().Truncate(time.Millisecond)
	if !t.After(c.last) {
		t = c.last.Add(time.Millisecond)
	}
	c.last = t
	return t
}

// observe moves the clock past a timestamp given from outside.
func (c *clock) observe(t time.Time) {
	t = t.UTC().Truncate(time.Millisecond)
	if t.After(c.last) {
		c.last = t
	}
}

// parseTime reads a timestamp given to the emulator, what names it in an
// error, and moves clk past it, so that the next change is later.
func parseTime(s, what string, clk *clock) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q is not RFC 3339", what, s)
	}
	t = t.UTC().Truncate(time.Millisecond)
	clk.observe(t)
	return t, nil
}

// timeLayout is RFC 3339 in UTC with milliseconds, as JavaScript's
// Date.prototype.toISOString writes it.
const timeLayout = "2006-01-02T15:04:05.000Z"

func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }
