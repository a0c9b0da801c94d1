package lint

import (
	"regexp"
	"regexp/syntax"
	"sync"
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
	// atLine is anchored, or nil when a match of the expression may
	// start other than at a line's start.
	atLine func() *regexp.Regexp
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
	e.atLine = sync.OnceValue(func() *regexp.Regexp {
		if re, err := syntax.Parse(src, syntax.Perl); err != nil || !startsAtLine(re) {
			return nil
		}
		return e.anchored()
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
