// Package skillsync holds what the skillsync binary embeds from the top of
// the repository: the demo's skills repository and drifted space
// (testdata/demo), so that `skillsync demo` and `skillsync emulator` work
// from any installed binary, not only from a clone.
package skillsync

import "embed"

// Demo holds testdata/demo: repo/ is a skills repository, space/ the
// emulator seed of a space that has drifted from it.
//
//go:embed all:testdata/demo
var Demo embed.FS
