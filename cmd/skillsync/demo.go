package main

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync"
	"github.com/skillsync/skillsync/remote/remotetest"
)

const demoSpace = "demo"

func demoCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "demo",
		Usage: "plan, apply and plan again against a built-in emulated space",
		Description: `Starts the emulator on loopback with a space that has drifted from a small
demo repository (an edited instruction, a disabled skill, an unmanaged skill,
a skill missing from the space, a supporting file that differs), then runs
'skillsync plan', 'skillsync apply --auto-approve' and 'skillsync plan'
again, which shows no changes. Needs no flags and leaves nothing behind.

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
// them, through the command line.
func runDemo(ctx context.Context, e *env, noColor bool) error {
	ui := e.ui
	tmp, err := os.MkdirTemp("", "skillsync-demo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo := filepath.Join(tmp, "repo")
	if err := copyEmbedded(repo, "testdata/demo/repo"); err != nil {
		return fmt.Errorf("writing the demo repository: %w", err)
	}
	tokenFile := filepath.Join(tmp, "token")
	if err := os.WriteFile(tokenFile, []byte(emulatorToken+"\n"), 0o600); err != nil {
		return err
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

	fprintf(ui.stdout, "skillsync demo: an emulated space %q at %s has drifted from the\n", demoSpace, srv.URL)
	fprintf(ui.stdout, "demo repository (%s). Plan, apply, and plan again:\n", "testdata/demo/repo")
	common := []string{"--dir", repo, "--base-url", srv.URL, "--space", demoSpace, "--token-file", tokenFile}
	if noColor {
		common = append(common, "--"+string(flagNoColor))
	}
	steps := [][]string{
		{"plan"},
		{"apply", "--auto-approve", "--journal", filepath.Join(tmp, "journal.jsonl")},
		{"plan"},
	}
	for _, step := range steps {
		fprintf(ui.stdout, "\n$ skillsync %s\n\n", strings.Join(step[:1], " ")+demoFlags(step[1:]))
		args := append([]string{"skillsync", step[0]}, append(step[1:], common...)...)
		app := newApp(&env{ui: ui, getenv: e.getenv, stdin: strings.NewReader(""), tuneClient: e.tuneClient})
		if err := app.RunContext(ctx, args); err != nil {
			return fmt.Errorf("demo step 'skillsync %s': %w", step[0], err)
		}
	}
	fprintf(ui.stdout, "\nThe space now matches the repository, but for what the API cannot do:\n")
	fprintf(ui.stdout, "create the missing skill and write the supporting file. The demo's repository\n")
	fprintf(ui.stdout, "and journal lived in a temporary folder, removed now. Next: see README.md.\n")
	return nil
}

// demoFlags shows the flags a reader would type, not the demo's plumbing.
func demoFlags(args []string) string {
	var shown []string
	for _, a := range args {
		if a == "--auto-approve" {
			shown = append(shown, a)
		}
	}
	if len(shown) == 0 {
		return ""
	}
	return " " + strings.Join(shown, " ")
}

// copyEmbedded writes the embedded folder dir to dst.
func copyEmbedded(dst, dir string) error {
	return fs.WalkDir(skillsync.Demo, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, dir), "/")
		target := filepath.Join(dst, filepath.FromSlash(rel))
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := fs.ReadFile(skillsync.Demo, p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
