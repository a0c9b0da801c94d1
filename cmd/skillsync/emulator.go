package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"

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
specification to the letter, for offline pipelines and experiments. The
first line of stdout is the base URL; requests are logged to stderr. Without
--seed it serves the demo space "demo". It accepts the token given with
--token (default "` + emulatorToken + `") and any token of the seed.

Examples:
   skillsync emulator
   skillsync emulator --addr 127.0.0.1:8080 --seed testdata/emulator/example --token emulator-dev-token

Exit codes: 0 stopped by an interrupt, 1 error (bad seed, address in use).`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: string(flagAddr), Value: "127.0.0.1:0", Usage: "loopback address to listen on"},
			flagSeed.def("seed directory (see the remotetest package doc for its layout)"),
			&cli.StringFlag{Name: string(flagToken), Value: emulatorToken, Usage: "bearer token to accept, with read-write access"},
		},
		Action: func(c *cli.Context) error {
			return runEmulator(c.Context, e.ui, emulatorOptions{addr: flagAddr.get(c), seed: flagSeed.get(c), token: flagToken.get(c)})
		},
	}
}

// emulatorOptions are the emulator's settings.
type emulatorOptions struct {
	addr  string // loopback host:port
	seed  string // seed folder; "" for the demo space
	token string // the token it accepts
}

// runEmulator serves the emulator until ctx ends.
func runEmulator(ctx context.Context, ui *ui, o emulatorOptions) error {
	em := remotetest.New()
	if err := seedEmulator(em, o.seed); err != nil {
		return err
	}
	em.AddToken(o.token, remotetest.ReadWrite)
	em.SetLog(func(format string, args ...any) { ui.logf(format, args...) })
	srv, err := startEmulator(em, o.addr)
	if err != nil {
		return err
	}
	defer srv.Close()
	fprintf(ui.stdout, "%s\n", srv.URL)
	<-ctx.Done()
	return nil
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

func startEmulator(e *remotetest.Emulator, addr string) (*remotetest.Server, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, withHint(fmt.Errorf("--addr %q: %w", addr, err), "use host:port, e.g. 127.0.0.1:8080 or 127.0.0.1:0 for any free port")
	}
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, withHint(fmt.Errorf("--addr %q is not a loopback address", addr), "the emulator serves only on loopback (127.0.0.1, ::1); it has no real authentication")
	}
	srv, err := e.Start(addr)
	if err != nil {
		return nil, fmt.Errorf("starting emulator: %w", err)
	}
	return srv, nil
}
