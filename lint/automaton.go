package lint

import (
	"slices"
	"strings"
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
// not empty.
func newAutomaton(patterns []string) *automaton {
	a := &automaton{patterns: patterns}
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

	// The trie, from the patterns in order: each shares the states of the
	// prefix it has in common with the one before it, and adds a state
	// for each further byte. State 0 is the root.
	order := make([]int, len(patterns))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return strings.Compare(patterns[x], patterns[y]) })
	states, prev := 1, ""
	for _, id := range order {
		states += len(patterns[id]) - commonPrefix(prev, patterns[id])
		prev = patterns[id]
	}
	parent := make([]uint32, states)
	label := make([]uint32, states) // the class of the byte that leads to it
	depth := make([]int, states)
	a.out = make([]int32, states)
	a.out[0] = -1
	path := make([]uint32, 1, 64)
	next, prev, deepest := uint32(1), "", 0
	for _, id := range order {
		p := patterns[id]
		d := commonPrefix(prev, p)
		path = path[:d+1]
		for ; d < len(p); d++ {
			parent[next], label[next], depth[next] = path[d], a.classes[p[d]], d+1
			a.out[next] = -1
			path = append(path, next)
			next++
		}
		a.out[path[len(p)]] = int32(id)
		prev, deepest = p, max(deepest, len(p))
	}
	// The states by depth, from 1 to deepest.
	level := make([]int, deepest+2)
	for s := 1; s < states; s++ {
		level[depth[s]+1]++
	}
	for d := 1; d < len(level); d++ {
		level[d] += level[d-1]
	}
	byDepth := make([]uint32, states)
	at := slices.Clone(level)
	for s := 1; s < states; s++ {
		byDepth[at[depth[s]]] = uint32(s)
		at[depth[s]]++
	}

	// Depth by depth: a state's failure state is shallower, so its row
	// is complete when the state's row copies it; the trie's own entries
	// then replace the copied ones.
	a.trans = make([]uint32, states*int(n))
	a.dict = make([]int32, states)
	fail := make([]uint32, states)
	row := func(s uint32) []uint32 { return a.trans[s*n : s*n+n] }
	for d := 1; d <= deepest; d++ {
		here := byDepth[level[d]:level[d+1]]
		for _, u := range here {
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
		for _, u := range here {
			e := u * n
			if a.out[u] >= 0 || a.dict[u] != 0 {
				e |= outFlag
			}
			row(parent[u])[label[u]] = e
		}
		for _, u := range here {
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
// where they end, the longer first where several end at one byte.
func (a *automaton) appendHits(hits []hit, text []byte) []hit {
	s := uint32(0)
	for i, c := range text {
		t := a.trans[s+a.classes[c]]
		s = t & offMask
		if t&outFlag == 0 {
			continue
		}
		m := int32(s / a.stride)
		if a.out[m] < 0 {
			m = a.dict[m]
		}
		for ; m != 0; m = a.dict[m] {
			id := int(a.out[m])
			hits = append(hits, hit{PatternID: id, Start: i + 1 - len(a.patterns[id]), End: i + 1})
		}
	}
	return hits
}
