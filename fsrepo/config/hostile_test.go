package config

import (
	"fmt"
	"strings"
	"testing"
)

// hostileTargets is a skillsync.yaml of n targets, each of space(i).
func hostileTargets(n int, space func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("targets:\n")
	for i := range n {
		fmt.Fprintf(&b, "  t%d: {space: %s}\n", i, space(i))
	}
	return []byte(b.String())
}

// TestTargetsOfOneSpaceNamedWithTheFirst: a target of a space an earlier
// target of the same address writes is one error, naming the first such
// target.
func TestTargetsOfOneSpaceNamedWithTheFirst(t *testing.T) {
	_, err := Parse(hostileTargets(3, func(int) string { return "ab12" }))
	want := `skillsync.yaml:3: targets "t1" and "t0" (line 2) are both space ab12 at the same address: they would undo each other's changes; give each target its own space, or remove one
skillsync.yaml:4: targets "t2" and "t0" (line 2) are both space ab12 at the same address: they would undo each other's changes; give each target its own space, or remove one`
	if err == nil || err.Error() != want {
		t.Errorf("three targets of one space: %v\nwant\n%s", err, want)
	}
}

// TestTargetsBounded: skillsync.yaml lists at most MaxTargets targets, as
// many as a CI matrix runs; one more is an error at its line. Each target
// is planned against every skill and looked up among the others, so that
// 16,000 targets (360 KB) took 2.2 s to tell which a pull request changes.
func TestTargetsBounded(t *testing.T) {
	space := func(i int) string { return fmt.Sprintf("s%04x", i) }
	cfg, err := Parse(hostileTargets(MaxTargets, space))
	if err != nil || len(cfg.Targets) != MaxTargets {
		t.Fatalf("%d targets: %d read, %v", MaxTargets, len(cfg.Targets), err)
	}
	_, err = Parse(hostileTargets(MaxTargets+1, space))
	want := fmt.Sprintf("skillsync.yaml:%d: targets lists %d targets, more than the %d skillsync plans (as many as a CI matrix runs): split them between repositories",
		MaxTargets+2, MaxTargets+1, MaxTargets)
	if err == nil || err.Error() != want {
		t.Errorf("%d targets: %v\nwant %s", MaxTargets+1, err, want)
	}
}

// BenchmarkParseConfigHostile reads a skillsync.yaml of n targets, of one
// space, and of as many spaces, up to MaxTargets.
func BenchmarkParseConfigHostile(b *testing.B) {
	for _, s := range []struct {
		name  string
		n     int
		space func(i int) string
	}{
		{"one-space", MaxTargets, func(int) string { return "ab12" }},
		{"distinct-spaces", MaxTargets, func(i int) string { return fmt.Sprintf("s%04x", i) }},
	} {
		for _, k := range []int{1, 2, 4, 8} {
			cfg := hostileTargets(s.n*k/8, s.space)
			b.Run(fmt.Sprintf("%s/n=%d", s.name, s.n*k/8), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(cfg)))
				for b.Loop() {
					Parse(cfg)
				}
			})
		}
	}
}

// globsConfig is a skillsync.yaml whose top-level ignore rule lists n
// patterns, glob(i).
func globsConfig(n int, glob func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("space: ab12\nignore:\n  - fields: [enabled]\n    skills:\n")
	for i := range n {
		fmt.Fprintf(&b, "      - %q\n", glob(i))
	}
	return []byte(b.String())
}

// TestGlobsBounded: skillsync.yaml holds at most MaxGlobs globs with a
// wildcard, each of at most MaxGlobBytes; one past either is an error at
// its line. Slugs with no wildcard are not counted.
func TestGlobsBounded(t *testing.T) {
	wild := func(i int) string { return fmt.Sprintf("x%d-*", i) }
	if _, err := Parse(globsConfig(MaxGlobs, wild)); err != nil {
		t.Errorf("%d globs: %v", MaxGlobs, err)
	}
	_, err := Parse(globsConfig(MaxGlobs+1, wild))
	want := fmt.Sprintf("skillsync.yaml:%d: more than %d globs with a wildcard (*, ?, [...]) in skillsync.yaml, each matched against every skill: name the slugs, which are looked up, or write fewer globs",
		5+MaxGlobs, MaxGlobs)
	if err == nil || err.Error() != want {
		t.Errorf("%d globs: %v\nwant %s", MaxGlobs+1, err, want)
	}
	_, err = Parse(globsConfig(1, func(int) string { return strings.Repeat("*a", MaxGlobBytes/2) + "b" }))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("skillsync.yaml:5: ignore[0].skills: a glob of %d bytes, longer than the %d", MaxGlobBytes+1, MaxGlobBytes)) {
		t.Errorf("a glob of %d bytes: %v", MaxGlobBytes+1, err)
	}

	const n = 10 * MaxGlobs
	cfg, err := Parse(globsConfig(n, func(i int) string { return fmt.Sprintf("skill-%d", i) }))
	if err != nil {
		t.Fatalf("%d slugs: %v", n, err)
	}
	r := cfg.Ignore[0]
	if !r.Covers("skill-7", "enabled") || !r.Covers(fmt.Sprintf("skill-%d", n-1), "enabled") || r.Covers("skill-7", "name") || r.Covers("other", "enabled") {
		t.Errorf("the rule of %d slugs covers other than they name", n)
	}
}
