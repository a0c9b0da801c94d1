package lint

import (
	"bytes"
	"hash/fnv"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
)

//go:generate go test -run TestGeneratedTables -update

// A prefilter is a cheap test that a stretch of text may hold a match of
// an expression: every match holds one literal of each group, and a run
// of at least runLen bytes of runSet. What fails it is never matched.
type prefilter struct {
	groups []int // indexes of the literal groups of a [Judge]
	runSet *[256]bool
	runLen int
	// lines[k] is the line test of a try at the detector's anchor k,
	// for an expression tried at its anchors.
	lines []lineTest
	// starts, for an expression run over windows, are strings every
	// match starts with, and first their first bytes; nil when unknown.
	starts []string
	first  *[256]bool
}

// A lineTest passes a try whose text starts as a match of one of its
// branches starts and holds what the branch's line groups say; a test
// with no branch passes every try.
type lineTest []testBranch

type testBranch struct {
	steps []testStep
	lines []lineGroup
}

// A testStep is what a match holds next: one of strs, or a run of bytes
// of class.
type testStep struct {
	strs  []string
	class *[256]bool
}

// A branch is a part of an expression tried at an anchor: the
// expression's matches are those of its branches. Every match of the
// branch starts with one of starts (nil: with anything), then holds its
// steps from its start on, and what its line groups say.
type branch struct {
	starts []string
	steps  []step
	lines  []lineGroup
}

// A step is what a match of a branch holds next: one of strs, or a run
// of bytes of class, as ranges (first, last, first, last...). A string
// after a run begins with a byte outside it, so the run ends there.
type step struct {
	strs  []string
	class string
}

// A lineGroup is a set of literals of which every match holds one within
// its first nl+1 lines; none holds a line break.
type lineGroup struct {
	lits []string
	nl   int
}

// A derivation is what a prefilter is made from: the literal groups of
// an expression, or, for one matched against raw text, the bytes of which
// every match holds a run of runLen (see [byteRun]).
type derivation struct {
	groups   [][]string
	run      string // the set of bytes as ranges: first, last, first, last...
	runLen   int
	branches []branch
}

// derive derives the prefilter of expr. New reads what tables_gen.go
// stores instead, so that it parses no expression the tables hold.
func derive(expr string, raw bool) derivation {
	if raw {
		if set, n := byteRun(expr); set != nil {
			return derivation{run: setRanges(set), runLen: n}
		}
	}
	d := derivation{groups: literalGroups(expr, raw)}
	if !raw {
		d.branches = branchesOf(expr)
	}
	return d
}

// runSet is the set of the bytes of d's run.
func (d derivation) runSet() *[256]bool {
	return rangeSet(d.run)
}

// A storedDerivation is the derivation of an expression of a detector
// matched against folded text, stored with the expression's hash.
type storedDerivation struct {
	sum     uint64
	derived derivation
}

// exprSum is the FNV-1a hash of expr, by which detectorTable finds it.
func exprSum(expr string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(expr))
	return h.Sum64()
}

// lookupDerivation is the derivation tables_gen.go stores for the
// expression of a detector.
func lookupDerivation(expr string) (derivation, bool) {
	sum := exprSum(expr)
	i := sort.Search(len(detectorTable), func(i int) bool { return detectorTable[i].sum >= sum })
	if i < len(detectorTable) && detectorTable[i].sum == sum {
		return detectorTable[i].derived, true
	}
	return derivation{}, false
}

// detectorDerivation is the derivation of the expression of a detector:
// stored, or derived when the tables are older than the expression.
func detectorDerivation(expr string) derivation {
	if d, ok := lookupDerivation(expr); ok {
		return d
	}
	return derive(expr, false)
}

// minLiteral is the shortest literal a prefilter looks for: shorter ones
// are everywhere, and would wake the automaton at every other byte.
const minLiteral = 4

// maxLiterals bounds the literals of one group.
const maxLiterals = 64

// minRun is the shortest run of a set of bytes a prefilter tests for: a
// token's body, which shorter runs of words and numbers do not imitate.
const minRun = 12

// literalGroups lists groups of literals of which every match of expr
// holds one of each, as the folded text spells them. raw says expr is
// matched against the raw text, whose letters the folded text lowers:
// only ASCII literals then count.
func literalGroups(expr string, raw bool) [][]string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	re = re.Simplify()
	var groups [][]string
	var each func(n *syntax.Regexp)
	each = func(n *syntax.Regexp) {
		switch {
		case n.Op == syntax.OpCapture || n.Op == syntax.OpPlus || n.Op == syntax.OpRepeat && n.Min >= 1:
			each(n.Sub[0])
		case n.Op == syntax.OpConcat:
			// Each part of a concatenation is in every match.
			for _, sub := range n.Sub {
				each(sub)
			}
		default:
			if set, ok := literals(n, raw); ok && score(set) >= minLiteral {
				groups = append(groups, set)
			}
		}
	}
	each(re)
	return groups
}

// literals is a set of literals of which every match of n holds one, or
// false when n has none worth looking for.
func literals(n *syntax.Regexp, raw bool) ([]string, bool) {
	switch n.Op {
	case syntax.OpLiteral:
		s, ok := literalText(n.Rune, n.Flags&syntax.FoldCase != 0, raw)
		return []string{s}, ok
	case syntax.OpCharClass:
		if len(n.Rune) == 2 && n.Rune[0] == n.Rune[1] {
			s, ok := literalText(n.Rune[:1], false, raw)
			return []string{s}, ok
		}
	case syntax.OpCapture, syntax.OpPlus:
		return literals(n.Sub[0], raw)
	case syntax.OpRepeat:
		if n.Min >= 1 {
			return literals(n.Sub[0], raw)
		}
	case syntax.OpConcat:
		var best []string
		for _, sub := range n.Sub {
			if set, ok := literals(sub, raw); ok && (best == nil || better(set, best)) {
				best = set
			}
		}
		// What the parts from one on start with may be longer than
		// any part alone: "." then "ssh" or "aws".
		for k := range n.Sub {
			if raw {
				break
			}
			set := startsOf(&syntax.Regexp{Op: syntax.OpConcat, Flags: n.Flags, Sub: n.Sub[k:]})
			if set != nil && len(set) <= maxLiterals && (best == nil || better(set, best)) {
				best = set
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		seen := map[string]bool{}
		var all []string
		for _, sub := range n.Sub {
			set, ok := literals(sub, raw)
			if !ok {
				return nil, false
			}
			for _, s := range set {
				if !seen[s] {
					seen[s] = true
					all = append(all, s)
				}
			}
		}
		return all, len(all) <= maxLiterals
	}
	return nil, false
}

// literalText is the literal rs as the folded text holds it wherever a
// match holds rs, or false when that is not known.
func literalText(rs []rune, foldCase, raw bool) (string, bool) {
	s := string(rs)
	ascii := true
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 0x80:
			ascii = false
		case raw && (c == '\\' || c == '`' || c == '\n' || c == '\r'):
			return "", false // what blankContinuations may blank
		}
	}
	switch {
	case ascii && (raw || foldCase):
		// The folded text lowers ASCII letters and folds the letters
		// that match them in any case (the Kelvin sign, the long s).
		return strings.ToLower(s), true
	case raw || foldCase:
		return "", false
	}
	return s, true
}

// score is the length of the shortest literal of set: how rare a match
// of the set is likely to be.
func score(set []string) int {
	n := -1
	for _, s := range set {
		if n < 0 || len(s) < n {
			n = len(s)
		}
	}
	return n
}

func better(a, b []string) bool {
	sa, sb := score(a), score(b)
	return sa > sb || sa == sb && len(a) < len(b)
}

// byteRun finds in expr, matched against raw text, a set of bytes of
// which every match holds a run of at least minRun, or returns 0.
func byteRun(expr string) (*[256]bool, int) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, 0
	}
	r := runOf(re.Simplify())
	if r.n < minRun || r.set[' '] || r.set['\n'] {
		return nil, 0
	}
	return &r.set, r.n
}

// A run says that every match of a node holds n bytes in a row from set;
// whole says the match is made of such bytes only.
type run struct {
	set   [256]bool
	n     int
	whole bool
}

func runOf(n *syntax.Regexp) run {
	switch n.Op {
	case syntax.OpLiteral:
		var r run
		for _, c := range []byte(string(n.Rune)) {
			r.add(c, n.Flags&syntax.FoldCase != 0)
		}
		r.n, r.whole = len(string(n.Rune)), true
		return r
	case syntax.OpCharClass:
		var r run
		for i := 0; i+1 < len(n.Rune); i += 2 {
			for c := n.Rune[i]; c <= n.Rune[i+1] && c < 0x80; c++ {
				r.set[c] = true
			}
			if n.Rune[i+1] >= 0x80 {
				r.setHigh()
			}
		}
		r.n, r.whole = 1, true
		return r
	case syntax.OpAnyCharNotNL, syntax.OpAnyChar:
		var r run
		for c := range r.set {
			r.set[c] = c != '\n' || n.Op == syntax.OpAnyChar
		}
		r.n, r.whole = 1, true
		return r
	case syntax.OpCapture:
		return runOf(n.Sub[0])
	case syntax.OpStar, syntax.OpQuest, syntax.OpPlus, syntax.OpRepeat:
		r := runOf(n.Sub[0])
		min := 1
		switch n.Op {
		case syntax.OpStar, syntax.OpQuest:
			min = 0
		case syntax.OpRepeat:
			min = n.Min
		}
		if !r.whole {
			if min == 0 {
				return run{}
			}
			return r
		}
		r.n *= min
		return r
	case syntax.OpConcat:
		var best, cur run
		cur.whole = true
		all := true
		for _, sub := range n.Sub {
			r := runOf(sub)
			if !r.whole || r.n == 0 {
				// A part that may be empty or holds other bytes ends
				// the run of the parts before it.
				if cur.n > best.n {
					best = cur
				}
				cur = run{whole: true}
				all = false
				if r.n > best.n {
					best = r
				}
				continue
			}
			cur.union(&r)
			cur.n += r.n
		}
		if cur.n > best.n {
			best = cur
		}
		best.whole = all
		return best
	case syntax.OpAlternate:
		var r run
		r.whole = true
		for i, sub := range n.Sub {
			s := runOf(sub)
			if i == 0 || s.n < r.n {
				r.n = s.n
			}
			r.union(&s)
			r.whole = r.whole && s.whole
		}
		return r
	}
	return run{}
}

func (r *run) add(c byte, foldCase bool) {
	r.set[c] = true
	if foldCase && c >= 0x80 {
		r.setHigh() // the other cases of a letter beyond ASCII
	}
	if foldCase && ('a' <= c|0x20 && c|0x20 <= 'z') {
		r.set[c|0x20], r.set[c&^0x20] = true, true
		r.setHigh() // the Kelvin sign and the long s fold to k and s
	}
}

// setHigh adds every byte of characters beyond ASCII.
func (r *run) setHigh() {
	for c := 0x80; c < 0x100; c++ {
		r.set[c] = true
	}
}

func (r *run) union(o *run) {
	for c, ok := range o.set {
		r.set[c] = r.set[c] || ok
	}
}

// hasRun reports whether b holds n bytes in a row from set.
func hasRun(b string, set *[256]bool, n int) bool {
	k := 0
	for i := 0; i < len(b); i++ {
		if !set[b[i]] {
			k = 0
			continue
		}
		if k++; k >= n {
			return true
		}
	}
	return false
}

// maxBranches bounds the branches an expression is split into.
const maxBranches = 64

// branchesOf splits expr, tried at an anchor, into branches, each with
// what its matches start with and its line groups, none of the literals
// with which a match starts, which are its anchor.
func branchesOf(expr string) []branch {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	var bs []branch
	for _, n := range split(re.Simplify()) {
		gs, _ := linesOf(n, true)
		bs = append(bs, branch{starts: startsOf(n), steps: stepsOf(n), lines: gs})
	}
	return bs
}

// stepsOf lists what every match of n holds from its start on: the
// strings its first parts spell, the runs of a class they repeat, up to
// the first part that is neither.
func stepsOf(n *syntax.Regexp) []step {
	parts := flatten(n)
	var steps []step
	var cur []string // what the parts since the last step spell
	flush := func() {
		if cur != nil {
			steps = append(steps, step{strs: cur})
			cur = nil
		}
	}
	for k := 0; k < len(parts); k++ {
		p := parts[k]
		if zeroWidth(p) {
			continue
		}
		if set, ok := exactSet(p); ok {
			if cur == nil {
				cur = []string{""}
			}
			if cur = product(cur, set); cur == nil {
				break
			}
			continue
		}
		flush()
		if class, ok := classRun(p); ok {
			steps = append(steps, step{class: class})
			continue
		}
		if set := firstStrings(parts[k:]); set != nil {
			steps = append(steps, step{strs: set})
		}
		break
	}
	flush()
	// A run must end where the string after it begins.
	for k := 0; k+1 < len(steps); k++ {
		if steps[k].class == "" {
			continue
		}
		set := rangeSet(steps[k].class)
		if steps[k+1].class != "" || slices.ContainsFunc(steps[k+1].strs, func(s string) bool { return s == "" || set[s[0]] }) {
			return steps[:k+1]
		}
	}
	return steps
}

// flatten lists the parts of a concatenation, those of the
// concatenations and groups it holds included.
func flatten(n *syntax.Regexp) []*syntax.Regexp {
	switch n.Op {
	case syntax.OpCapture:
		return flatten(n.Sub[0])
	case syntax.OpConcat:
		var all []*syntax.Regexp
		for _, sub := range n.Sub {
			all = append(all, flatten(sub)...)
		}
		return all
	}
	return []*syntax.Regexp{n}
}

// classRun is, as ranges of bytes, the class of which n matches a run of
// one or more characters, or false. Characters beyond ASCII stand for
// every byte they may hold.
func classRun(n *syntax.Regexp) (string, bool) {
	if n.Op != syntax.OpPlus && (n.Op != syntax.OpRepeat || n.Min < 1) || n.Sub[0].Op != syntax.OpCharClass {
		return "", false
	}
	var set [256]bool
	rs := n.Sub[0].Rune
	for i := 0; i+1 < len(rs); i += 2 {
		for c := rs[i]; c <= rs[i+1] && c < 0x80; c++ {
			set[c] = true
		}
		if rs[i+1] >= 0x80 {
			for c := 0x80; c < 0x100; c++ {
				set[c] = true
			}
		}
	}
	return setRanges(&set), true
}

// setRanges is set as ranges of bytes: first, last, first, last...
func setRanges(set *[256]bool) string {
	var ranges []byte
	for c := 0; c < len(set); c++ {
		if set[c] {
			lo := c
			for c+1 < len(set) && set[c+1] {
				c++
			}
			ranges = append(ranges, byte(lo), byte(c))
		}
	}
	return string(ranges)
}

// rangeSet is the set of the bytes of ranges, as setRanges writes them.
func rangeSet(ranges string) *[256]bool {
	var set [256]bool
	for i := 0; i+1 < len(ranges); i += 2 {
		for c := int(ranges[i]); c <= int(ranges[i+1]); c++ {
			set[c] = true
		}
	}
	return &set
}

// firstStrings lists strings of which every match of the parts in a row
// starts with one, or nil when that is not known.
func firstStrings(parts []*syntax.Regexp) []string {
	for len(parts) > 0 && zeroWidth(parts[0]) {
		parts = parts[1:]
	}
	if len(parts) == 0 {
		return nil
	}
	p := parts[0]
	if p.Op != syntax.OpQuest && p.Op != syntax.OpStar && (p.Op != syntax.OpRepeat || p.Min > 0) {
		return startsOf(p)
	}
	// An optional part: what it starts with, or what follows it.
	a, b := startsOf(p.Sub[0]), firstStrings(parts[1:])
	if a == nil || b == nil {
		return nil
	}
	for _, s := range b {
		if !slices.Contains(a, s) {
			a = append(a, s)
		}
	}
	if len(a) > maxLiterals {
		return nil
	}
	return a
}

// split lists expressions whose matches together are those of n: the
// branches of the alternations a match of n starts with.
func split(n *syntax.Regexp) []*syntax.Regexp {
	switch n.Op {
	case syntax.OpCapture:
		return split(n.Sub[0])
	case syntax.OpAlternate:
		var all []*syntax.Regexp
		for _, sub := range n.Sub {
			all = append(all, split(sub)...)
		}
		if len(all) > maxBranches {
			return []*syntax.Regexp{n}
		}
		return all
	case syntax.OpConcat:
		// The first part that takes text splits; the assertions before
		// it stay in every branch.
		k := 0
		for k < len(n.Sub) && zeroWidth(n.Sub[k]) {
			k++
		}
		if k == len(n.Sub) {
			break
		}
		parts := split(n.Sub[k])
		if len(parts) == 1 {
			break
		}
		all := make([]*syntax.Regexp, len(parts))
		for i, p := range parts {
			subs := append(append(slices.Clip(n.Sub[:k]), p), n.Sub[k+1:]...)
			all[i] = &syntax.Regexp{Op: syntax.OpConcat, Flags: n.Flags, Sub: subs}
		}
		return all
	}
	return []*syntax.Regexp{n}
}

func zeroWidth(n *syntax.Regexp) bool {
	switch n.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return true
	}
	return false
}

// startsOf lists strings of which every match of n starts with one, as
// the folded text spells them, or nil when that is not known.
func startsOf(n *syntax.Regexp) []string {
	switch n.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return startsOf(n.Sub[0])
	case syntax.OpRepeat:
		if n.Min >= 1 {
			return startsOf(n.Sub[0])
		}
	case syntax.OpAlternate:
		var all []string
		for _, sub := range n.Sub {
			set := startsOf(sub)
			if set == nil {
				return nil
			}
			for _, s := range set {
				if !slices.Contains(all, s) {
					all = append(all, s)
				}
			}
		}
		if len(all) > maxLiterals {
			return nil
		}
		return all
	case syntax.OpConcat:
		// The strings the first parts spell, then what the first part
		// that is not one of a few strings starts with.
		all := []string{""}
		for _, sub := range n.Sub {
			if set, ok := exactSet(sub); ok {
				if all = product(all, set); all == nil {
					return nil
				}
				continue
			}
			if set := startsOf(sub); set != nil {
				if p := product(all, set); p != nil {
					all = p
				}
			}
			break
		}
		if slices.Contains(all, "") {
			return nil
		}
		return all
	default:
		if set, ok := exactSet(n); ok && !slices.Contains(set, "") {
			return set
		}
	}
	return nil
}

// setStarts sets the strings with which every match of the branches
// starts, unless a branch may start with anything.
func (p *prefilter) setStarts(branches []branch) {
	var all []string
	for _, b := range branches {
		if b.starts == nil {
			return
		}
		all = append(all, b.starts...)
	}
	if len(all) == 0 {
		return
	}
	p.first = new([256]bool)
	for _, s := range all {
		// A string that starts with another is found where that one is.
		if !slices.ContainsFunc(all, func(o string) bool { return o != s && strings.HasPrefix(s, o) }) && !slices.Contains(p.starts, s) {
			p.starts = append(p.starts, s)
			p.first[s[0]] = true
		}
	}
}

// mayStart reports whether a match of b may start where the text starts
// with anchor.
func (b *branch) mayStart(anchor string) bool {
	if b.starts == nil {
		return true
	}
	for _, s := range b.starts {
		if strings.HasPrefix(anchor, s) || strings.HasPrefix(s, anchor) {
			return true
		}
	}
	return false
}

// linesOf lists line groups of n; first says a match of n starts the
// match of the expression, so literals that start n are left out. empty
// reports whether every match of n is empty.
func linesOf(n *syntax.Regexp, first bool) (gs []lineGroup, empty bool) {
	switch n.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return nil, true
	case syntax.OpLiteral, syntax.OpCharClass:
		set, ok := exactSet(n)
		if !ok || first || slices.Contains(set, "") {
			return nil, false
		}
		return []lineGroup{{lits: set}}, false
	case syntax.OpCapture:
		return linesOf(n.Sub[0], first)
	case syntax.OpPlus:
		return linesOf(n.Sub[0], first)
	case syntax.OpRepeat:
		if n.Min >= 1 {
			return linesOf(n.Sub[0], first)
		}
	case syntax.OpConcat:
		// A part's literals lie after the line breaks the parts before
		// it may hold. Parts that match a few strings only are joined
		// into the strings they spell together.
		nl, empty := 0, true
		var run []string  // what the parts of the current run spell
		runFirst := false // the run starts the match
		flush := func() {
			if len(run) > 0 && !runFirst && !slices.Contains(run, "") {
				gs = append(gs, lineGroup{run, nl})
			}
			run = nil
		}
		for _, sub := range n.Sub {
			if set, ok := exactSet(sub); ok {
				if run == nil {
					runFirst = first && empty
					run = set
				} else if p := product(run, set); p != nil {
					run = p
				} else {
					flush()
					runFirst, run = false, set
				}
				empty = empty && len(set) == 1 && set[0] == ""
				continue
			}
			flush()
			sgs, sempty := linesOf(sub, first && empty)
			for _, g := range sgs {
				gs = append(gs, lineGroup{g.lits, g.nl + nl})
			}
			empty = empty && sempty
			k, ok := maxBreaks(sub)
			if !ok {
				return gs, false
			}
			nl += k
		}
		flush()
		return gs, empty
	case syntax.OpAlternate:
		// Every branch holds a literal of the union of a group of each.
		var u lineGroup
		seen := map[string]bool{}
		for _, sub := range n.Sub {
			sgs, _ := linesOf(sub, first)
			if len(sgs) == 0 {
				return nil, false
			}
			best := sgs[0]
			for _, g := range sgs[1:] {
				if g.nl < best.nl || g.nl == best.nl && better(g.lits, best.lits) {
					best = g
				}
			}
			u.nl = max(u.nl, best.nl)
			for _, l := range best.lits {
				if !seen[l] {
					seen[l] = true
					u.lits = append(u.lits, l)
				}
			}
		}
		if len(u.lits) > maxLiterals {
			return nil, false
		}
		return []lineGroup{u}, false
	}
	return nil, false
}

// exactSet is the set of the strings n matches, as the folded text spells
// them, or false when it is not small or one holds a line break.
func exactSet(n *syntax.Regexp) ([]string, bool) {
	switch n.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpBeginText, syntax.OpEndLine, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}, true
	case syntax.OpLiteral:
		s, ok := literalText(n.Rune, n.Flags&syntax.FoldCase != 0, false)
		return []string{s}, ok && !strings.Contains(s, "\n")
	case syntax.OpCharClass:
		var set []string
		for i := 0; i+1 < len(n.Rune); i += 2 {
			for r := n.Rune[i]; r <= n.Rune[i+1]; r++ {
				if r == '\n' || r >= 0x80 || len(set) == maxClass {
					return nil, false
				}
				set = append(set, string(r))
			}
		}
		return set, true
	case syntax.OpCapture:
		return exactSet(n.Sub[0])
	case syntax.OpQuest:
		set, ok := exactSet(n.Sub[0])
		if !ok || slices.Contains(set, "") {
			return set, ok
		}
		return append(set, ""), len(set) < maxLiterals
	case syntax.OpConcat:
		all := []string{""}
		for _, sub := range n.Sub {
			set, ok := exactSet(sub)
			if !ok {
				return nil, false
			}
			if all = product(all, set); all == nil {
				return nil, false
			}
		}
		return all, true
	case syntax.OpAlternate:
		var all []string
		for _, sub := range n.Sub {
			set, ok := exactSet(sub)
			if !ok {
				return nil, false
			}
			for _, s := range set {
				if !slices.Contains(all, s) {
					all = append(all, s)
				}
			}
		}
		return all, len(all) <= maxLiterals
	}
	return nil, false
}

// maxClass bounds the characters of a class that [exactSet] spells out.
const maxClass = 8

// product is every string of a followed by one of b, or nil when there
// would be more than maxLiterals.
func product(a, b []string) []string {
	if len(a)*len(b) > maxLiterals {
		return nil
	}
	var p []string
	for _, x := range a {
		for _, y := range b {
			if !slices.Contains(p, x+y) {
				p = append(p, x+y)
			}
		}
	}
	return p
}

// maxBreaks is the most line breaks a match of n holds, or false when it
// has no bound.
func maxBreaks(n *syntax.Regexp) (int, bool) {
	switch n.Op {
	case syntax.OpLiteral:
		return strings.Count(string(n.Rune), "\n"), true
	case syntax.OpCharClass:
		for i := 0; i+1 < len(n.Rune); i += 2 {
			if n.Rune[i] <= '\n' && '\n' <= n.Rune[i+1] {
				return 1, true
			}
		}
		return 0, true
	case syntax.OpAnyChar:
		return 1, true
	case syntax.OpCapture, syntax.OpQuest:
		return maxBreaks(n.Sub[0])
	case syntax.OpStar, syntax.OpPlus, syntax.OpRepeat:
		k, ok := maxBreaks(n.Sub[0])
		switch {
		case !ok:
			return 0, false
		case k == 0:
			return 0, true
		case n.Op != syntax.OpRepeat || n.Max < 0:
			return 0, false
		}
		return k * n.Max, true
	case syntax.OpConcat, syntax.OpAlternate:
		// A concatenation holds the breaks of all its parts, an
		// alternation those of one.
		most := 0
		for _, sub := range n.Sub {
			k, ok := maxBreaks(sub)
			if !ok {
				return 0, false
			}
			if n.Op == syntax.OpConcat {
				most += k
			} else {
				most = max(most, k)
			}
		}
		return most, true
	}
	return 0, true // empty-width assertions, and what matches no line break
}

// holds reports whether b, a try's text from its anchor on, starts as
// a match of one branch of t starts and holds what its line groups say.
func (t lineTest) holds(b []byte) bool {
	for _, br := range t {
		if follows(b, br.steps) && holdsLines(b, br.lines) {
			return true
		}
	}
	return len(t) == 0
}

// follows reports whether b starts with what steps say.
func follows(b []byte, steps []testStep) bool {
	if len(steps) == 0 {
		return true
	}
	st := steps[0]
	if st.class != nil {
		n := 0
		for n < len(b) && st.class[b[n]] {
			n++
		}
		return n > 0 && follows(b[n:], steps[1:])
	}
	for _, s := range st.strs {
		if bytes.HasPrefix(b, []byte(s)) && follows(b[len(s):], steps[1:]) {
			return true
		}
	}
	return false
}

// holdsLines reports whether b, a match's text from its start on, holds
// a literal of each line group of gs within the lines the group allows.
func holdsLines(b []byte, gs []lineGroup) bool {
	for _, g := range gs {
		end := 0
		for k := 0; k <= g.nl; k++ {
			i := bytes.IndexByte(b[end:], '\n')
			if i < 0 {
				end = len(b)
				break
			}
			end += i + 1
		}
		if !holdsAny(b[:end], g.lits) {
			return false
		}
	}
	return true
}

func holdsAny(b []byte, lits []string) bool {
	for _, l := range lits {
		if bytes.Contains(b, []byte(l)) {
			return true
		}
	}
	return false
}
