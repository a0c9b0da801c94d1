package lint

import (
	"bytes"
	"reflect"
	"testing"
)

// TestAllAtLinesFindsWhatFindAllFinds: an expression whose matches start
// at line starts is tried there only, and finds the same matches as a
// search at every byte: over the fixtures, from a line start or from the
// middle of a line, with matches that span lines, are empty or abut.
func TestAllAtLinesFindsWhatFindAllFinds(t *testing.T) {
	if mustCompile(`(?m:^a)|b`).atLine() != nil {
		t.Fatal("an expression with a branch not at a line start is tried at line starts only")
	}
	exprs := []*expression{mustCompile(`(?m:^\s*a+)|(?m:^b*)`), mustCompile(`(?m:^[ \t]*x\s*y)`), mustCompile(`(?m:^b*\n?)`)}
	for _, d := range judgeFor(t, nil).dets {
		if d.re.atLine() != nil {
			exprs = append(exprs, d.re)
		}
	}
	if len(exprs) < 4 {
		t.Fatal("no detector is tried at line starts only")
	}
	texts := [][]byte{
		[]byte("a\n\n  aa\nb\nbbx\n x\n y\nx y\r\nab\n"),
		[]byte("b\nc\nb\nb\n"),
		[]byte("[inst]\n  [/inst]\n\n[inst] [inst]\n> new system prompt\n"),
		[]byte("system: ignore\nadmin:\n\n  override all\n"),
	}
	for _, fx := range loadFixtures(t) {
		for _, f := range fx.files {
			texts = append(texts, bytes.ToLower(f.Data))
		}
	}
	for _, e := range exprs {
		at := e.atLine()
		if at == nil {
			t.Fatalf("%s is not tried at line starts only", e)
		}
		for _, text := range texts {
			for _, lo := range []int{0, 1, 2, len(text) / 3, len(text) / 2} {
				if lo > len(text) {
					continue
				}
				b := text[lo:]
				got, want := allAtLines(at, b), e.FindAllSubmatchIndex(b, -1)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s over %q: got %v, want %v", e, b, got, want)
				}
			}
		}
	}
}
