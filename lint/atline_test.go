package lint

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"regexp/syntax"
	"strings"
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
	for _, d := range judgeFor(nil).dets {
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

// TestAllAtStartsFindsWhatFindAllFinds: an expression run over windows
// whose matches start with known strings is tried where they occur only,
// and finds the same matches as a search at every byte: over the
// fixtures and over random text made of its own matches, words, line
// breaks and characters beyond ASCII, from several offsets, so that what
// lies before a start (a letter, a line break, part of a character)
// changes what the expression's assertions see.
func TestAllAtStartsFindsWhatFindAllFinds(t *testing.T) {
	j := judgeFor(nil)
	type run struct {
		e *expression
		p *prefilter
	}
	var runs []run
	for _, src := range []string{`\bab|(?m:^c)d|e\B`, `(?:x|\by)\s*z`, `ab+|a\b`} {
		e := mustCompile(src)
		p := &prefilter{}
		p.setStarts(derive(src, false).branches)
		runs = append(runs, run{e, p})
	}
	for i, d := range j.dets {
		if p := &j.detPre[i]; p.starts != nil {
			runs = append(runs, run{d.re, p})
		}
	}
	if len(runs) < 12 {
		t.Fatalf("only %d expressions are tried at their starts", len(runs))
	}
	var texts [][]byte
	for _, fx := range loadFixtures(t) {
		for _, f := range fx.files {
			texts = append(texts, newText(string(f.Data), &textBuf{}).fold)
		}
	}
	r := rand.New(rand.NewPCG(23, 9))
	noise := []string{" ", "\n", "a", "_", "é", "日", "\xe2", "\x80", "(", "'", "\"", "|", ">", "$("}
	for _, run := range runs {
		parsed, err := syntax.Parse(run.e.String(), syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		for range 20 {
			var b strings.Builder
			for range 12 {
				b.WriteString(noise[r.IntN(len(noise))])
				b.WriteString(run.p.starts[r.IntN(len(run.p.starts))])
				generate(r, &b, parsed.Simplify())
			}
			texts = append(texts, []byte(b.String()))
		}
	}
	found := 0
	for _, run := range runs {
		for _, text := range texts {
			for _, lo := range []int{0, 1, 2, len(text) / 3, len(text) / 2} {
				if lo > len(text) {
					continue
				}
				b := text[lo:]
				got, want := allAtStarts(run.e, run.p, b), run.e.FindAllSubmatchIndex(b, -1)
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%s over %q: got %v, want %v", run.e, b, got, want)
				}
				found += len(want)
			}
		}
	}
	if found < 1000 {
		t.Errorf("only %d matches found: the test shows little", found)
	}
}
