// Tests of the repository's action.yml: its run step is a shell script that
// maps inputs to skillsync's flags and exit codes to the step's outputs, and
// is run here against a stand-in skillsync that records what it was given.
// The steps before it, which download or build skillsync, are run in order
// as the runner would (setup_test.go).
package tools

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	Name string            `yaml:"name"`
	If   string            `yaml:"if"`
	Run  string            `yaml:"run"`
	Dir  string            `yaml:"working-directory"`
	Env  map[string]string `yaml:"env"`
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
}

// exprs holds the values of the expressions action.yml reads, by name:
// inputs.NAME, github.NAME, runner.NAME, steps.ID.outputs.NAME. A name the
// test does not know fails it, so that a new expression gets a test.
type exprs map[string]string

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// expand replaces each ${{ NAME }} in s by its value.
func (e exprs) expand(t testing.TB, s string) string {
	t.Helper()
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		return e.value(t, exprRE.FindStringSubmatch(m)[1])
	})
}

func (e exprs) value(t testing.TB, name string) string {
	t.Helper()
	if v, ok := e[name]; ok {
		return v
	}
	// The outputs of a step that did not run, or did not set them, are
	// empty strings.
	if strings.HasPrefix(name, "steps.") && strings.Contains(name, ".outputs.") {
		return ""
	}
	t.Fatalf("expression %q: the test does not know it", name)
	return ""
}

var termRE = regexp.MustCompile(`^([A-Za-z0-9_.-]+)\s*(==|!=)\s*'([^']*)'$`)

// cond evaluates an if: of action.yml, which are terms NAME == 'VALUE' or
// NAME != 'VALUE' joined by &&, and !cancelled() (true: no job of a test
// is cancelled), in ${{ }} or not.
func (e exprs) cond(t testing.TB, s string) bool {
	t.Helper()
	s = strings.TrimSpace(s)
	if m := exprRE.FindStringSubmatch(s); m != nil && m[0] == s {
		s = m[1]
	}
	if s == "" {
		return true
	}
	for term := range strings.SplitSeq(s, "&&") {
		if strings.TrimSpace(term) == "!cancelled()" {
			continue
		}
		m := termRE.FindStringSubmatch(strings.TrimSpace(term))
		if m == nil {
			t.Fatalf("if: %s: the test reads only NAME == 'VALUE' and NAME != 'VALUE' joined by &&", s)
		}
		if (e.value(t, m[1]) == m[3]) != (m[2] == "==") {
			return false
		}
	}
	return true
}

// inputExprs is inputs.NAME for every input of a: its default (or
// "default-NAME" for a default that is an expression), or the value given.
func inputExprs(t testing.TB, a action, given map[string]string) exprs {
	t.Helper()
	e := exprs{}
	for name, in := range a.Inputs {
		v := in.Default
		if strings.Contains(v, "${{") {
			v = "default-" + name
		}
		e["inputs."+name] = v
	}
	for name, v := range given {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("input %q is not declared in action.yml", name)
		}
		e["inputs."+name] = v
	}
	return e
}

// goldenPlan is a plan as skillsync writes it (a golden file of the main
// module, rewritten by its tests with -update): the stand-in saves it, so
// that the action reads the counts from the real layout.
func goldenPlan(t testing.TB) string {
	t.Helper()
	return goldenPlanOf(t, "review.json")
}

// goldenPlanOf is the golden plan of that name.
func goldenPlanOf(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("../testdata/plans", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// quietGo turns Go's telemetry off in the home folder home: otherwise a go
// command started there leaves a telemetry process behind that writes in
// home after the test ended, and the removal of the test's temporary
// folders fails now and then ("directory not empty").
func quietGo(t testing.TB, home string) {
	t.Helper()
	dir := filepath.Join(home, ".config", "go", "telemetry")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mode"), []byte("off"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readAction(t testing.TB) action {
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

// fakeSkillsync records its arguments and SKILLSYNC_TOKEN, prints a plan
// and writes it as markdown to $GITHUB_STEP_SUMMARY as skillsync does under
// Actions, writes the file after --out as a real plan or drift would (the
// plan $FAKE_PLAN, else {}, as a new file renamed over the old; not on exit
// 1, nor with $FAKE_NO_OUT, as after a crash), and the one after --journal
// as apply does (unless $FAKE_NO_JOURNAL), and exits with $FAKE_EXIT.
const fakeSkillsync = `#!/usr/bin/env bash
if [ "$1" = targets ]; then
	printf 'staging\tspace st01\nproduction\tspace pr01\n' | head -n "${FAKE_TARGETS:-1}"
	exit 0
fi
printf '%s\n' "$@" > "$RUNNER_TEMP/argv"
printf '%s' "${SKILLSYNC_TARGET:-}" > "$RUNNER_TEMP/target"
printf '%s' "${SKILLSYNC_TOKEN:-}" > "$RUNNER_TEMP/token"
printf '%s' "${GITHUB_TOKEN:-}" > "$RUNNER_TEMP/github-token"
echo "Plan: 2 to update, 1 to enable, 1 to disable."
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	printf '<!-- skillsync:plan space=demo -->\n## skillsync %s\n' "$1" >> "$GITHUB_STEP_SUMMARY"
fi
prev=""
for a in "$@"; do
	if [ "$prev" = "--out" ] && [ "${FAKE_EXIT:-0}" != 1 ] && [ -z "${FAKE_NO_OUT:-}" ]; then
		if [ -n "${FAKE_PLAN:-}" ]; then cp "$FAKE_PLAN" "$a.new"; else echo '{}' > "$a.new"; fi
		mv -f "$a.new" "$a"
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
	target      string // SKILLSYNC_TARGET as skillsync saw it
	log         string
	// summary is the job summary after the step; files holds the files
	// named by the outputs plan-text and plan-markdown, by output.
	summary string
	files   map[string]string
}

// runStep runs the action's "run" step as the runner does (bash -eo
// pipefail on a script file) with the given inputs over the defaults.
func runStep(t testing.TB, inputs map[string]string, event string, extraEnv ...string) result {
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
	summary := filepath.Join(temp, "summary.md")

	env := []string{"PATH=" + os.Getenv("PATH"), "RUNNER_TEMP=" + temp, "GITHUB_OUTPUT=" + output,
		"GITHUB_STEP_SUMMARY=" + summary, "FAKE_PLAN=" + goldenPlan(t)}
	e := inputExprs(t, a, inputs)
	e["github.event_name"] = event
	for name, value := range run.Env {
		env = append(env, name+"="+e.expand(t, value))
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
	data, _ = os.ReadFile(filepath.Join(temp, "target"))
	r.target = string(data)
	data, _ = os.ReadFile(summary)
	r.summary = string(data)
	r.files = map[string]string{}
	for _, k := range []string{"plan-text", "plan-markdown"} {
		if path := r.outputs[k]; path != "" {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("output %s names %s: %v", k, path, err)
			}
			r.files[k] = string(data)
		}
	}
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
			name:     "plan on a pull request with changes comments and passes",
			inputs:   map[string]string{"command": "plan", "token": "space-secret"},
			event:    "pull_request",
			env:      []string{"FAKE_EXIT=2"},
			wantArgv: []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": "$RUNNER_TEMP/skillsync-plan.json",
				"to-update": "2", "to-enable": "1", "to-disable": "1",
				"plan-text": "$RUNNER_TEMP/skillsync-plan.txt", "plan-markdown": "$RUNNER_TEMP/skillsync-plan.md"},
			wantToken: "space-secret",
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
			name:     "a plan error fails the step",
			inputs:   map[string]string{"command": "plan"},
			event:    "pull_request",
			env:      []string{"FAKE_EXIT=1"},
			wantExit: 1,
			wantArgv: []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json", "--comment"},
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "plan-json": "",
				"to-update": "", "to-enable": "", "to-disable": "", "plan-text": "", "plan-markdown": ""},
		},
		{
			name:     "apply a saved plan with extra flags, the file last",
			inputs:   map[string]string{"command": "apply", "plan-file": "plan.json", "args": "--force  --parallelism 4"},
			event:    "push",
			wantArgv: []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl", "--force", "--parallelism", "4", "$WORK/plan.json"},
			wantOutputs: map[string]string{"exit-code": "0", "has-changes": "false", "plan-json": "", "journal": "$RUNNER_TEMP/skillsync-journal.jsonl",
				"to-update": "", "plan-text": "", "plan-markdown": ""},
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
			// The counts of several targets are their sum, the document's
			// summary, not the first target's.
			name:     "plan of several targets counts them all",
			inputs:   map[string]string{"command": "plan"},
			event:    "push",
			env:      []string{"FAKE_EXIT=2", "FAKE_PLAN=" + goldenPlanOf(t, "targets.json")},
			wantArgv: []string{"plan", "--detailed-exitcode", "--out", "$RUNNER_TEMP/skillsync-plan.json"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": "$RUNNER_TEMP/skillsync-plan.json",
				"to-update": "3", "to-enable": "2", "to-disable": "1"},
		},
		{
			name:     "drift fails the step by default",
			inputs:   map[string]string{"command": "drift"},
			event:    "schedule",
			env:      []string{"FAKE_EXIT=2"},
			wantExit: 2,
			wantArgv: []string{"drift", "--out", "$RUNNER_TEMP/skillsync-drift.json", "--issue"},
			wantOutputs: map[string]string{"exit-code": "2", "has-changes": "true", "plan-json": "",
				"to-update": "2", "to-enable": "1", "to-disable": "1",
				"plan-text": "$RUNNER_TEMP/skillsync-drift.txt", "plan-markdown": "$RUNNER_TEMP/skillsync-drift.md"},
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
			wantOutputs: map[string]string{"exit-code": "1", "has-changes": "false", "plan-json": "", "to-update": "", "plan-text": "", "plan-markdown": ""},
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

// TestActionPlanOutputs: plan hands on the plan it printed (plan-text) and
// the markdown that skillsync wrote for the job summary (plan-markdown),
// which still reaches the job summary; a failed plan hands on neither, and
// its report still reaches the summary.
func TestActionPlanOutputs(t *testing.T) {
	r := runStep(t, map[string]string{"command": "plan"}, "pull_request", "FAKE_EXIT=2")
	if r.exit != 0 {
		t.Fatalf("step exit %d\n%s", r.exit, r.log)
	}
	if got, want := r.files["plan-text"], "Plan: 2 to update, 1 to enable, 1 to disable.\n"; got != want {
		t.Errorf("plan-text holds %q, want %q", got, want)
	}
	md := "<!-- skillsync:plan space=demo -->\n## skillsync plan\n"
	if got := r.files["plan-markdown"]; got != md {
		t.Errorf("plan-markdown holds %q, want %q", got, md)
	}
	if r.summary != md {
		t.Errorf("job summary %q, want the markdown plan %q", r.summary, md)
	}
	if !strings.Contains(r.log, "Plan: 2 to update") {
		t.Errorf("the plan is not in the log:\n%s", r.log)
	}

	r = runStep(t, map[string]string{"command": "drift", "fail-on-drift": "false"}, "schedule", "FAKE_EXIT=1")
	if r.outputs["plan-markdown"] != "" || r.outputs["plan-text"] != "" {
		t.Errorf("a failed drift hands on plan-text %q and plan-markdown %q", r.outputs["plan-text"], r.outputs["plan-markdown"])
	}
	if !strings.Contains(r.summary, "skillsync drift") {
		t.Errorf("the report of a failed drift did not reach the job summary: %q", r.summary)
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

// TestActionTarget: the target input reaches skillsync as SKILLSYNC_TARGET;
// apply keeps one journal file for one target, and leaves several targets
// their journals of their own (--journal names one file).
func TestActionTarget(t *testing.T) {
	journal := []string{"apply", "--auto-approve", "--journal", "$RUNNER_TEMP/skillsync-journal.jsonl"}
	for _, tc := range []struct {
		name        string
		target      string
		env         []string
		wantArgv    []string
		wantJournal string
	}{
		{"one target named", "production", nil, journal, "$RUNNER_TEMP/skillsync-journal.jsonl"},
		{"two targets named", "staging,production", nil, []string{"apply", "--auto-approve"}, ""},
		{"no target, a skillsync.yaml of one", "", nil, journal, "$RUNNER_TEMP/skillsync-journal.jsonl"},
		{"no target, a skillsync.yaml of two", "", []string{"FAKE_TARGETS=2"}, []string{"apply", "--auto-approve"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runStep(t, map[string]string{"command": "apply", "target": tc.target}, "push", tc.env...)
			if r.exit != 0 || !slices.Equal(r.argv, tc.wantArgv) || r.outputs["journal"] != tc.wantJournal || r.target != tc.target {
				t.Errorf("exit %d, argv %q, journal %q, SKILLSYNC_TARGET %q; want 0, %q, %q, %q\n%s",
					r.exit, r.argv, r.outputs["journal"], r.target, tc.wantArgv, tc.wantJournal, tc.target, r.log)
			}
		})
	}
}

// TestActionCodeScanning: with code-scanning, the run step writes the
// SARIF log of validate first (its exit 1 on an error finding does not
// stop the command), hands it on as the output sarif, and the upload step
// sends it to code scanning even when the command failed; without it,
// nothing of the kind runs.
func TestActionCodeScanning(t *testing.T) {
	r := runStep(t, map[string]string{"command": "plan", "code-scanning": "true"}, "pull_request", "FAKE_EXIT=1")
	if r.exit != 1 {
		t.Errorf("step exit %d, want the plan's 1\n%s", r.exit, r.log)
	}
	if r.outputs["sarif"] != "$RUNNER_TEMP/skillsync.sarif" {
		t.Errorf("output sarif = %q, want $RUNNER_TEMP/skillsync.sarif", r.outputs["sarif"])
	}
	if len(r.argv) == 0 || r.argv[0] != "plan" {
		t.Errorf("the command run last is %q, want plan after validate", r.argv)
	}
	r = runStep(t, map[string]string{"command": "plan"}, "pull_request")
	if _, ok := r.outputs["sarif"]; ok {
		t.Errorf("without code-scanning, output sarif = %q", r.outputs["sarif"])
	}

	a := readAction(t)
	i := slices.IndexFunc(a.Runs.Steps, func(s step) bool { return strings.HasPrefix(s.Uses, "github/codeql-action/upload-sarif@") })
	if i < 0 {
		t.Fatal("action.yml has no step uploading SARIF")
	}
	up := a.Runs.Steps[i]
	e := inputExprs(t, a, map[string]string{"code-scanning": "true"})
	e["steps.run.outputs.sarif"] = "/tmp/x.sarif"
	if !strings.Contains(up.If, "!cancelled()") || !e.cond(t, up.If) {
		t.Errorf("upload step if: %s: want it to run after a failed command when there is a log", up.If)
	}
	if got := e.expand(t, up.With["sarif_file"]); got != "/tmp/x.sarif" {
		t.Errorf("upload step sends %q, want the run step's log", got)
	}
	e["inputs.code-scanning"] = "false"
	if e.cond(t, up.If) {
		t.Errorf("upload step runs without code-scanning")
	}
}
