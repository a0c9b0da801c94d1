package names

import (
	"strings"
	"testing"
)

// TestFoldCase: names are equal folded exactly when strings.EqualFold
// says they are.
func TestFoldCase(t *testing.T) {
	words := []string{"a", "A", "k", "K", "\u212a", "s", "S", "\u017f", "ß", "SS", "ss", "Σ", "σ", "ς", "é", "É", "x/Y.md", "X/y.MD", "\xff", "\xfe"}
	for _, a := range words {
		for _, b := range words {
			if got, want := FoldCase(a) == FoldCase(b), strings.EqualFold(a, b); got != want {
				t.Errorf("FoldCase(%q) == FoldCase(%q) is %t, EqualFold %t", a, b, got, want)
			}
		}
	}
}

// TestInGitDir: a path is git's own when a segment is .git as a file
// system may read it, and only then.
func TestInGitDir(t *testing.T) {
	for p, want := range map[string]bool{
		".git/config": true, "a/.GIT/hooks/x": true, "a/.git./x": true, "a/.git /x": true, "GIT~1/config": true,
		".gitignore": false, "a/git/x": false, "a/.github/x": false, "x.git": false,
	} {
		if got := InGitDir(p); got != want {
			t.Errorf("InGitDir(%q) = %t, want %t", p, got, want)
		}
	}
}
