package mdcut

import (
	"strings"
	"testing"
	"unicode/utf8"
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
