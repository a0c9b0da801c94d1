package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmeBlocks are the ```sh blocks of the README's section headed title,
// in order.
func readmeBlocks(t *testing.T, title string) (section string, blocks []string) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", title)
	}
	section, _, _ = strings.Cut(after, "\n## ")
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(section, -1) {
		blocks = append(blocks, m[1])
	}
	return section, blocks
}

// TestReadmeQuickStartOffline runs the README's offline quick start as a
// newcomer would, in one shell: start the emulator, pull, add a skill
// (created in the app, here by the app's own form, as a browser sends
// it), plan to a file, apply it, commit, edit in the app behind git's
// back, drift, apply. Only the last apply, which asks on a terminal, is
// given --auto-approve.
func TestReadmeQuickStartOffline(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"bash", "git", "curl"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here: %v", tool, err)
		}
	}
	section, blocks := readmeBlocks(t, "Quick start, offline")
	if len(blocks) != 4 {
		t.Fatalf("the quick start has %d sh blocks, the test knows 4 (start, add a skill, plan and apply, drift)", len(blocks))
	}
	const readmeAddr = "127.0.0.1:8080"
	if !strings.Contains(section, "<http://"+readmeAddr+"/app/>") {
		t.Fatalf("the quick start does not point at the app, http://%s/app/", readmeAddr)
	}
	// A free port stands for 8080, which may be taken where tests run.
	addr := freeAddrT(t)
	app := "http://" + addr + "/app/spaces/demo"
	form := func(path string, fields ...string) string {
		var b strings.Builder
		b.WriteString(`curl -fsS -o /dev/null -H "Origin: http://` + addr + `"`)
		for _, f := range fields {
			b.WriteString(` --data-urlencode '` + f + `'`)
		}
		b.WriteString(" " + app + path + "\n")
		return b.String()
	}
	last := strings.Replace(blocks[3], "skillsync apply ", "skillsync apply --auto-approve ", 1)
	script := strings.Join([]string{
		blocks[0], "echo '--- add'", blocks[1],
		"echo '--- in the app: create Brand Voice'", form("/skills", "name=Brand Voice", "description=Any."),
		"echo '--- plan'", blocks[2],
		"echo '--- in the app: disable brand-voice'", form("/skills/brand-voice/disable", "return=space"),
		"echo '--- drift'", last,
	}, "\n")
	script = strings.ReplaceAll(script, readmeAddr, addr)
	home := t.TempDir()
	cmd := exec.Command("bash", "--noprofile", "--norc", "-c", script)
	cmd.Dir = home
	cmd.Env = []string{"PATH=" + skillsyncOnPath(t) + ":" + os.Getenv("PATH"), "HOME=" + home,
		"GIT_AUTHOR_NAME=n", "GIT_AUTHOR_EMAIL=n@example.com", "GIT_COMMITTER_NAME=n", "GIT_COMMITTER_EMAIL=n@example.com", "NO_COLOR=1"}
	done := make(chan struct{})
	var out []byte
	go func() { out, _ = cmd.CombinedOutput(); close(done) }()
	select {
	case <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("the quick start did not end in 2 minutes:\n%s", out)
	}
	log := string(out)
	repo := filepath.Join(home, "skills-repo")
	t.Cleanup(func() { stopEmulator(repo) })
	for _, want := range []string{
		"Pulled 5 skills from space demo",
		`create a skill named "Brand Voice" in the app`,
		"~ brand-voice  (update)",
		"Apply: 1 applied, 0 failed, 0 skipped.",
		"The space differs from the repository; apply would perform these actions:",
		"+ brand-voice  (enable)",
	} {
		if !strings.Contains(log, want) {
			t.Errorf("the quick start's output lacks %q:\n%s", want, log)
		}
	}
	if n := strings.Count(log, "Apply: 1 applied, 0 failed, 0 skipped."); n != 2 {
		t.Errorf("%d applies, want 2 (the saved plan, then the drift put back):\n%s", n, log)
	}
	status, err := exec.Command("git", "-C", repo, "status", "--porcelain").CombinedOutput()
	if err != nil || len(status) != 0 {
		t.Errorf("the repository is not clean after the quick start (a saved plan or the emulator's files would be committed): %v\n%s", err, status)
	}
	commits, _ := exec.Command("git", "-C", repo, "log", "--format=%s").Output()
	if got := strings.Fields(string(commits)); !strings.Contains(string(commits), "Add brand-voice") {
		t.Errorf("commits %q: the new skill was not committed", got)
	}
	// The emulator kept its state: brand-voice is enabled again.
	data, err := os.ReadFile(filepath.Join(repo, ".emulator", "emulator-state.json"))
	if err != nil {
		t.Fatal(err)
	}
	var state struct {
		Spaces []struct {
			ID     string `json:"id"`
			Skills []struct {
				Slug    string `json:"slug"`
				Enabled bool   `json:"enabled"`
			} `json:"skills"`
		} `json:"spaces"`
	}
	if err := json.Unmarshal(data, &state); err != nil {
		t.Fatal(err)
	}
	enabled := ""
	for _, sp := range state.Spaces {
		for _, s := range sp.Skills {
			if sp.ID == "demo" && s.Slug == "brand-voice" {
				enabled = fmt.Sprint(s.Enabled)
			}
		}
	}
	if enabled != "true" {
		t.Errorf("brand-voice in the emulator's state: enabled %q, want true (the drift put back)", enabled)
	}
}

// stopEmulator stops an emulator the quick start left running, should its
// kill have missed it: the process whose working folder is repo.
func stopEmulator(repo string) {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if cwd, err := os.Readlink(filepath.Join("/proc", e.Name(), "cwd")); err == nil && cwd == repo {
			if cmdline, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline")); strings.Contains(string(cmdline), "emulator") {
				var pid int
				if _, err := fmt.Sscan(e.Name(), &pid); err == nil {
					if p, err := os.FindProcess(pid); err == nil {
						p.Kill()
					}
				}
			}
		}
	}
}
