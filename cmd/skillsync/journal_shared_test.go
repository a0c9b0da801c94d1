package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
)

// twoTargets makes the demo repository's skillsync.yaml name two targets,
// staging (space st01, a copy of demo) and production (demo).
func twoTargets(t *testing.T, e *remotetest.Emulator, dir string, env testEnv) {
	t.Helper()
	e.AddSpace(remotetest.Space{ID: "st01"})
	for _, s := range e.Skills(demoSpace) {
		sd := remotetest.SkillSeed{Slug: s.Slug, Name: s.Name, Description: s.Description, Enabled: s.Enabled}
		if s.Instructions != nil {
			sd.Instructions = *s.Instructions
		}
		e.AddSkill("st01", sd)
	}
	yaml := "skillsDir: skills\nunmanaged: ignore\nmissing: warn\ntargets:\n  staging: {space: st01}\n  production: {space: demo}\n"
	if err := os.WriteFile(filepath.Join(dir, "skillsync.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	delete(env, "SKILLSYNC_SPACE")
}

// TestJournalOfAnotherTarget: a --journal file that holds another
// target's changes is refused before anything is applied, as restore
// would refuse the file and neither apply could be undone; the same
// target's next apply may append to it.
func TestJournalOfAnotherTarget(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	twoTargets(t, e, dir, env)
	shared := filepath.Join(t.TempDir(), "shared.jsonl")
	if code, out, errOut := runCLI(t, env, "apply", "--auto-approve", "--dir", dir, "--target", "staging", "--journal", shared); code != exitOK {
		t.Fatalf("staging: exit %d\n%s\n%s", code, out, errOut)
	}
	before, err := os.ReadFile(shared)
	if err != nil || len(before) == 0 {
		t.Fatalf("no journal of staging: %v", err)
	}
	e.ResetRequests()
	code, out, errOut := runCLI(t, env, "apply", "--auto-approve", "--dir", dir, "--target", "production", "--journal", shared)
	if code != exitError || !strings.Contains(errOut, "skillsync: error: journal "+shared+" holds the changes of target staging of space st01 (line 1), not of target production of space demo: ") ||
		!strings.Contains(errOut, "skillsync: hint: name another journal file for this target, or leave out --journal") {
		t.Errorf("production into staging's journal: exit %d, want %d and a refusal; stdout:\n%s\nstderr:\n%s", code, exitError, out, errOut)
	}
	r := e.Requests()
	if n := r[remotetest.KeyUpdateSkill] + r[remotetest.KeyEnableSkill] + r[remotetest.KeyDisableSkill]; n != 0 {
		t.Errorf("%d writes to production", n)
	}
	if after, _ := os.ReadFile(shared); !bytes.Equal(before, after) {
		t.Errorf("the journal changed:\n%s", after)
	}
	// The same target appends: its applies restore together.
	e.EditSkill("st01", e.Skills("st01")[0].ID, func(s *remotetest.SkillSeed) { s.Description = "Edited in the app." })
	if code, out, errOut := runCLI(t, env, "apply", "--auto-approve", "--dir", dir, "--target", "staging", "--journal", shared); code != exitOK {
		t.Errorf("staging again: exit %d\n%s\n%s", code, out, errOut)
	}
}
