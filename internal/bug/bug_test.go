package bug

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/sync/errgroup"
)

func TestCall(t *testing.T) {
	if err := Call(func() error { return nil }); err != nil {
		t.Errorf("Call of a function that succeeds: %v", err)
	}
	plain := errors.New("plain")
	if err := Call(func() error { return plain }); err != plain {
		t.Errorf("Call of a function that fails: %v, want its error", err)
	}

	set := func(m map[string]int) { m["x"] = 1 }
	err := Call(func() error {
		set(nil) // a runtime error: assignment to entry in nil map
		return nil
	})
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Call of a function that panics: %v (%T), want an *Error", err, err)
	}
	if !strings.HasPrefix(e.Error(), "internal error: assignment to entry in nil map") {
		t.Errorf("message %q", e.Error())
	}
	if !strings.Contains(string(e.Stack), "bug.TestCall") {
		t.Errorf("the stack does not show where the panic happened:\n%s", e.Stack)
	}

	// Raised again in another goroutine, it keeps its value and stack.
	again := Call(func() error { panic(e) })
	if again != e {
		t.Errorf("an *Error raised again became %v", again)
	}
}

// TestEach: Each calls f for every index, no more than limit at once; a
// panic is an *Error; the first error starts no further call; and an
// interrupt before every call started is the error.
func TestEach(t *testing.T) {
	var mu sync.Mutex
	var running, most int
	seen := make([]bool, 50)
	err := Each(t.Context(), len(seen), 3, func(ctx context.Context, i int) error {
		mu.Lock()
		running++
		most = max(most, running)
		seen[i] = true
		mu.Unlock()
		time.Sleep(time.Millisecond)
		mu.Lock()
		running--
		mu.Unlock()
		return nil
	})
	if err != nil || slices.Contains(seen, false) || most > 3 {
		t.Errorf("Each of 50 within 3: %v, every index called: %t, most at once %d", err, !slices.Contains(seen, false), most)
	}

	var calls atomic.Int32
	err = Each(t.Context(), 100, 1, func(ctx context.Context, i int) error {
		calls.Add(1)
		if i == 2 {
			panic("planted")
		}
		return nil
	})
	var e *Error
	if !errors.As(err, &e) || e.Value != "planted" || calls.Load() != 3 {
		t.Errorf("Each whose third call panics: %v after %d calls, want an *Error after 3", err, calls.Load())
	}

	ctx, cancel := context.WithCancel(t.Context())
	err = Each(ctx, 100, 1, func(ctx context.Context, i int) error {
		if i == 1 {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Each interrupted: %v, want context.Canceled", err)
	}
}

// TestGo: a goroutine of an errgroup that panics is the group's error.
func TestGo(t *testing.T) {
	var g errgroup.Group
	Go(&g, func() error { return nil })
	Go(&g, func() error { panic("planted") })
	var e *Error
	if err := g.Wait(); !errors.As(err, &e) || e.Value != "planted" {
		t.Errorf("Wait of a group whose goroutine panicked: %v (%T), want an *Error", err, err)
	}
}
