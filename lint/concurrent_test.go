package lint

import (
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"
)

// TestJudgeConcurrent: one Judge judging many skills at once, as validate
// does, finds in each what it finds judging that skill alone: texts judged
// at the same time never share the memory of their folds.
func TestJudgeConcurrent(t *testing.T) {
	j := judgeFor(map[string]string{"SKILLSYNC_TOKEN": "tok-9f8e7d6c5b4a39281706"})
	fixtures := loadFixtures(t)
	want := make([]string, len(fixtures))
	for i, f := range fixtures {
		want[i] = fmt.Sprint(j.Skill(f.files))
	}
	var g errgroup.Group
	g.SetLimit(8)
	got := make([]string, 4*len(fixtures))
	for k := range got {
		g.Go(func() error {
			got[k] = fmt.Sprint(j.Skill(fixtures[k%len(fixtures)].files))
			return nil
		})
	}
	g.Wait()
	for k, s := range got {
		if i := k % len(fixtures); s != want[i] {
			t.Errorf("%s judged with others: %s\nalone: %s", fixtures[i].name, s, want[i])
		}
	}
}
