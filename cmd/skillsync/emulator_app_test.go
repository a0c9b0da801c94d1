package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/skillsync/skillsync/reconcile"
)

// chromium finds Debian's chromium. Where it is missing the test is
// skipped, but not in CI (.ci/run installs it and sets
// SKILLSYNC_BROWSER_TEST=required), where a skip would hide the test.
func chromium(t *testing.T) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser"} {
		if path, err := exec.LookPath(name); err == nil {
			return path
		}
	}
	if os.Getenv("SKILLSYNC_BROWSER_TEST") == "required" || os.Getenv("CI") != "" {
		t.Fatal("chromium is not installed, and CI must run the app's browser test: apt-get install chromium (.ci/run does)")
	}
	t.Skip("chromium is not installed: apt-get install chromium to run the app's browser test (CI runs it)")
	return ""
}

// startEmulatorCommand runs 'skillsync emulator' in-process until the test
// ends, and returns what it printed before serving: the base URL, the
// token, spaces and app lines.
func startEmulatorCommand(t *testing.T, args ...string) (lines []string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, w := io.Pipe()
	var logs strings.Builder // written under the ui's lock, read once it ends
	done := make(chan int)
	go func() {
		code := run(ctx, append([]string{"skillsync", "emulator"}, args...), testEnv{}.process(strings.NewReader(""), w, &logs))
		w.Close()
		done <- code
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("the emulator exited %d", code)
		}
		if t.Failed() {
			t.Logf("the emulator's log:\n%s", logs.String())
		}
	})
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if strings.HasPrefix(sc.Text(), "app: ") {
			go io.Copy(io.Discard, out)
			return lines
		}
	}
	t.Fatalf("the emulator stopped before printing the app's address; it printed %q", lines)
	return nil
}

// TestAppInABrowser: in a real browser, a skill is created in the
// emulator's app, its instructions edited, and another skill disabled;
// drift then finds exactly those edits, as it would edits in the app.
func TestAppInABrowser(t *testing.T) {
	browser := chromium(t)
	lines := startEmulatorCommand(t, "--addr", "127.0.0.1:0", "--token", scriptToken)
	base := lines[0]
	if !strings.HasPrefix(base, "http://127.0.0.1:") || len(lines) != 4 ||
		lines[1] != "token: "+scriptToken+" (read-write, every space)" ||
		lines[2] != "spaces: demo, stg" || lines[3] != "app: "+base+"/app/" {
		t.Fatalf("the emulator printed %q", lines)
	}
	te := testEnv{"SKILLSYNC_BASE_URL": base, "SKILLSYNC_SPACE": demoSpace, "SKILLSYNC_TOKEN": scriptToken, "NO_COLOR": "1"}

	// A repository in step with the space, but for a skill that is not
	// there yet: the README's "create the skill in the app".
	repo := t.TempDir()
	if code, _, stderr := runCLI(t, te, "pull", "--dir", repo); code != 0 {
		t.Fatalf("pull exited %d: %s", code, stderr)
	}
	if err := copyEmbedded(filepath.Join(repo, "skills", "brand-voice"), "testdata/demo/repo/skills/brand-voice"); err != nil {
		t.Fatal(err)
	}
	drift := func() *reconcile.Plan {
		t.Helper()
		code, stdout, stderr := runCLI(t, te, "drift", "--dir", repo, "--format", "json")
		if code != 2 {
			t.Fatalf("drift exited %d, want 2 (drift): %s", code, stderr)
		}
		var doc struct {
			Targets []reconcile.Plan `json:"targets"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		if len(doc.Targets) != 1 {
			t.Fatalf("drift of one space wrote %d plans", len(doc.Targets))
		}
		return &doc.Targets[0]
	}
	if p := drift(); len(p.Changes) != 0 || len(p.Missing) != 1 || p.Missing[0].Slug != "brand-voice" {
		t.Fatalf("before the app's edits drift finds %d changes and missing %+v, want brand-voice missing alone", len(p.Changes), p.Missing)
	}

	// The bound only stops a hang: a busy CI machine may take long to
	// start chromium, which chromedp otherwise gives 20 s.
	const hang = 4 * time.Minute
	ctx, cancel := context.WithTimeout(t.Context(), hang)
	defer cancel()
	alloc, cancelAlloc := chromedp.NewExecAllocator(ctx,
		chromedp.ExecPath(browser),
		chromedp.WSURLReadTimeout(hang),
		chromedp.Flag("headless", true),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(t.TempDir()),
	)
	defer cancelAlloc()
	page, closePage := chromedp.NewContext(alloc)
	defer closePage()

	// Each step waits for the notice of the page it leads to, so that no
	// step reads the page before.
	notice := func(text string) chromedp.Action[chromedp.Void] {
		return chromedp.WaitVisible(fmt.Sprintf(`//p[@class="notice"][.=%q]`, text))
	}
	const instructions = "# Brand voice\n\nWrite like a pirate. Arr."
	err := chromedp.Do(page,
		chromedp.Navigate(base), // "/" leads to the app
		chromedp.Click(chromedp.CSS(`a[href="/app/spaces/demo/"]`), chromedp.NodeVisible),
		chromedp.WaitVisible(chromedp.CSS(`#name`)),
		chromedp.SendKeys(chromedp.CSS(`#name`), "Brand Voice"),
		chromedp.SendKeys(chromedp.CSS(`#description`), "Rewrites copy in the company's brand voice. Use for marketing text and announcements."),
		chromedp.SendKeys(chromedp.CSS(`#instructions`), "Draft."),
		chromedp.Click(chromedp.CSS(`form[action="/app/spaces/demo/skills"] button[type=submit]`), chromedp.NodeVisible),
		notice("Skill created."),

		chromedp.SetValue(chromedp.CSS(`#instructions`), "# Brand voice\n\n"),
		chromedp.SendKeys(chromedp.CSS(`#instructions`), "Write like a pirate. Arr."),
		chromedp.Click(chromedp.CSS(`form[action="/app/spaces/demo/skills/brand-voice"] button[type=submit]`), chromedp.NodeVisible),
		notice("Saved."),

		chromedp.Click(chromedp.CSS(`nav a[href="/app/spaces/demo/"]`), chromedp.NodeVisible),
		chromedp.Click(chromedp.CSS(`form[action="/app/spaces/demo/skills/code-review/disable"] button`), chromedp.NodeVisible),
		notice("Disabled."),
	)
	if err != nil {
		t.Fatalf("in the browser: %v", err)
	}
	at, err := chromedp.Run(page, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if at != base+"/app/spaces/demo/?done=disabled" {
		t.Errorf("after disabling the browser is at %s, not back on the space's page", at)
	}

	p := drift()
	var got []string
	for _, c := range p.Changes {
		line := fmt.Sprintf("%s %v %v", c.Slug, c.Actions, c.Fields)
		if c.Before.Instructions != nil && slices.Contains(c.Fields, "instructions") {
			line += fmt.Sprintf(" %q", *c.Before.Instructions)
		}
		got = append(got, line)
	}
	want := []string{
		fmt.Sprintf("brand-voice [update] [instructions] %q", instructions),
		"code-review [enable] [enabled]",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(p.Missing) != 0 || len(p.Files) != 0 || len(p.Unmanaged) != 0 {
		t.Errorf("drift after the app's edits:\n%s\nmissing %v, files %v, unmanaged %v\nwant:\n%s",
			strings.Join(got, "\n"), p.Missing, p.Files, p.Unmanaged, strings.Join(want, "\n"))
	}
}
