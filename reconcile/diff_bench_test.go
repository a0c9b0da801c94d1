package reconcile

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// benchDiffSize is the size of each text the diff benchmarks compare: the
// 50,000 characters of issue 15, which asks at most 50 ms of any pair.
const benchDiffSize = 50_000

// benchWords is the vocabulary of the generated prose.
var benchWords = strings.Fields(`the a skill agent review code change test file
	repository space plan apply drift instruction note when then always never
	should must check each line before after write read commit branch merge
	pull request comment issue report error warning hint run build deploy`)

// prose makes about size characters of markdown: headings, paragraphs of
// wrapped lines, lists, and blank lines between them, as skills are written.
// Nearly every line is distinct, as in real text.
func prose(r *rand.Rand, size int) []string {
	var lines []string
	n := 0
	add := func(l string) {
		lines = append(lines, l+"\n")
		n += len(l) + 1
	}
	sentence := func() string {
		w := make([]string, 6+r.IntN(10))
		for i := range w {
			w[i] = benchWords[r.IntN(len(benchWords))]
		}
		return strings.Join(w, " ") + "."
	}
	for section := 1; n < size; section++ {
		add("## Section " + strconv.Itoa(section) + ": " + sentence())
		add("")
		for p := 0; p < 3 && n < size; p++ {
			var line string
			for range 4 + r.IntN(4) {
				s := sentence()
				if len(line)+len(s) > 72 {
					add(line)
					line = ""
				}
				line = strings.TrimPrefix(line+" "+s, " ")
			}
			add(line)
			add("")
		}
		for range r.IntN(5) {
			add("- " + sentence())
		}
		add("")
	}
	return lines
}

// repeat returns the lines of pattern repeated to about size characters.
func repeat(pattern string, size int) []string {
	one := splitLines(pattern)
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

// diffCases are the adversarial pairs of issue 15 and ordinary ones, each
// text of about benchDiffSize characters.
func diffCases() []diffCase {
	r := rand.New(rand.NewPCG(15, 2))
	text := prose(r, benchDiffSize)
	other := prose(r, benchDiffSize)
	join := func(lines []string) string { return strings.Join(lines, "") }
	same := repeat("- item\n", benchDiffSize)
	blank := repeat("\n", benchDiffSize)
	short := make([]string, 0, benchDiffSize/11)
	for i := range benchDiffSize / 11 {
		short = append(short, "line "+strconv.Itoa(100000 + i)[1:]+"\n")
	}
	shuffled := append([]string(nil), short...)
	r.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
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
	}
}

// BenchmarkUnifiedDiff diffs each pair of diffCases. Beside the time it
// reports the size of the input (text-bytes, the longer text) and of the
// diff (diff-lines), so that a faster but coarser diff shows.
//
//	go test -run '^$' -bench UnifiedDiff -benchtime 20x ./reconcile
func BenchmarkUnifiedDiff(b *testing.B) {
	for _, c := range diffCases() {
		b.Run(c.name, func(b *testing.B) {
			var d string
			for range b.N {
				d = UnifiedDiff("a", "b", c.a, c.b)
			}
			b.ReportMetric(float64(max(len(c.a), len(c.b))), "text-bytes")
			b.ReportMetric(float64(strings.Count(d, "\n")), "diff-lines")
		})
	}
}
