// Tests of the repository's action.yml: its run step is a shell script that
// maps inputs to skillsync's flags and exit codes to the step's outputs, and
// is run here against a stand-in skillsync that records what it was given.
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

type action struct {
	Inputs map[string]struct {
		Default string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []step `yaml:"steps"`
	} `yaml:"runs"`
}

type step struct {
	ID   string            `yaml:"id"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
}

func readAction(t *testing.T) action {
	t.Helper()
	data, err := os.ReadFile("../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(data, &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// fakeSkillsync records its arguments and SKILLSYNC_TOKEN, writes the file
// after --out as a real plan or drift would (a new file renamed over the
// old; not on exit 1, nor with $FAKE_NO_OUT, as after a crash), and the one
// after --journal as apply does (unless $FAKE_NO_JOURNAL), and exits with
// $FAKE_EXIT.
const fakeSkillsync = `#!/usr/bin/env bash
printf '%s\n' "$@" > "$RUNNER_TEMP/argv"
printf '%s' "${SKILLSYNC_TOKEN:-}" > "$RUNNER_TEMP/token"
printf '%s' "${GITHUB_TOKEN:-}" > "$RUNNER_TEMP/github-token"
prev=""
for a in "$@"; do
	if [ "$prev" = "--out" ] && [ "${FAKE_EXIT:-0}" != 1 ] && [ -z "${FAKE_NO_OUT:-}" ]; then
		echo '{}' > "$a.new" && mv -f "$a.new" "$a"
	fi
	if [ "$prev" = "--journal" ] && [ -z "${FAKE_NO_JOURNAL:-}" ]; then echo '{}' >> "$a"; fi
	prev=$a
done
exit "${FAKE_EXIT:-0}"
`

type result struct {
	exit        int
	outputs     map[string]string
	argv        []string
	token       string
	githubToken string
	log         string
}

// runStep runs the action's "run" step as the runner does (bash -eo
// pipefail on a script file) with the given inputs over the defaults.
func runStep(t *testing.T, inputs map[string]string, event string, extraEnv ...string) result {
	t.Helper()
	a := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s step) bool { return s.ID == "run" })
	if i < 0 {
		t.Fatal(`action.yml has no step with id "run"`)
	}
	run := a.Runs.Steps[i]

	temp := t.TempDir()
	work := t.TempDir()
	if err := os.WriteFile(filepath.Join(temp, "skillsync"), []byte(fakeSkillsync), 0o755); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(temp, "step.sh")
	if err := os.WriteFile(script, []byte(run.Run), 0o644); err != nil {
		t.Fatal(err)
	}
	output := filepath.Join(temp, "output")

	env := []string{"PATH=" + os.Getenv("PATH"), "RUNNER_TEMP=" + temp, "GITHUB_OUTPUT=" + output}
	for name, value := range run.Env {
		// Each env value is one ${{ inputs.NAME }} or ${{ github.event_name }}.
		expr := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(value, "${{"), "}}"))
		switch {
		case expr == "github.event_name":
			value = event
		case strings.HasPrefix(expr, "inputs."):
			in := strings.TrimPrefix(expr, "inputs.")
			def, ok := a.Inputs[in]
			if !ok {
				t.Fatalf("step env %s reads undeclared input %q", name, in)
			}
			value = def.Default
			if strings.Contains(value, "${{") {
				value = "default-" + in
			}
			if v, ok := inputs[in]; ok {
				value = v
			}
		default:
			t.Fatalf("step env %s = %q: the test does not know this expression", name, value)
		}
		env = append(env, name+"="+value)
	}
	env = append(env, extraEnv...)

	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = work
	cmd.Env = env
	log, err := cmd.CombinedOutput()
	r := result{log: string(log), outputs: map[string]string{}}
	if ee, ok := err.(*exec.ExitError); ok {
		r.exit = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(output); err == nil {
		for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
			k, v, _ := strings.Cut(line, "=")
			r.outputs[k] = v
		}
	}
	if data, err := os.ReadFile(filepath.Join(temp, "argv")); err == nil {
		r.argv = strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	}
	data, _ := os.ReadFile(filepath.Join(temp, "token"))
	r.token = string(data)
	data, _ = os.ReadFile(filepath.Join(temp, "github-token"))
	r.githubToken = string(data)
	// The fake's RUNNER_TEMP differs per run: name it in what tests compare.
	for k, v := range r.outputs {
		r.outputs[k] = strings.ReplaceAll(v, temp, "$RUNNER_TEMP")
	}
	for j, v := range r.argv {
		r.argv[j] = strings.ReplaceAll(v, temp, "$RUNNER_TEMP")
	}
	// Nor does the working directory.
	for k, v := range r.outputs {
		r.outputs[k] = strings.ReplaceAll(v, work, "$WORK")
	}
	for j, v := range r.argv {
		r.argv[j] = strings.ReplaceAll(v, work, "$WORK")
	}
	return r
}

func TestActionRunStep(t *testing.T) {
	tests := []struct {
		name        string
		inputs      map[string]string
		event       string
		env         []string
		wantExit    int
		wantArgv    []string
		wantOutputs map[string]string
		wantToken   string
	}{
		{
			name:        "plan on a pull request with changes comments and passes",
			inputs:      map[string]string{"command": "plan", "token": "space-secret"},
			event:       "pull_request",
			env:         []string{"FAKE_EXIT=2"},
			wantArgv:    []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": "$RUNNER_TEMP/skillsync-plan.json"},
			wantToken:   "space-secret",
		},
		{
			name:        "plan on push does not comment",
			inputs:      map[string]string{"command": "plan", "space": "ab12", "base-url": "https://t.example.com", "plan-file": "out/plan.json"},
			event:       "push",
			env:         []string{"FAKE_EXIT=0"},
			wantArgv:    []string{"plan", "--space", "ab12", "--base-url", "https://t.example.com", "--detailed-exitcode", "--out", "$WORK/out/plan.json"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": ""},
		},
		{
			name:        "plan with comment off",
			inputs:      map[string]string{"command": "plan", "comment": "false"},
			event:       "pull_request",
			wantArgv:    []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": "$RUNNER_TEMP/skillsync-plan.json"},
		},
		{
			name:        "a plan error fails the step",
			inputs:      map[string]string{"command": "plan"},
			event:       "pull_request",
			env:         []string{"FAKE_EXIT=1"},
			wantExit:    1,
			wantArgv:    []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "plan-json": ""},
		},
		{
			name:        "apply a saved plan with extra flags, the file last",
			inputs:      map[string]string{"command": "apply", "plan-file": "plan.json", "args": "--force  --parallelism 4"},
			event:       "push",
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl", "--force", "--parallelism", "4", "$WORK/plan.json"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": "", "journal": "$RUNNER_TEMP/skillsync-journal.jsonl"},
		},
		{
			name:        "a failed apply still hands over its journal",
			inputs:      map[string]string{"command": "apply"},
			event:       "push",
			env:         []string{"FAKE_EXIT=1"},
			wantExit:    1,
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl"},
			wantOutputs: map[string]string{"exit-code": "1", "journal": "$RUNNER_TEMP/skillsync-journal.jsonl"},
		},
		{
			name:        "no journal written, no journal output",
			inputs:      map[string]string{"command": "apply"},
			event:       "push",
			env:         []string{"FAKE_EXIT=1", "FAKE_NO_JOURNAL=1"},
			wantExit:    1,
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl"},
			wantOutputs: map[string]string{"exit-code": "1", "journal": ""},
		},
		{
			name:        "drift fails the step by default",
			inputs:      map[string]string{"command": "drift"},
			event:       "schedule",
			env:         []string{"FAKE_EXIT=2"},
			wantExit:    2,
			wantArgv:    []string{"drift", "--out", "$RUNNER_TEMP/skillsync-drift.json", "--issue"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": ""},
		},
		{
			name:        "drift reported without failing",
			inputs:      map[string]string{"command": "drift", "fail-on-drift": "false", "issue": "false"},
			event:       "schedule",
			env:         []string{"FAKE_EXIT=2"},
			wantArgv:    []string{"drift", "--out", "$RUNNER_TEMP/skillsync-drift.json"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": ""},
		},
		{
			// Go ends a process out of memory with exit code 2, which
			// skillsync cannot prevent: 2 is changes only with the plan
			// that skillsync saves last.
			name:        "a plan that exits 2 without saving its plan crashed: an error, not changes",
			inputs:      map[string]string{"command": "plan"},
			event:       "pull_request",
			env:         []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"},
			wantExit:    1,
			wantArgv:    []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "plan-json": ""},
		},
		{
			name:        "a drift that exits 2 without saving its plan crashed: an error, not drift",
			inputs:      map[string]string{"command": "drift", "fail-on-drift": "false"},
			event:       "schedule",
			env:         []string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"},
			wantExit:    1,
			wantArgv:    []string{"drift", "--out", "$RUNNER_TEMP/skillsync-drift.json", "--issue"},
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "plan-json": ""},
		},
		{
			name:        "apply never exits 2: a crash",
			inputs:      map[string]string{"command": "apply"},
			event:       "push",
			env:         []string{"FAKE_EXIT=2"},
			wantExit:    1,
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl"},
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "journal": "$RUNNER_TEMP/skillsync-journal.jsonl"},
		},
		{
			name:        "no token input keeps the job's SKILLSYNC_TOKEN",
			inputs:      map[string]string{"command": "apply"},
			event:       "push",
			env:         []string{"SKILLSYNC_TOKEN=from-job"},
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": ""},
			wantToken:   "from-job",
		},
		{
			name:        "an unknown command is an error",
			inputs:      map[string]string{"command": "destroy"},
			event:       "push",
			wantExit:    1,
			wantOutputs: map[string]string{"exit-code": "1"},
		},
		{
			name:        "a relative plan-file is absolute in plan-json, for upload-artifact",
			inputs:      map[string]string{"command": "plan", "plan-file": "plan.json"},
			event:       "push",
			env:         []string{"FAKE_EXIT=2"},
			wantArgv:    []string{"plan", "--detailed-exitcode", "--out", "$WORK/plan.json"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": "$WORK/plan.json"},
		},
		{
			name:        "args over several lines",
			inputs:      map[string]string{"command": "drift", "issue": "false", "args": "--parallelism 4\n--no-color\n"},
			event:       "schedule",
			wantArgv:    []string{"drift", "--out", "$RUNNER_TEMP/skillsync-drift.json", "--parallelism", "4", "--no-color"},
			wantOutputs: map[string]string{"exit-code": "0"},
		},
		{
			name:        "quotes in args are refused, not passed on",
			inputs:      map[string]string{"command": "plan", "args": `--base "origin/a b"`},
			event:       "push",
			wantExit:    1,
			wantOutputs: map[string]string{"exit-code": "1"},
		},
		{
			name:        "pull_request_target needs the space and base-url inputs",
			inputs:      map[string]string{"command": "plan", "token": "space-secret"},
			event:       "pull_request_target",
			wantExit:    1,
			wantOutputs: map[string]string{"exit-code": "1"},
		},
		{
			name:        "pull_request_target with both inputs",
			inputs:      map[string]string{"command": "plan", "token": "space-secret", "space": "ab12", "base-url": "https://t.example.com"},
			event:       "pull_request_target",
			wantArgv:    []string{"plan", "--space", "ab12", "--base-url", "https://t.example.com", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "0"},
			wantToken:   "space-secret",
		},
		{
			name:        "args are words, never shell",
			inputs:      map[string]string{"command": "apply", "args": "$(touch pwned) `touch pwned2` ;touch pwned3"},
			event:       "push",
			wantArgv:    []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl", "$(touch", "pwned)", "`touch", "pwned2`", ";touch", "pwned3"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": ""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runStep(t, tt.inputs, tt.event, tt.env...)
			if r.exit != tt.wantExit {
				t.Errorf("step exit %d, want %d\n%s", r.exit, tt.wantExit, r.log)
			}
			if !slices.Equal(r.argv, tt.wantArgv) {
				t.Errorf("skillsync got\n  %q\nwant\n  %q", r.argv, tt.wantArgv)
			}
			for k, want := range tt.wantOutputs {
				if got, ok := r.outputs[k]; !ok || got != want {
					t.Errorf("output %s = %q (set: %v), want %q", k, got, ok, want)
				}
			}
			if r.token != tt.wantToken {
				t.Errorf("SKILLSYNC_TOKEN = %q, want %q", r.token, tt.wantToken)
			}
			if tt.wantArgv != nil && r.githubToken != "default-github-token" {
				t.Errorf("GITHUB_TOKEN = %q, want the github-token input", r.githubToken)
			}
			for _, secret := range []string{"space-secret", "from-job", "default-github-token"} {
				log := strings.ReplaceAll(r.log, "::add-mask::"+secret, "")
				if slices.Contains(r.argv, secret) || strings.Contains(log, secret) {
					t.Errorf("token %q reached the command line or the log:\n%s", secret, r.log)
				}
			}
		})
	}
}

// TestActionStalePlanFile: a plan file there before the step (from an
// earlier step of the job) is never taken for this run's plan: not as
// changes after a crash that exits 2, not as plan-json after an error.
func TestActionStalePlanFile(t *testing.T) {
	planFile := filepath.Join(t.TempDir(), "plan.json")
	inputs := map[string]string{"command": "plan", "plan-file": planFile}
	for _, tt := range []struct {
		env                            []string
		wantExit                       int
		wantCode, wantChanges, wantOut string
	}{
		{[]string{"FAKE_EXIT=2", "FAKE_NO_OUT=1"}, 1, "1", "false", ""},
		{[]string{"FAKE_EXIT=1"}, 1, "1", "false", ""},
		{[]string{"FAKE_EXIT=2"}, 0, "2", "true", planFile},
		{[]string{"FAKE_EXIT=0"}, 0, "0", "false", planFile},
	} {
		if err := os.WriteFile(planFile, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		r := runStep(t, inputs, "push", tt.env...)
		if r.exit != tt.wantExit || r.outputs["exit-code"] != tt.wantCode || r.outputs["has-changes"] != tt.wantChanges || r.outputs["plan-json"] != tt.wantOut {
			t.Errorf("%v: step exit %d, outputs %q; want exit %d, exit-code %s, has-changes %s, plan-json %q\n%s",
				tt.env, r.exit, r.outputs, tt.wantExit, tt.wantCode, tt.wantChanges, tt.wantOut, r.log)
		}
	}
}

// TestActionBuildsFromSource keeps the action honest: Go comes from the
// action's own go.mod and skillsync is built from the action's checkout,
// both found through $GITHUB_ACTION_PATH (right in container jobs too).
func TestActionBuildsFromSource(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q, want composite", a.Runs.Using)
	}
	var find *step
	var setup, build bool
	for i, s := range a.Runs.Steps {
		switch {
		case s.ID == "go":
			find = &a.Runs.Steps[i]
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			setup = s.With["go-version"] == "${{ steps.go.outputs.version }}"
		case strings.Contains(s.Run, "go build"):
			build = strings.Contains(s.Run, `cd "$GITHUB_ACTION_PATH"`) && strings.Contains(s.Run, "./cmd/skillsync")
		}
	}
	if find == nil || !setup || !build {
		t.Fatalf("step go: %v; setup-go with its version: %v; go build in $GITHUB_ACTION_PATH: %v", find != nil, setup, build)
	}

	// The step that finds Go reads the version from the action's go.mod
	// and tells whether the job's Go can build it (1.21 or later).
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for line := range strings.SplitSeq(string(gomod), "\n") {
		if v, ok := strings.CutPrefix(line, "go "); ok {
			want = v
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, withGo := range []bool{true, false} {
		temp := t.TempDir()
		script := filepath.Join(temp, "find.sh")
		if err := os.WriteFile(script, []byte(find.Run), 0o644); err != nil {
			t.Fatal(err)
		}
		path := "/usr/bin:/bin"
		if !withGo && (exists("/usr/bin/go") || exists("/bin/go")) {
			t.Log("go in /usr/bin or /bin: the case without Go is not run")
			continue
		}
		if withGo {
			goBin, err := exec.LookPath("go")
			if err != nil {
				t.Skip("no go on PATH")
			}
			path = filepath.Dir(goBin) + ":" + path
		}
		output := filepath.Join(temp, "output")
		cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
		cmd.Env = []string{"PATH=" + path, "HOME=" + temp, "GITHUB_ACTION_PATH=" + root, "GITHUB_OUTPUT=" + output}
		if log, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("find Go (go on PATH: %v): %v\n%s", withGo, err, log)
		}
		data, _ := os.ReadFile(output)
		got := string(data)
		if !strings.Contains(got, "version="+want+"\n") || !strings.Contains(got, "usable="+map[bool]string{true: "true", false: "false"}[withGo]+"\n") {
			t.Errorf("go on PATH: %v: outputs %q, want version=%s and usable=%v", withGo, got, want, withGo)
		}
	}
}

// TestExampleKeepsJournal: the example's apply job keeps the journal of
// what apply replaced (DESIGN: nothing is lost), even when apply fails.
func TestExampleKeepsJournal(t *testing.T) {
	data, err := os.ReadFile("../examples/github/skills.yml")
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				step `yaml:",inline"`
				If   string `yaml:"if"`
			} `yaml:"steps"`
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

func exists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
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
