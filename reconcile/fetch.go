package reconcile

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// DefaultParallelism is how many requests [Fetch], [Apply] and [CheckStale]
// run at once when their options leave it zero (DESIGN.md: --parallelism).
const DefaultParallelism = 8

// FetchOptions tune [Fetch].
type FetchOptions struct {
	// Parallelism bounds the requests in flight (default
	// DefaultParallelism).
	Parallelism int
	// Progress, when set, is called after each request once the lists are
	// read, with the requests done and the total; never concurrently.
	Progress func(done, total int)
	// Cache, when set, stands in for the read of each skill whose
	// updatedAt has not moved since it was cached, and keeps every read
	// made (see [InstructionCache]).
	Cache *InstructionCache
}

// Fetch reads what [Compute] needs of a space: every skill and agent
// listed, then, in parallel, the instructions of each skill the repository
// holds (list items have none) and the remote copy of each of their text
// supporting files. Binary files are not requested: the API serves only
// text, and the planner reports them unchecked. Nor are text files too
// large to compare (over fsrepo.MaxCompareBytes); a copy in the space over
// that size is not read past it, and is recorded in Live.LargeFiles.
// Unmanaged skills keep their list form, with no instructions.
//
// The first hard error cancels the requests in flight and is returned,
// naming the skill or file it was about. A skill deleted between the list
// and its read is left out, so the plan reports it missing; a file the
// space lacks (404) is recorded as absent.
func Fetch(ctx context.Context, c *remote.Client, space string, desired *fsrepo.Repo, o FetchOptions) (*Live, error) {
	if desired == nil {
		desired = &fsrepo.Repo{}
	}
	var (
		skills []remote.Skill
		agents []remote.Agent
	)
	// The two lists are independent; read them together.
	err := forEach(ctx, 2, 2, func(ctx context.Context, i int) error {
		var err error
		if i == 0 {
			if skills, err = c.ListAllSkills(ctx, space); err != nil {
				return fmt.Errorf("listing skills: %w", err)
			}
			return nil
		}
		if agents, err = c.ListAllAgents(ctx, space); err != nil {
			return fmt.Errorf("listing agents: %w", err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}

	scope := cacheScope{Service: c.BaseURL(), Space: space}
	local := make(map[string]*fsrepo.Skill, len(desired.Skills))
	for i := range desired.Skills {
		local[desired.Skills[i].Slug] = &desired.Skills[i]
	}
	// A file read names its skill by what the list gave: the skill's
	// read may replace skills[i] meanwhile.
	type fileRead struct {
		id, slug, path string
	}
	var (
		gets  []int // indexes into skills of the managed ones
		files []fileRead
		seen  = make(map[string]bool)
	)
	for i, s := range skills {
		ls, ok := local[s.Slug]
		if !ok || seen[s.ID] {
			continue
		}
		seen[s.ID] = true // a list may repeat an id; read it once
		if got, ok := o.Cache.lookup(scope, s); ok {
			skills[i] = got // unchanged since cached: no read
		} else {
			gets = append(gets, i)
		}
		for _, f := range ls.Files {
			// A path the API cannot express is left unread; the
			// planner reports it unchecked and fsrepo reports why. A
			// file too large to compare is not read either.
			if f.Binary || f.TooLarge || spec.CheckFilePath(f.Path) != nil {
				continue
			}
			files = append(files, fileRead{id: s.ID, slug: s.Slug, path: f.Path})
		}
	}

	live := &Live{
		Space:      space,
		Files:      make(map[string]map[string]*string),
		LargeFiles: make(map[string]map[string]bool),
		Agents:     agents,
	}
	gone := make([]bool, len(skills))
	var mu sync.Mutex // guards live.Files, live.LargeFiles and gone
	total := len(gets) + len(files)
	progress := newProgress(o.Progress, total)
	err = forEach(ctx, total, o.Parallelism, func(ctx context.Context, n int) error {
		defer progress.step()
		if n < len(gets) {
			i := gets[n]
			s, err := c.GetSkill(ctx, space, skills[i].ID)
			switch {
			case remote.IsNotFound(err):
				mu.Lock()
				gone[i] = true
				mu.Unlock()
				return nil
			case err != nil:
				return fmt.Errorf("reading skill %s (%s): %w", skills[i].Slug, skills[i].ID, err)
			}
			// The whole response, not just its instructions: it is
			// what a saved plan's staleness check re-reads.
			skills[i] = *s
			o.Cache.store(scope, *s) // a failed store only costs a read next time
			return nil
		}
		f := files[n-len(gets)]
		var content *string
		got, err := c.GetSkillFileUpTo(ctx, space, f.id, f.path, fsrepo.MaxCompareBytes)
		mu.Lock()
		defer mu.Unlock()
		switch {
		case errors.Is(err, remote.ErrTooLarge):
			if live.LargeFiles[f.id] == nil {
				live.LargeFiles[f.id] = make(map[string]bool)
			}
			live.LargeFiles[f.id][f.path] = true
			return nil
		case remote.IsNotFound(err):
		case err != nil:
			return fmt.Errorf("reading file %s of skill %s: %w", f.path, f.slug, err)
		default:
			content = &got.Content
		}
		if live.Files[f.id] == nil {
			live.Files[f.id] = make(map[string]*string)
		}
		live.Files[f.id][f.path] = content
		return nil
	})
	if err != nil {
		return nil, err
	}
	live.Skills = make([]remote.Skill, 0, len(skills))
	for i, s := range skills {
		if gone[i] {
			delete(live.Files, s.ID)
			delete(live.LargeFiles, s.ID)
			continue
		}
		live.Skills = append(live.Skills, s)
	}
	o.Cache.prune(scope, live.Skills)
	return live, nil
}

// forEach runs fn for 0 <= i < n with at most par calls at once (par <= 0
// means DefaultParallelism). The first error cancels the context the other
// calls get, no call starts after it, and it is returned; so is the
// parent's error when ctx ends first. A call that panics fails with a
// [*bug.Error]: Go would end the process with exit code 2.
func forEach(ctx context.Context, n, par int, fn func(ctx context.Context, i int) error) error {
	if par <= 0 {
		par = DefaultParallelism
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sem := make(chan struct{}, par)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			if err := bug.Call(func() error { return fn(ctx, i) }); err != nil {
				cancel(err)
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// progress reports done/total to a callback from any goroutine, one call
// at a time and in order.
type progress struct {
	mu    sync.Mutex
	f     func(done, total int)
	done  int
	total int
}

func newProgress(f func(done, total int), total int) *progress {
	return &progress{f: f, total: total}
}

func (p *progress) step() {
	if p.f == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done++
	p.f(p.done, p.total)
}
