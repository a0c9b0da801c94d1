package lint

import (
	"regexp"
	"strings"
	"testing"
)

// TestPrefilterKeepsMatches: every match of every expression, in every
// fixture and rule example, passes its prefilter, so skipping what fails
// one never loses a finding.
func TestPrefilterKeepsMatches(t *testing.T) {
	j := judgeFor(t, nil)
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
