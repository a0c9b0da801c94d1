package mdcut

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/lineartest"
)

func TestCut(t *testing.T) {
	const note = "\n[cut]\n"
	tests := []struct {
		name  string
		in    string
		limit int
		size  func(string) int
		want  string
	}{
		{"fits", "a\nb\n", 4, Bytes, "a\nb\n"},
		{"whole lines", "aaa\nbbb\nccc\n", 11, Bytes, "aaa\n" + note},
		{"fence closed", "x\n```diff\n+1\n+2\n+3\n+4\n", 21, Bytes, "x\n```diff\n" + "```\n" + note},
		{"details closed", "<details>\n\n```\nlong line\n```\n</details>\n", 39, Bytes, "<details>\n\n```\n```\n</details>\n" + note},
		{"first line cut inside", "éééééééééééé", 10, Runes, "éé\n" + note},
		{"bytes never split a rune", "ééééééé", 12, Bytes, "éé\n" + note},
		{"no room but for the note", "abcdefghijk", 7, Bytes, note},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Cut(tt.in, tt.limit, note, tt.size)
			if got != tt.want {
				t.Errorf("Cut(%q, %d) = %q, want %q", tt.in, tt.limit, got, tt.want)
			}
			if tt.size(got) > tt.limit || !utf8.ValidString(got) {
				t.Errorf("result %q is over %d or not UTF-8", got, tt.limit)
			}
			if got != tt.in && !strings.HasSuffix(got, note) {
				t.Errorf("result %q has no note", got)
			}
		})
	}
}

// cutByJoin is Cut as it was, joining and measuring each prefix again
// for each line it takes off: the oracle of the counts Cut keeps.
func cutByJoin(s string, limit int, note string, size func(string) int) string {
	if size(s) <= limit {
		return s
	}
	lines := strings.SplitAfter(s, "\n")
	budget := limit - size(note)
	n, used := 0, 0
	for n < len(lines) && used+size(lines[n]) <= budget {
		used += size(lines[n])
		n++
	}
	for ; n >= 0; n-- {
		kept := strings.Join(lines[:n], "")
		if n == 0 {
			kept = cutTo(lines[0], budget-1, size)
		}
		out := kept + closers(kept) + note
		if size(out) <= limit {
			return out
		}
	}
	return cutTo(note, limit, size)
}

// TestCutAsJoined holds Cut to the cut it replaced, for documents of up
// to five lines of fences, <details> and text, at every limit.
func TestCutAsJoined(t *testing.T) {
	parts := []string{"<details>\n", "</details>\n", "```diff\n", "x\n", "é<details><details>\n", "tail"}
	var docs func(prefix string, n int)
	docs = func(prefix string, n int) {
		for limit := 0; limit <= len(prefix)+2; limit++ {
			for _, size := range []func(string) int{Bytes, Runes} {
				if got, want := Cut(prefix, limit, "\n_cut_\n", size), cutByJoin(prefix, limit, "\n_cut_\n", size); got != want {
					t.Fatalf("Cut(%q, %d) = %q, joined %q", prefix, limit, got, want)
				}
			}
		}
		if n == 0 {
			return
		}
		for _, p := range parts {
			docs(prefix+p, n-1)
		}
	}
	docs("", 5)
}

// TestCutLinear: a document of many <details> lines cut to half its size
// must close each that the cut leaves open, and Cut took a line off at a
// time, joining and reading the prefix again: 64,000 such lines took 22
// s, where a GitLab drift issue holds a million characters of a plan. It
// allocates what the document and its cut hold.
func TestCutLinear(t *testing.T) {
	cut := func(n int) string {
		s := strings.Repeat("<details>\n", n)
		return Cut(s, len(s)/2, "\n_cut_\n", Runes)
	}
	if got := cut(100); Runes(got) > 500 || !strings.HasSuffix(got, "</details>\n\n_cut_\n") || strings.Count(got, "<details>") != strings.Count(got, "</details>") {
		t.Fatalf("cut of 100 <details> lines to 500 characters: %q", got)
	}
	lineartest.Allocs(t, 2000, func(n int) { cut(n) })
}

// BenchmarkCutDetails cuts a document of n <details> lines to half its
// size.
func BenchmarkCutDetails(b *testing.B) {
	for _, n := range []int{8000, 16000, 32000, 64000} {
		s := strings.Repeat("<details>\n", n)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Cut(s, len(s)/2, "\n_cut_\n", Runes)
			}
		})
	}
}
