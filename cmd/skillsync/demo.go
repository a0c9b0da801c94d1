package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync"
	"github.com/skillsync/skillsync/remote/remotetest"
)

const demoSpace = "demo"

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "plan, apply and check for drift against a built-in emulated space",
		Description: `Starts the emulator on loopback with a space that has drifted from a small
demo repository (an edited instruction, a disabled skill, an unmanaged skill,
a skill missing from the space, a supporting file that differs), then runs
'skillsync plan -out', 'skillsync apply' of that plan and 'skillsync
drift', which shows only what the API cannot change, then lists the
targets of a skillsync.yaml that drives a staging space too. Needs no flags
and leaves nothing behind.

Example:
   go run ./cmd/skillsync demo

Exit codes: 0 success, 1 error.`,
		Flags: []cli.Flag{noColorFlag()},
		Action: func(c *cli.Context) error {
			return runDemo(c.Context, e, flagNoColor.get(c))
		},
	}
}

// runDemo runs the tour: the commands it shows run as the user would run
// them, through the command line. Its repository and plan live in a
// temporary folder, removed on every way out: an error, an interrupt, or a
// reader that stops reading (skillsync demo | head), which would otherwise
// end the process by SIGPIPE before any cleanup. The token goes to the
// commands through their environment, never to a file.
func runDemo(ctx context.Context, e *env, noColor bool) error {
	ui := e.ui
	pipe := make(chan os.Signal, 1)
	signal.Notify(pipe, syscall.SIGPIPE) // writes fail with EPIPE instead
	defer signal.Stop(pipe)
	tmp, err := os.MkdirTemp("", "skillsync-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo := filepath.Join(tmp, "repo")
	if err := copyEmbedded(repo, "testdata/demo/repo"); err != nil {
		return fmt.Errorf("writing the demo repository: %w", err)
	}

	em := remotetest.New()
	if err := seedEmulator(em, ""); err != nil {
		return err
	}
	em.AddToken(emulatorToken, remotetest.ReadWrite)
	srv, err := em.Start("127.0.0.1:0")
	if err != nil {
		return fmt.Errorf("starting the emulator: %w", err)
	}
	defer srv.Close()

	say := func(format string, args ...any) error {
		_, err := fmt.Fprintf(ui.stdout, format, args...)
		return err
	}
	if err := say("skillsync demo: an emulated space %q at %s has drifted from the\n"+
		"demo repository (testdata/demo/repo). Review a plan, apply it, check for drift:\n", demoSpace, srv.URL); err != nil {
		return errDemoStopped
	}
	getenv := func(k string) string {
		if k == envToken {
			return emulatorToken
		}
		return e.getenv(k)
	}
	common := []string{"--dir", repo, "--base-url", srv.URL, "--space", demoSpace}
	if noColor {
		common = append(common, "--"+string(flagNoColor))
	}
	planFile := filepath.Join(tmp, "demo.plan")
	steps := []struct {
		shown string
		args  []string
	}{
		{"plan -out demo.plan", []string{"plan", "--" + string(flagOut), planFile}},
		{"apply demo.plan", []string{"apply", "--" + string(flagJournal), filepath.Join(tmp, "journal.jsonl")}},
		{"drift", []string{"drift"}},
	}
	for _, step := range steps {
		if err := say("\n$ skillsync %s\n\n", step.shown); err != nil {
			return errDemoStopped
		}
		args := append(append([]string{"skillsync"}, step.args...), common...)
		if step.args[0] == "apply" {
			args = append(args, planFile)
		}
		app := newApp(&env{ui: ui, getenv: getenv, stdin: strings.NewReader(""), instantRetries: e.instantRetries})
		err := app.RunContext(ctx, args)
		if step.args[0] == "drift" && errors.Is(err, errChanges) {
			err = nil // what the API cannot change stays as drift
		}
		if err != nil {
			return fmt.Errorf("demo step 'skillsync %s': %w", step.shown, err)
		}
	}
	// Targets, briefly: the same repository driving a staging space too.
	targets := fmt.Sprintf("baseURL: %s\nmissing: warn\nunmanaged: ignore\ntargets:\n"+
		"  staging: {space: stg, enabled: {sql-style: false}}\n  production: {space: %s}\n", srv.URL, demoSpace)
	if err := os.WriteFile(filepath.Join(repo, "skillsync.yaml"), []byte(targets), 0o644); err != nil {
		return err
	}
	if err := say("\nOne repository can drive several spaces (targets: in skillsync.yaml):\n$ skillsync targets\n"); err != nil {
		return errDemoStopped
	}
	app := newApp(&env{ui: ui, getenv: getenv, stdin: strings.NewReader(""), instantRetries: e.instantRetries})
	if err := app.RunContext(ctx, []string{"skillsync", "targets", "--dir", repo}); err != nil {
		return fmt.Errorf("demo step 'skillsync targets': %w", err)
	}
	if err := say("\nWhat drift still reports is for the app to do. Next: see README.md.\n"); err != nil {
		return errDemoStopped
	}
	return nil
}

// errDemoStopped ends a demo whose reader stopped reading.
var errDemoStopped = errors.New("the demo's output is no longer read")

// copyEmbedded writes the embedded folder dir to dst.
func copyEmbedded(dst, dir string) error {
	sub, err := fs.Sub(skillsync.Demo, dir)
	if err != nil {
		return err
	}
	return os.CopyFS(dst, sub)
}
