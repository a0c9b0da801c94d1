package diff

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/skillsync/skillsync/reconcile/reconciletest"
)

// benchDiffSize is the size of each text the diff benchmarks compare: the
// service's limit of 50,000 characters of instructions.
const benchDiffSize = 50_000

// repeat returns the lines of pattern repeated to about size characters.
func repeat(pattern string, size int) []string {
	one := Lines(pattern)
	lines := make([]string, 0, size/len(pattern)*len(one))
	for range max(1, size/len(pattern)) {
		lines = append(lines, one...)
	}
	return lines
}

// editLines changes k lines of lines at random places, each an insertion,
// a deletion or a replacement, and returns the new slice.
func editLines(r *rand.Rand, lines []string, k int) []string {
	out := append([]string(nil), lines...)
	for i := range k {
		at := r.IntN(len(out))
		l := "edited line " + strconv.Itoa(i) + " of the instructions\n"
		switch r.IntN(3) {
		case 0:
			out = append(out[:at], append([]string{l}, out[at:]...)...)
		case 1:
			out = append(out[:at], out[at+1:]...)
		case 2:
			out[at] = l
		}
	}
	return out
}

// everyNth replaces every nth line of lines, starting at the first.
func everyNth(lines []string, n int, with func(i int) string) []string {
	out := append([]string(nil), lines...)
	for i := 0; i < len(out); i += n {
		out[i] = with(i)
	}
	return out
}

// diffCase is a pair of texts to diff.
type diffCase struct {
	name string
	a, b string
}

// diffCases are adversarial pairs and ordinary ones, each
// text of about benchDiffSize characters.
func diffCases() []diffCase {
	r := rand.New(rand.NewPCG(15, 2))
	text := reconciletest.Prose(r, benchDiffSize)
	other := reconciletest.Prose(r, benchDiffSize)
	join := func(lines []string) string { return strings.Join(lines, "") }
	same := repeat("- item\n", benchDiffSize)
	blank := repeat("\n", benchDiffSize)
	short := make([]string, 0, benchDiffSize/11)
	for i := range benchDiffSize / 11 {
		short = append(short, "line "+strconv.Itoa(100000 + i)[1:]+"\n")
	}
	shuffled := append([]string(nil), short...)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
	// 25,000 lines of one character: 50,000 characters.
	letters := letterLines(0x4E00, benchDiffSize/2)
	others := letterLines(0x4E00+benchDiffSize/2, benchDiffSize/2)
	reversed := slices.Clone(letters)
	slices.Reverse(reversed)
	interleaved := make([]string, 0, len(letters))
	for i := 0; len(interleaved) < len(letters); i++ {
		interleaved = append(interleaved, letters[i], others[i])
	}
	// Texts of this many distinct lines, with none in common, are the
	// longest under the cap: (n+m)*(n+m) lines of work. A few more, and the
	// cap's own search runs to about the cap before go-diff does.
	disjoint := int(math.Sqrt(maxDiffWork)) / 2
	searched := disjoint + disjoint/50
	// Texts of len(blank) lines and shift fewer: the shortest diff changes
	// shift+2 lines, as many as the cap lets go-diff find.
	shift := maxDiffWork/(2*len(blank)) - 2
	coin := func() []string { // blank and one-letter lines at random
		var lines []string
		for n := 0; n < benchDiffSize; n += len(lines[len(lines)-1]) {
			lines = append(lines, []string{"\n", "x\n"}[r.IntN(2)])
		}
		return lines
	}
	return []diffCase{
		// Ordinary prose: a few lines edited, and rewritten whole.
		{"prose-edits", join(text), join(editLines(r, text, 20))},
		{"prose-rewritten", join(text), join(other)},
		// Paragraphs moved: the first third of the text put last.
		{"prose-moved", join(text), join(text[len(text)/3:]) + join(text[:len(text)/3])},
		// One short line repeated, and the same with every other changed.
		{"repeated", join(same), join(repeat("- item\n+ item\n", benchDiffSize))},
		// Blank lines, and blank lines with a short line in every third.
		{"blank", join(blank), join(repeat("\n\n-\n", benchDiffSize))},
		// Blank lines against other lines: nothing in common.
		{"blank-vs-text", join(blank), join(repeat("x\n", benchDiffSize))},
		// One short line repeated, with a few lines changed.
		{"repeated-few-changes", join(same), join(editLines(r, same, 5))},
		// Blank lines, with a few lines changed.
		{"blank-few-changes", join(blank), join(editLines(r, blank, 5))},
		// Short distinct lines with every eighth changed: one hunk each.
		{"many-hunks", join(short), join(everyNth(short, 8, func(i int) string { return "changed " + strconv.Itoa(i) + "\n" }))},
		// The same short distinct lines in another order.
		{"shuffled", join(short), join(shuffled)},
		// Two texts of blank and one-letter lines drawn at random.
		{"random-blank", join(coin()), join(coin())},
		// One character a line, every line distinct: reversed, interleaved
		// with new lines, and against other such lines.
		{"letters-reversed", join(letters), join(reversed)},
		{"letters-interleaved", join(letters), join(interleaved)},
		{"letters-vs-others", join(letters), join(others)},
		{"blank-vs-letters", join(blank), join(letters)},
		// The costliest pairs under the cap: as many changes as it lets
		// go-diff find, spread evenly among blank, repeated or distinct
		// lines; and distinct lines with nothing in common.
		{"cap-blank", join(blank), join(spread(blank))},
		{"cap-blank-5000", join(blank[:5000]), join(spread(blank[:5000]))},
		{"cap-repeated", join(same), join(spread(same))},
		{"cap-letters", join(letters), join(spread(letters))},
		{"cap-letters-disjoint", join(letters[:disjoint]), join(others[:disjoint])},
		{"cap-letters-searched", join(letters[:searched]), join(spread(letters[:searched]))},
		// Blank lines between two others, against fewer blank lines and
		// another: go-diff looks for the second text whole at each line of
		// the first, and nearly finds it.
		{"cap-contained", "y\n" + join(blank[:len(blank)-2]) + "y\n", join(blank[:len(blank)-shift-1]) + "z\n"},
	}
}

// letterLines returns n lines of one character each, all distinct: BMP
// characters from first, each one UTF-16 unit as the service counts.
func letterLines(first rune, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = string(first+rune(i)) + "\n"
	}
	return lines
}

// spread replaces lines, evenly spaced from the first to the last, with
// lines found nowhere else: as many as the cost cap lets go-diff diff.
func spread(lines []string) []string {
	// k lines replaced: n+m is 2*len(lines), the shortest diff 2*k lines.
	k := maxDiffWork / (4 * len(lines))
	out := slices.Clone(lines)
	for i := range k {
		out[i*(len(out)-1)/max(1, k-1)] = "spread " + strconv.Itoa(i) + "\n"
	}
	return out
}

// BenchmarkUnifiedDiff diffs each pair of diffCases. Beside the time it
// reports the CPU time (cpu-ns/op, which other processes on a shared
// machine do not inflate as much), the size of the input (text-bytes, the
// longer text) and of the diff (diff-lines), so that a faster but coarser
// diff shows.
//
//	go test -run '^$' -bench Unified -benchtime 20x ./reconcile
func BenchmarkUnifiedDiff(b *testing.B) {
	for _, c := range diffCases() {
		b.Run(c.name, func(b *testing.B) {
			var d string
			start := cpuTime()
			for range b.N {
				d = Unified("a", "b", c.a, c.b)
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			b.ReportMetric(float64(max(len(c.a), len(c.b))), "text-bytes")
			b.ReportMetric(float64(strings.Count(d, "\n")), "diff-lines")
		})
	}
}

// cpuTime is the CPU time of the process so far, in nanoseconds.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
