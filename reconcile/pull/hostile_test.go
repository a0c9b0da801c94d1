package pull

import (
	"errors"
	"fmt"
	"testing"

	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/skillsync/skillsync/remote"
)

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
// their ids, each once, in time linear in the listing.
func TestSharedSlugLinear(t *testing.T) {
	_, err := selectSkills(sameSlug(3), nil, "ab12")
	var shared *SharedSlugsError
	if !errors.As(err, &shared) || len(shared.IDs["same"]) != 3 {
		t.Fatalf("three skills of one slug, one listed twice: %v", err)
	}
	lineartest.Time(t, 1000, func(n int) { selectSkills(sameSlug(n), nil, "ab12") })
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
