// Package fetch reads the live state of a space, what [reconcile.Compute]
// plans against: the lists of its skills and agents ([List]), then the
// instructions and files of the skills a repository manages
// ([Listing.Read]), with the fewest requests the API allows, within a
// [Budget] of requests in flight that several spaces may share. A [Cache]
// on disk stands in for the reads of skills unchanged since a plan before.
//
// [reconcile.Compute]: https://pkg.go.dev/github.com/skillsync/skillsync/reconcile#Compute
package fetch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// DefaultParallelism is how many requests [Space] and [List] run at once
// when their options leave it zero (DESIGN.md: --parallelism).
const DefaultParallelism = 8

// Live is the state of a space as the API shows it, fetched before planning.
type Live struct {
	Space string
	// Skills are the listed skills. Instructions must be filled (by a get)
	// for every skill whose slug the repository holds; a nil Instructions
	// there means the service could not read the SKILL.md.
	Skills []remote.Skill
	// Files holds, by skill id and then by path, the remote content of the
	// supporting files the repository has for that skill: nil when the
	// space does not have the file. A path with no entry was not read.
	Files map[string]map[string]*string
	// LargeFiles holds, by skill id and then by path, the files whose copy
	// in the space is over fsrepo.MaxCompareBytes: not read whole, so not
	// in Files.
	LargeFiles map[string]map[string]bool
	Agents     []remote.Agent
}

// Service is what fetching asks of the service (space-api.md): its lists,
// and the reads of a skill and of a file. *remote.Client satisfies it; a
// test may give an in-memory one. A failure the service explained is a
// [*remote.Error], so that a 404 reads as "gone" whichever Service gave it.
type Service interface {
	// BaseURL is the address of the service, which tells apart spaces of
	// the same id in [Cache] entries.
	BaseURL() string
	// StreamSkills and StreamAgents list every skill or agent of the
	// space, once each, reading up to o.Parallelism pages at once.
	StreamSkills(ctx context.Context, space string, o remote.ListOptions) ([]remote.Skill, error)
	StreamAgents(ctx context.Context, space string, o remote.ListOptions) ([]remote.Agent, error)
	// GetSkill reads a skill with its instructions.
	GetSkill(ctx context.Context, space, skillID string) (*remote.Skill, error)
	// GetSkillFileUpTo reads a text file of a skill's folder of at most
	// maxBytes, and fails with [remote.ErrTooLarge] for a larger one.
	GetSkillFileUpTo(ctx context.Context, space, skillID, path string, maxBytes int64) (*remote.SkillFile, error)
}

// Options tune [Space] and [List].
type Options struct {
	// Parallelism bounds the requests in flight, list pages and reads
	// together (default DefaultParallelism).
	Parallelism int
	// Progress, when set, is what [Space] gives [Listing.Read].
	Progress func(done, total int)
	// Budget, when set, is shared with other fetches made at once: the
	// requests of all of them stay within it. Parallelism then bounds
	// this fetch's own requests only.
	Budget *Budget
	// Cache, when set, stands in for the read of each skill whose
	// updatedAt has not moved since it was cached, and keeps every read
	// made (see [Cache]).
	Cache *Cache
}

// A Budget bounds the requests in flight of the fetches that share it:
// each request holds one of its slots.
type Budget struct{ slots chan struct{} }

// NewBudget returns a budget of n requests in flight (at least one).
func NewBudget(n int) *Budget { return &Budget{slots: make(chan struct{}, max(n, 1))} }

// Acquire waits for a free slot; it fails only when ctx ends first.
func (b *Budget) Acquire(ctx context.Context) error {
	select {
	case b.slots <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release frees a slot taken by Acquire.
func (b *Budget) Release() { <-b.slots }

// Space reads what [reconcile.Compute] needs of a space: every skill and agent
// listed ([List]), then the instructions of each skill the repository
// holds and the remote copy of each of their text files ([Listing.Read]).
func Space(ctx context.Context, c Service, space string, desired *fsrepo.Repo, o Options) (*Live, error) {
	l, err := List(ctx, c, space, o)
	if err != nil {
		return nil, err
	}
	return l.Read(ctx, desired, o.Progress)
}

// A Listing is the skills and agents of a space as listed, before the
// reads of the skills a repository manages: [List] needs no repository,
// so it may run while one loads.
type Listing struct {
	c       Service
	space   string
	o       Options
	scope   cacheScope
	skills  []remote.Skill
	agents  []remote.Agent
	entries map[string]*cacheEntry // cache entries read ahead, by name; nil for one not of this scope
}

// List reads the skills and agents lists of a space together, each page
// after the first of a list up to o.Parallelism at once. While they are
// read, the entries of o.Cache are read too, so that a warm plan finds
// them in memory.
func List(ctx context.Context, c Service, space string, o Options) (*Listing, error) {
	if o.Parallelism <= 0 {
		o.Parallelism = DefaultParallelism
	}
	if o.Budget == nil {
		o.Budget = NewBudget(o.Parallelism)
	}
	l := &Listing{c: c, space: space, o: o, scope: cacheScope{Service: c.BaseURL(), Space: space}}
	stop := make(chan struct{})
	ahead := l.readAhead(stop)
	lo := remote.ListOptions{Parallelism: o.Parallelism, Limiter: o.Budget}
	g, gctx := errgroup.WithContext(ctx)
	bug.Go(g, func() (err error) {
		if l.skills, err = c.StreamSkills(gctx, space, lo); err != nil {
			return fmt.Errorf("listing skills: %w", err)
		}
		return nil
	})
	bug.Go(g, func() (err error) {
		if l.agents, err = c.StreamAgents(gctx, space, lo); err != nil {
			return fmt.Errorf("listing agents: %w", err)
		}
		return nil
	})
	err := g.Wait()
	close(stop)
	if err = errors.Join(err, ahead.Wait()); err != nil {
		return nil, err
	}
	return l, nil
}

// readAhead reads the entries of the cache's folder, a few at once, until
// stop is closed: the names of the entries a listing needs are known only
// once it is read, and by then most are in memory. Entries of other spaces
// are read in vain, which costs only the time the lists take anyway.
func (l *Listing) readAhead(stop <-chan struct{}) *errgroup.Group {
	var g errgroup.Group
	cache := l.o.Cache
	if cache == nil {
		return &g
	}
	l.entries = make(map[string]*cacheEntry)
	var mu sync.Mutex
	bug.Go(&g, func() error {
		names, err := cache.names()
		if err != nil {
			return nil // the lookups will find nothing either
		}
		var reads errgroup.Group
		reads.SetLimit(cacheReaders)
		for _, name := range names {
			select {
			case <-stop:
				return reads.Wait()
			default:
			}
			bug.Go(&reads, func() error {
				e, ok := cache.readEntry(name)
				if !ok || e.cacheScope != l.scope {
					e = nil
				}
				mu.Lock()
				defer mu.Unlock()
				l.entries[name] = e
				return nil
			})
		}
		return reads.Wait()
	})
	return &g
}

// cacheReaders is how many cache entries are read at once ahead of the
// reads: each is a file open and a JSON decode.
const cacheReaders = 4

// Read reads what [reconcile.Compute] needs of the listed skills that desired holds:
// the instructions of each (list items have none) and the remote copy of
// each of its text supporting files, o.Parallelism at a time. Binary files
// are not requested: the API serves only text, and the planner reports
// them unchecked. Nor are text files too large to compare (over
// fsrepo.MaxCompareBytes); a copy in the space over that size is not read
// past it, and is recorded in Live.LargeFiles. Unmanaged skills keep their
// list form, with no instructions.
//
// Progress, when set, is called after each skill or file read, from the
// cache or the service, with the reads done and the reads to make. It is
// never called concurrently.
//
// The first hard error cancels the reads in flight and is returned,
// naming the skill or file it was about. A skill deleted between the list
// and its read is left out, so the plan reports it missing; a file the
// space lacks (404) is recorded as absent.
func (l *Listing) Read(ctx context.Context, desired *fsrepo.Repo, progressf func(done, total int)) (*Live, error) {
	local := make(map[string]*fsrepo.Skill)
	if desired != nil {
		for i := range desired.Skills {
			local[desired.Skills[i].Slug] = &desired.Skills[i]
		}
	}
	live := &Live{
		Space:      l.space,
		Agents:     l.agents,
		Files:      make(map[string]map[string]*string),
		LargeFiles: make(map[string]map[string]bool),
	}
	skills := append([]remote.Skill(nil), l.skills...)
	gone := make([]bool, len(skills))

	// Each managed skill once, though a list may repeat an id, and each
	// of its files the API can serve: a path it cannot express, or a
	// file too large to compare, is reported by the planner instead.
	type file struct {
		id, slug, path string
	}
	var (
		reads []int // indexes into skills
		files []file
		ids   = make(map[string]bool)
	)
	for i, s := range skills {
		ls, ok := local[s.Slug]
		if !ok || ids[strings.ToLower(s.ID)] {
			continue
		}
		ids[strings.ToLower(s.ID)] = true
		reads = append(reads, i)
		for _, f := range ls.Files {
			if !f.Binary && !f.TooLarge && spec.CheckFilePath(f.Path) == nil {
				files = append(files, file{s.ID, s.Slug, f.Path})
			}
		}
	}

	var (
		progressMu sync.Mutex // calls progressf one at a time, in order
		done       int
	)
	step := func() {
		if progressf == nil {
			return
		}
		progressMu.Lock()
		defer progressMu.Unlock()
		done++
		progressf(done, len(reads)+len(files))
	}
	var toRead []int // the reads not read ahead
	for _, i := range reads {
		if got, ok := l.readAheadFor(skills[i]); ok {
			skills[i] = got // in memory: not worth a goroutine
			step()
		} else {
			toRead = append(toRead, i)
		}
	}
	var mu sync.Mutex // guards live.Files and live.LargeFiles
	err := bug.Each(ctx, len(toRead)+len(files), l.o.Parallelism, func(ctx context.Context, k int) (err error) {
		defer step()
		if k < len(toRead) {
			i := toRead[k]
			gone[i], err = l.readSkill(ctx, &skills[i])
			return err
		}
		f := files[k-len(toRead)]
		content, large, err := l.readFile(ctx, f.id, f.slug, f.path)
		if err != nil {
			return err
		}
		mu.Lock()
		defer mu.Unlock()
		if large {
			put(live.LargeFiles, f.id, f.path, true)
		} else {
			put(live.Files, f.id, f.path, content)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	live.Skills = make([]remote.Skill, 0, len(skills))
	for i, s := range skills {
		if !gone[i] {
			live.Skills = append(live.Skills, s)
			continue
		}
		// The files of a skill gone are not the space's.
		delete(live.Files, s.ID)
		delete(live.LargeFiles, s.ID)
	}
	l.o.Cache.prune(l.scope, live.Skills)
	return live, nil
}

// readSkill replaces the listed skill *s with its read: from the cache
// when it holds the skill unchanged, from the service otherwise. The whole
// answer replaces it, not just its instructions: a saved plan's staleness
// check compares it. It reports a skill the service no longer has.
func (l *Listing) readSkill(ctx context.Context, s *remote.Skill) (gone bool, err error) {
	if l.o.Cache != nil {
		// An entry read ahead was tried already.
		if _, ahead := l.entries[entryName(l.scope, s.ID)]; !ahead {
			if got, ok := l.o.Cache.lookup(l.scope, *s); ok {
				*s = got
				return false, nil
			}
		}
	}
	var got *remote.Skill
	var sent time.Time // when the read left, for the cache's racy check
	err = l.request(ctx, func(ctx context.Context) (err error) {
		sent = time.Now()
		got, err = l.c.GetSkill(ctx, l.space, s.ID)
		return err
	})
	switch {
	case remote.IsNotFound(err):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("reading skill %s (%s): %w", s.Slug, s.ID, err)
	case got.Slug != s.Slug:
		// A slug never changes (space-api.md): another one for the same
		// id is an answer as wrong as another id, and planning on it
		// would take every such skill for missing.
		return false, fmt.Errorf("reading skill %s (%s): invalid response: the service answered slug %q for it, where its list gave %q; slugs never change, so one of the answers is wrong: run again, and report it to the service if it stays",
			s.Slug, s.ID, got.Slug, s.Slug)
	}
	*s = *got
	_ = l.o.Cache.store(l.scope, *got, sent) // a failed store costs a read next time
	return false, nil
}

// readAheadFor returns the cache entry read ahead for the listed skill, if
// the skill has not moved away from it.
func (l *Listing) readAheadFor(listed remote.Skill) (remote.Skill, bool) {
	if e := l.entries[entryName(l.scope, listed.ID)]; e != nil {
		return e.standsFor(l.scope, listed)
	}
	return remote.Skill{}, false
}

// readFile reads the text file path of skill id: its content, nil when
// the space lacks it, or large when it is too large to compare.
func (l *Listing) readFile(ctx context.Context, id, slug, path string) (content *string, large bool, err error) {
	var got *remote.SkillFile
	err = l.request(ctx, func(ctx context.Context) (err error) {
		got, err = l.c.GetSkillFileUpTo(ctx, l.space, id, path, fsrepo.MaxCompareBytes)
		return err
	})
	switch {
	case errors.Is(err, remote.ErrTooLarge):
		return nil, true, nil
	case remote.IsNotFound(err):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("reading file %s of skill %s: %w", path, slug, err)
	}
	return &got.Content, false, nil
}

// put sets m[id][path], making m[id] if needed.
func put[V any](m map[string]map[string]V, id, path string, v V) {
	if m[id] == nil {
		m[id] = make(map[string]V)
	}
	m[id][path] = v
}

// request makes one request within the budget.
func (l *Listing) request(ctx context.Context, do func(ctx context.Context) error) error {
	if err := l.o.Budget.Acquire(ctx); err != nil {
		return err
	}
	defer l.o.Budget.Release()
	return do(ctx)
}
