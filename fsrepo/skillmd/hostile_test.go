package skillmd

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/lineartest"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Hostile SKILL.md files: inputs shaped so that work which rescans what it
// has read grows with the square of their size. The tests hold the work
// (its allocations, or its CPU time) to linear growth; the benchmarks show
// the time, at sizes n, 2n, 4n and 8n.

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

// TestParseBadValuesLinear: each key whose value does not decode is
// a diagnostic at its line. The lines of the block were cut again for each
// of them: 4,000 such keys (67 KB) allocated 550 MB, and a SKILL.md of
// 1 MiB would have needed a hundred gigabytes.
func TestParseBadValuesLinear(t *testing.T) {
	md := hostileSkillMD(3, badValue)
	_, ds := Parse("skills/hostile/SKILL.md", md)
	if len(ds) != 3 || ds[0].Code != "frontmatter-yaml" || ds[2].Code != "frontmatter-yaml" {
		t.Fatalf("diagnostics of three bad values: %v", ds)
	}
	lineartest.Allocs(t, 1000, func(n int) {
		Parse("skills/hostile/SKILL.md", hostileSkillMD(n, badValue))
	})
}

// BenchmarkParseHostile parses SKILL.md files whose frontmatter
// holds n keys: plain ones (each has its line found), ones whose value
// does not decode (each is a diagnostic), and double-quoted strings in one
// flow list, with a surrogate pair escape that makes the block be read
// for its quoted strings.
func BenchmarkParseHostile(b *testing.B) {
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
					Parse("skills/hostile/SKILL.md", md)
				}
			})
		}
	}
}

// backtickRuns is text with runs of 1 to n backticks, each alone: an
// opening run that nothing closes, n times.
func backtickRuns(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		b.WriteString(strings.Repeat("`", i))
		b.WriteString("x")
	}
	return b.String()
}

// hostileMarkdown are texts of n bytes on which goldmark's time, were it
// not bounded, would grow with the square of n or faster.
var hostileMarkdown = []struct {
	name string
	text func(n int) string
}{
	{"link-openers", repeated("[a](")}, // each '(' reads the rest of its line
	{"link-openers-lines", repeated("[a](\n")},
	{"angle-destinations", repeated("[a](<")},
	{"definitions", repeated("[a]: b\n")}, // in one paragraph
	{"html-comments", repeated("a <!--a\n")},
	{"block-quotes", func(n int) string { return strings.Repeat(">", n-2) + "x\n" }},
	{"lists", func(n int) string { return strings.Repeat("- ", n/2-1) + "x\n" }},
	{"backtick-runs", func(n int) string { return backtickRuns(int(math.Sqrt(float64(2 * n)))) }},
}

// repeated is s repeated to n bytes.
func repeated(s string) func(n int) string {
	return func(n int) string { return strings.Repeat(s, n/len(s)+1)[:n] }
}

// TestMarkdownBounded: whatever the text, goldmark is given no paragraph
// over maxParagraphBytes, no line of one over maxLineBytes, and no block
// quote or list inside maxNesting others, the bounds within which its time
// grows with the text (BenchmarkReferencesHostile shows it).
func TestMarkdownBounded(t *testing.T) {
	for _, s := range hostileMarkdown {
		src := []byte(s.text(maxMarkdownBytes))
		deepest, widest, longest := 0, 0, 0
		_ = ast.Walk(markdown().Parse(text.NewReader(src)), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			if !entering || n.Type() != ast.TypeBlock {
				return ast.WalkContinue, nil
			}
			depth := 0
			for p := n.Parent(); p != nil; p = p.Parent() {
				depth++
			}
			deepest = max(deepest, depth)
			if n.Kind() == ast.KindParagraph || n.Kind() == ast.KindTextBlock {
				size := 0
				for i := range n.Lines().Len() {
					seg := n.Lines().At(i)
					size, longest = size+seg.Len(), max(longest, seg.Len())
				}
				widest = max(widest, size)
			}
			return ast.WalkContinue, nil
		})
		if deepest > maxNesting+2 || widest > maxParagraphBytes || longest > maxLineBytes {
			t.Errorf("%s: blocks nested %d deep, a paragraph of %d bytes, a line of %d; want at most %d, %d, %d",
				s.name, deepest, widest, longest, maxNesting+2, maxParagraphBytes, maxLineBytes)
		}
	}
}

// BenchmarkReferencesHostile finds the references of instructions such
// as pull reads from the space, up to the client's 32 MiB: a code block
// of n one-word lines, n runs of backticks that close no code span, and
// 1 MiB of each of hostileMarkdown.
func BenchmarkReferencesHostile(b *testing.B) {
	shapes := []struct {
		name string
		n    int
		text func(n int) string
	}{
		{"code-lines", 128000, func(n int) string { return "```\n" + strings.Repeat("a\n", n) + "```\n" }},
		{"backtick-runs", 800, backtickRuns},
	}
	for _, s := range hostileMarkdown {
		shapes = append(shapes, struct {
			name string
			n    int
			text func(n int) string
		}{s.name, 1 << 20, s.text})
	}
	for _, s := range shapes {
		for _, k := range []int{1, 2, 4, 8} {
			text := s.text(s.n * k / 8)
			b.Run(fmt.Sprintf("%s/n=%d", s.name, s.n*k/8), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					FindReferences(text, "hostile")
				}
			})
		}
	}
}

// BenchmarkMergeRepeatedKeys merges a new name into a SKILL.md
// whose frontmatter repeats a key n times, as pull does for a file of
// the repository.
func BenchmarkMergeRepeatedKeys(b *testing.B) {
	next := Format("New name", "A skill of a hostile repository.", true, "# Hostile\n")
	for _, n := range []int{2000, 4000, 8000, 16000} {
		md := hostileSkillMD(n, func(int) string { return "name: hostile\n" })
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Merge(md, next)
			}
		})
	}
}
