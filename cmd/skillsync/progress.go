package main

import (
	"fmt"
	"sync"
)

// progressThreshold is how much work earns a progress line: below it the
// work is over before anyone reads one.
const progressThreshold = 20

// progressLine shows "label 12/40" on a terminal's stderr, rewritten in
// place. A nil *progressLine does nothing, so callers need no checks.
type progressLine struct {
	ui    *ui
	label string
	mu    sync.Mutex
	shown bool
}

// progress returns a progress line for long work, or nil when stderr is not
// a terminal.
func (ui *ui) progress(label string) *progressLine {
	if !ui.stderrTTY {
		return nil
	}
	return &progressLine{ui: ui, label: label}
}

func (p *progressLine) update(done, total int) {
	if p == nil || total <= progressThreshold {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.shown = true
	fmt.Fprintf(p.ui.stderrOwn, "\r\033[Kskillsync: %s %d/%d", p.label, done, total)
}

func (p *progressLine) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.ui.stderrOwn, "\r\033[K")
	}
}

// progressSum adds up the progress of several tasks that run at once
// (the fetches of several targets) for one progress line.
type progressSum struct {
	mu          sync.Mutex
	done, total []int
	update      func(done, total int)
}

func newProgressSum(update func(done, total int), n int) *progressSum {
	return &progressSum{done: make([]int, n), total: make([]int, n), update: update}
}

// part is the progress callback of task i.
func (s *progressSum) part(i int) func(done, total int) {
	return func(done, total int) {
		s.mu.Lock()
		defer s.mu.Unlock()
		s.done[i], s.total[i] = done, total
		var d, t int
		for j := range s.done {
			d += s.done[j]
			t += s.total[j]
		}
		s.update(d, t)
	}
}
