package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// bulkRepo writes a repository of n skills, skill-000 on, with config as
// its skillsync.yaml, and seeds each space of spaces with the first of
// them, as many as it says.
func bulkRepo(t testing.TB, e *remotetest.Emulator, n int, config string, spaces map[string]int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for i := range n {
		slug := fmt.Sprintf("skill-%03d", i)
		md := fmt.Sprintf("---\nname: Skill %03d\ndescription: A skill of the test.\nenabled: false\n---\n# Skill %03d\n", i, i)
		if err := os.MkdirAll(filepath.Join(dir, "skills", slug), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "skills", slug, "SKILL.md"), []byte(md), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	for space, count := range spaces {
		e.AddSpace(remotetest.Space{ID: space})
		for i := range count {
			e.AddSkill(space, remotetest.SkillSeed{Slug: fmt.Sprintf("skill-%03d", i), Name: fmt.Sprintf("Skill %03d", i),
				Description: "A skill of the test.", Instructions: fmt.Sprintf("# Skill %03d\n", i)})
		}
	}
	return dir
}

// BenchmarkPlanCommand runs 'skillsync plan' of a repository of n
// unchanged skills against the emulator at 20 ms a request: the load of
// the repository, the lists, the reads (none with a warm --cache) and the
// plan, as a user waits for them. With targets, each target is a space of
// its own holding the n skills, all planned at once.
//
//	go test -run '^$' -bench PlanCommand -benchtime 5x ./cmd/skillsync
func BenchmarkPlanCommand(b *testing.B) {
	for _, c := range []struct{ n, targets int }{{1000, 0}, {5000, 0}, {300, 4}} {
		e := remotetest.New()
		e.AddToken(scriptToken, remotetest.ReadWrite)
		srv := testserver.New(b, e)
		config, spaces, name := "skillsDir: skills\nspace: ab12\n", map[string]int{"ab12": c.n}, fmt.Sprintf("skills=%d", c.n)
		if c.targets > 0 {
			config, spaces, name = "skillsDir: skills\ntargets:\n", map[string]int{}, fmt.Sprintf("skills=%d/targets=%d", c.n, c.targets)
			for i := range c.targets {
				config += fmt.Sprintf("  t%d: {space: t%02d}\n", i, i)
				spaces[fmt.Sprintf("t%02d", i)] = c.n
			}
		}
		dir := bulkRepo(b, e, c.n, config, spaces)
		cache := filepath.Join(b.TempDir(), "cache")
		te := testEnv{"SKILLSYNC_BASE_URL": srv.URL, "SKILLSYNC_TOKEN": scriptToken, "NO_COLOR": "1"}
		plan := func(b *testing.B, args ...string) {
			var stderr strings.Builder
			args = append([]string{"skillsync", "plan", "--dir", dir}, args...)
			if code := run(context.Background(), args, te.process(strings.NewReader(""), io.Discard, &stderr)); code != 0 {
				b.Fatalf("plan: exit %d\n%s", code, stderr.String())
			}
		}
		plan(b, "--cache", cache) // warm it
		e.SetFaults(remotetest.Faults{Latency: 20 * time.Millisecond})
		for _, kind := range []string{"cold", "warm"} {
			if kind == "cold" && c.n > 1000 {
				continue // 13 s an op
			}
			var args []string
			if kind == "warm" {
				args = []string{"--cache", cache}
			}
			b.Run(name+"/"+kind, func(b *testing.B) {
				for b.Loop() {
					plan(b, args...)
				}
			})
		}
	}
}
