// Tests of the example workflows: the GitHub workflow that uses the action
// and the GitLab pipeline that runs skillsync's image.
package tools

import (
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
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
		Default struct {
			Image struct {
				Name       string   `yaml:"name"`
				Entrypoint []string `yaml:"entrypoint"`
			} `yaml:"image"`
		} `yaml:"default"`
		Variables map[string]string `yaml:"variables"`
		Plan      job               `yaml:"plan"`
		Apply     job               `yaml:"apply"`
		Drift     job               `yaml:"drift"`
	}
	if err := yaml.Unmarshal(data, &ci); err != nil {
		t.Fatal(err)
	}
	// The jobs run in skillsync's image with a shell (the -debug variant
	// of the release), its entrypoint unset so that GitLab runs the script.
	if img := ci.Default.Image; img.Name != "ghcr.io/skillsync/skillsync:${SKILLSYNC_VERSION}-debug" || len(img.Entrypoint) != 1 || img.Entrypoint[0] != "" {
		t.Errorf("default image %q with entrypoint %q, want ghcr.io/skillsync/skillsync:${SKILLSYNC_VERSION}-debug with entrypoint [\"\"]", img.Name, img.Entrypoint)
	}
	jobs := map[string]job{"plan": ci.Plan, "apply": ci.Apply, "drift": ci.Drift}
	plan := []string{"plan", "--comment", "--format", "markdown", "--detailed-exitcode", "--out", "plan.json", "--base", "origin/main"}
	drift := []string{"drift", "--issue", "--format", "markdown", "--out", "drift.json"}
	tests := []struct {
		job      string
		env      []string
		wantExit int
		wantLog  string
		wantArgv []string
	}{
		{"plan", []string{"FAKE_EXIT=0"}, 0, "", plan},
		{"plan", []string{"FAKE_EXIT=2"}, 0, "", plan},
		{"plan", []string{"FAKE_EXIT=1"}, 1, "", plan},
		{"plan", []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"}, 1, "crashed", plan},
		// What the branch holds, not this pipeline's commit.
		{"apply", []string{"FAKE_EXIT=0"}, 0, "", []string{"apply", "--auto-approve", "--ref", "origin/main"}},
		{"apply", []string{"FAKE_EXIT=1"}, 1, "", []string{"apply", "--auto-approve", "--ref", "origin/main"}},
		{"drift", []string{"FAKE_EXIT=0"}, 0, "", drift},
		{"drift", []string{"FAKE_EXIT=2"}, 2, "", drift},
		{"drift", []string{"FAKE_EXIT=1"}, 1, "", drift},
		{"drift", []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"}, 1, "crashed", drift},
	}
	for _, tt := range tests {
		t.Run(tt.job+" "+strings.Join(tt.env, " "), func(t *testing.T) {
			job := jobs[tt.job]
			if len(job.Script) == 0 {
				t.Fatalf("the example has no %s job with a script", tt.job)
			}
			bin, work := t.TempDir(), t.TempDir()
			// The image has no git.
			if err := os.WriteFile(filepath.Join(bin, "git"), []byte("#!/bin/sh\necho 'git: not found' >&2\nexit 127\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bin, "skillsync"), []byte(fakeSkillsync), 0o755); err != nil {
				t.Fatal(err)
			}
			script := filepath.Join(bin, "job.sh")
			if err := os.WriteFile(script, []byte(strings.Join(job.Script, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			// The image's shell is busybox's: POSIX sh, no bash.
			cmd := exec.Command("sh", "-e", script)
			cmd.Dir = work
			cmd.Env = append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "RUNNER_TEMP=" + bin,
				"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "CI_DEFAULT_BRANCH=main"}, tt.env...)
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
			argv, _ := os.ReadFile(filepath.Join(bin, "argv"))
			if got := strings.Split(strings.TrimSuffix(string(argv), "\n"), "\n"); !slices.Equal(got, tt.wantArgv) {
				t.Errorf("skillsync got %q, want %q", got, tt.wantArgv)
			}
		})
	}
}

// TestExampleAppliesMain: every merge's skills get applied, and never an
// older main after a newer one. The push trigger skips merges that change
// no skill, so the run of a skills merge may start after such a merge has
// moved main on; runs may start late (queued behind a running apply) or be
// re-run. Each scenario runs the apply job of the example for the merges
// the trigger starts a run for, in the order given, with main at its last
// merge; the space must end at main's last merge.
func TestExampleAppliesMain(t *testing.T) {
	data, err := os.ReadFile("../examples/github/skills.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On struct {
			Push struct {
				Branches []string `yaml:"branches"`
				Paths    []string `yaml:"paths"`
			} `yaml:"push"`
		} `yaml:"on"`
		Jobs map[string]struct {
			Steps []step `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(wf.On.Push.Branches, []string{"main"}) {
		t.Fatalf("on.push.branches %q, want [main]", wf.On.Push.Branches)
	}
	triggers := func(files []string) bool {
		if len(wf.On.Push.Paths) == 0 {
			return true
		}
		for _, f := range files {
			for _, p := range wf.On.Push.Paths {
				if prefix, ok := strings.CutSuffix(p, "/**"); ok && strings.HasPrefix(f, prefix+"/") {
					return true
				}
				if ok, _ := path.Match(p, f); ok {
					return true
				}
			}
		}
		return false
	}

	// applyJob runs the apply job for the run of commit sha, with main at
	// tip, and returns the commit it applied ("" for none).
	applyJob := func(t *testing.T, sha, tip string) string {
		t.Helper()
		bin := t.TempDir()
		// git ls-remote origin refs/heads/main says main is at tip.
		git := fmt.Sprintf("#!/bin/sh\nprintf '%%s\\trefs/heads/main\\n' %s\n", tip)
		if err := os.WriteFile(filepath.Join(bin, "git"), []byte(git), 0o755); err != nil {
			t.Fatal(err)
		}
		e := exprs{}
		checkedOut, applied := "", ""
		for i, s := range wf.Jobs["apply"].Steps {
			switch {
			case strings.HasPrefix(s.Uses, "actions/checkout@"):
				switch ref := s.With["ref"]; ref {
				case "":
					checkedOut = sha // the commit of the run's event
				case "main", "${{ github.event.repository.default_branch }}":
					checkedOut = tip // the branch as it is when the job starts
				default:
					t.Fatalf("checkout of ref %q: the test does not know it", ref)
				}
			case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
			case strings.HasPrefix(s.Uses, "skillsync/skillsync@"):
				if e.cond(t, s.If) && s.With["command"] == "apply" {
					applied = checkedOut
				}
			case s.Run != "":
				if !e.cond(t, s.If) {
					continue
				}
				script := filepath.Join(bin, fmt.Sprintf("step%d.sh", i))
				output := filepath.Join(bin, fmt.Sprintf("output%d", i))
				if err := os.WriteFile(script, []byte(s.Run), 0o644); err != nil {
					t.Fatal(err)
				}
				cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
				cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "GITHUB_SHA=" + sha, "GITHUB_OUTPUT=" + output}
				if log, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("step %d: %v\n%s", i, err, log)
				}
				out, _ := os.ReadFile(output)
				for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
					if k, v, ok := strings.Cut(line, "="); ok && s.ID != "" {
						e["steps."+s.ID+".outputs."+k] = v
					}
				}
			default:
				t.Fatalf("apply step %d uses %s: the test cannot stand in for it", i, s.Uses)
			}
		}
		return applied
	}

	type merge struct {
		sha   string
		files []string
	}
	for _, tc := range []struct {
		name   string
		merges []merge
		runs   []string // the runs, by commit, in the order they start; all after the last merge
	}{
		{"a README merge right after a skills merge", []merge{
			{"1111111111111111111111111111111111111111", []string{"skills/a/SKILL.md"}},
			{"2222222222222222222222222222222222222222", []string{"README.md"}},
		}, nil},
		{"two skills merges, the older run last (queued, or re-run)", []merge{
			{"1111111111111111111111111111111111111111", []string{"skills/a/SKILL.md"}},
			{"2222222222222222222222222222222222222222", []string{"skills/b/SKILL.md"}},
		}, []string{"2222222222222222222222222222222222222222", "1111111111111111111111111111111111111111"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tip := tc.merges[len(tc.merges)-1].sha
			runs := tc.runs
			if runs == nil {
				for _, m := range tc.merges {
					runs = append(runs, m.sha)
				}
			}
			space := "" // the commit the space was last applied from
			for _, sha := range runs {
				i := slices.IndexFunc(tc.merges, func(m merge) bool { return m.sha == sha })
				if !triggers(tc.merges[i].files) {
					continue
				}
				if applied := applyJob(t, sha, tip); applied != "" {
					space = applied
				}
			}
			if space != tip {
				t.Errorf("the space was last applied from %q, want main's last merge %s", space, tip)
			}
		})
	}
}

// TestGitLabExamplesPostThemselves: the GitLab examples post the plan
// note and the drift issue with skillsync itself (plan --comment, drift
// --issue), which finds GitLab from the CI_* variables: no curl, no jq,
// no job of their own.
func TestGitLabExamplesPostThemselves(t *testing.T) {
	for _, name := range []string{".gitlab-ci.yml", ".gitlab-ci-targets.yml"} {
		data, err := os.ReadFile("../examples/gitlab/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var ci map[string]any
		if err := yaml.Unmarshal(data, &ci); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, word := range []string{"curl", "jq"} {
			if slices.Contains(strings.FieldsFunc(string(data), func(r rune) bool {
				return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
			}), word) {
				t.Errorf("%s still uses %s", name, word)
			}
		}
		if _, ok := ci["plan-note"]; ok {
			t.Errorf("%s still has a plan-note job: plan --comment posts the note", name)
		}
		for _, call := range []string{"skillsync plan --comment ", "skillsync drift --issue "} {
			if !strings.Contains(string(data), call) {
				t.Errorf("%s does not call %q", name, call)
			}
		}
	}
}

// TestTargetsExamples: the examples for a skillsync.yaml of several
// targets apply production only after staging, and plan a target of a
// merge request only when `skillsync targets --changed` lists it.
func TestTargetsExamples(t *testing.T) {
	var gh struct {
		Jobs map[string]struct {
			Needs any `yaml:"needs"`
		} `yaml:"jobs"`
	}
	data, err := os.ReadFile("../examples/github/skills-targets.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &gh); err != nil {
		t.Fatal(err)
	}
	if needs := fmt.Sprint(gh.Jobs["apply-production"].Needs); needs != "apply-staging" {
		t.Errorf("GitHub: apply-production needs %q, want apply-staging", needs)
	}

	type job struct {
		Needs  []string `yaml:"needs"`
		Script []string `yaml:"script"`
	}
	var glf struct {
		Plan            job `yaml:"plan"`
		ApplyProduction job `yaml:"apply-production"`
	}
	data, err = os.ReadFile("../examples/gitlab/.gitlab-ci-targets.yml")
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(data, &glf); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(glf.ApplyProduction.Needs, []string{"apply-staging"}) {
		t.Errorf("GitLab: apply-production needs %q, want [apply-staging]", glf.ApplyProduction.Needs)
	}
	// The plan job of each target of the matrix, the change touching
	// staging alone.
	fake := "#!/bin/sh\nif [ \"$1\" = targets ]; then printf 'staging\\tspace st01\\n'; exit 0; fi\n" +
		"printf '%s\\n' \"$@\" > \"$RUNNER_TEMP/argv\"\nfor a; do case \"$prev\" in --out) echo '{}' > \"$a\";; esac; prev=$a; done\nexit 2\n"
	for target, planned := range map[string]bool{"staging": true, "production": false} {
		bin, work := t.TempDir(), t.TempDir()
		if err := os.WriteFile(filepath.Join(bin, "skillsync"), []byte(fake), 0o755); err != nil {
			t.Fatal(err)
		}
		script := filepath.Join(bin, "job.sh")
		if err := os.WriteFile(script, []byte(strings.Join(glf.Plan.Script, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-e", script)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "RUNNER_TEMP=" + bin,
			"CI_MERGE_REQUEST_TARGET_BRANCH_NAME=main", "SKILLSYNC_TARGET=" + target}
		log, err := cmd.CombinedOutput()
		if err != nil {
			t.Errorf("plan job of %s: %v\n%s", target, err, log)
		}
		_, statErr := os.Stat(filepath.Join(bin, "argv"))
		if ran := statErr == nil; ran != planned {
			t.Errorf("plan job of %s: planned %t, want %t\n%s", target, ran, planned, log)
		}
	}
}
