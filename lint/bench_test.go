package lint

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sync/errgroup"
)

// benchSkills is the set a benchmark judges: 5,000 skills read from the
// folders SKILLSYNC_LINT_CORPUS names (comma-separated), or, without it,
// made from the fixtures, each a little different so nothing is shared.
func benchSkills(b *testing.B) ([][]File, int) {
	const n = 5000
	var skills [][]File
	if roots := os.Getenv("SKILLSYNC_LINT_CORPUS"); roots != "" {
		for _, root := range strings.Split(roots, ",") {
			cs, err := readCorpus(root)
			if err != nil {
				b.Fatal(err)
			}
			for _, c := range cs {
				skills = append(skills, c.files)
			}
		}
	} else {
		for _, f := range loadFixtures(b) {
			skills = append(skills, f.files)
		}
	}
	if len(skills) == 0 {
		b.Fatal("no skills to judge")
	}
	out := make([][]File, n)
	size := 0
	for i := range out {
		src := skills[i%len(skills)]
		files := make([]File, len(src))
		for k, f := range src {
			data := append([]byte(nil), f.Data...)
			if f.Path == "SKILL.md" {
				data = append(data, fmt.Sprintf("\n<!-- copy %d -->\n", i)...)
			}
			files[k] = File{Path: f.Path, Data: data}
			size += len(data)
		}
		out[i] = files
	}
	return out, size
}

// BenchmarkJudge5000 judges 5,000 skills one after the other.
func BenchmarkJudge5000(b *testing.B) {
	skills, size := benchSkills(b)
	j, err := New(Options{Secrets: map[string]string{"SKILLSYNC_TOKEN": "sk-sync-7Hq2mX9vL4pR8wZ1cT6y"}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		for _, s := range skills {
			j.Skill(s)
		}
	}
}

// BenchmarkJudge5000Parallel judges 5,000 skills on every core, as a
// command judging a space would.
func BenchmarkJudge5000Parallel(b *testing.B) {
	skills, size := benchSkills(b)
	j, err := New(Options{Secrets: map[string]string{"SKILLSYNC_TOKEN": "sk-sync-7Hq2mX9vL4pR8wZ1cT6y"}})
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for range b.N {
		g, _ := errgroup.WithContext(context.Background())
		g.SetLimit(runtime.GOMAXPROCS(0))
		for _, s := range skills {
			g.Go(func() error { j.Skill(s); return nil })
		}
		g.Wait()
	}
}

// BenchmarkNew measures compiling the rules, once per process.
func BenchmarkNew(b *testing.B) {
	for range b.N {
		if _, err := New(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
