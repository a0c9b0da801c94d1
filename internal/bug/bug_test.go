package bug

import (
	"errors"
	"strings"
	"testing"

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
