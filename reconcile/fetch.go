package reconcile

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

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
	// Parallelism bounds the requests in flight, list pages and reads
	// together (default DefaultParallelism).
	Parallelism int
	// Progress, when set, is called after each read of a skill or file,
	// with the reads done and the reads known so far: that total grows
	// while the lists are read, as each page brings reads to make. It is
	// never called concurrently.
	Progress func(done, total int)
	// Budget, when set, is shared with other fetches made at once: the
	// requests of all of them stay within it. Parallelism then bounds
	// this fetch's own requests only.
	Budget *Budget
	// Cache, when set, stands in for the read of each skill whose
	// updatedAt has not moved since it was cached, and keeps every read
	// made (see [InstructionCache]).
	Cache *InstructionCache
}

// cacheWorkers is how many entries of an [InstructionCache] are read at
// once: a read is a file open and a JSON decode, which a few goroutines
// overlap with the lists still being read.
const cacheWorkers = 4

// Fetch reads what [Compute] needs of a space: every skill and agent
// listed, the instructions of each skill the repository holds (list items
// have none) and the remote copy of each of their text supporting files.
// Binary files are not requested: the API serves only text, and the
// planner reports them unchecked. Nor are text files too large to compare
// (over fsrepo.MaxCompareBytes); a copy in the space over that size is not
// read past it, and is recorded in Live.LargeFiles. Unmanaged skills keep
// their list form, with no instructions.
//
// Pages and reads share o.Parallelism slots. Once the first page of a list
// gives its total, its other pages are asked for together, and the reads a
// page calls for start as soon as it arrives, a free slot going to a page
// before any read. A page may belong to a pass that turns out not to be
// trusted (the order shifted while it was read, and the list is read
// again): a read it started counts only if it still stands for the skill
// as finally listed, and the skill is read again otherwise. When nothing
// shifts, each skill is read once, as if the lists had been read first.
//
// The first hard error cancels the requests in flight and is returned,
// naming the skill or file it was about. A skill deleted between the list
// and its read is left out, so the plan reports it missing; a file the
// space lacks (404) is recorded as absent.
func Fetch(ctx context.Context, c Service, space string, desired *fsrepo.Repo, o FetchOptions) (*Live, error) {
	if desired == nil {
		desired = &fsrepo.Repo{}
	}
	par := o.Parallelism
	if par <= 0 {
		par = DefaultParallelism
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	f := newFetcher(ctx, cancel, c, space, desired, o, par)
	f.start(par, cacheWorkers)
	defer f.stop()
	f.prefetch()

	// The two lists are independent: read them together.
	var (
		skills []remote.Skill
		lists  sync.WaitGroup
	)
	lists.Go(func() {
		err := bug.Call(func() (err error) {
			skills, err = c.StreamSkills(ctx, space, remote.ListOptions[remote.Skill]{
				Parallelism: par, Limiter: f.slots.pages(), OnPage: f.listed,
			})
			return err
		})
		if err != nil {
			cancel(fmt.Errorf("listing skills: %w", err))
		}
	})
	lists.Go(func() {
		err := bug.Call(func() (err error) {
			f.live.Agents, err = c.StreamAgents(ctx, space, remote.ListOptions[remote.Agent]{
				Parallelism: par, Limiter: f.slots.pages(),
			})
			return err
		})
		if err != nil {
			cancel(fmt.Errorf("listing agents: %w", err))
		}
	})
	lists.Wait()
	f.listsRead.Store(true)
	f.pending.Wait() // every read the pages started
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}

	// Each managed skill as finally listed, and the read standing for it.
	type managed struct {
		i    int // index into skills
		read *skillRead
	}
	var (
		reads []managed
		ids   = make(map[string]bool)
	)
	for i, s := range skills {
		id := strings.ToLower(s.ID)
		if _, ok := f.local[s.Slug]; !ok || ids[id] {
			continue
		}
		ids[id] = true // a list may repeat an id; read it once
		r := f.readFor(s)
		if r == nil {
			// Every read made was of another version than the
			// final list's (it moved while the list was read).
			r = f.read(s)
		}
		reads = append(reads, managed{i, r})
	}
	f.pending.Wait()
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}

	live := f.live
	gone := make([]bool, len(skills))
	for _, m := range reads {
		switch r := m.read; {
		case r.gone:
			gone[m.i] = true
		case r.got != nil:
			// The whole response, not just its instructions: it is
			// what a saved plan's staleness check re-reads.
			skills[m.i] = *r.got
		}
	}
	live.Skills = make([]remote.Skill, 0, len(skills))
	for i, s := range skills {
		if gone[i] {
			ids[strings.ToLower(s.ID)] = false
			continue
		}
		live.Skills = append(live.Skills, s)
	}
	// Files of skills gone, or listed only by a pass that was not
	// trusted, are not the space's.
	for id := range live.Files {
		if !ids[strings.ToLower(id)] {
			delete(live.Files, id)
		}
	}
	for id := range live.LargeFiles {
		if !ids[strings.ToLower(id)] {
			delete(live.LargeFiles, id)
		}
	}
	o.Cache.prune(f.scope, live.Skills)
	return live, nil
}

func newFetcher(ctx context.Context, cancel context.CancelCauseFunc, c Service, space string, desired *fsrepo.Repo, o FetchOptions, par int) *fetcher {
	f := &fetcher{
		ctx: ctx, cancel: cancel, c: c, space: space,
		scope:    cacheScope{Service: c.BaseURL(), Space: space},
		cache:    o.Cache,
		local:    make(map[string]*fsrepo.Skill, len(desired.Skills)),
		slots:    o.Budget.slotsOr(par),
		progress: newProgress(o.Progress, 0),
		reads:    make(map[string][]*skillRead),
		filesFor: make(map[string]bool),
		entries:  make(map[string]*entryRead),
		live: &Live{
			Space:      space,
			Files:      make(map[string]map[string]*string),
			LargeFiles: make(map[string]map[string]bool),
		},
	}
	for i := range desired.Skills {
		f.local[desired.Skills[i].Slug] = &desired.Skills[i]
	}
	return f
}

// fetcher holds the state of one [Fetch]: the reads started from the pages
// of the skills list as they arrive, and the workers making them.
type fetcher struct {
	ctx      context.Context
	cancel   context.CancelCauseFunc
	c        Service
	space    string
	scope    cacheScope
	cache    *InstructionCache
	local    map[string]*fsrepo.Skill // by slug
	slots    *slots
	progress *progress

	requests, disk *taskQueue
	workers        sync.WaitGroup
	pending        sync.WaitGroup // tasks queued and not yet done

	listsRead atomic.Bool // both lists are read: prefetching ends

	mu       sync.Mutex              // guards what follows, and the reads' fields
	reads    map[string][]*skillRead // by lower-case id, oldest first
	filesFor map[string]bool         // lower-case ids whose files are being read
	entries  map[string]*entryRead   // cache entries by name
	live     *Live                   // Files and LargeFiles
}

// entryRead is the read of a cache entry's file, made once: by the lookup
// of a listed skill or ahead of it.
type entryRead struct {
	done  chan struct{} // closed once read
	entry *cacheEntry   // nil when the file holds no entry of this fetch's scope
}

// skillRead is the read of a skill as one page listed it: from the cache or
// the service. Its fields are guarded by fetcher.mu.
type skillRead struct {
	listed remote.Skill  // as the page listed it
	done   bool          // the read has ended
	got    *remote.Skill // its answer, when it had one
	gone   bool          // the service answered 404
}

// standsFor tells whether the read, once done, gives the skill as listed:
// it was made for that very listing, or it answered a skill whose listed
// fields are those.
func (r *skillRead) standsFor(s remote.Skill) bool {
	if sameListing(r.listed, s) {
		return true
	}
	return r.got != nil && sameListing(*r.got, s)
}

// sameListing compares two skills in the fields a list item has.
func sameListing(a, b remote.Skill) bool {
	a.Instructions, b.Instructions = nil, nil
	return sameSkill(a, b)
}

// start runs the workers: par for requests (each takes one of the slots
// too), disk for the cache, when there is one.
func (f *fetcher) start(par, disk int) {
	f.requests, f.disk = newTaskQueue(), newTaskQueue()
	run := func(q *taskQueue) {
		for {
			task, ok := q.pop()
			if !ok {
				return
			}
			if f.ctx.Err() == nil {
				if err := bug.Call(task); err != nil {
					f.cancel(err)
				}
			}
			f.pending.Done()
		}
	}
	for range par {
		f.workers.Go(func() { run(f.requests) })
	}
	if f.cache != nil {
		for range disk {
			f.workers.Go(func() { run(f.disk) })
		}
	}
}

// stop ends the workers once their queues are empty.
func (f *fetcher) stop() {
	f.requests.close()
	f.disk.close()
	f.workers.Wait()
}

// queue adds a task to q; an urgent one goes before the others.
func (f *fetcher) queue(q *taskQueue, urgent bool, task func() error) {
	f.pending.Add(1)
	q.push(urgent, task)
}

// listed is the OnPage of the skills list: it starts the reads of the
// managed skills of a page, unless a read made or under way may already
// stand for the skill as listed.
func (f *fetcher) listed(page []remote.Skill) {
	for _, s := range page {
		if _, ok := f.local[s.Slug]; !ok {
			continue
		}
		id := strings.ToLower(s.ID)
		f.mu.Lock()
		covered := false
		for _, r := range f.reads[id] {
			if !r.done || r.standsFor(s) {
				covered = true
				break
			}
		}
		readFiles := !f.filesFor[id]
		f.filesFor[id] = true
		f.mu.Unlock()
		if !covered {
			f.read(s)
		}
		if readFiles {
			f.readFiles(s)
		}
	}
}

// readFor returns the read, done, that stands for the skill as listed, or
// nil.
func (f *fetcher) readFor(s remote.Skill) *skillRead {
	f.mu.Lock()
	defer f.mu.Unlock()
	rs := f.reads[strings.ToLower(s.ID)]
	for _, r := range rs { // one made for this very listing first
		if sameListing(r.listed, s) {
			return r
		}
	}
	for _, r := range rs {
		if r.standsFor(s) {
			return r
		}
	}
	return nil
}

// read starts the read of a skill as listed: from the cache when it holds
// the skill unchanged, from the service otherwise.
func (f *fetcher) read(s remote.Skill) *skillRead {
	r := &skillRead{listed: s}
	id := strings.ToLower(s.ID)
	f.mu.Lock()
	f.reads[id] = append(f.reads[id], r)
	f.mu.Unlock()
	if f.cache == nil {
		f.get(r)
		return r
	}
	// A lookup may unlock a read: it goes before the other disk work.
	f.queue(f.disk, true, func() error {
		var (
			got remote.Skill
			ok  bool
		)
		if e := f.entry(entryName(f.scope, s.ID)); e != nil {
			got, ok = e.standsFor(f.scope, s)
		}
		if !ok {
			f.get(r)
			return nil
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		r.got, r.done = &got, true // unchanged since cached: no request
		return nil
	})
	return r
}

// prefetch reads the entries of the cache's folder ahead of the pages
// that will ask for them, while the first pages are still in flight: a
// warm plan then finds them in memory. It reads in the disk workers' spare
// time, after any lookup, and ends once the lists are read; the entries
// of other spaces it meets are dropped.
func (f *fetcher) prefetch() {
	if f.cache == nil {
		return
	}
	f.queue(f.disk, false, func() error {
		names, err := f.cache.entries.Names()
		if err != nil {
			return nil // the lookups will say nothing either
		}
		for _, name := range names {
			if !strings.HasSuffix(name, entryExt) {
				continue
			}
			f.queue(f.disk, false, func() error {
				if !f.listsRead.Load() {
					f.entry(name)
				}
				return nil
			})
		}
		return nil
	})
}

// entry returns the cache entry of this fetch's scope named name,
// reading it unless it was read already.
func (f *fetcher) entry(name string) *cacheEntry {
	f.mu.Lock()
	r, ok := f.entries[name]
	if !ok {
		r = &entryRead{done: make(chan struct{})}
		f.entries[name] = r
	}
	f.mu.Unlock()
	if ok {
		<-r.done // read by another worker, or being read
		return r.entry
	}
	if e, ok := f.cache.readEntry(name); ok && e.cacheScope == f.scope {
		r.entry = e
	}
	close(r.done)
	return r.entry
}

// get reads a skill from the service.
func (f *fetcher) get(r *skillRead) {
	f.progress.add(1)
	f.queue(f.requests, false, func() error {
		defer f.progress.step()
		s := r.listed
		var got *remote.Skill
		err := f.request(func(ctx context.Context) (err error) {
			got, err = f.c.GetSkill(ctx, f.space, s.ID)
			return err
		})
		gone := remote.IsNotFound(err)
		if err != nil && !gone {
			return fmt.Errorf("reading skill %s (%s): %w", s.Slug, s.ID, err)
		}
		// A slug never changes (space-api.md): another one for the same
		// id is an answer as wrong as another id, and planning on it
		// would take every such skill for missing.
		if got != nil && got.Slug != s.Slug {
			return fmt.Errorf("reading skill %s (%s): invalid response: the service answered slug %q for it, where its list gave %q; slugs never change, so one of the answers is wrong: run again, and report it to the service if it stays",
				s.Slug, s.ID, got.Slug, s.Slug)
		}
		if got != nil && f.cache != nil {
			// On the disk's workers: a slow disk must not hold up the
			// requests. A failed store only costs a read next time.
			f.queue(f.disk, false, func() error {
				f.cache.store(f.scope, *got)
				return nil
			})
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		r.got, r.gone, r.done = got, gone, true
		return nil
	})
}

// readFiles starts the reads of the text files of a managed skill. A file
// has no version of its own: a read stands for any listing of the skill.
func (f *fetcher) readFiles(s remote.Skill) {
	for _, file := range f.local[s.Slug].Files {
		// A path the API cannot express is left unread; the planner
		// reports it unchecked and fsrepo reports why. A file too
		// large to compare is not read either.
		if file.Binary || file.TooLarge || spec.CheckFilePath(file.Path) != nil {
			continue
		}
		path := file.Path
		f.progress.add(1)
		f.queue(f.requests, false, func() error {
			defer f.progress.step()
			var got *remote.SkillFile
			err := f.request(func(ctx context.Context) (err error) {
				got, err = f.c.GetSkillFileUpTo(ctx, f.space, s.ID, path, fsrepo.MaxCompareBytes)
				return err
			})
			f.mu.Lock()
			defer f.mu.Unlock()
			var content *string
			switch {
			case errors.Is(err, remote.ErrTooLarge):
				if f.live.LargeFiles[s.ID] == nil {
					f.live.LargeFiles[s.ID] = make(map[string]bool)
				}
				f.live.LargeFiles[s.ID][path] = true
				return nil
			case remote.IsNotFound(err):
			case err != nil:
				return fmt.Errorf("reading file %s of skill %s: %w", path, s.Slug, err)
			default:
				content = &got.Content
			}
			if f.live.Files[s.ID] == nil {
				f.live.Files[s.ID] = make(map[string]*string)
			}
			f.live.Files[s.ID][path] = content
			return nil
		})
	}
}

// request makes one request in a slot of its own.
func (f *fetcher) request(do func(ctx context.Context) error) error {
	if err := f.slots.acquire(f.ctx, readPriority); err != nil {
		return err
	}
	defer f.slots.release()
	return do(f.ctx)
}

// taskQueue is an unbounded queue of tasks, urgent ones first: a page
// queues its work without waiting for a worker.
type taskQueue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	tasks  [2][]func() error // urgent, then the others; oldest first
	closed bool
}

func newTaskQueue() *taskQueue {
	q := &taskQueue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *taskQueue) push(urgent bool, task func() error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	i := 1
	if urgent {
		i = 0
	}
	q.tasks[i] = append(q.tasks[i], task)
	q.cond.Signal()
}

// pop waits for a task; false once the queue is closed and empty.
func (q *taskQueue) pop() (func() error, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.tasks[0])+len(q.tasks[1]) == 0 && !q.closed {
		q.cond.Wait()
	}
	for i, tasks := range q.tasks {
		if len(tasks) > 0 {
			task := tasks[0]
			tasks[0] = nil
			q.tasks[i] = tasks[1:]
			return task, true
		}
	}
	return nil, false
}

func (q *taskQueue) close() {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.closed = true
	q.cond.Broadcast()
}

// progress reports done/total to a callback from any goroutine, one call
// at a time and in order. The total may grow as work is found.
type progress struct {
	mu    sync.Mutex
	f     func(done, total int)
	done  int
	total int
}

func newProgress(f func(done, total int), total int) *progress {
	return &progress{f: f, total: total}
}

// add counts n more steps to come.
func (p *progress) add(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total += n
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
