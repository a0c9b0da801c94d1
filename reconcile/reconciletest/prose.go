package reconciletest

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// vocabulary is the words of [Prose].
const vocabulary = `the a skill agent review code change test file
	repository space plan apply drift instruction note when then always never
	should must check each line before after write read commit branch merge
	pull request comment issue report error warning hint run build deploy`

// Prose makes about size characters of markdown: headings, paragraphs of
// wrapped lines, lists, and blank lines between them, as skills are written.
// Nearly every line is distinct, as in real text.
func Prose(r *rand.Rand, size int) []string {
	words := strings.Fields(vocabulary)
	var lines []string
	n := 0
	add := func(l string) {
		lines = append(lines, l+"\n")
		n += len(l) + 1
	}
	sentence := func() string {
		w := make([]string, 6+r.IntN(10))
		for i := range w {
			w[i] = words[r.IntN(len(words))]
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
