package main

import (
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
// skillsync's own annotations) are shown in the plan's log and obeyed not
// at all; skillsync's own annotations still are.
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
	shown := strings.Join(shownOut, "\n")
	for _, h := range hostile {
		if !strings.Contains(shown, h) {
			t.Errorf("the log does not show %q:\n%s", h, shown)
		}
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
