package lint

import (
	"regexp"
	"sync"
)

// An expression is a regular expression of the rules, compiled on its
// first use: a command judges few texts, and a text wakes few rules, so
// most expressions of a process are never run. It is safe for
// concurrent use.
type expression struct {
	src string
	re  func() *regexp.Regexp
}

// mustCompile makes the expression src, compiled when first used. The
// expressions are fixed, so one that does not compile is a bug that
// TestExpressionsCompile catches.
func mustCompile(src string) *expression {
	return &expression{src: src, re: sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })}
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
