// Package bug carries a panic out of the goroutine it happened in, as an
// [Error]. Go ends the process with exit code 2 on a panic that no one
// recovers, in any goroutine, and 2 is skillsync's "changes present" (plan
// --detailed-exitcode, drift): a bug must read as an error instead. So each
// goroutine skillsync starts runs its work through [Call] (or [Go], for an
// errgroup) and hands the error back to the goroutine waiting for it, up
// to the command line, which reports an internal error and exits 1.
package bug

import (
	"context"
	"fmt"
	"runtime/debug"

	"golang.org/x/sync/errgroup"
)

// Error is a panic recovered: a bug in skillsync.
type Error struct {
	Value any    // what was passed to panic
	Stack []byte // the stack of the goroutine that panicked
}

func (e *Error) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// From is the Error of r, a value just recovered from a panic: r itself
// when it is an *Error (raised again by the goroutine it was handed to),
// else r with the stack of the goroutine that panicked. Call it from the
// deferred function that recovered r, while that stack is still there.
func From(r any) *Error {
	if e, ok := r.(*Error); ok {
		return e
	}
	return &Error{Value: r, Stack: debug.Stack()}
}

// Call calls f and returns its error, or an *Error when f panics.
func Call(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = From(r)
		}
	}()
	return f()
}

// Go runs f in g through [Call]: a panic in f is g's error.
func Go(g *errgroup.Group, f func() error) {
	g.Go(func() error { return Call(f) })
}

// Each calls f(ctx, i) for each i from 0 to n-1, at most limit at once,
// each through [Call]. The first error cancels the ctx of the calls in
// flight, starts no more, and is returned; so is the error of ctx when it
// ended before every call started.
func Each(ctx context.Context, n, limit int, f func(ctx context.Context, i int) error) error {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(limit)
	for i := range n {
		if gctx.Err() != nil {
			break
		}
		Go(g, func() error {
			// A call may wait for its turn past the first error.
			if err := gctx.Err(); err != nil {
				return err
			}
			return f(gctx, i)
		})
	}
	if err := g.Wait(); err != nil {
		return err
	}
	return ctx.Err()
}
