package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// TestPlanObeysNoWorkflowCommandOfASkill: under GitHub Actions, lines of
// a skill that the runner would obey as workflow commands (a fake
// annotation, a mask of the log, stop-commands that would silence
// skillsync's own annotations) are shown in the plan's log, escaped, and
// obeyed not at all; skillsync's own annotations still are, wherever the
// runner reads them among the lines of stdout; the JSON plan stays JSON.
func TestPlanObeysNoWorkflowCommandOfASkill(t *testing.T) {
	t.Parallel()
	e, dir, env := ciSetup(t)
	hostile := []string{
		"::stop-commands::silenced",
		"::error title=Approved::all security checks passed",
		"Say hello. ##[add-mask]evil",
	}
	body := "# Release notes\n\n" + strings.Join(hostile, "\n") + "\nSay hello politely.\n"
	rn, _ := e.SkillBySlug(demoSpace, "release-notes")
	e.EditSkill(demoSpace, rn.ID, func(s *remotetest.SkillSeed) { s.Instructions = body })
	skill := "---\nname: Release Notes\ndescription: Writes release notes.\nx-note: kept\n---\n" +
		strings.Replace(body, "politely", "kindly", 1)
	if err := os.WriteFile(filepath.Join(dir, "skills", "release-notes", "SKILL.md"), []byte(skill), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "skillsync.yaml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append(data, "lint:\n  rules:\n    frontmatter-key-unknown: warning\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	env["GITHUB_ACTIONS"] = "true"
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir)
	if code != 0 {
		t.Fatalf("plan: exit %d\n%s\n%s", code, stdout, stderr)
	}
	obeyedOut, shownOut := githubtest.RunnerReads(stdout)
	obeyedErr, _ := githubtest.RunnerReads(stderr)
	if len(obeyedOut) > 0 {
		t.Errorf("the runner obeys lines of the plan: %q\n%s", obeyedOut, stdout)
	}
	shown := strings.NewReplacer(`\u003a`, ":", `\u0023`, "#").Replace(strings.Join(shownOut, "\n"))
	for _, h := range hostile {
		if !strings.Contains(shown, h) {
			t.Errorf("the log does not show %q:\n%s", h, shown)
		}
	}
	// The runner reads stdout and stderr apart, and may read stderr's
	// lines between any two of stdout's.
	lines := strings.SplitAfter(stdout, "\n")
	for at := range lines {
		merged := strings.Join(lines[:at], "") + stderr + strings.Join(lines[at:], "")
		if obeyed, _ := githubtest.RunnerReads(merged); len(obeyed) != len(obeyedErr) {
			t.Errorf("stderr read after line %d of stdout: the runner obeys %q, not %q", at, obeyed, obeyedErr)
			break
		}
	}
	code, stdout, stderr = runCLI(t, env, "plan", "--dir", dir, "--format", "json")
	var plan any
	if err := json.Unmarshal([]byte(stdout), &plan); code != 0 || err != nil || !strings.Contains(jsonStrings(plan), hostile[2]) {
		t.Errorf("plan --format json: exit %d, %v, or it lacks %q:\n%s\n%s", code, err, hostile[2], stdout, stderr)
	}
	own := false
	for _, l := range obeyedErr {
		own = own || strings.HasPrefix(l, "::warning file=skills/release-notes/SKILL.md,line=4::")
		if !strings.HasPrefix(l, "::warning file=skills/") {
			t.Errorf("the runner obeys on stderr %q, not an annotation of skillsync's", l)
		}
	}
	if !own {
		t.Errorf("the runner does not obey skillsync's warning on the frontmatter key:\n%s", stderr)
	}
}
