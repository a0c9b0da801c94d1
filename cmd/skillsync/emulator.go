package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// emulatorToken is the token the emulator accepts when --token is not given.
// It guards nothing: the emulator only listens on loopback.
const emulatorToken = "skillsync-emulator"

func emulatorCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "emulator",
		Usage: "serve an in-memory emulation of the space API on loopback",
		Description: `Serves every endpoint of the space API from memory, following the
specification to the letter, for offline pipelines and experiments, and
beside it a small web app that stands in for the service's app: open the
app's address in a browser to create skills, edit their instructions and
files, enable or disable them, and edit and publish agents, as someone
would in the app behind git's back ('skillsync drift' then finds it).

The first line of stdout is the base URL; then come the tokens it accepts,
the spaces it serves and the app's address. Requests are logged to stderr.
Without --seed it serves the demo spaces "demo" and "stg". It accepts the
token given with --token (default "` + emulatorToken + `") and any token of
the seed. With --state DIR it keeps its state in DIR/` + emulatorStateFile + `,
saved after every change and loaded on the next start (the seed is read
only when there is no state yet). Seeds and the state: docs/emulator.md.

Examples:
   skillsync emulator
   skillsync emulator --state .emulator
   skillsync emulator --addr 127.0.0.1:8080 --seed testdata/emulator/example --token emulator-dev-token

Exit codes: 0 stopped by an interrupt, 1 error (bad seed or state, address in use).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: string(flagAddr), Value: "127.0.0.1:0", Usage: "loopback address to listen on"},
			flagSeed.def("seed directory (layout in docs/emulator.md)"),
			&cli.StringFlag{Name: string(flagToken), Value: emulatorToken, Usage: "bearer token to accept, with read-write access"},
			flagState.def("keep the state in this folder across restarts: loaded on start, saved after every change"),
		},
		Action: func(c *cli.Context) error {
			return runEmulator(c.Context, e.ui, emulatorOptions{addr: flagAddr.get(c), seed: flagSeed.get(c), token: flagToken.get(c), state: flagState.get(c)})
		},
	}
}

// emulatorOptions are the emulator's settings.
type emulatorOptions struct {
	addr  string // loopback host:port
	seed  string // seed folder; "" for the demo spaces
	token string // the token it accepts
	state string // folder of the state file; "" to keep none
}

// emulatorStateFile is the file of the --state folder.
const emulatorStateFile = "emulator-state.json"

// runEmulator serves the emulator and its app until ctx ends.
func runEmulator(ctx context.Context, ui *ui, o emulatorOptions) error {
	em := remotetest.New()
	statePath, loaded, err := loadEmulatorState(em, o.state)
	if err != nil {
		return err
	}
	if !loaded {
		if err := seedEmulator(em, o.seed); err != nil {
			return err
		}
	}
	em.AddToken(o.token, remotetest.ReadWrite)
	var onChange func()
	if statePath != "" {
		if err := em.SaveState(statePath); err != nil {
			return withHint(err, "pass --state a folder you can write to")
		}
		onChange = func() {
			if err := em.SaveState(statePath); err != nil {
				ui.errorf("%v", err)
			}
		}
	}
	em.SetLog(func(format string, args ...any) { ui.logf(format, args...) })
	app := remotetest.NewApp(em, onChange)
	srv, err := startEmulator(app, o.addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	fprintf(ui.stdout, "%s\n", srv.URL)
	for _, t := range em.Tokens() {
		where := "every space"
		if t.Spaces != nil {
			where = "spaces " + strings.Join(t.Spaces, ", ")
		}
		fprintf(ui.stdout, "token: %s (%s, %s)\n", t.Token, t.Permission, where)
	}
	fprintf(ui.stdout, "spaces: %s\n", strings.Join(em.SpaceIDs(), ", "))
	fprintf(ui.stdout, "app: %s%s\n", srv.URL, remotetest.AppPath)
	switch {
	case loaded && o.seed != "":
		fprintf(ui.stdout, "state: %s (loaded; --seed was not read)\n", statePath)
	case loaded:
		fprintf(ui.stdout, "state: %s (loaded)\n", statePath)
	case statePath != "":
		fprintf(ui.stdout, "state: %s (new)\n", statePath)
	}
	<-ctx.Done()
	return nil
}

// loadEmulatorState loads the state of the folder dir, when it has one.
// It returns the state file's path ("" when dir is "") and whether it was
// loaded; a folder that does not exist yet is made.
func loadEmulatorState(em *remotetest.Emulator, dir string) (string, bool, error) {
	if dir == "" {
		return "", false, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", false, withHint(fmt.Errorf("--state: %w", err), "pass --state a folder you can write to")
	}
	path := filepath.Join(dir, emulatorStateFile)
	switch err := em.LoadState(path); {
	case errors.Is(err, fs.ErrNotExist):
		return path, false, nil
	case err != nil:
		return "", false, withHint(err, "the file is the emulator's own: move it away to start again from the seed")
	}
	return path, true, nil
}

// seedEmulator loads dir, or the embedded demo space when dir is "".
func seedEmulator(e *remotetest.Emulator, dir string) error {
	if dir != "" {
		hint := "pass a seed folder, laid out like testdata/emulator/example, or leave --seed out for the demo space"
		fi, err := os.Stat(dir)
		if errors.Is(err, fs.ErrNotExist) {
			return withHint(fmt.Errorf("--seed %s: no such folder", dir), "%s", hint)
		}
		if err != nil {
			return withHint(fmt.Errorf("--seed: %w", err), "%s", hint)
		}
		if !fi.IsDir() {
			return withHint(fmt.Errorf("--seed %s: not a folder", dir), "%s", hint)
		}
		if err := e.LoadSeed(dir); err != nil {
			return withHint(fmt.Errorf("loading seed: %w", err), "see the layout of a seed directory in testdata/emulator/example")
		}
		return nil
	}
	space, err := fs.Sub(skillsync.Demo, "testdata/demo/space")
	if err != nil {
		return err
	}
	return e.LoadSeedFS(space, ".")
}

func startEmulator(app *remotetest.App, addr string) (*remotetest.Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, withHint(fmt.Errorf("--addr %q: %w", addr, err), "use host:port, e.g. 127.0.0.1:8080 or 127.0.0.1:0 for any free port")
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, withHint(fmt.Errorf("--addr %q is not a loopback address", addr), "the emulator serves only on loopback (127.0.0.1, ::1); it has no real authentication")
	}
	srv, err := app.Start(addr)
	if err != nil {
		return nil, fmt.Errorf("starting emulator: %w", err)
	}
	return srv, nil
}
