package fetch

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// cacheVersion is the format of a cache entry; an entry of another version
// is ignored and rewritten. It changes whenever an entry's fields do.
const cacheVersion = 3

// A Cache keeps, on disk, the single-skill reads [Space] makes
// for their instructions (list items have none), so that a later plan can
// skip the read of a skill the service has not changed since. It is opt-in
// (`--cache DIR`), meant for a CI cache that survives between jobs.
//
// An entry is keyed by space and skill id and holds the skill as the get
// answered it. It is used only when the skill as listed now has the same
// updatedAt as the cached one (to the second, when either is written in
// whole seconds) and equals it in every listed field. The cache relies on
// the service moving updatedAt on every edit: an edit made in the app
// since is then always read afresh. An edit within the same tick of
// updatedAt as the cached read cannot be told from it, so, as git does
// with racy timestamps, an entry read less than the tick and [racyMargin]
// after its updatedAt is never trusted. A corrupt or unreadable entry
// counts as absent and is rewritten after the read.
//
// Supporting files are not cached: they have no updatedAt of their own, and
// nothing in space-api.md says a skill's updatedAt moves when one of its
// files changes, so a cached file could hide a change.
//
// Entries of skills deleted from the space are removed by the next plan
// of that space, so the folder holds at most one entry per skill.
//
// Each entry is a file of the cache's folder, written to a temporary file
// and renamed into place: the cache is safe for concurrent use, also by
// several processes sharing the folder. An entry is read up to
// [MaxEntryBytes]: a larger one is taken for absent, and none larger
// is written.
type Cache struct {
	dir string
	// Secrets, when set, names the secrets of this process a text holds.
	// No read holding one is kept: the next plan reads that skill again.
	Secrets func(text string) []string
}

// MaxEntryBytes is the largest entry of a [Cache] read or written: one
// skill, whose instructions the service bounds at 50,000 UTF-16 code
// units (at most 300,000 bytes of JSON). A larger entry is not kept, and
// one found is taken for absent: the skill is read from the service
// instead.
const MaxEntryBytes = 4 << 20

// cacheScope is what an entry belongs to: a space of a service. Two
// tenants may well have spaces of the same id.
type cacheScope struct {
	Service string `json:"service"` // the base URL
	Space   string `json:"space"`
}

// cacheEntry is one file of a [Cache].
type cacheEntry struct {
	Version int `json:"version"`
	cacheScope
	Skill remote.Skill `json:"skill"`
	// ReadAt is when the read was sent, by this machine's clock.
	ReadAt time.Time `json:"readAt"`
}

// racyMargin is how far this machine's clock and the service's may be
// apart for the racy check of the cache to hold.
const racyMargin = 2 * time.Second

// racy reports whether a read sent at readAt of a skill whose updatedAt
// was stamp (as listed, listed) may have missed an edit that left the
// same updatedAt: one made within the same tick, after the read.
func racy(stamp, listed string, readAt time.Time) bool {
	t, err := time.Parse(time.RFC3339Nano, stamp)
	if err != nil || readAt.IsZero() {
		return true
	}
	tick := time.Millisecond
	if spec.WholeSeconds(stamp) || spec.WholeSeconds(listed) {
		tick, t = time.Second, t.Truncate(time.Second)
	}
	return readAt.Before(t.Add(tick + racyMargin))
}

// OpenCache returns the cache kept in the folder dir, creating the folder
// if needed.
func OpenCache(dir string) (*Cache, error) {
	if dir == "" {
		return nil, errors.New("no cache folder given")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("creating cache folder: %w", err)
	}
	return &Cache{dir: dir}, nil
}

// names lists the entries of the folder: its regular files named as
// entries are.
func (c *Cache) names() ([]string, error) {
	des, err := os.ReadDir(c.dir)
	var out []string
	for _, de := range des {
		if de.Type().IsRegular() && strings.HasSuffix(de.Name(), entryExt) {
			out = append(out, de.Name())
		}
	}
	return out, err
}

// write replaces the entry name with data: a reader, even in another
// process, sees the old entry or the new one whole.
func (c *Cache) write(name string, data []byte) error {
	f, err := os.CreateTemp(c.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), filepath.Join(c.dir, name)); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

// entryExt ends the name of every entry, which tells entries from other
// files of the store.
const entryExt = ".json"

// entryName is the name of the entry of a skill. The id comes from the
// service: it is hashed rather than trusted as a file name.
func entryName(scope cacheScope, id string) string {
	sum := sha256.Sum256([]byte(scope.Service + "\x00" + scope.Space + "\x00" + id))
	return hex.EncodeToString(sum[:16]) + entryExt
}

// lookup returns the cached read of the listed skill, if the cache holds
// one the skill has not moved away from. A nil cache holds nothing.
func (c *Cache) lookup(scope cacheScope, listed remote.Skill) (remote.Skill, bool) {
	if c == nil || listed.UpdatedAt == "" {
		return remote.Skill{}, false // nothing to tell an edit by
	}
	e, ok := c.readEntry(entryName(scope, listed.ID))
	if !ok {
		return remote.Skill{}, false
	}
	return e.standsFor(scope, listed)
}

// readEntry reads the entry name, if it holds one of this version, within
// MaxEntryBytes. Anything but a regular file at its place counts as absent.
func (c *Cache) readEntry(name string) (*cacheEntry, bool) {
	data, err := bounded.ReadFile(filepath.Join(c.dir, name), MaxEntryBytes)
	if err != nil {
		return nil, false
	}
	e := new(cacheEntry)
	if json.Unmarshal(data, e) != nil || e.Version != cacheVersion {
		return nil, false
	}
	return e, true
}

// standsFor returns the entry's read of the listed skill, if the entry is
// of scope and the skill has not moved away from it.
func (e *cacheEntry) standsFor(scope cacheScope, listed remote.Skill) (remote.Skill, bool) {
	if e.cacheScope != scope || listed.UpdatedAt == "" {
		return remote.Skill{}, false
	}
	got := e.Skill
	if got.Instructions == nil {
		return remote.Skill{}, false // kept by an older version: read again
	}
	if racy(got.UpdatedAt, listed.UpdatedAt, e.ReadAt) {
		return remote.Skill{}, false
	}
	// Every field but instructions is in the list: all must match, so
	// that an entry can only ever stand for the very read it replaces.
	withoutText := got
	withoutText.Instructions = nil
	listed.Instructions = nil
	if !sameSkill(withoutText, listed) {
		return remote.Skill{}, false
	}
	return got, true
}

// store records a skill as a get answered it; a nil cache keeps nothing,
// nor does any cache keep a read whose instructions are null, nor one
// holding a secret of this process.
// A failure is not an error of the plan: the next plan reads the skill
// again.
func (c *Cache) store(scope cacheScope, s remote.Skill, readAt time.Time) error {
	// A read with null instructions (SKILL.md unreadable) is not kept: the
	// service may read the file again without moving updatedAt, and a kept
	// null would plan a blind rewrite of the text on every later plan.
	if c == nil || s.UpdatedAt == "" || s.ID == "" || s.Instructions == nil {
		return nil
	}
	data, err := json.Marshal(cacheEntry{Version: cacheVersion, cacheScope: scope, Skill: s, ReadAt: readAt.UTC()})
	if err != nil {
		return err
	}
	if len(data) > MaxEntryBytes {
		return fmt.Errorf("the cache entry of skill %s is %d bytes, more than %s, the most read back", s.Slug, len(data), bounded.Size(MaxEntryBytes))
	}
	if c.Secrets != nil && len(c.Secrets(string(data))) > 0 {
		return nil
	}
	return c.write(entryName(scope, s.ID), data)
}

// prune removes the entries of scope for skills that listed, the space's
// complete listing, no longer holds (deleted in the app), so that the
// folder does not grow with every deleted skill. It removes only files it
// can read as its own entries of this scope: the entries of other spaces
// (of this service or another), and anything else in the folder, stay.
// Failures are ignored, as in store.
func (c *Cache) prune(scope cacheScope, listed []remote.Skill) {
	if c == nil {
		return
	}
	keep := make(map[string]bool, len(listed))
	for _, s := range listed {
		keep[entryName(scope, s.ID)] = true
	}
	names, err := c.names()
	if err != nil {
		return
	}
	for _, name := range names {
		if keep[name] {
			continue
		}
		e, ok := c.readEntry(name)
		if ok && e.cacheScope == scope && name == entryName(scope, e.Skill.ID) {
			os.Remove(filepath.Join(c.dir, name))
		}
	}
}

// sameSkill reports whether a and b are the same read of a skill: the
// fields a plan compares the same as [spec.Differ] has them, timestamps
// the same moment as [spec.SameTime] has them (a list and a get may
// write them in other precisions), the others equal.
func sameSkill(a, b remote.Skill) bool {
	ptrEq := func(x, y *string) bool {
		return (x == nil) == (y == nil) && (x == nil || *x == *y)
	}
	return len(spec.Differ(fieldsOf(a), fieldsOf(b))) == 0 &&
		a.ID == b.ID && a.SpaceID == b.SpaceID && a.Slug == b.Slug && a.Source == b.Source &&
		ptrEq(a.SourceURL, b.SourceURL) && spec.SameTime(a.CreatedAt, b.CreatedAt) && spec.SameTime(a.UpdatedAt, b.UpdatedAt)
}

// fieldsOf is the fields of s a plan compares.
func fieldsOf(s remote.Skill) spec.Fields {
	return spec.Fields{Name: s.Name, Description: s.Description, Instructions: s.Instructions, Enabled: s.Enabled}
}
