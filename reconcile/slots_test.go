package reconcile

import (
	"context"
	"runtime"
	"testing"
)

// TestSlotsPagesFirst: a slot set free goes to a waiting page before a
// read that waited longer, and a waiter that gives up takes no slot.
func TestSlotsPagesFirst(t *testing.T) {
	ctx := t.Context()
	s := newSlots(1)
	if err := s.acquire(ctx, readPriority); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 3)
	waiting := func(n int) bool { // n waiters queued
		s.mu.Lock()
		defer s.mu.Unlock()
		return len(s.waiting[pagePriority])+len(s.waiting[readPriority]) == n
	}
	wait := func(n int) {
		for !waiting(n) { // the goroutines below queue themselves at once
			runtime.Gosched()
		}
	}
	go func() {
		if s.acquire(ctx, readPriority) == nil {
			got <- "read"
		}
	}()
	wait(1)
	gaveUp, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() { done <- s.acquire(gaveUp, pagePriority) }()
	wait(2)
	go func() {
		if s.pages().Acquire(ctx) == nil {
			got <- "page"
		}
	}()
	wait(3)
	cancel()
	if err := <-done; err == nil {
		t.Fatal("a cancelled acquire succeeded")
	}
	s.release()
	if first := <-got; first != "page" {
		t.Errorf("the freed slot went to a %s before the waiting page", first)
	}
	s.release()
	if second := <-got; second != "read" {
		t.Errorf("then to a %s", second)
	}
	s.release()
	if s.free != 1 || !waiting(0) {
		t.Errorf("%d slots free, want the 1 there is", s.free)
	}
}
