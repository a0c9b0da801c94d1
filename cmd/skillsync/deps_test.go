package main

import (
	"os/exec"
	"path"
	"strings"
	"testing"
)

// TestBinaryLinksNoTestCode: the skillsync binary links no package made for
// tests: neither testing nor a helper package of tests (a name ending in
// "test"). remotetest is no such package: it is the emulator the binary
// serves (skillsync emulator, skillsync demo).
func TestBinaryLinksNoTestCode(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	product := map[string]bool{
		"github.com/skillsync/skillsync/remote/remotetest": true,
		"internal/synctest": true, // the runtime's, under package sync
	}
	for _, p := range strings.Fields(string(out)) {
		if p == "testing" || strings.HasPrefix(p, "testing/") || strings.HasSuffix(path.Base(p), "test") && !product[p] {
			t.Errorf("the binary links %s, a package for tests", p)
		}
	}
}
