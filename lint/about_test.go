package lint

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestWordIndexFirstOccurrence checks the one pass of a wordIndex against
// a search for each word: true when the first occurrence of some word
// starts a word, on random text made of the words, pieces of them and
// letters, and on the heads of the fixtures.
func TestWordIndexFirstOccurrence(t *testing.T) {
	words := securityTopics()
	x := newWordIndex(words)
	each := func(b []byte) bool {
		for _, w := range words {
			if i := bytes.Index(b, []byte(w)); i >= 0 && wordStart(b, i) {
				return true
			}
		}
		return false
	}
	check := func(b []byte) bool {
		t.Helper()
		if got, want := x.firstAtWordStart(b), each(b); got != want {
			t.Fatalf("firstAtWordStart(%q) = %v, a search for each word gives %v", b, got, want)
		}
		return each(b)
	}
	r := rand.New(rand.NewPCG(3, 4))
	pieces := []string{" ", "\n", "-", "a", "s", "x", "_", "counter", "anti", "é", "漏"}
	for _, w := range words {
		pieces = append(pieces, w, w[:len(w)/2], w[len(w)/2:])
	}
	bothWays(t, r, pieces, 12, func(s string) bool { return check([]byte(s)) })
	for _, f := range loadFixtures(t) {
		for _, file := range f.files {
			if file.Path == "SKILL.md" {
				check(newText(string(skillHead(file.Data[:min(len(file.Data), 1024)])), &textBuf{}).fold)
			}
		}
	}
}
