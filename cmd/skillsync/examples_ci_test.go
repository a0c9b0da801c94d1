package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"go.yaml.in/yaml/v3"

	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// The examples of several targets are run here as their platform runs
// them, with real skillsync against the emulator: what a platform's rule
// decides (which variables a branch sees, which jobs wait for an
// approval) is modelled, since an example that works with a stand-in
// skillsync may still have no token where it runs.

// Tokens of the examples' spaces: st01 (staging) and pr01 (production),
// one to write and one to read each.
const (
	exStagingToken     = "staging-write-token-0123456789"
	exProductionToken  = "production-write-token-0123456789"
	exStagingPlanToken = "staging-read-token-0123456789"
	exProdPlanToken    = "production-read-token-0123456789"
)

// exampleSpaces starts the emulator with the spaces of the examples, each
// holding the skill code-review as the repository of exampleRepo has it.
func exampleSpaces(t *testing.T) (*remotetest.Emulator, string) {
	t.Helper()
	e := remotetest.New()
	for _, sp := range []string{"st01", "pr01"} {
		e.AddSpace(remotetest.Space{ID: sp})
		e.AddSkill(sp, remotetest.SkillSeed{Slug: "code-review", Name: "Code Review", Description: "Reviews a change.", Instructions: "Read the diff.\n", Enabled: true})
	}
	e.AddToken(exStagingToken, remotetest.ReadWrite, "st01")
	e.AddToken(exProductionToken, remotetest.ReadWrite, "pr01")
	e.AddToken(exStagingPlanToken, remotetest.ReadOnly, "st01")
	e.AddToken(exProdPlanToken, remotetest.ReadOnly, "pr01")
	return e, testserver.New(t, e).URL
}

// exampleConfig is the skillsync.yaml an example's header comment shows,
// the "targets:" block, with baseURL set to the emulator's.
func exampleConfig(t *testing.T, example []byte, baseURL string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("baseURL: " + baseURL + "\n")
	in := false
	for line := range strings.Lines(string(example)) {
		body, ok := strings.CutPrefix(line, "#   ")
		switch {
		case ok && strings.TrimSpace(body) == "targets:":
			in = true
			b.WriteString("targets:\n")
		case in && ok && strings.HasPrefix(body, "  "):
			b.WriteString(body)
		case in:
			return b.String()
		}
	}
	t.Fatal("the example's header shows no targets: block of skillsync.yaml")
	return ""
}

// exampleRepo makes the repository of an example in dir: main holding the
// skill as the spaces have it, origin/main the same commit, and a branch
// of a merge request checked out, whose change touches both targets.
func exampleRepo(t *testing.T, dir, config string) (r *git.Repository, main, change plumbing.Hash) {
	t.Helper()
	r = gitInitMain(t, dir)
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skillsync.yaml", config)
	write("skills/code-review/SKILL.md", "---\nname: Code Review\ndescription: Reviews a change.\n---\nRead the diff.\n")
	main = gitCommitAll(t, r, "skills")
	if err := r.Storer.SetReference(plumbing.NewHashReference("refs/remotes/origin/main", main)); err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("change"), Create: true}); err != nil {
		t.Fatal(err)
	}
	write("skills/code-review/SKILL.md", "---\nname: Code Review\ndescription: Reviews a change.\n---\nRead the diff, then the tests.\n")
	change = gitCommitAll(t, r, "change")
	return r, main, change
}

// merge makes main (and origin/main) the commit change and checks it
// out, as the pipeline of a merge to the default branch sees it.
func merge(t *testing.T, r *git.Repository, change plumbing.Hash) {
	t.Helper()
	for _, ref := range []string{"refs/heads/main", "refs/remotes/origin/main"} {
		if err := r.Storer.SetReference(plumbing.NewHashReference(plumbing.ReferenceName(ref), change)); err != nil {
			t.Fatal(err)
		}
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName("main")}); err != nil {
		t.Fatal(err)
	}
}

// skillsyncOnPath is a folder holding skillsync: this test binary, which
// runs main under that name (see TestMain).
func skillsyncOnPath(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "skillsync")); err != nil {
		t.Fatal(err)
	}
	return bin
}

// instructionsIn are the instructions of code-review in a space.
func instructionsIn(e *remotetest.Emulator, space string) string {
	s, _ := e.SkillBySlug(space, "code-review")
	if s.Instructions == nil {
		return ""
	}
	return *s.Instructions
}

// glVariable is a CI/CD variable of a GitLab project.
type glVariable struct {
	value     string
	protected bool
}

// glJob is what the test reads of a GitLab job.
type glJob struct {
	Extends   string            `yaml:"extends"`
	Variables map[string]string `yaml:"variables"`
	Parallel  struct {
		Matrix []map[string][]string `yaml:"matrix"`
	} `yaml:"parallel"`
	Script []string `yaml:"script"`
}

// TestGitLabTargetsExample runs the GitLab example of several targets:
// the plan jobs of a merge request pipeline, on an unprotected branch
// that sees no protected variable; the apply jobs of the merge; the
// drift jobs of a schedule, both on the protected default branch. The
// variables are those its header says to set, protected as it says.
func TestGitLabTargetsExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../examples/gitlab/.gitlab-ci-targets.yml")
	if err != nil {
		t.Fatal(err)
	}
	project := map[string]glVariable{
		"SKILLSYNC_TOKEN_STAGING":         {exStagingToken, true},
		"SKILLSYNC_TOKEN_PRODUCTION":      {exProductionToken, true},
		"SKILLSYNC_PLAN_TOKEN_STAGING":    {exStagingPlanToken, false},
		"SKILLSYNC_PLAN_TOKEN_PRODUCTION": {exProdPlanToken, false},
		"GITLAB_TOKEN":                    {gitlabtest.Token, false},
	}
	header, _, _ := strings.Cut(string(data), "\n\n")
	header = strings.Join(strings.Fields(strings.ReplaceAll(header, "#", " ")), " ")
	for name, v := range project {
		says := regexp.MustCompile(`(?s)` + name + `.*?(not protected|protected)`).FindStringSubmatch(header)
		if says == nil || (says[1] == "protected") != v.protected {
			t.Errorf("the header does not say to set %s, protected %t", name, v.protected)
		}
	}
	var file map[string]yaml.Node
	if err := yaml.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	var jobOf func(name string) glJob
	jobOf = func(name string) glJob {
		t.Helper()
		var j glJob
		n, ok := file[name]
		if !ok {
			t.Fatalf("the example has no job %s", name)
		}
		if err := n.Decode(&j); err != nil {
			t.Fatal(err)
		}
		if j.Extends != "" {
			base := jobOf(j.Extends)
			base.Variables = mergeVars(base.Variables, j.Variables)
			if j.Script == nil {
				j.Script = base.Script
			}
			j.Variables = base.Variables
		}
		return j
	}
	var global map[string]string
	if n, ok := file["variables"]; ok {
		if err := n.Decode(&global); err != nil {
			t.Fatal(err)
		}
	}

	e, url := exampleSpaces(t)
	dir := t.TempDir()
	r, _, change := exampleRepo(t, dir, exampleConfig(t, data, url))
	bin := skillsyncOnPath(t)
	gl := gitlabtest.New(t)
	gl.AddMergeRequest(1)

	// run runs one job of a pipeline, for one set of matrix variables,
	// and returns its exit code and log.
	run := func(job glJob, matrix map[string]string, predefined map[string]string, protectedRef bool) (int, string) {
		t.Helper()
		visible := map[string]string{}
		for k, v := range project {
			if !v.protected || protectedRef {
				visible[k] = v.value
			}
		}
		vars := mergeVars(predefined, global, job.Variables, matrix)
		// Job variables may name others ($NAME), as GitLab expands them;
		// a project variable wins over a job's of the same name.
		lookup := func(k string) string {
			if v, ok := visible[k]; ok {
				return v
			}
			return vars[k]
		}
		env := []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "HOME=" + t.TempDir()}
		for k, v := range vars {
			if _, ok := visible[k]; !ok {
				env = append(env, k+"="+os.Expand(v, lookup))
			}
		}
		for k, v := range visible {
			env = append(env, k+"="+v)
		}
		script := filepath.Join(t.TempDir(), "job.sh")
		if err := os.WriteFile(script, []byte(strings.Join(job.Script, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-e", script)
		cmd.Dir, cmd.Env = dir, env
		log, err := cmd.CombinedOutput()
		if ee, ok := err.(*exec.ExitError); ok {
			return ee.ExitCode(), string(log)
		} else if err != nil {
			t.Fatal(err)
		}
		return 0, string(log)
	}
	ci := map[string]string{
		"GITLAB_CI": "true", "CI_API_V4_URL": gl.URL, "CI_PROJECT_ID": gitlabtest.ProjectID,
		"CI_PROJECT_URL": gitlabtest.WebURL, "CI_JOB_URL": gitlabtest.WebURL + "/-/jobs/99", "CI_DEFAULT_BRANCH": "main",
	}
	matrix := func(j glJob) []map[string]string {
		var out []map[string]string
		for _, m := range j.Parallel.Matrix {
			for _, v := range m["SKILLSYNC_TARGET"] {
				out = append(out, map[string]string{"SKILLSYNC_TARGET": v})
			}
		}
		if len(out) == 0 {
			t.Fatal("a matrix job of the example has no SKILLSYNC_TARGET values")
		}
		return out
	}

	mr := mergeVars(ci, map[string]string{"CI_PIPELINE_SOURCE": "merge_request_event", "CI_MERGE_REQUEST_IID": "1", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main"})
	for _, m := range matrix(jobOf("plan")) {
		if code, log := run(jobOf("plan"), m, mr, false); code != 0 {
			t.Errorf("plan of %s in a merge request pipeline: exit %d\n%s", m["SKILLSYNC_TARGET"], code, log)
		}
	}
	notes := 0
	for _, n := range gl.Notes() {
		if n.Noteable == "MergeRequest" && strings.Contains(n.Body, "Read the diff, then the tests.") {
			notes++
		}
	}
	if notes != 2 {
		t.Errorf("%d plan notes on the merge request show the change, want one per target (2)", notes)
	}

	merge(t, r, change)
	push := mergeVars(ci, map[string]string{"CI_PIPELINE_SOURCE": "push", "CI_COMMIT_BRANCH": "main"})
	for _, name := range []string{"apply-staging", "apply-production"} {
		if code, log := run(jobOf(name), nil, push, true); code != 0 {
			t.Errorf("%s after the merge: exit %d\n%s", name, code, log)
		}
	}
	for _, sp := range []string{"st01", "pr01"} {
		if got := instructionsIn(e, sp); got != "Read the diff, then the tests.\n" {
			t.Errorf("space %s holds %q after the merge's apply", sp, got)
		}
	}

	schedule := mergeVars(ci, map[string]string{"CI_PIPELINE_SOURCE": "schedule", "CI_COMMIT_BRANCH": "main"})
	for _, m := range matrix(jobOf("drift")) {
		if code, log := run(jobOf("drift"), m, schedule, true); code != 0 {
			t.Errorf("drift of %s, in sync: exit %d\n%s", m["SKILLSYNC_TARGET"], code, log)
		}
	}
}

// ghStep and ghJob are what the test reads of a GitHub workflow.
type ghStep struct {
	Uses string            `yaml:"uses"`
	With map[string]string `yaml:"with"`
	Env  map[string]string `yaml:"env"`
}

type ghJob struct {
	Environment string   `yaml:"environment"`
	Steps       []ghStep `yaml:"steps"`
}

// TestGitHubTargetsExample runs the skillsync steps of the GitHub example
// of several targets as the action runs them (its token input as
// SKILLSYNC_TOKEN, its target as SKILLSYNC_TARGET, the step's env), with
// the secrets its header says to set: repository secrets for every job,
// and an environment's own only in a job of that environment. Production
// has required reviewers: a job of a pull request or the schedule must
// not wait for them.
func TestGitHubTargetsExample(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../examples/github/skills-targets.yml")
	if err != nil {
		t.Fatal(err)
	}
	repoSecrets := map[string]string{"SKILLSYNC_PLAN_TOKEN_STAGING": exStagingPlanToken, "SKILLSYNC_PLAN_TOKEN_PRODUCTION": exProdPlanToken}
	envSecrets := map[string]map[string]string{
		"staging":    {"SKILLSYNC_TOKEN": exStagingToken},
		"production": {"SKILLSYNC_TOKEN": exProductionToken},
	}
	reviewers := map[string]bool{"production": true}
	for name := range repoSecrets {
		if !strings.Contains(string(data), "#   - repository secrets "+name) && !strings.Contains(string(data), "#     "+name) {
			t.Errorf("the header does not say to set the repository secret %s", name)
		}
	}
	var wf struct {
		Jobs map[string]ghJob `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(data, &wf); err != nil {
		t.Fatal(err)
	}
	e, url := exampleSpaces(t)
	dir := t.TempDir()
	r, _, change := exampleRepo(t, dir, exampleConfig(t, data, url))

	secretRef := regexp.MustCompile(`^\$\{\{\s*secrets\.(\w+)\s*\}\}$`)
	// run runs the skillsync step of job for target, as its event would:
	// it returns the exit code and output, or fails the test when the job
	// would wait for an approval.
	run := func(jobName, target string, waitsOK bool, args ...string) (int, string) {
		t.Helper()
		job, ok := wf.Jobs[jobName]
		if !ok {
			t.Fatalf("the example has no job %s", jobName)
		}
		environment := strings.ReplaceAll(job.Environment, "${{ matrix.target }}", target)
		if reviewers[environment] && !waitsOK {
			t.Errorf("job %s of target %s runs in environment %s, whose required reviewers hold it until approved", jobName, target, environment)
		}
		secrets := mergeVars(repoSecrets, envSecrets[environment])
		resolve := func(v string) string {
			if m := secretRef.FindStringSubmatch(strings.TrimSpace(v)); m != nil {
				return secrets[m[1]] // a secret not set is empty
			}
			return strings.ReplaceAll(v, "${{ matrix.target }}", target)
		}
		for _, s := range job.Steps {
			if !strings.HasPrefix(s.Uses, "skillsync/skillsync@") {
				continue
			}
			te := testEnv{"NO_COLOR": "1", "SKILLSYNC_TARGET": resolve(s.With["target"])}
			if tok := resolve(s.With["token"]); tok != "" {
				te["SKILLSYNC_TOKEN"] = tok
			}
			for k, v := range s.Env {
				te[k] = resolve(v)
			}
			if te["SKILLSYNC_TARGET"] != target {
				t.Errorf("job %s: the step's target is %q, want %q", jobName, te["SKILLSYNC_TARGET"], target)
			}
			code, stdout, stderr := runCLI(t, te, append([]string{s.With["command"], "--dir", dir}, args...)...)
			return code, stdout + stderr
		}
		t.Fatalf("job %s has no skillsync step", jobName)
		return 0, ""
	}
	for _, target := range []string{"staging", "production"} {
		if code, log := run("plan", target, false, "--detailed-exitcode"); code != 2 {
			t.Errorf("plan of %s on the pull request: exit %d, want 2 (changes)\n%s", target, code, log)
		}
	}
	merge(t, r, change)
	if code, log := run("apply-staging", "staging", true, "--auto-approve"); code != 0 {
		t.Errorf("apply-staging: exit %d\n%s", code, log)
	}
	if code, log := run("apply-production", "production", true, "--auto-approve"); code != 0 {
		t.Errorf("apply-production: exit %d\n%s", code, log)
	}
	for _, sp := range []string{"st01", "pr01"} {
		if got := instructionsIn(e, sp); got != "Read the diff, then the tests.\n" {
			t.Errorf("space %s holds %q after the merge's apply", sp, got)
		}
	}
	for _, target := range []string{"staging", "production"} {
		if code, log := run("drift", target, false); code != 0 {
			t.Errorf("nightly drift of %s, in sync: exit %d\n%s", target, code, log)
		}
	}
}

// mergeVars is the variables of each map in turn, a later map's winning.
func mergeVars(ms ...map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
