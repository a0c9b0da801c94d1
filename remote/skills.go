package remote

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/skillsync/skillsync/spec"
)

// ListSkills returns one page of the space's user-created skills, most
// recently updated first, without their instructions.
func (c *Client) ListSkills(ctx context.Context, spaceID string, limit, offset int) (*Page[Skill], error) {
	return listPage(ctx, c, "skills", spaceID, limit, offset, skillKey)
}

// StreamSkills returns every user-created skill of the space, most
// recently updated first, listing again when an edit shifts the order
// while it pages; up to o.Parallelism pages are read at once once the
// first has given the total.
func (c *Client) StreamSkills(ctx context.Context, spaceID string, o ListOptions) ([]Skill, error) {
	return listAll(ctx, c, "skills", spaceID, skillKey, o)
}

// skillKey is the id and version of a skill, which tell apart the items
// of a list.
func skillKey(s Skill) (id, version string) { return s.ID, s.UpdatedAt }

// GetSkill returns a skill with its instructions.
func (c *Client) GetSkill(ctx context.Context, spaceID, skillID string) (*Skill, error) {
	return c.skillCall(ctx, http.MethodGet, spaceID, skillID, "", nil, nil)
}

// UpdateSkill changes the fields of u that are set, leaving the others as
// they are, and returns the updated skill. The fields are checked with
// [CheckUpdate] first.
//
// A service that answers a write without the skill (a 202 or 204, an
// empty body, {"success":true}) is read back, as [Client.EnableSkill] and
// [Client.DisableSkill] are too: until the read shows the write, within
// 15 seconds. Past them the error is a [*NotVisibleError].
func (c *Client) UpdateSkill(ctx context.Context, spaceID, skillID string, u SkillUpdate) (*Skill, error) {
	if err := CheckUpdate(u); err != nil {
		return nil, err
	}
	return c.skillCall(ctx, http.MethodPatch, spaceID, skillID, "", u, func(s *Skill) bool { return Shows(s, u) })
}

// Shows reports whether s holds what the update u writes, its text
// compared as [spec.Differ] compares it.
func Shows(s *Skill, u SkillUpdate) bool {
	have := spec.Fields{Name: s.Name, Description: s.Description, Instructions: s.Instructions}
	want := have
	if u.Name != nil {
		want.Name = *u.Name
	}
	if u.Description != nil {
		want.Description = *u.Description
	}
	if u.Instructions != nil {
		want.Instructions = u.Instructions
	}
	return len(spec.Differ(have, want)) == 0
}

// EnableSkill turns the skill on for the whole space. It fails with a 409
// [*Error] (see [IsConflict]) when the space already has [spec.MaxActiveSkills]
// active skills.
//
// At the limit of [spec.MaxActiveSkills] the service may answer 409 even for a
// skill that is already enabled, such as one that an earlier attempt of
// this very call enabled before its answer was lost. The state asked for
// holds then, so on a 409 EnableSkill reads the skill once and returns it
// when it is enabled; the 409 stands otherwise.
func (c *Client) EnableSkill(ctx context.Context, spaceID, skillID string) (*Skill, error) {
	s, err := c.skillCall(ctx, http.MethodPost, spaceID, skillID, "/enable", nil, func(s *Skill) bool { return s.Enabled })
	if IsConflict(err) && spec.CheckShortSpaceID(spaceID) == nil { // get takes only the short form
		if got, gerr := c.GetSkill(ctx, spaceID, skillID); gerr == nil && got.Enabled {
			return got, nil
		}
	}
	return s, err
}

// DisableSkill turns the skill off for the whole space, leaving its files
// untouched.
func (c *Client) DisableSkill(ctx context.Context, spaceID, skillID string) (*Skill, error) {
	return c.skillCall(ctx, http.MethodPost, spaceID, skillID, "/disable", nil, func(s *Skill) bool { return !s.Enabled })
}

// skillCall sends a request about one skill. shows, for a write, tells
// whether a skill read back holds the write.
func (c *Client) skillCall(ctx context.Context, method, spaceID, skillID, suffix string, body any, shows func(*Skill) bool) (*Skill, error) {
	checkSpace := spec.CheckShortSpaceID
	if suffix == "/enable" {
		checkSpace = spec.CheckSpaceID // the one endpoint that takes both forms
	}
	if err := checkSpace(spaceID); err != nil {
		return nil, err
	}
	if err := spec.CheckUUID("skillId", skillID); err != nil {
		return nil, err
	}
	s := new(Skill)
	path := spacePath(spaceID, "skills", skillID) + suffix
	status := 0
	cl := call{
		method: method,
		path:   path,
		body:   body,
		decode: decodeObject(s, func(s *Skill) error { return checkID("skill", s.ID, skillID) }),
	}
	if shows != nil {
		cl.written = func(st int) { status = st }
	}
	if err := c.do(ctx, cl); err != nil {
		return nil, err
	}
	if status == 0 {
		return s, nil
	}
	return c.readBack(ctx, method, path, spaceID, skillID, status, shows)
}

// readBack reads a skill whose write the service answered status with no
// skill, until the read shows the write or writeWait has passed.
func (c *Client) readBack(ctx context.Context, method, path, spaceID, skillID string, status int, shows func(*Skill) bool) (*Skill, error) {
	if spec.CheckShortSpaceID(spaceID) != nil {
		return nil, fmt.Errorf("%s %s: the service answered %d with no skill, and the skill of a %d-character space id cannot be read back; run 'skillsync plan' to see whether the write landed",
			method, path, status, len(spaceID))
	}
	waited, next := time.Duration(0), readBackFirstWait
	for {
		got, err := c.GetSkill(ctx, spaceID, skillID)
		if err != nil {
			return nil, fmt.Errorf("%s %s: the service answered %d with no skill, and reading it back failed: %w", method, path, status, err)
		}
		if shows(got) {
			return got, nil
		}
		if waited >= writeWait {
			return nil, &NotVisibleError{Method: method, Path: path, Status: status, Waited: waited, Skill: got}
		}
		d := min(next, writeWait-waited)
		if err := c.sleep(ctx, d); err != nil {
			return nil, fmt.Errorf("%s %s: waiting for the write to show: %w", method, path, err)
		}
		waited += d
		next = min(2*next, readBackMaxWait)
	}
}

// The waits between the reads of [Client.readBack]: doubling from the
// first, each at most the second, writeWait in all.
const (
	readBackFirstWait = 250 * time.Millisecond
	readBackMaxWait   = 2 * time.Second
	writeWait         = 15 * time.Second
)

// GetSkillFile returns a text file of the skill's folder; path is relative to
// the folder, with slashes, and is checked with [spec.CheckFilePath].
func (c *Client) GetSkillFile(ctx context.Context, spaceID, skillID, path string) (*SkillFile, error) {
	return c.getSkillFile(ctx, spaceID, skillID, path, 0)
}

// GetSkillFileUpTo is [Client.GetSkillFile] for a file of at most maxBytes
// bytes of content: a larger one fails with an error wrapping
// [ErrTooLarge], its answer read no further than the 6·maxBytes (and 64
// KiB) in which JSON can spell maxBytes of text, escaping a control
// character in 6 bytes.
func (c *Client) GetSkillFileUpTo(ctx context.Context, spaceID, skillID, path string, maxBytes int64) (*SkillFile, error) {
	if maxBytes <= 0 {
		return nil, fmt.Errorf("reading file %s: the limit must be positive (got %d)", path, maxBytes)
	}
	f, err := c.getSkillFile(ctx, spaceID, skillID, path, 6*maxBytes+64<<10)
	if err != nil {
		return nil, err
	}
	if n := int64(len(f.Content)); n > maxBytes {
		return nil, tooLarge("GET %s: the file is %d bytes, more than the %d read", filePath(spaceID, skillID, path), n, maxBytes)
	}
	return f, nil
}

func (c *Client) getSkillFile(ctx context.Context, spaceID, skillID, path string, maxBody int64) (*SkillFile, error) {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return nil, err
	}
	if err := spec.CheckUUID("skillId", skillID); err != nil {
		return nil, err
	}
	if err := spec.CheckFilePath(path); err != nil {
		return nil, err
	}
	f := new(SkillFile)
	err := c.do(ctx, call{
		method:  http.MethodGet,
		path:    filePath(spaceID, skillID, path),
		decode:  decodeObject(f, nil),
		maxBody: maxBody,
	})
	if err != nil {
		return nil, err
	}
	return f, nil
}

// filePath is the escaped path of a skill's file.
func filePath(spaceID, skillID, path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return spacePath(spaceID, "skills", skillID, "files") + "/" + strings.Join(segs, "/")
}

// spacePath is /api/v1/spaces/{spaceID}/{elem...}, each element escaped.
func spacePath(spaceID string, elem ...string) string {
	var b strings.Builder
	b.WriteString("/api/v1/spaces/")
	b.WriteString(url.PathEscape(spaceID))
	for _, e := range elem {
		b.WriteString("/")
		b.WriteString(url.PathEscape(e))
	}
	return b.String()
}

func pageQuery(limit, offset int) url.Values {
	return url.Values{"limit": {strconv.Itoa(limit)}, "offset": {strconv.Itoa(offset)}}
}

// listPage reads the page at offset of the list of kind ("skills",
// "agents") of the space, whose items key identifies.
func listPage[T any](ctx context.Context, c *Client, kind, spaceID string, limit, offset int, key func(T) (id, version string)) (*Page[T], error) {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return nil, err
	}
	if err := spec.CheckPage(limit, offset); err != nil {
		return nil, err
	}
	page := new(Page[T])
	err := c.do(ctx, call{
		method: http.MethodGet,
		path:   spacePath(spaceID, kind),
		query:  pageQuery(limit, offset),
		decode: decodeObject(page, func(p *Page[T]) error { return checkPage(p, key) }),
	})
	if err != nil {
		return nil, err
	}
	return page, nil
}

// checkPage validates a list envelope: a data array of items with ids.
func checkPage[T any](p *Page[T], key func(T) (id, version string)) error {
	if p.Data == nil {
		return fmt.Errorf(`no "data" array in the list`)
	}
	if p.Total < 0 || p.Offset < 0 || p.Limit < 0 {
		return fmt.Errorf("negative total, limit or offset (%d, %d, %d)", p.Total, p.Limit, p.Offset)
	}
	for i, item := range p.Data {
		if id, _ := key(item); id == "" {
			return fmt.Errorf("item %d of the list has no id", i)
		}
	}
	return nil
}

// checkID checks that a response is about the object asked for.
func checkID(kind, got, want string) error {
	switch {
	case got == "":
		return fmt.Errorf("the %s in the response has no id", kind)
	case want != "" && !strings.EqualFold(got, want):
		return fmt.Errorf("the response is for %s %s, not %s", kind, got, want)
	}
	return nil
}

// CheckUpdate checks every field an update would send.
func CheckUpdate(u SkillUpdate) error {
	if u.Name != nil {
		if err := spec.CheckName(*u.Name); err != nil {
			return err
		}
	}
	if u.Description != nil {
		if err := spec.CheckDescription(*u.Description); err != nil {
			return err
		}
	}
	if u.Instructions != nil {
		if err := spec.CheckInstructions(*u.Instructions); err != nil {
			return err
		}
	}
	return nil
}
