// Tests of the example workflows: the GitHub workflow that uses the action
// and the GitLab pipeline that runs skillsync's image.
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// TestExampleKeepsJournal: the example's apply job keeps the journal of
// what apply replaced (DESIGN: nothing is lost), even when apply fails.
func TestExampleKeepsJournal(t *testing.T) {
	data, err := os.ReadFile("../examples/github/skills.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	var applyID string
	for _, s := range wf.Jobs["apply"].Steps {
		if strings.HasPrefix(s.Uses, "skillsync/skillsync@") && s.With["command"] == "apply" {
			applyID = s.ID
		}
	}
	if applyID == "" {
		t.Fatal("the apply job has no skillsync apply step with an id")
	}
	for _, s := range wf.Jobs["apply"].Steps {
		if strings.HasPrefix(s.Uses, "actions/upload-artifact@") &&
			s.With["path"] == "${{ steps."+applyID+".outputs.journal }}" && strings.Contains(s.If, "always()") {
			return
		}
	}
	t.Error("the apply job does not upload steps.<apply>.outputs.journal with if: always()")
}

// TestGitLabExample runs the script of the plan and drift jobs of the GitLab
// example as a runner would (bash, -eo pipefail) against the stand-in
// skillsync: exit code 2 is changes or drift only when skillsync saved its
// plan, which it does last; without it, it is a crash, and the job says so.
func TestGitLabExample(t *testing.T) {
	data, err := os.ReadFile("../examples/gitlab/.gitlab-ci.yml")
	if err != nil {
		t.Fatal(err)
	}
	type job struct {
		Script []string `yaml:"script"`
	}
	var ci struct {
		Plan  job `yaml:"plan"`
		Drift job `yaml:"drift"`
	}
	if err := yaml.Unmarshal(data, &ci); err != nil {
		t.Fatal(err)
	}
	jobs := map[string]job{"plan": ci.Plan, "drift": ci.Drift}
	tests := []struct {
		job      string
		env      []string
		wantExit int
		wantLog  string
	}{
		{"plan", []string{"FAKE_EXIT=0"}, 0, ""},
		{"plan", []string{"FAKE_EXIT=2"}, 0, ""},
		{"plan", []string{"FAKE_EXIT=1"}, 1, ""},
		{"plan", []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"}, 1, "crashed"},
		{"drift", []string{"FAKE_EXIT=0"}, 0, ""},
		{"drift", []string{"FAKE_EXIT=2"}, 2, ""},
		{"drift", []string{"FAKE_EXIT=1"}, 1, ""},
		{"drift", []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"}, 1, "crashed"},
	}
	for _, tt := range tests {
		t.Run(tt.job+" "+strings.Join(tt.env, " "), func(t *testing.T) {
			job := jobs[tt.job]
			if len(job.Script) == 0 {
				t.Fatalf("the example has no %s job with a script", tt.job)
			}
			bin, work := t.TempDir(), t.TempDir()
			// git fetch needs no remote here.
			if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bin, "skillsync"), []byte(fakeSkillsync), 0o755); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(bin, "job.sh")
			if err := os.WriteFile(script, []byte(strings.Join(job.Script, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
			cmd.Dir = work
			cmd.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "RUNNER_TEMP=" + bin,
				"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main"}, tt.env...)
			log, err := cmd.CombinedOutput()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			if code != tt.wantExit || !strings.Contains(string(log), tt.wantLog) {
				t.Errorf("job exit %d, want %d (log with %q):\n%s", code, tt.wantExit, tt.wantLog, log)
			}
		})
	}
}
