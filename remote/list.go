package remote

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// maxListPasses bounds how many times a whole list is read again because it
// changed while being paged.
const maxListPasses = 5

// maxPagesPerPass stops a pass through a list that never ends.
const maxPagesPerPass = 10000

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
		items, clean, total, reason, err := listPass(ctx, fetch, key)
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

// listPass pages through the list once. clean is false, with a reason, when
// the pass saw the order shift.
func listPass[T any](ctx context.Context,
	fetch func(ctx context.Context, limit, offset int) (*Page[T], error),
	key func(T) (id, version string),
) (items []T, clean bool, total int, reason string, err error) {
	seen := make(map[string]bool)
	items = []T{}
	clean = true
	offset := 0
	for pageNo := 0; ; pageNo++ {
		page, err := fetch(ctx, MaxPageLimit, offset)
		if err != nil {
			return nil, false, 0, "", err
		}
		switch {
		case pageNo == 0:
			total = page.Total
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
		if offset >= total || pageNo >= maxPagesPerPass {
			// hasMore past the end: the service's hasMore or total is
			// wrong, or the list is growing faster than it is read.
			return items, false, total, "more pages than the total allows", nil
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
