package lint

import "slices"

// An automaton finds every occurrence of a set of patterns in one pass
// over a text (Aho-Corasick), by a table of transitions over the classes
// of bytes the patterns hold. Every command that judges builds one, so
// the build fills each state's row from its failure state's, in one
// breadth-first pass, and allocates the table once.
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
	// The trie, by state numbers: 0 is the root, or no entry.
	states := trieSize(patterns)
	trans := make([]uint32, states*int(n))
	a.out = make([]int32, states)
	for i := range a.out {
		a.out[i] = -1
	}
	next := uint32(1)
	for id, p := range patterns {
		s := uint32(0)
		for i := 0; i < len(p); i++ {
			k := s*n + a.classes[p[i]]
			if trans[k] == 0 {
				trans[k] = next
				next++
			}
			s = trans[k]
		}
		a.out[s] = int32(id)
	}
	// Breadth first, a state's failure state (shallower) has its row
	// complete when the state's is filled: an entry the trie leaves
	// empty is the failure state's.
	fail := make([]uint32, states)
	a.dict = make([]int32, states)
	queue := make([]uint32, 0, states)
	for c := uint32(1); c < n; c++ {
		if t := trans[c]; t != 0 {
			queue = append(queue, t)
		}
	}
	for q := 0; q < len(queue); q++ {
		s := queue[q]
		row, frow := trans[s*n:s*n+n], trans[fail[s]*n:fail[s]*n+n]
		for c := uint32(1); c < n; c++ {
			t := row[c]
			if t == 0 {
				row[c] = frow[c]
				continue
			}
			f := frow[c]
			fail[t] = f
			if a.out[f] >= 0 {
				a.dict[t] = int32(f)
			} else {
				a.dict[t] = a.dict[f]
			}
			queue = append(queue, t)
		}
	}
	for k, t := range trans {
		trans[k] = t * n
		if a.out[t] >= 0 || a.dict[t] != 0 {
			trans[k] |= outFlag
		}
	}
	a.trans = trans
	return a
}

// trieSize is the number of states of the trie of patterns: the root,
// and each prefix of a pattern. In order, a pattern adds those it does
// not share with the one before it.
func trieSize(patterns []string) int {
	sorted := slices.Clone(patterns)
	slices.Sort(sorted)
	n := 1
	for i, p := range sorted {
		shared := 0
		if i > 0 {
			prev := sorted[i-1]
			for shared < len(prev) && shared < len(p) && prev[shared] == p[shared] {
				shared++
			}
		}
		n += len(p) - shared
	}
	return n
}

// FindAllOverlapping lists every occurrence of the patterns in text, by
// where they end, the longer first where several end at one byte.
func (a *automaton) FindAllOverlapping(text []byte) []hit {
	var hits []hit
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
