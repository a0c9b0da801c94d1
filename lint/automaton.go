package lint

import (
	"slices"
	"strings"
	"sync"
)

// An automaton finds every occurrence of a set of patterns in one pass
// over a text (Aho-Corasick), by a table of transitions over the classes
// of bytes the patterns hold. Every command that judges builds one, so
// the build copies each state's row from its failure state's, depth by
// depth, and allocates the table once.
type automaton struct {
	classes [256]uint32 // the class of each byte; 0 for bytes no pattern holds
	stride  uint32      // the number of classes
	// trans[s+class] is the state after state s reads a byte of class. A
	// state is the offset of its row (its number times stride), with
	// outFlag set when a pattern ends there or at a state its failure
	// links lead to.
	trans []uint32
	// out[n] is the pattern that ends at state number n, or -1; dict[n]
	// the nearest state number, by failure links, where one ends, or 0.
	out, dict []int32
	patterns  []string
	// wordOnly[id] says that pattern id counts only where a word starts
	// (see [wordStart]).
	wordOnly []bool
	deepest  int // the length of the longest pattern
	// later holds *[ways-1][]hit, memory for the hits of the parts of a
	// text after the first (see [automaton.appendHits]).
	later sync.Pool
}

const (
	outFlag = 1 << 31
	offMask = outFlag - 1
)

// A hit is an occurrence of pattern PatternID at text[Start:End].
type hit struct {
	PatternID, Start, End int
}

// newAutomaton builds the automaton of patterns, which are distinct and
// not empty; wordOnly, nil or by pattern, says which count only where a
// word starts.
func newAutomaton(patterns []string, wordOnly []bool) *automaton {
	a := &automaton{patterns: patterns, wordOnly: wordOnly}
	if wordOnly == nil {
		a.wordOnly = make([]bool, len(patterns))
	}
	var used [256]bool
	for _, p := range patterns {
		for i := 0; i < len(p); i++ {
			used[p[i]] = true
		}
	}
	n := uint32(1)
	for c, ok := range used {
		if ok {
			a.classes[c] = n
			n++
		}
	}
	a.stride = n

	// The trie, numbered depth by depth, so that the states near the
	// root, where the walk spends its time, share few rows of memory.
	// Sorted, the patterns that share a prefix are consecutive: a state
	// is the prefix of length d that a pattern shares with none before.
	order := make([]int, len(patterns))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(patterns[x], patterns[y]) })
	shared := make([]int, len(order)) // with the pattern before it
	states, deepest := 1, 0
	for k, id := range order {
		if k > 0 {
			shared[k] = commonPrefix(patterns[order[k-1]], patterns[id])
		}
		states += len(patterns[id]) - shared[k]
		deepest = max(deepest, len(patterns[id]))
	}
	parent := make([]uint32, states)
	label := make([]uint32, states) // the class of the byte that leads to it
	a.out = make([]int32, states)
	a.out[0] = -1
	at := make([]uint32, len(order))   // the state of the prefix read so far
	level := make([]uint32, deepest+2) // the states of depth d are level[d] to level[d+1]
	next := uint32(1)
	for d := 1; d <= deepest; d++ {
		level[d] = next
		for k, id := range order {
			p := patterns[id]
			if len(p) < d {
				continue
			}
			if shared[k] >= d {
				at[k] = at[k-1]
			} else {
				parent[next], label[next], a.out[next] = at[k], a.classes[p[d-1]], -1
				at[k] = next
				next++
			}
			if len(p) == d {
				a.out[at[k]] = int32(id)
			}
		}
	}
	level[deepest+1] = next
	a.deepest = deepest

	// Depth by depth: a state's failure state is shallower, so its row
	// is complete when the state's row copies it; the trie's own entries
	// then replace the copied ones.
	a.trans = make([]uint32, states*int(n))
	a.dict = make([]int32, states)
	fail := make([]uint32, states)
	row := func(s uint32) []uint32 { return a.trans[s*n : s*n+n] }
	for d := 1; d <= deepest; d++ {
		for u := level[d]; u < level[d+1]; u++ {
			if t := parent[u]; t != 0 {
				f := (row(fail[t])[label[u]] & offMask) / n
				fail[u] = f
				if a.out[f] >= 0 {
					a.dict[u] = int32(f)
				} else {
					a.dict[u] = a.dict[f]
				}
			}
		}
		for u := level[d]; u < level[d+1]; u++ {
			e := u * n
			if a.out[u] >= 0 || a.dict[u] != 0 {
				e |= outFlag
			}
			row(parent[u])[label[u]] = e
		}
		for u := level[d]; u < level[d+1]; u++ {
			copy(row(u), row(fail[u]))
		}
	}
	return a
}

func commonPrefix(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

// appendHits appends to hits every occurrence of the patterns in text, by
// where they end, the longer first where several end at one byte; an
// occurrence of a pattern that counts only at a word start is one there.
func (a *automaton) appendHits(hits []hit, text []byte) []hit {
	n := len(text) / ways
	if n < 4*a.deepest {
		return a.walk(hits, text, 0, 0)
	}
	// Walk k reports what ends in part k, text[k*n:(k+1)*n] (the last
	// part runs to the end). It starts deepest bytes early: a state is
	// the longest suffix read that a pattern starts with, so from k*n on
	// it is the state one walk from the start would reach.
	later, _ := a.later.Get().(*[ways - 1][]hit) // the hits of parts 1 to 3
	if later == nil {
		later = new([ways - 1][]hit)
	}
	for k := range later {
		later[k] = later[k][:0]
	}
	d := a.deepest
	var s [ways]uint32
	for i := 0; i < n; i++ {
		k, t := a.walk4(text[i:n], text[n-d+i:], text[2*n-d+i:], text[3*n-d+i:], s)
		if i += k; i == n {
			s = t
			break
		}
		for w, e := range t {
			s[w] = e & offMask
			switch {
			case e&outFlag == 0:
			case w == 0:
				hits = a.appendOut(hits, text, s[0], i)
			case i >= d: // within part w
				later[w-1] = a.appendOut(later[w-1], text, s[w], w*n-d+i)
			}
		}
	}
	// Walks 1 and 2 stopped deepest bytes short of their part's end.
	later[0] = a.walk(later[0], text[:2*n], s[1], 2*n-d)
	later[1] = a.walk(later[1], text[:3*n], s[2], 3*n-d)
	for _, l := range later {
		hits = append(hits, l...)
	}
	a.later.Put(later)
	return a.walk(hits, text, s[3], 4*n-d)
}

// ways is the number of walks appendHits makes at once, over the parts of
// a text, as walk4 takes them: each goes on while the others wait for
// memory.
const ways = 4

// walk4 walks x0 and, as far, x1, x2 and x3 at once from the states s, up
// to the first transition of any into a state where a pattern ends. It
// returns the bytes each read before that one, and the entries of the
// transitions on it; or len(x0) and the states the walks end in.
func (a *automaton) walk4(x0, x1, x2, x3 []byte, s [ways]uint32) (int, [ways]uint32) {
	trans, classes := a.trans, &a.classes
	x1, x2, x3 = x1[:len(x0)], x2[:len(x0)], x3[:len(x0)]
	s0, s1, s2, s3 := s[0], s[1], s[2], s[3]
	for i := range x0 {
		t0 := trans[s0+classes[x0[i]]]
		t1 := trans[s1+classes[x1[i]]]
		t2 := trans[s2+classes[x2[i]]]
		t3 := trans[s3+classes[x3[i]]]
		if (t0|t1|t2|t3)&outFlag != 0 {
			return i, [ways]uint32{t0, t1, t2, t3}
		}
		s0, s1, s2, s3 = t0, t1, t2, t3
	}
	return len(x0), [ways]uint32{s0, s1, s2, s3}
}

// walk goes on from state s at text[from] to the end.
func (a *automaton) walk(hits []hit, text []byte, s uint32, from int) []hit {
	for i := from; i < len(text); i++ {
		t := a.trans[s+a.classes[text[i]]]
		s = t & offMask
		if t&outFlag != 0 {
			hits = a.appendOut(hits, text, s, i)
		}
	}
	return hits
}

// appendOut appends the occurrences of the patterns that end at text[i],
// where the walk reached state s.
func (a *automaton) appendOut(hits []hit, text []byte, s uint32, i int) []hit {
	m := int32(s / a.stride)
	if a.out[m] < 0 {
		m = a.dict[m]
	}
	for ; m != 0; m = a.dict[m] {
		id := int(a.out[m])
		start := i + 1 - len(a.patterns[id])
		if a.wordOnly[id] && !wordStart(text, start) {
			continue
		}
		hits = append(hits, hit{PatternID: id, Start: start, End: i + 1})
	}
	return hits
}
