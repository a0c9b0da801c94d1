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
	// late holds *[]hit, memory for the hits of a second walk.
	late sync.Pool
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
	mid := len(text) / 2
	if mid < 4*a.deepest {
		return a.walk(hits, text, 0, 0)
	}
	// Two walks at once, over the halves of the text, wait for memory
	// together. The second starts deepest bytes early: a state is the
	// longest suffix read that a pattern starts with, so from mid on it
	// is the state one walk from the start would reach.
	lp, _ := a.late.Get().(*[]hit)
	if lp == nil {
		lp = new([]hit)
	}
	late := (*lp)[:0] // the second walk's, which come after the first's
	q := mid - a.deepest
	sa, sb := uint32(0), uint32(0)
	for i := range mid {
		ta := a.trans[sa+a.classes[text[i]]]
		tb := a.trans[sb+a.classes[text[q+i]]]
		sa, sb = ta&offMask, tb&offMask
		if (ta|tb)&outFlag == 0 {
			continue
		}
		if ta&outFlag != 0 {
			hits = a.appendOut(hits, text, sa, i)
		}
		if tb&outFlag != 0 && q+i >= mid {
			late = a.appendOut(late, text, sb, q+i)
		}
	}
	hits = append(hits, late...)
	*lp = late
	a.late.Put(lp)
	return a.walk(hits, text, sb, q+mid)
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
