package lint

import (
	"bytes"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"
)

// TestPrefilterKeepsMatches: every match of every expression, in every
// fixture and rule example, passes its prefilter, so skipping what fails
// one never loses a finding.
func TestPrefilterKeepsMatches(t *testing.T) {
	j := judgeFor(nil)
	var texts []string
	for _, f := range loadFixtures(t) {
		for _, file := range f.files {
			texts = append(texts, string(file.Data))
		}
	}
	for _, r := range Rules {
		texts = append(texts, r.Example)
	}
	for _, gen := range hostileTexts() {
		texts = append(texts, gen(3))
	}
	texts = append(texts, "GITHUB_TOKEN=ghp_"+strings.Repeat("aB3dE6", 6), "AKIAQYLPMN5HHHFPZAM2", "SK"+strings.Repeat("0a1b2c3d", 4))
	dets := make([]*regexp.Regexp, len(j.dets))
	for i, d := range j.dets {
		// Anchored detectors are compiled as ^(?:expr): match expr anywhere.
		dets[i] = regexp.MustCompile(strings.TrimPrefix(d.re.String(), "^"))
	}
	checked, filtered := 0, 0
	for _, text := range texts {
		s := &scan{j: j, t: newText(text, &textBuf{})}
		s.fold = s.t.fold
		s.findLiterals(j.ac.appendHits(nil, s.fold))
		for i, re := range dets {
			for _, m := range re.FindAllIndex(s.fold, -1) {
				if m[0] == m[1] {
					continue
				}
				checked++
				if len(j.detPre[i].groups) > 0 {
					filtered++
				}
				if !s.passes(&j.detPre[i], m[0], m[1]) {
					t.Errorf("%s detector %q: the prefilter refuses its match %q", j.dets[i].rule, j.dets[i].anchors[0], s.fold[m[0]:m[1]])
				}
				for k, a := range j.dets[i].anchors {
					lines := j.detPre[i].lines
					if lines != nil && bytes.HasPrefix(s.fold[m[0]:], []byte(a)) && !lines[k].holds(s.fold[m[0]:m[1]]) {
						t.Errorf("%s detector %q: the line test of its anchor %q refuses its match %q", j.dets[i].rule, j.dets[i].anchors[0], a, s.fold[m[0]:m[1]])
					}
				}
			}
		}
		for i, l := range j.leaks {
			for _, m := range l.re.re().FindAllStringIndex(text, -1) {
				checked++
				lo, hi := s.foldSpan(m[0], m[1])
				if !s.leakPasses(i, lo, hi) {
					t.Errorf("secret rule %s: the prefilter refuses its match %q", l.id, text[m[0]:m[1]])
				}
				filtered++
			}
		}
	}
	t.Logf("%d matches, %d of them under a prefilter", checked, filtered)
	if filtered < 40 {
		t.Errorf("only %d matches were under a prefilter: the test shows little", filtered)
	}
}

// TestLineGroupsHoldInMatches: every string an expression tried at an
// anchor matches, made at random from the expression, passes the line
// test of each anchor it starts with, so the test that skips a try
// refuses no match.
func TestLineGroupsHoldInMatches(t *testing.T) {
	j := judgeFor(nil)
	r := rand.New(rand.NewPCG(23, 8))
	type tried struct {
		expr    string
		anchors []string
	}
	exprs := []tried{
		{`^(?:\bcurl\b[^\n]{0,30}?\s(?:-o|--output)\s+x)`, []string{"curl"}},
		{`^(?:ab[ \t]*\|[^\n]{0,9}?(?:cd|ef)|gh\n?\n?ij)`, []string{"ab", "gh"}},
		{`^(?:\b(?:a|b)c[ \t]*x|\bbc\d+y)`, []string{"ac", "bc"}},
		{`^(?:(?:k|l)[^\n]*m)`, []string{"k", "l"}},
		{`^(?:abc[^\n]*x|b[^\n]*z|ab[^\n]*y)`, []string{"ab", "b"}},
	}
	for i, d := range j.dets {
		if !d.window && j.detPre[i].lines != nil {
			exprs = append(exprs, tried{d.re.String(), d.anchors})
		}
	}
	tested := 0
	for _, e := range exprs {
		re := regexp.MustCompile(e.expr)
		parsed, err := syntax.Parse(e.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		tests := lineTests(derive(e.expr, false).branches, e.anchors)
		if tests == nil {
			t.Errorf("%q has no line test", e.expr)
			continue
		}
		for range 300 {
			var b strings.Builder
			generate(r, &b, parsed.Simplify())
			w := b.String()
			if m := re.FindStringIndex(w); m == nil || m[1] != len(w) {
				continue // what the assertions refuse
			}
			for k, a := range e.anchors {
				if !strings.HasPrefix(w, a) || tests[k] == nil {
					continue
				}
				tested++
				if !tests[k].holds([]byte(w)) {
					t.Fatalf("%q matches %q, which the line test %v of its anchor %q refuses", e.expr, w, tests[k], a)
				}
			}
		}
	}
	if tested < 1000 {
		t.Errorf("only %d strings matched: the test shows little", tested)
	}
}

// generate writes a string n matches, at random, as folded text holds
// it; assertions are left out.
func generate(r *rand.Rand, b *strings.Builder, n *syntax.Regexp) {
	repeat := func(lo, hi int) {
		if hi < 0 {
			hi = lo + 3
		}
		for range lo + r.IntN(hi-lo+1) {
			generate(r, b, n.Sub[0])
		}
	}
	switch n.Op {
	case syntax.OpLiteral:
		s := string(n.Rune)
		if n.Flags&syntax.FoldCase != 0 {
			s = strings.ToLower(s)
		}
		b.WriteString(s)
	case syntax.OpCharClass:
		k := 2 * r.IntN(len(n.Rune)/2)
		lo := n.Rune[k]
		hi := min(n.Rune[k+1], lo+40)
		c := lo + rune(r.IntN(int(hi-lo)+1))
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteRune(c)
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		b.WriteByte(" x\n"[r.IntN(2+int(n.Op-syntax.OpAnyCharNotNL))])
	case syntax.OpCapture:
		generate(r, b, n.Sub[0])
	case syntax.OpConcat:
		for _, sub := range n.Sub {
			generate(r, b, sub)
		}
	case syntax.OpAlternate:
		generate(r, b, n.Sub[r.IntN(len(n.Sub))])
	case syntax.OpStar:
		repeat(0, -1)
	case syntax.OpPlus:
		repeat(1, -1)
	case syntax.OpQuest:
		repeat(0, 1)
	case syntax.OpRepeat:
		repeat(n.Min, n.Max)
	}
}

// TestPrefilterExtraction: what the prefilters look for, on expressions
// whose literals and runs are known.
func TestPrefilterExtraction(t *testing.T) {
	for _, c := range []struct {
		expr string
		raw  bool
		want string
	}{
		{`\bcurl\s+\S+\s*\|\s*(?:bash|sh)\b`, false, "[curl]"},
		{`(?:ignore|disregard)_previous_(?:instructions|rules)`, false, "[ignore disregard] [_previous_] [instructions rules]"},
		{`(?i)\bAKIA[A-Z0-9]{16}\b`, true, "[akia]"},
		{`(?:ab|c)d`, false, ""},
		{`x*(?:secret)?`, false, ""},
		{`\\xff`, true, ""}, // blanked line continuations may change a backslash
	} {
		var got []string
		for _, g := range literalGroups(c.expr, c.raw) {
			got = append(got, "["+strings.Join(g, " ")+"]")
		}
		if strings.Join(got, " ") != c.want {
			t.Errorf("literalGroups(%q) = %v, want %s", c.expr, got, c.want)
		}
	}
	for _, c := range []struct {
		expr string
		n    int
		in   string
	}{
		{`ghp_[0-9a-zA-Z]{36}`, 40, "ghp_" + strings.Repeat("aB3", 12)},
		{`(?i)(?:live|test)_[a-f0-9]{35}`, 40, "LIVE_" + strings.Repeat("f", 35)},
		{`key\s*=\s*\w+`, 0, ""},
	} {
		set, n := byteRun(c.expr)
		if n != c.n {
			t.Errorf("byteRun(%q) = %d, want %d", c.expr, n, c.n)
			continue
		}
		if n > 0 && (!hasRun(c.in, set, n) || hasRun(c.in[1:], set, n)) {
			t.Errorf("byteRun(%q): the run of %q is not told from a shorter one", c.expr, c.in)
		}
	}
}
