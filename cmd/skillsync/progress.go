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
	fmt.Fprintf(p.ui.stderr, "\r\033[Kskillsync: %s %d/%d", p.label, done, total)
}

func (p *progressLine) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.ui.stderr, "\r\033[K")
	}
}
