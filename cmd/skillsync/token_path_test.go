package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote/remotetest"
)

// TestTokenInPathRefused: the token in the name of a skill's folder, of a
// supporting file or of a folder of them is refused as the token in a
// file's content is: a plan would carry it into the plan file, the space
// and the pull request.
func TestTokenInPathRefused(t *testing.T) {
	t.Parallel()
	const tok = "tok_9f8e7d6c5b4a3f2e1d0c" // a name may hold every character of it
	for _, tc := range []struct {
		name  string
		setup func(dir string) error
		where string
	}{
		{"supporting file", func(dir string) error {
			return writeFile(filepath.Join(dir, "skills", "code-review", "ref", tok+".md"), "notes\n")
		}, "the name of skills/code-review/ref/[REDACTED].md holds the access token"},
		{"folder of supporting files", func(dir string) error {
			return writeFile(filepath.Join(dir, "skills", "code-review", tok, "notes.md"), "notes\n")
		}, "the name of skills/code-review/[REDACTED]/notes.md holds the access token"},
		{"skill folder", func(dir string) error {
			return os.Rename(filepath.Join(dir, "skills", "sql-style"), filepath.Join(dir, "skills", tok))
		}, "the name of skills/[REDACTED]/SKILL.md holds the access token"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, dir, env := ciSetup(t)
			e.AddToken(tok, remotetest.ReadWrite)
			env["SKILLSYNC_TOKEN"] = tok
			if err := tc.setup(dir); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "plan.json")
			for _, args := range [][]string{
				{"plan", "--dir", dir, "--out", out},
				{"plan", "--dir", dir, "--format", "json"},
				{"apply", "--dir", dir, "--auto-approve"},
			} {
				code, stdout, stderr := runCLI(t, env, args...)
				if code != exitError || !strings.Contains(stderr, "skillsync: error: "+tc.where) || !strings.Contains(stderr, "rotate the token") {
					t.Errorf("%s: exit %d, want %d and %q; stderr:\n%s", strings.Join(args, " "), code, exitError, tc.where, stderr)
				}
				if l := tokenLeak(stdout+stderr, tok); l != "" {
					t.Errorf("%s shows the token %s", strings.Join(args, " "), l)
				}
			}
			if data, err := os.ReadFile(out); err == nil {
				t.Errorf("a plan file was written:\n%s", data)
			}
			r := e.Requests()
			if n := r[remotetest.KeyUpdateSkill] + r[remotetest.KeyEnableSkill] + r[remotetest.KeyDisableSkill]; n != 0 {
				t.Errorf("%d writes to the space", n)
			}
		})
	}
}
