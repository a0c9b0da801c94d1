package remote

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

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

// listAll reads every page of a list ordered by updatedAt, most recent first.
//
// Offset paging over that order is not a snapshot: an edit between two page
// requests moves the edited item to the front, so the next page repeats an
// item from the previous one, and a creation or deletion changes the total
// and may make the next page skip one. A pass is trusted when it saw no
// repeated id, the same total on every page, and as many distinct items as
// that total; otherwise the list is read again from the start. A service
// whose total counts items it does not list (built-in skills, say) would never
// satisfy the last condition, so two clean passes with identical results are
// trusted too.
func listAll[T any](ctx context.Context, kind, spaceID string,
	fetch func(ctx context.Context, limit, offset int) (*Page[T], error),
	key func(T) (id, version string),
) ([]T, error) {
	var previous string // fingerprint of the last clean pass, "" if none
	var why string
	for pass := 1; pass <= maxListPasses; pass++ {
		items, clean, total, reason, err := listPass(ctx, kind, fetch, key)
		var bound *listBoundError
		if errors.As(err, &bound) {
			return nil, fmt.Errorf("listing the %s of space %s: %w", kind, spaceID, err)
		}
		if err != nil {
			return nil, err
		}
		if clean && len(items) == total {
			return items, nil
		}
		why = reason
		if clean {
			fp := fingerprint(items, total, key)
			if fp == previous {
				return items, nil
			}
			previous = fp
			why = fmt.Sprintf("%d %s listed but the total says %d", len(items), kind, total)
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

// listPass pages through the list once. clean is false, with a reason, when
// the pass saw the order shift. It reads at most the pages [pageBudget]
// allows from its first page, and fails with a [listBoundError] past them.
func listPass[T any](ctx context.Context, kind string,
	fetch func(ctx context.Context, limit, offset int) (*Page[T], error),
	key func(T) (id, version string),
) (items []T, clean bool, total int, reason string, err error) {
	seen := make(map[string]bool)
	items = []T{}
	clean = true
	offset := 0
	budget, counted := 1, 0 // from the first page
	for pageNo := 1; ; pageNo++ {
		page, err := fetch(ctx, spec.MaxPageLimit, offset)
		if err != nil {
			return nil, false, 0, "", err
		}
		if len(page.Data) > spec.MaxPageLimit {
			return nil, false, 0, "", &listBoundError{fmt.Sprintf("the page at offset %d holds %d %s, more than the %d asked for",
				offset, len(page.Data), kind, spec.MaxPageLimit)}
		}
		switch {
		case pageNo == 1:
			total, counted = page.Total, page.Total
			if budget, err = pageBudget(kind, total, len(page.Data)); err != nil {
				return nil, false, 0, "", err
			}
		case page.Total != total && clean:
			clean = false
			reason = fmt.Sprintf("the total went from %d to %d", total, page.Total)
			total = page.Total
		}
		for _, item := range page.Data {
			id, _ := key(item)
			id = strings.ToLower(id)
			if seen[id] {
				if clean {
					clean = false
					reason = fmt.Sprintf("%s appeared twice", id)
				}
				continue
			}
			seen[id] = true
			items = append(items, item)
		}
		offset += len(page.Data)
		if !page.HasMore {
			return items, clean, total, reason, nil
		}
		if len(page.Data) == 0 {
			// hasMore with an empty page: paging on would never end.
			return items, false, total, "an empty page claimed more items", nil
		}
		if offset >= total {
			// hasMore past the end: the service's hasMore or total is
			// wrong, or the list changed; the next pass tells.
			return items, false, total, "more pages than the total allows", nil
		}
		if pageNo >= budget {
			return nil, false, 0, "", &listBoundError{fmt.Sprintf(
				"the service sent more pages than the %d %s its first page counted allow (%d pages); its hasMore or total is wrong, or %s are being created faster than they are read: try again later",
				counted, kind, budget, kind)}
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
