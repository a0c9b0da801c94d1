package reconcile

import (
	"errors"
	"fmt"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// Hostile services: answers shaped so that work which searches what it
// has read grows with the square of their size. The tests count the work
// (or the allocations), never the time; the benchmarks show the time at
// sizes n, 2n, 4n and 8n.

// sameSlug is a listing of n skills that share one slug, and one of them
// listed twice.
func sameSlug(n int) []remote.Skill {
	list := make([]remote.Skill, 0, n+1)
	for i := range n {
		list = append(list, remote.Skill{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", i), Slug: "same"})
	}
	return append(list, list[0])
}

// TestSharedSlugLinear: pull refuses a slug several skills share, naming
// their ids, each once. A repeat was told by searching the ids of the
// slug: 100,000 skills of one slug, which a listing may hold, cost five
// billion comparisons. It is one lookup.
func TestSharedSlugLinear(t *testing.T) {
	_, err := selectSkills(sameSlug(3), nil, "ab12")
	var shared *SharedSlugsError
	if !errors.As(err, &shared) || len(shared.IDs["same"]) != 3 {
		t.Fatalf("three skills of one slug, one listed twice: %v", err)
	}
	const n = 20000
	ids := newSlugIDs(n)
	for _, s := range sameSlug(n) {
		ids.add(s.Slug, s.ID)
	}
	if len(ids.ids["same"]) != n || ids.probes > n+1 {
		t.Errorf("%d ids of %d skills, in %d probes; want %d ids in at most %d probes", len(ids.ids["same"]), n+1, ids.probes, n, n+1)
	}
}

// BenchmarkSelectSharedSlug selects, for pull, the skills of a listing of
// n skills that share one slug.
func BenchmarkSelectSharedSlug(b *testing.B) {
	for _, n := range []int{2000, 4000, 8000, 16000} {
		list := sameSlug(n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				selectSkills(list, nil, "ab12")
			}
		})
	}
}
