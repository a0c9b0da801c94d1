package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// fencesByLine is the definition of [fencedBlocks]: each line is read,
// and one that opens with a marker after spaces opens a block, or closes
// the open one when the markers are the same.
func fencesByLine(raw string) [][2]int {
	var out [][2]int
	open, marker := -1, ""
	for off := 0; off < len(raw); {
		end := strings.IndexByte(raw[off:], '\n')
		if end < 0 {
			end = len(raw)
		} else {
			end += off
		}
		line := strings.TrimLeft(raw[off:end], " ")
		for _, m := range []string{"```", "~~~"} {
			if !strings.HasPrefix(line, m) {
				continue
			}
			switch {
			case open < 0:
				open, marker = off, m
			case m == marker:
				out = append(out, [2]int{open, end})
				open = -1
			}
		}
		off = end + 1
	}
	if open >= 0 {
		out = append(out, [2]int{open, len(raw)})
	}
	return out
}

// TestFencedBlocks: on texts of fences, indented or not, markers inside
// lines, backticks and tildes of other counts, and on the files of
// SKILLSYNC_LINT_CORPUS when set, fencedBlocks lists what reading each
// line finds.
func TestFencedBlocks(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	pieces := []string{"\n", "```", "~~~", "``", "~~", "`", "~", " ", "   ", "\t", "go", "a ```b", "x~~~", "\r\n", "````", "日本"}
	for range 50000 {
		raw := joinPieces(r, pieces, 16)
		if got, want := fencedBlocks(raw), fencesByLine(raw); !slices.Equal(got, want) {
			t.Fatalf("fencedBlocks(%q) = %v, want %v", raw, got, want)
		}
	}
	eachCorpusFile(t, func(path, raw string) {
		if got, want := fencedBlocks(raw), fencesByLine(raw); !slices.Equal(got, want) {
			t.Fatalf("%s: fencedBlocks = %v, want %v", path, got, want)
		}
	})
}

// TestInstructionLikeAsAlternation: trying the three expressions one by
// one finds what their alternation finds, on random text of their words
// and marks, and on the fixtures.
func TestInstructionLikeAsAlternation(t *testing.T) {
	whole := mustCompile(addressedOrder.String() + "|" + verbOrder.String() + "|" + systemOrder.String())
	check := func(b []byte) bool {
		t.Helper()
		if got, want := instructionLike(b), whole.Match(b); got != want {
			t.Fatalf("instructionLike(%q) = %v, the alternation says %v", b, got, want)
		}
		return whole.Match(b)
	}
	r := rand.New(rand.NewPCG(13, 14))
	pieces := []string{" ", "\n", ".", "<!--", "-->", "(", ">", "*", "you", "the agent", "model", "must", "should", "need to", "then ",
		"please, ", "run", "copy", "don't", "make sure to", "instructions for the ai", "system prompt", "system:", "word", "runs"}
	bothWays(t, r, pieces, 10, func(s string) bool { return check([]byte(s)) })
	for _, f := range loadFixtures(t) {
		for _, file := range f.files {
			check(newText(string(file.Data), &textBuf{}).fold)
		}
	}
}
