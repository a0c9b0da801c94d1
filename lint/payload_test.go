package lint

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestBlobRuns: the runs blobRuns reads, looking at few bytes, are the
// runs of minBlob characters of base64 or more that reading every byte
// finds, on random text of words, blobs and runs just short of a blob,
// and on the fixtures.
func TestBlobRuns(t *testing.T) {
	every := func(raw string) [][2]int {
		var out [][2]int
		for lo := 0; lo < len(raw); {
			if !isB64(raw[lo]) {
				lo++
				continue
			}
			hi := lo
			for hi < len(raw) && isB64(raw[hi]) {
				hi++
			}
			if hi-lo >= minBlob {
				out = append(out, [2]int{lo, hi})
			}
			lo = hi
		}
		return out
	}
	check := func(raw string) int {
		t.Helper()
		var got [][2]int
		blobRuns(raw, func(lo, hi int) { got = append(got, [2]int{lo, hi}) })
		if want := every(raw); !slices.Equal(got, want) {
			t.Fatalf("%q: blobRuns reads %v, reading every byte finds %v", raw, got, want)
		}
		return len(got)
	}
	r := rand.New(rand.NewPCG(11, 12))
	pieces := []string{"a", " ", "\n", "word ", "é", "(", "=", "/", strings.Repeat("Ab9+", 9), strings.Repeat("x", minBlob-1),
		strings.Repeat("Q", minBlob), strings.Repeat("z", minBlob+1), "aGVsbG8gd29ybGQ="}
	bothWays(t, r, pieces, 16, func(s string) bool { return check(s) > 0 })
	for _, f := range loadFixtures(t) {
		for _, file := range f.files {
			check(string(file.Data))
		}
	}
}
