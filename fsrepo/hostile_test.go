package fsrepo

import (
	"fmt"
	"strings"
	"testing"
)

// Hostile repositories: inputs shaped so that work which rescans what it
// has read, or reports every pair of items, grows with the square of
// their size. A repository is read in bounded time and memory only if
// every such path is linear. The tests count allocations, which the same
// input always makes alike, never the time; the benchmarks below show the
// time, at sizes n, 2n, 4n and 8n.

// linearAllocs fails t when run(4n) allocates more than 8 times what
// run(n) does: work linear in n allocates about 4 times as much, work
// quadratic in it 16 times.
func linearAllocs(t *testing.T, n int, run func(n int)) {
	t.Helper()
	run(n) // compiles what is compiled once (regular expressions, ...)
	small := allocated(func() { run(n) })
	large := allocated(func() { run(4 * n) })
	if large > 8*small {
		t.Errorf("allocated %d KB for n=%d and %d KB for 4n: %.1f times as much, where linear work allocates about 4",
			small>>10, n, large>>10, float64(large)/float64(small))
	}
}

// hostileSkillMD is a SKILL.md whose frontmatter holds n more keys, each
// written as line(i).
func hostileSkillMD(n int, line func(i int) string) []byte {
	var b strings.Builder
	b.WriteString("---\nname: hostile\ndescription: A skill of a hostile repository.\n")
	for i := range n {
		b.WriteString(line(i))
	}
	b.WriteString("---\n\n# Hostile\n")
	return []byte(b.String())
}

// badValue is a key whose value yaml.v3 parses but cannot decode.
func badValue(i int) string { return fmt.Sprintf("k%d: !!int abc\n", i) }

// plainKey is a key that skillsync keeps and ignores.
func plainKey(i int) string { return fmt.Sprintf("k%d: v\n", i) }

// TestParseSkillMDBadValuesLinear: each key whose value does not decode is
// a diagnostic at its line. The lines of the block were cut again for each
// of them: 4,000 such keys (67 KB) allocated 550 MB, and a SKILL.md of
// 1 MiB would have needed a hundred gigabytes.
func TestParseSkillMDBadValuesLinear(t *testing.T) {
	md := hostileSkillMD(3, badValue)
	_, ds := ParseSkillMD("skills/hostile/SKILL.md", md)
	if len(ds) != 3 || ds[0].Code != "frontmatter-yaml" || ds[2].Code != "frontmatter-yaml" {
		t.Fatalf("diagnostics of three bad values: %v", ds)
	}
	linearAllocs(t, 1000, func(n int) {
		ParseSkillMD("skills/hostile/SKILL.md", hostileSkillMD(n, badValue))
	})
}

// BenchmarkParseSkillMDHostile parses SKILL.md files whose frontmatter
// holds n keys: plain ones (each has its line found), ones whose value
// does not decode (each is a diagnostic), and double-quoted strings in one
// flow list, with a surrogate pair escape that makes the block be read
// for its quoted strings.
func BenchmarkParseSkillMDHostile(b *testing.B) {
	shapes := []struct {
		name string
		n    int
		md   func(n int) []byte
	}{
		{"keys", 16000, func(n int) []byte { return hostileSkillMD(n, plainKey) }},
		{"bad-values", 8000, func(n int) []byte { return hostileSkillMD(n, badValue) }},
		{"quoted-flow", 8000, func(n int) []byte {
			return hostileSkillMD(1, func(int) string {
				return `emoji: "\uD83D\uDE00"` + "\nlist: [" + strings.Repeat(`"a", `, n) + "\"a\"]\n"
			})
		}},
	}
	for _, s := range shapes {
		for _, k := range []int{1, 2, 4, 8} {
			md := s.md(s.n * k / 8)
			b.Run(fmt.Sprintf("%s/n=%d", s.name, s.n*k/8), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(md)))
				for b.Loop() {
					ParseSkillMD("skills/hostile/SKILL.md", md)
				}
			})
		}
	}
}
