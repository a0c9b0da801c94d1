package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/xrash/smetrics"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// newApp builds the command tree. Flags are built afresh on every call:
// urfave/cli keeps state in flag values.
func newApp(ui *ui, stdin io.Reader) *cli.App {
	app := &cli.App{
		Name:                 "skillsync",
		Usage:                "keep the skills of a space in git: validate, plan, apply, detect drift",
		Version:              version,
		HideVersion:          true,
		EnableBashCompletion: true,
		Suggest:              true,
		Reader:               stdin,
		Writer:               ui.stdout,
		ErrWriter:            ui.stderr,
		// Without this, cli.Exit errors call os.Exit inside tests.
		ExitErrHandler: func(*cli.Context, error) {},
		Description: `Exit codes: 0 success (no changes), 1 error, 2 success with changes
(plan --detailed-exitcode, drift), 130 interrupted.

Settings come from flags, then SKILLSYNC_* environment variables, then
skillsync.yaml; the token only from SKILLSYNC_TOKEN or --token-file.`,
		Commands: []*cli.Command{
			validateCommand(ui),
			planCommand(ui),
			applyCommand(ui),
			restoreCommand(ui),
			driftCommand(ui),
			pullCommand(ui),
			agentsCommand(ui),
			assetsCommand(ui),
			emulatorCommand(ui),
			demoCommand(ui),
			versionCommand(ui),
			completionCommand(ui),
		},
		// urfave/cli answers an unknown command with its help and exit 0,
		// even through CommandNotFound; a typo in CI must fail instead.
		Action:       unknownCommand,
		OnUsageError: usageError,
	}
	for _, cmd := range app.Commands {
		setUsageHandlers(cmd)
	}
	for _, cmd := range app.Commands {
		if cmd.ArgsUsage == "" && len(cmd.Subcommands) == 0 && cmd.Name != "completion" {
			cmd.Before = noArgs
		}
	}
	for _, cmd := range app.Commands {
		noteDebug(ui, cmd)
	}
	return app
}

// noteDebug makes cmd and its subcommands record, before they run, whether
// they have --debug and whether it is set: the report of a bug asks for
// the output of --debug, and shows the stack with it.
func noteDebug(ui *ui, cmd *cli.Command) {
	has := slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), "debug") })
	before := cmd.Before
	cmd.Before = func(c *cli.Context) error {
		ui.mu.Lock()
		ui.hasDebug, ui.debug = has, has && c.Bool("debug")
		ui.mu.Unlock()
		if before != nil {
			return before(c)
		}
		return nil
	}
	for _, sub := range cmd.Subcommands {
		noteDebug(ui, sub)
	}
}

// noArgs refuses arguments to a command that takes none. Flags after an
// argument are arguments too (urfave/cli stops at the first), so without
// this "skillsync plan now --detailed-exitcode" would pass a CI gate.
func noArgs(c *cli.Context) error {
	if c.NArg() > 0 {
		return withHint(fmt.Errorf("%s takes no arguments, got %q", c.Command.Name, c.Args().Slice()),
			"flags go right after the command name, before any argument: skillsync %s --help", c.Command.Name)
	}
	return nil
}

// oneArg checks that the command got exactly one argument, what (such as
// "asset id"); example shows a correct call. urfave/cli stops reading flags
// at the first argument, so "assets get ID --format text" hands the flag
// over as an argument: that mistake is named as such.
func oneArg(c *cli.Context, what, example string) error {
	name := commandPath(c)
	switch {
	case c.NArg() == 0:
		return withHint(fmt.Errorf("%s needs one %s", name, what), "e.g. %s", example)
	case c.NArg() > 1:
		for _, a := range c.Args().Tail() {
			if strings.HasPrefix(a, "-") {
				return withHint(fmt.Errorf("%s takes one %s; %q after it is not read as a flag", name, what, a),
					"flags go before the %s: e.g. %s", what, example)
			}
		}
		return withHint(fmt.Errorf("%s takes one %s, got %d: %q", name, what, c.NArg(), c.Args().Slice()), "e.g. %s", example)
	}
	return nil
}

// setUsageHandlers makes every command report a bad flag or an unknown
// subcommand as an error with a hint, rather than printing its whole help
// and, for an unknown subcommand, exiting 0.
func setUsageHandlers(cmd *cli.Command) {
	if cmd.OnUsageError == nil {
		cmd.OnUsageError = usageError
	}
	if len(cmd.Subcommands) > 0 && cmd.Action == nil {
		cmd.Action = unknownCommand
	}
	for _, sub := range cmd.Subcommands {
		setUsageHandlers(sub)
	}
}

// The messages of Go's flag package and urfave/cli for a bad flag, which
// speak of "-parallelism" where the user wrote "--parallelism".
var (
	reUnknownFlag = regexp.MustCompile(`^flag provided but not defined: -+(.+)$`)
	reNeedsValue  = regexp.MustCompile(`^flag needs an argument: -+(.+)$`)
	reBadValue    = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): `)
	reBadEnv      = regexp.MustCompile(`^could not parse "(.*)" as (\w+) value from environment variable "([^"]+)" for flag ([^:]+): `)
)

// usageError is the OnUsageError of the app and every command: it words a
// bad flag in the user's terms and says what to do.
func usageError(c *cli.Context, err error, isSubcommand bool) error {
	help := fmt.Sprintf("run '%s --help' for its flags", commandPath(c))
	msg := err.Error()
	if m := reUnknownFlag.FindStringSubmatch(msg); m != nil {
		name := m[1]
		dashes := "--"
		if len(name) == 1 {
			dashes = "-" // as the user most likely wrote it: -o
		}
		flag := dashes + name
		atRoot := c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name
		switch {
		case atRoot:
			if hint := flagGoesAfter(c.App.Commands, nil, flag, name, "command"); hint != "" {
				return withHint(fmt.Errorf("unknown flag %s before the command", flag), "%s", hint)
			}
			return withHint(fmt.Errorf("unknown flag %s", flag), "%s", help)
		case len(c.Command.Subcommands) > 0:
			if hint := flagGoesAfter(c.Command.Subcommands, []string{c.Command.Name}, flag, name, "subcommand"); hint != "" {
				return withHint(fmt.Errorf("unknown flag %s before the subcommand", flag), "%s", hint)
			}
		}
		unknown := fmt.Errorf("unknown flag %s for %s", flag, commandPath(c))
		if s := similarFlag(c.Command.Flags, name); s != "" {
			return withHint(unknown, "did you mean --%s? %s", s, help)
		}
		if others := commandsWithFlag(c.App.Commands, nil, name); len(others) > 0 {
			if len(others) > 3 {
				others = append(others[:3], "...")
			}
			return withHint(unknown, "%s is a flag of skillsync %s; %s", flag, strings.Join(others, ", "), help)
		}
		return withHint(unknown, "%s", help)
	}
	if m := reNeedsValue.FindStringSubmatch(msg); m != nil {
		return withHint(fmt.Errorf("--%s needs a value", m[1]), "write --%s VALUE; %s", m[1], help)
	}
	if m := reBadValue.FindStringSubmatch(msg); m != nil {
		return withHint(fmt.Errorf("--%s %q is not %s", m[2], unquoted(m[1]), valueKind(c, m[2])), "%s", help)
	}
	if m := reBadEnv.FindStringSubmatch(msg); m != nil {
		return withHint(fmt.Errorf("%s=%q is not %s (it sets --%s)", m[3], unquoted(m[1]), valueKind(c, m[4]), m[4]),
			"correct %s or unset it", m[3])
	}
	return withHint(err, "%s", help)
}

// unquoted undoes the %q quoting of a value inside flag's messages, so
// that quoting it again does not double the escapes.
func unquoted(inner string) string {
	if s, err := strconv.Unquote(`"` + inner + `"`); err == nil {
		return s
	}
	return inner
}

// commandsWithFlag lists the commands under cmds, subcommands included,
// that have the flag name, as "agents list" (after the words of parent).
func commandsWithFlag(cmds []*cli.Command, parent []string, name string) []string {
	var found []string
	for _, cmd := range cmds {
		path := append(slices.Clone(parent), cmd.Name)
		if slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), name) }) {
			found = append(found, strings.Join(path, " "))
		}
		found = append(found, commandsWithFlag(cmd.Subcommands, path, name)...)
	}
	return found
}

// flagGoesAfter is the hint for a flag written before the (sub)command it
// belongs to: the one command under cmds that has it, or a placeholder for
// several; "" when none has it.
func flagGoesAfter(cmds []*cli.Command, parent []string, flag, name, what string) string {
	has := commandsWithFlag(cmds, parent, name)
	switch len(has) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf("flags go after the %s name: skillsync %s %s ...", what, has[0], flag)
	}
	return fmt.Sprintf("flags go after the %s name: skillsync %s %s ...", what, strings.Join(append(slices.Clone(parent), strings.ToUpper(what)), " "), flag)
}

// similarFlag is a flag of the command whose name is close to name (a
// typo), or "".
func similarFlag(fl []cli.Flag, name string) string {
	var names []string
	for _, f := range fl {
		names = append(names, f.Names()...)
	}
	if s := closest(name, names); s != "" {
		return s
	}
	// An abbreviation: -o for --out.
	var prefixed []string
	for _, n := range names {
		if len(n) > len(name) && strings.HasPrefix(n, name) {
			prefixed = append(prefixed, n)
		}
	}
	if len(prefixed) == 1 {
		return prefixed[0]
	}
	return ""
}

// closest is the candidate most like word, if it is close enough to be a
// typo of it (Jaro-Winkler similarity 0.85 or more), else "".
func closest(word string, candidates []string) string {
	best, score := "", 0.0
	for _, c := range candidates {
		if d := smetrics.JaroWinkler(c, word, 0.7, 4); d > score {
			best, score = c, d
		}
	}
	if score < 0.85 {
		return ""
	}
	return best
}

// valueKind says what a flag's value must be, for a value that is not.
func valueKind(c *cli.Context, name string) string {
	if c.Command != nil {
		for _, f := range c.Command.Flags {
			if !slices.Contains(f.Names(), name) {
				continue
			}
			switch f.(type) {
			case *cli.IntFlag:
				return "a whole number"
			case *cli.BoolFlag:
				return "true or false"
			}
		}
	}
	return "a valid value"
}

// unknownCommand is the action of the app and of commands that only hold
// subcommands: help when called bare, an error for a word it does not know.
func unknownCommand(c *cli.Context) error {
	if !c.Args().Present() {
		if c.Command != nil && c.Command.Name != c.App.Name {
			return cli.ShowSubcommandHelp(c)
		}
		return cli.ShowAppHelp(c)
	}
	word := c.Args().First()
	var cmds []*cli.Command
	if c.Command != nil && c.Command.Name != "" && c.Command.Name != c.App.Name {
		cmds = c.Command.Subcommands
	} else {
		cmds = c.App.Commands
	}
	names := make([]string, len(cmds))
	for i, cmd := range cmds {
		names[i] = cmd.Name
	}
	if best := closest(word, names); best != "" {
		return withHint(fmt.Errorf("unknown command %q", word), "did you mean '%s %s'? run '%s --help' to list the commands", commandPath(c), best, commandPath(c))
	}
	return withHint(fmt.Errorf("unknown command %q", word), "run '%s --help' to list the commands", commandPath(c))
}

// commandPath is how the user called the command: "skillsync agents".
func commandPath(c *cli.Context) string {
	var names []string
	for _, cc := range c.Lineage() {
		if cc.Command != nil && cc.Command.Name != "" && cc.Command.Name != c.App.Name {
			names = append([]string{cc.Command.Name}, names...)
		}
	}
	return strings.Join(append([]string{"skillsync"}, names...), " ")
}

// Shared flags, built per command so no state is shared between runs.

func dirFlag() cli.Flag {
	return &cli.StringFlag{Name: "dir", Usage: "repository root (default: the nearest folder upward holding skillsync.yaml, not above the git root)", EnvVars: []string{"SKILLSYNC_DIR"}}
}

func formatFlag(formats ...string) cli.Flag {
	return &cli.StringFlag{Name: "format", Value: "text", Usage: "output format: " + strings.Join(formats, ", ")}
}

func noColorFlag() cli.Flag {
	return &cli.BoolFlag{Name: "no-color", Usage: "never colour the output (also NO_COLOR)"}
}

func remoteFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "base-url", Usage: "service address, https://... (or http:// on loopback)", EnvVars: []string{"SKILLSYNC_BASE_URL"}},
		&cli.StringFlag{Name: "space", Usage: "space id", EnvVars: []string{"SKILLSYNC_SPACE"}},
		&cli.StringFlag{Name: "token-file", Usage: "file holding the bearer token (default: $SKILLSYNC_TOKEN)"},
		&cli.IntFlag{Name: "parallelism", Value: 8, Usage: "requests in flight at once", EnvVars: []string{"SKILLSYNC_PARALLELISM"}},
		&cli.BoolFlag{Name: "debug", Usage: "log every request (method, path, status, time, attempt) to stderr"},
	}
}

func flags(groups ...[]cli.Flag) []cli.Flag {
	var all []cli.Flag
	for _, g := range groups {
		all = append(all, g...)
	}
	return all
}

// checkFormat rejects a --format the command does not produce.
func checkFormat(c *cli.Context, allowed ...string) (string, error) {
	f := c.String("format")
	for _, a := range allowed {
		if f == a {
			return f, nil
		}
	}
	return "", withHint(fmt.Errorf("unknown --format %q", f), "use one of: %s", strings.Join(allowed, ", "))
}

// useColor decides colour once, here, so renderers never do.
func useColor(c *cli.Context, ui *ui) bool {
	if c.Bool("no-color") || os.Getenv("NO_COLOR") != "" || os.Getenv("TERM") == "dumb" {
		return false
	}
	return ui.stdoutTTY
}

// findRepo locates the repository root: --dir, else the nearest folder upward
// holding skillsync.yaml, never looking above the root of the git work tree
// (so a stray skillsync.yaml in a parent folder is not picked up).
func findRepo(c *cli.Context) (string, error) {
	if dir := c.String("dir"); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(abs, fsrepo.ConfigFile)); err != nil {
			return "", withHint(fmt.Errorf("%s: no %s here", dir, fsrepo.ConfigFile), "create %s at the repository root, or point --dir at the folder that has one", fsrepo.ConfigFile)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := fsrepo.FindRoot(wd)
	if errors.Is(err, fsrepo.ErrNoConfig) {
		return "", withHint(err, "run skillsync inside a skills repository, pass --dir, or start one from a space with: skillsync pull --base-url https://tenant.example.com --space ID")
	}
	return root, err
}

// target is where a command's requests go, resolved flag > env > config.
type target struct {
	BaseURL string
	Space   string
	// BaseURLFrom says where BaseURL was set: "--base-url",
	// "SKILLSYNC_BASE_URL" or "skillsync.yaml".
	BaseURLFrom string
}

func resolveTarget(c *cli.Context, cfg fsrepo.Config) (target, error) {
	t := target{BaseURL: cfg.BaseURL, Space: cfg.Space, BaseURLFrom: fsrepo.ConfigFile}
	// An empty value counts as unset: CI systems export variables that
	// have no value (GitHub's ${{ vars.X }} when X is not defined), and
	// they must not hide skillsync.yaml.
	if v := c.String("base-url"); c.IsSet("base-url") && v != "" {
		t.BaseURL, t.BaseURLFrom = v, "--base-url"
		if os.Getenv("SKILLSYNC_BASE_URL") == v {
			t.BaseURLFrom = "SKILLSYNC_BASE_URL" // the same value either way
		}
	}
	if v := c.String("space"); c.IsSet("space") && v != "" {
		t.Space = v
	}
	if t.BaseURL == "" {
		return t, withHint(errors.New("no service address"), "set baseURL in skillsync.yaml, SKILLSYNC_BASE_URL, or pass --base-url https://tenant.example.com")
	}
	if t.Space == "" {
		return t, withHint(errors.New("no space"), "set space in skillsync.yaml, SKILLSYNC_SPACE, or pass --space ID")
	}
	if err := spec.CheckShortSpaceID(t.Space); err != nil {
		return t, withHint(err, "skillsync needs a space id of 2 to 6 characters (the API lists skills only for those); check --space, SKILLSYNC_SPACE and skillsync.yaml")
	}
	return t, nil
}

// readToken reads the bearer token: --token-file, else SKILLSYNC_TOKEN.
func readToken(c *cli.Context, ui *ui) (string, error) {
	var tok string
	if f := c.String("token-file"); f != "" {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", withHint(fmt.Errorf("reading token file: %w", err), "--token-file must name a readable file holding the token")
		}
		tok = strings.TrimSpace(string(b))
		if tok == "" {
			return "", withHint(fmt.Errorf("token file %s is empty", f), "write the token into it, or set SKILLSYNC_TOKEN")
		}
	} else {
		tok = strings.TrimSpace(os.Getenv("SKILLSYNC_TOKEN"))
	}
	if tok == "" {
		return "", withHint(errors.New("no token"), "set SKILLSYNC_TOKEN to an access token of the space, or pass --token-file FILE; the token is never read from skillsync.yaml")
	}
	ui.addSecret(tok)
	return tok, nil
}

// newClient builds the API client for t with the token and the --debug log.
func newClient(c *cli.Context, ui *ui, t target) (*remote.Client, error) {
	tok, err := readToken(c, ui)
	if err != nil {
		return nil, err
	}
	ui.setService(t.BaseURL, t.BaseURLFrom)
	opts := remote.Options{
		BaseURL:   t.BaseURL,
		Token:     tok,
		UserAgent: "skillsync/" + version,
	}
	if c.Bool("debug") {
		opts.OnRequest = func(r remote.RequestInfo) {
			status := fmt.Sprint(r.Status)
			if r.Err != nil && r.Status == 0 {
				status = "error: " + r.Err.Error()
			}
			ui.logf("debug: %s %s -> %s (%s, attempt %d) Authorization: Bearer [REDACTED]", r.Method, r.Path, status, r.Duration.Round(time.Millisecond), r.Attempt)
		}
	}
	cl, err := remote.New(opts)
	if err != nil {
		if strings.HasPrefix(t.BaseURL, "http://") {
			return nil, withHint(err, "plain http would send the token unencrypted; use https:// (http:// is allowed only for loopback, e.g. the emulator)")
		}
		return nil, withHint(err, "check --base-url, SKILLSYNC_BASE_URL or baseURL in skillsync.yaml")
	}
	return cl, nil
}

func parallelism(c *cli.Context) (int, error) {
	n := c.Int("parallelism")
	if n < 1 || n > 64 {
		return 0, withHint(fmt.Errorf("--parallelism %d out of range", n), "use 1 to 64")
	}
	return n, nil
}
