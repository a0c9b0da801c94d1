package lint

import (
	"regexp"
	"regexp/syntax"
	"sync"
	"unicode"
	"unicode/utf8"
)

// An expression is a regular expression of the rules, compiled on its
// first use: a command judges few texts, and a text wakes few rules, so
// most expressions of a process are never run. It is safe for
// concurrent use.
type expression struct {
	src string
	re  func() *regexp.Regexp
	// anchored is the expression anchored at the start of its input;
	// behind is the same after one character, which its assertions see
	// as the character before the match.
	anchored, behind func() *regexp.Regexp
	// atLine is the expression tried at line starts, or nil when a match
	// of it may start other than at a line's start.
	atLine func() *lineStart
}

// A lineStart is an expression whose every match starts at a line's
// start, anchored, with the gates of which a line a match starts at
// passes one; with no gates it is tried at every line.
type lineStart struct {
	re    *regexp.Regexp
	gates []gate
}

// A gate says that a match starts with bytes of lead, then a byte of
// first; no byte is in both sets.
type gate struct {
	lead, first [256]bool
}

// find returns the submatches of the match at the start of b, or nil;
// it runs the expression only where a gate passes.
func (l *lineStart) find(b []byte) []int {
	if !l.mayStart(b) {
		return nil
	}
	return l.re.FindSubmatchIndex(b)
}

// mayStart reports whether b, the text from a line start on, passes a
// gate.
func (l *lineStart) mayStart(b []byte) bool {
	if l.gates == nil {
		return true
	}
	for i := range l.gates {
		g := &l.gates[i]
		k := 0
		for k < len(b) && g.lead[b[k]] {
			k++
		}
		if k < len(b) && g.first[b[k]] {
			return true
		}
	}
	return false
}

// mustCompile makes the expression src, compiled when first used. The
// expressions are fixed, so one that does not compile is a bug that
// TestExpressionsCompile catches.
func mustCompile(src string) *expression {
	e := &expression{
		src:      src,
		re:       sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) }),
		anchored: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A(?:` + src + `)`) }),
		behind:   sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\A(?s:.)(?:` + src + `)`) }),
	}
	e.atLine = sync.OnceValue(func() *lineStart {
		re, err := syntax.Parse(src, syntax.Perl)
		if err != nil || !startsAtLine(re) {
			return nil
		}
		return &lineStart{re: e.anchored(), gates: gatesOf(re)}
	})
	return e
}

// startsAtLine reports whether every match of re starts at a line's start.
func startsAtLine(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpBeginLine:
		return true
	case syntax.OpConcat, syntax.OpCapture:
		return len(re.Sub) > 0 && startsAtLine(re.Sub[0])
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !startsAtLine(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// gatesOf lists gates of which the line start of every match of n, an
// expression whose matches start at line starts, passes one; nil when a
// match may be empty or its start is not known.
func gatesOf(n *syntax.Regexp) []gate {
	switch n.Op {
	case syntax.OpCapture:
		return gatesOf(n.Sub[0])
	case syntax.OpAlternate:
		var gs []gate
		for _, sub := range n.Sub {
			sg := gatesOf(sub)
			if sg == nil {
				return nil
			}
			gs = append(gs, sg...)
		}
		return gs
	case syntax.OpConcat:
		if n.Sub[0].Op != syntax.OpBeginLine {
			break
		}
		rest := n.Sub[1:]
		var g gate
		if len(rest) > 0 && rest[0].Op == syntax.OpStar && oneChar(rest[0].Sub[0]) {
			lead, _ := firstBytes(rest[:1])
			first, empty := firstBytes(rest[1:])
			if !empty && !overlap(&lead, &first) {
				g.lead, g.first = lead, first
				return []gate{g}
			}
		}
		first, empty := firstBytes(rest)
		if !empty {
			g.first = first
			return []gate{g}
		}
	}
	return nil
}

// oneChar reports whether n matches one character, so that every byte
// it matches is among the bytes firstOf gives.
func oneChar(n *syntax.Regexp) bool {
	switch n.Op {
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return true
	case syntax.OpLiteral:
		return len(n.Rune) == 1
	}
	return false
}

func overlap(a, b *[256]bool) bool {
	for c := range a {
		if a[c] && b[c] {
			return true
		}
	}
	return false
}

// firstBytes returns the bytes a match of the parts in a row may start
// with, and whether it may be empty; an assertion counts as empty.
func firstBytes(parts []*syntax.Regexp) (set [256]bool, empty bool) {
	for _, n := range parts {
		s, e := firstOf(n)
		for c, ok := range s {
			set[c] = set[c] || ok
		}
		if !e {
			return set, false
		}
	}
	return set, true
}

func firstOf(n *syntax.Regexp) (set [256]bool, empty bool) {
	high := func() {
		for c := 0x80; c < 0x100; c++ {
			set[c] = true // every byte of a character beyond ASCII, or of bad UTF-8
		}
	}
	switch n.Op {
	case syntax.OpLiteral:
		if len(n.Rune) == 0 {
			return set, true
		}
		r := n.Rune[0]
		for f := r; ; {
			if f < utf8.RuneSelf {
				set[f] = true
			} else {
				high()
			}
			if f = unicode.SimpleFold(f); f == r || n.Flags&syntax.FoldCase == 0 {
				break
			}
		}
		return set, false
	case syntax.OpCharClass:
		for i := 0; i+1 < len(n.Rune); i += 2 {
			for c := n.Rune[i]; c <= n.Rune[i+1] && c < utf8.RuneSelf; c++ {
				set[c] = true
			}
			if n.Rune[i+1] >= utf8.RuneSelf {
				high()
			}
		}
		return set, false
	case syntax.OpNoMatch:
		return set, false
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		for c := range set {
			set[c] = c != '\n' || n.Op == syntax.OpAnyChar
		}
		return set, false
	case syntax.OpCapture, syntax.OpPlus:
		return firstOf(n.Sub[0])
	case syntax.OpStar, syntax.OpQuest:
		set, _ = firstOf(n.Sub[0])
		return set, true
	case syntax.OpRepeat:
		set, empty = firstOf(n.Sub[0])
		return set, empty || n.Min == 0
	case syntax.OpConcat:
		return firstBytes(n.Sub)
	case syntax.OpAlternate:
		for _, sub := range n.Sub {
			s, e := firstOf(sub)
			for c, ok := range s {
				set[c] = set[c] || ok
			}
			empty = empty || e
		}
		return set, empty
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return set, true
	}
	for c := range set {
		set[c] = true
	}
	return set, true
}

func (e *expression) String() string { return e.src }

func (e *expression) Match(b []byte) bool { return e.re().Match(b) }

func (e *expression) MatchString(s string) bool { return e.re().MatchString(s) }

func (e *expression) FindIndex(b []byte) []int { return e.re().FindIndex(b) }

func (e *expression) FindSubmatchIndex(b []byte) []int { return e.re().FindSubmatchIndex(b) }

func (e *expression) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return e.re().FindAllSubmatchIndex(b, n)
}

func (e *expression) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return e.re().FindAllStringSubmatchIndex(s, n)
}

func (e *expression) FindAllStringSubmatch(s string, n int) [][]string {
	return e.re().FindAllStringSubmatch(s, n)
}

func (e *expression) FindStringSubmatch(s string) []string { return e.re().FindStringSubmatch(s) }

func (e *expression) FindStringSubmatchIndex(s string) []int {
	return e.re().FindStringSubmatchIndex(s)
}

func (e *expression) FindStringIndex(s string) []int { return e.re().FindStringIndex(s) }

func (e *expression) FindAllString(s string, n int) []string { return e.re().FindAllString(s, n) }
