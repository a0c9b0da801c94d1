package reconcile

import (
	"context"
	"sync"
)

// Priorities of a request waiting for one of [slots].
const (
	pagePriority = iota // a list page: it unlocks reads
	readPriority        // a read: it unlocks nothing
)

// slots bounds the requests in flight of a [Fetch]: the pages of its lists
// and the reads they unlock share the same n slots (--parallelism). A slot
// set free goes to a waiting page before any waiting read, so that the
// reads the next page unlocks start as early as the bound allows: this is
// the schedule that ends first.
type slots struct {
	mu      sync.Mutex
	free    int
	waiting [2][]*slotWaiter // by priority, oldest first
}

type slotWaiter struct {
	ready  chan struct{}
	handed bool // a slot was handed to it; guarded by slots.mu
}

func newSlots(n int) *slots { return &slots{free: n} }

// acquire takes a slot, waiting behind every earlier waiter of its priority
// or a higher one. It fails only when ctx ends first.
func (s *slots) acquire(ctx context.Context, priority int) error {
	s.mu.Lock()
	if s.free > 0 { // then nobody waits: release hands slots to waiters
		s.free--
		s.mu.Unlock()
		return nil
	}
	w := &slotWaiter{ready: make(chan struct{})}
	s.waiting[priority] = append(s.waiting[priority], w)
	s.mu.Unlock()
	select {
	case <-w.ready:
		return nil
	case <-ctx.Done():
		s.mu.Lock()
		if w.handed {
			// The slot came as ctx ended: pass it on.
			s.mu.Unlock()
			s.release()
			return ctx.Err()
		}
		q := s.waiting[priority]
		for i, x := range q {
			if x == w {
				s.waiting[priority] = append(q[:i:i], q[i+1:]...)
				break
			}
		}
		s.mu.Unlock()
		return ctx.Err()
	}
}

// release frees a slot taken by acquire, handing it to the first waiter of
// the highest priority, if any.
func (s *slots) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for p, q := range s.waiting {
		if len(q) > 0 {
			w := q[0]
			s.waiting[p] = q[1:]
			w.handed = true
			close(w.ready)
			return
		}
	}
	s.free++
}

// A Budget bounds the requests in flight of several [Fetch] calls
// together: the plans of several targets made at once share one
// --parallelism, each free slot going to a list page of any of them
// before any read, so that they overlap rather than run one after
// another, and none of them holds more than the budget.
type Budget struct{ s *slots }

// NewBudget returns a budget of n requests in flight (at least one).
func NewBudget(n int) *Budget { return &Budget{s: newSlots(max(n, 1))} }

// slotsOr is the slots of b, or n slots of their own for a nil b.
func (b *Budget) slotsOr(n int) *slots {
	if b == nil {
		return newSlots(n)
	}
	return b.s
}

// pages is the [remote.Limiter] through which the lists' pages take slots.
func (s *slots) pages() pageSlots { return pageSlots{s} }

type pageSlots struct{ s *slots }

func (p pageSlots) Acquire(ctx context.Context) error { return p.s.acquire(ctx, pagePriority) }
func (p pageSlots) Release()                          { p.s.release() }
