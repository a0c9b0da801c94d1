// Package suggest finds the word a user most likely meant when they wrote
// one skillsync does not know: a misspelt command, flag or key. [Closest]
// is the one rule of "did you mean" for the whole program, so that a typo
// is caught, or not, the same way wherever it is made.
//
// Closeness is the optimal string alignment distance ([Distance]): the
// Damerau-Levenshtein distance in which swapping two neighbouring letters,
// the commonest typo ("plna"), is one edit.
package suggest

import "strings"

// maxLen bounds the words compared: longer ones are no typo of a name, and
// the distance costs len(a)*len(b).
const maxLen = 64

// Distance is the optimal string alignment distance between a and b,
// counted in bytes: the fewest insertions, deletions, substitutions and
// swaps of two neighbouring bytes that turn one into the other. Words over
// 64 bytes are too far from anything: Distance returns a number larger
// than any reach of [Closest].
func Distance(a, b string) int {
	if len(a) > maxLen || len(b) > maxLen {
		return 2 * maxLen
	}
	// Three rows of the table: two back for a swap, one for the rest.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// Reach is how many edits away from a known word of n bytes a typo of it
// may be: two from six bytes on, one for a shorter word, where two edits
// make most words of its length, and none under three bytes, where one
// does ("o" is one edit from "h").
func Reach(n int) int {
	switch {
	case n >= 6:
		return 2
	case n >= 3:
		return 1
	}
	return 0
}

// Closest returns the candidate that word is most likely a typo of, case
// ignored: the nearest one within [Reach] of the candidate's length, the
// first of equals; failing that, the one candidate that word abbreviates
// ("warn" for "warning", -o for --out); "" when none is that near, or word
// is empty. A candidate equal to word is its own answer.
func Closest(word string, candidates []string) string {
	if word == "" {
		return ""
	}
	w := strings.ToLower(word)
	best, bestD := "", 0
	for _, c := range candidates {
		d := Distance(w, strings.ToLower(c))
		if d <= Reach(len(c)) && (best == "" || d < bestD) {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	var prefixed []string
	for _, c := range candidates {
		if lc := strings.ToLower(c); len(lc) > len(w) && strings.HasPrefix(lc, w) {
			prefixed = append(prefixed, c)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}
