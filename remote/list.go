package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/spec"
)

// maxListPasses bounds how many times a whole list is read again because it
// changed while being paged.
const maxListPasses = 5

// maxListTotal bounds the total a list may claim: a space of 100,000
// skills or agents is 1,000 pages of 100, beyond any space the service's
// limit of 40 active skills is made for. A larger total is a service's lie
// (or a space skillsync cannot manage), and paging towards it would take
// hours and gigabytes.
const maxListTotal = 100_000

// listPageSlack is how many pages past those its first page's total calls
// for a pass may read: items created while it pages push later ones onto
// a further page.
const listPageSlack = 2

// A service that serves pages of fewer than minBudgetPage items gets no
// more pages than pages of that size would need, or minBudgetPages if more:
// asked for pages of 100, a service applying a cap below 10 is as unlikely
// as one that lies, and at one item a page a total of 100,000 would be
// 100,000 requests.
const (
	minBudgetPage  = 10
	minBudgetPages = 100
)

// pageBudget is how many pages a pass may read through a list of kind
// whose first page counted total items and held pageSize of them. A list
// that would need more is one the service lies about, or one growing
// faster than it is read: either way, paging on would not end.
//
// It depends on the first page alone, so that the other pages can be asked
// for together once that one is read.
func pageBudget(kind string, total, pageSize int) (int, error) {
	if total > maxListTotal {
		return 0, &listBoundError{fmt.Sprintf("the service counts %d %s, more than the %d a list may hold; its total is wrong", total, kind, maxListTotal)}
	}
	pages := ceilDiv(total, max(pageSize, 1))
	pages = min(pages, max(ceilDiv(total, minBudgetPage), minBudgetPages))
	return max(pages, 1) + listPageSlack, nil
}

func ceilDiv(a, b int) int {
	return (a + b - 1) / b
}

// A Limiter bounds the requests in flight of everything that shares it.
// Acquire waits for a free slot, failing only when ctx ends first; each
// successful Acquire is followed by one Release.
type Limiter interface {
	Acquire(ctx context.Context) error
	Release()
}

// ListOptions tune how [Client.StreamSkills] and [Client.StreamAgents] read
// a list.
type ListOptions struct {
	// Parallelism bounds the page requests in flight. The first page's
	// total says which pages follow, so once it is read, up to
	// Parallelism of the others are asked for at once. 0 or 1 reads them
	// one after another.
	Parallelism int
	// Limiter, when set, is acquired around every page request, on top of
	// Parallelism: a caller that shares it with its own requests keeps
	// pages and those requests under one bound.
	Limiter Limiter
}

// listAll reads every page of the list of kind ("skills", "agents") of the
// space, which is ordered by updatedAt, most recent first.
//
// Offset paging over that order is not a snapshot: an edit between two page
// requests moves the edited item to the front, so a page read after it
// repeats an item of the page before, and a creation or deletion changes the
// total and may make a later page skip one. A pass is trusted when it saw no
// repeated id, the same total on every page, and as many distinct items as
// that total; otherwise the list is read again from the start. A service
// whose total counts items it does not list (built-in skills, say) would never
// satisfy the last condition, so two clean passes with identical results are
// trusted too.
//
// Pages read in parallel keep this true. Page 1 is always read first, and
// an edit that moves an item from position p to the front shifts every
// position up to p by one: the lowest page read after the edit that starts
// at or before p holds the last item of the page before it, read before the
// edit (page 1 at worst), so the pass sees an id twice; pages read after it
// that start past p are unchanged.
func listAll[T any](ctx context.Context, c *Client, kind, spaceID string, key func(T) (id, version string), o ListOptions) ([]T, error) {
	if err := spec.CheckShortSpaceID(spaceID); err != nil {
		return nil, err
	}
	l := &lister[T]{c: c, kind: kind, spaceID: spaceID, key: key, o: o}
	var previous string // fingerprint of the last clean pass, "" if none
	var why string
	ahead := o.Parallelism > 1
	for pass := 1; pass <= maxListPasses; pass++ {
		r, err := l.pass(ctx, ahead)
		if _, ok := errors.AsType[*listBoundError](err); ok {
			return nil, fmt.Errorf("listing the %s of space %s: %w", kind, spaceID, err)
		}
		if err != nil {
			return nil, err
		}
		if r.irregular {
			// Pages of varying sizes leave the offsets the first page
			// gives wrong: read the next passes one page after another.
			ahead = false
		}
		if r.clean && r.totalKnown && len(r.items) == r.total {
			return r.items, nil
		}
		why = r.reason
		if r.clean {
			// With no total to check a pass against, or one it does not
			// meet, two passes that agree are trusted.
			fp := fingerprint(r.items, r.total, key)
			if fp == previous {
				return r.items, nil
			}
			previous = fp
			why = fmt.Sprintf("%d %s listed but the total says %d", len(r.items), kind, r.total)
			if !r.totalKnown {
				why = fmt.Sprintf("two passes listed different %s, and the service sends no total", kind)
			}
		} else {
			previous = ""
		}
	}
	return nil, fmt.Errorf("listing the %s of space %s: the list kept changing while it was paged (%d passes, last: %s); try again",
		kind, spaceID, maxListPasses, why)
}

// listBoundError is a list that breaks the bounds of [pageBudget] or of a
// page: no other pass would end better, so it ends the listing.
type listBoundError struct{ msg string }

func (e *listBoundError) Error() string { return e.msg }

// lister reads the pages of one list.
type lister[T any] struct {
	c             *Client
	kind, spaceID string
	key           func(T) (id, version string)
	o             ListOptions
}

// passResult is what one pass through a list read. clean is false, with a
// reason, when the pass saw the order shift; irregular is true when its
// pages were not all of the first page's size, so that the pages read
// ahead at the offsets that size gave were of no use.
type passResult[T any] struct {
	items      []T
	clean      bool
	total      int
	totalKnown bool // the service sent a total
	reason     string
	irregular  bool
}

// more reports whether a list goes on past page, whose items ended at
// offset. A service that leaves hasMore out is read up to its total; one
// that leaves both out, up to a page shorter than the limit it says it
// applied, or else up to an empty page: a page shorter than the limit
// asked for may be a cap, and a list read short is never acted on.
func more[T any](page *Page[T], offset int) bool {
	switch {
	case page.Sent.HasMore:
		return page.HasMore
	case len(page.Data) == 0:
		return false // a total may count items no list shows
	case page.Sent.Total:
		return offset < page.Total
	case page.Sent.Limit && page.Limit > 0:
		return len(page.Data) >= page.Limit
	}
	return true
}

// page reads the page at offset, within the limiter.
func (l *lister[T]) page(ctx context.Context, offset int) (*Page[T], error) {
	if lim := l.o.Limiter; lim != nil {
		if err := lim.Acquire(ctx); err != nil {
			return nil, err
		}
		defer lim.Release()
	}
	page, err := listPage(ctx, l.c, l.kind, l.spaceID, spec.MaxPageLimit, offset, l.key)
	if err != nil {
		return nil, err
	}
	if len(page.Data) > spec.MaxPageLimit {
		return nil, &listBoundError{fmt.Sprintf("the page at offset %d holds %d %s, more than the %d asked for",
			offset, len(page.Data), l.kind, spec.MaxPageLimit)}
	}
	return page, nil
}

// pagesAhead reads the pages 1 to n-1 at the offsets k·size, up to
// Parallelism at once, lowest offsets first. The first failure stops the
// others and is returned.
func (l *lister[T]) pagesAhead(ctx context.Context, size, n int) ([]*Page[T], error) {
	pages := make([]*Page[T], n)
	g, ctx := errgroup.WithContext(ctx)
	g.SetLimit(l.o.Parallelism)
	for k := 1; k < n && ctx.Err() == nil; k++ {
		// A panic here, out of the caller's goroutine, would end the
		// process: it fails the listing instead.
		bug.Go(g, func() (err error) {
			pages[k], err = l.page(ctx, k*size)
			return err
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return pages, nil
}

// pass pages through the list once. It reads at most the pages
// [pageBudget] allows from its first page, and fails with a
// [listBoundError] past them.
//
// With ahead, the pages the first one's total calls for are read together,
// at the offsets its size gives; they are then taken in order, as if read
// one after another, up to the first whose offset the pages before it did
// not reach (a page shorter or longer than the first): from there on, the
// pass reads one page after another.
func (l *lister[T]) pass(ctx context.Context, ahead bool) (r passResult[T], err error) {
	seen := make(map[string]bool)
	r.items = []T{}
	r.clean = true
	offset := 0
	budget, counted := 1, 0 // from the first page
	var read []*Page[T]     // read[k]: the page at offset k·size, read ahead
	size := 0
	for pageNo := 1; ; pageNo++ {
		var page *Page[T]
		switch k := pageNo - 1; {
		case k < len(read) && offset == k*size:
			page = read[k]
		case k < len(read):
			r.irregular = true
			read = nil
			fallthrough
		default:
			if page, err = l.page(ctx, offset); err != nil {
				return passResult[T]{}, err
			}
		}
		switch {
		case pageNo == 1:
			r.total, counted, r.totalKnown = page.Total, page.Total, page.Sent.Total
			if !r.totalKnown {
				counted = maxListTotal // the most a list may hold
			}
			if budget, err = pageBudget(l.kind, counted, len(page.Data)); err != nil {
				return passResult[T]{}, err
			}
			if size = len(page.Data); ahead && r.totalKnown && more(page, size) && size > 0 && size < r.total {
				if read, err = l.pagesAhead(ctx, size, min(ceilDiv(r.total, size), budget)); err != nil {
					return passResult[T]{}, err
				}
			}
		case r.totalKnown && page.Total != r.total && r.clean:
			r.clean = false
			r.reason = fmt.Sprintf("the total went from %d to %d", r.total, page.Total)
			r.total = page.Total
		}
		for _, item := range page.Data {
			id, _ := l.key(item)
			id = strings.ToLower(id)
			if seen[id] {
				if r.clean {
					r.clean = false
					r.reason = fmt.Sprintf("%s appeared twice", id)
				}
				continue
			}
			seen[id] = true
			r.items = append(r.items, item)
		}
		offset += len(page.Data)
		if !more(page, offset) {
			return r, nil
		}
		if len(page.Data) == 0 {
			// hasMore with an empty page: paging on would never end.
			r.clean, r.reason = false, "an empty page claimed more items"
			return r, nil
		}
		if r.totalKnown && offset >= r.total {
			// hasMore past the end: the service's hasMore or total is
			// wrong, or the list changed; the next pass tells.
			r.clean, r.reason = false, "more pages than the total allows"
			return r, nil
		}
		if pageNo >= budget {
			return passResult[T]{}, &listBoundError{fmt.Sprintf(
				"the service sent more pages than the %d %s its first page counted allow (%d pages); its hasMore or total is wrong, or %s are being created faster than they are read: try again later",
				counted, l.kind, budget, l.kind)}
		}
	}
}

// fingerprint identifies the result of a pass, to tell two equal passes.
func fingerprint[T any](items []T, total int, key func(T) (string, string)) string {
	lines := make([]string, 0, len(items)+1)
	for _, item := range items {
		id, version := key(item)
		lines = append(lines, strings.ToLower(id)+" "+version)
	}
	slices.Sort(lines)
	return fmt.Sprintf("total %d\n%s", total, strings.Join(lines, "\n"))
}
