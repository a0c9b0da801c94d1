package vendored

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
)

// TestVendorRealRepository vendors a skill from a real repository on
// disk, when SKILLSYNC_VENDOR_REPO names one (a clone of
// anthropics/skills, bare or not), at SKILLSYNC_VENDOR_PATH (default
// skills/pdf), and checks the lock's hash with coreutils over the folder
// written, as the README tells users to:
//
//	SKILLSYNC_VENDOR_REPO=$HOME/src/anthropics-skills go test ./vendored -run Real -v
func TestVendorRealRepository(t *testing.T) {
	repo := os.Getenv("SKILLSYNC_VENDOR_REPO")
	if repo == "" {
		t.Skip("SKILLSYNC_VENDOR_REPO names no repository")
	}
	dir := os.Getenv("SKILLSYNC_VENDOR_PATH")
	if dir == "" {
		dir = "skills/pdf"
	}
	root := newRoot(t)
	added, err := Add(context.Background(), root, AddOptions{Source: repo, Path: dir})
	if err != nil {
		t.Fatalf("%v\n%v", err, added)
	}
	t.Logf("vendored %d files at %s; diagnostics: %v", len(added.Files), added.Skill.Commit, added.Diagnostics)
	if ds := vendoredDiagnostics(t, root); len(ds) > 0 {
		t.Errorf("validate: %v", ds)
	}
	lockText, _ := os.ReadFile(filepath.Join(root, fsrepo.LockFile))
	t.Logf("%s:\n%s", fsrepo.LockFile, lockText)
	if _, err := exec.LookPath("sha256sum"); err != nil {
		t.Skip("no sha256sum")
	}
	cmd := exec.Command("sh", "-c", "find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum")
	cmd.Dir = filepath.Join(root, added.Dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := "sha256:" + strings.Fields(string(out))[0]; got != added.Skill.Hash {
		t.Fatalf("coreutils: %s, lock: %s", got, added.Skill.Hash)
	}
	rep, err := Outdated(context.Background(), root, OutdatedOptions{})
	if err != nil || rep.Outdated() || rep.Failed() {
		t.Fatalf("outdated: %+v, %v", rep, err)
	}
}
