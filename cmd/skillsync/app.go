package main

import (
	"flag"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/suggest"
)

// newApp builds the command tree. Flags are built afresh on every call:
// urfave/cli keeps state in flag values.
func newApp(e *env) *cli.App {
	useHelpFlag.Do(func() {
		cli.HelpFlag = helpFlag{&cli.BoolFlag{Name: "help", Aliases: []string{"h"}, Usage: "show help", DisableDefaultText: true}}
	})
	app := &cli.App{
		Flags:                []cli.Flag{cli.HelpFlag, flagVersion.def("print the version, as 'skillsync version' does")},
		Name:                 "skillsync",
		Usage:                "keep the skills of a space in git: validate, plan, apply, detect drift",
		Version:              version,
		HideVersion:          true,
		EnableBashCompletion: true,
		Reader:               e.stdin,
		Writer:               e.ui.stdout,
		ErrWriter:            e.ui.stderr,
		// Without this, cli.Exit errors call os.Exit inside tests.
		ExitErrHandler: func(*cli.Context, error) {},
		Description: `Exit codes: 0 success (no changes), 1 error, 2 success with changes
(plan --detailed-exitcode, drift, vendor outdated), 130 interrupted.

Settings come from flags, then SKILLSYNC_* environment variables, then
skillsync.yaml; the token only from SKILLSYNC_TOKEN or --token-file.`,
		Commands: []*cli.Command{
			validateCommand(e),
			planCommand(e),
			applyCommand(e),
			restoreCommand(e),
			driftCommand(e),
			targetsCommand(e),
			pullCommand(e),
			vendorCommand(e),
			agentsCommand(e),
			assetsCommand(e),
			emulatorCommand(e),
			demoCommand(e),
			schemaCommand(e),
			versionCommand(e),
			completionCommand(e),
			helpCommand(),
		},
		// urfave/cli answers an unknown command with its help and exit 0,
		// even through CommandNotFound; a typo in CI must fail instead.
		Action:       unknownCommand,
		Before:       helpTopic,
		OnUsageError: usageError,
	}
	for _, cmd := range app.Commands[:len(app.Commands)-1] {
		prepare(e.ui, cmd, true)
	}
	return app
}

// urfave/cli gives every command of every app the same help command and
// --help flag, package variables that it writes to as commands run: a data
// race between apps that run side by side, as tests run them. So the app
// and every command with subcommands get a help command of their own
// ([helpCommand]), which urfave/cli then leaves its own out for; a command
// without subcommands gets none, and shows its help for the one argument
// "help" itself ([prepare]); and cli.HelpFlag becomes a flag that is
// applied without writing to itself ([helpFlag]), once for the process.
var useHelpFlag sync.Once

// helpFlag is urfave/cli's --help (-h), applied without writing to itself.
type helpFlag struct{ *cli.BoolFlag }

func (f helpFlag) Apply(set *flag.FlagSet) error {
	for _, name := range f.Names() {
		set.Bool(name, false, f.Usage)
	}
	return nil
}

// helpCommand is urfave/cli's help command, new for each command that has
// subcommands: "skillsync help [COMMAND]", "skillsync agents help
// [SUBCOMMAND]".
func helpCommand() *cli.Command {
	return &cli.Command{
		Name:            "help",
		Aliases:         []string{"h"},
		Usage:           "Shows a list of commands or help for one command",
		ArgsUsage:       "[command]",
		HideHelpCommand: true,
		Action: func(c *cli.Context) error {
			of := c.Lineage()[1] // the command whose help is asked for
			switch {
			case c.Args().Present():
				return cli.ShowCommandHelp(of, c.Args().First())
			case atRoot(of):
				return cli.ShowAppHelp(of)
			}
			return cli.ShowSubcommandHelp(of)
		},
	}
}

// prepare readies cmd and its subcommands to run:
//   - a command without subcommands accepts --no-color;
//   - a bad flag, an unknown subcommand or help topic, an argument to a
//     top-level command that takes none, and a flag after a slug are
//     errors with a hint, rather than the help printed (with exit 0, for
//     an unknown subcommand);
//   - before it runs, ui records whether it has --debug and whether it is
//     set, for the report of a bug;
//   - it has a help of its own, as urfave/cli's (see [useHelpFlag]).
func prepare(ui *ui, cmd *cli.Command, top bool) {
	if cmd.OnUsageError == nil {
		cmd.OnUsageError = usageError
	}
	// --no-color is accepted by every command, as scripts pass it to all
	// alike; those that print no colour ignore it.
	if len(cmd.Subcommands) == 0 && !slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), string(flagNoColor)) }) {
		cmd.Flags = append(cmd.Flags, noColorFlag())
	}
	has := slices.ContainsFunc(cmd.Flags, func(f cli.Flag) bool { return slices.Contains(f.Names(), string(flagDebug)) })
	check := func(*cli.Context) error { return nil }
	if len(cmd.Subcommands) > 0 {
		if cmd.Action == nil {
			cmd.Action = unknownCommand
		}
		check = helpTopic
	} else if top && cmd.ArgsUsage == "" {
		check = noArgs
	} else if cmd.ArgsUsage == "[SLUG...]" {
		check = noFlagAfterSlug
	}
	cmd.Before = func(c *cli.Context) error {
		ui.mu.Lock()
		ui.hasDebug, ui.debug = has, has && flagDebug.get(c)
		ui.mu.Unlock()
		return check(c)
	}
	for _, sub := range cmd.Subcommands {
		prepare(ui, sub, false)
	}
	if len(cmd.Subcommands) > 0 {
		cmd.Subcommands = append(cmd.Subcommands, helpCommand())
		return
	}
	cmd.HideHelpCommand = true
	action := cmd.Action
	cmd.Action = func(c *cli.Context) error {
		if c.NArg() == 1 && (c.Args().First() == "help" || c.Args().First() == "h") {
			cli.HelpPrinter(c.App.Writer, cli.CommandHelpTemplate, c.Command)
			return nil
		}
		return action(c)
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

// noFlagAfterSlug refuses an argument of a command that takes slugs that
// looks like a flag: urfave/cli stops reading flags at the first
// argument, so "pull code-review --force" would look for a skill named
// "--force" and the flag would do nothing.
func noFlagAfterSlug(c *cli.Context) error {
	for _, a := range c.Args().Slice() {
		if strings.HasPrefix(a, "-") && a != "-" {
			return withHint(fmt.Errorf("%s: %q after a slug is taken for a slug, not a flag", commandPath(c), a),
				"flags go right after the command name, before the slugs: %s %s ... SLUG...", commandPath(c), a)
		}
	}
	return nil
}

// oneArg checks that the command got exactly one argument, what (such as
// "asset id"), and returns it; example shows a correct call. urfave/cli
// stops reading flags at the first argument, so "assets get ID --format
// text" hands the flag over as an argument: that mistake is named as such.
func oneArg(c *cli.Context, what, example string) (string, error) {
	name := commandPath(c)
	switch {
	case c.NArg() == 0:
		return "", withHint(fmt.Errorf("%s needs one %s", name, what), "e.g. %s", example)
	case c.NArg() > 1:
		for _, a := range c.Args().Tail() {
			if strings.HasPrefix(a, "-") {
				return "", withHint(fmt.Errorf("%s takes one %s; %q after it is not read as a flag", name, what, a),
					"flags go before the %s: e.g. %s", what, example)
			}
		}
		return "", withHint(fmt.Errorf("%s takes one %s, got %d: %q", name, what, c.NArg(), c.Args().Slice()), "e.g. %s", example)
	}
	return c.Args().First(), nil
}

// unknownCommand is the action of the app and of commands that only hold
// subcommands: help when called bare, an error for a word it does not know.
func unknownCommand(c *cli.Context) error {
	if atRoot(c) && flagVersion.get(c) {
		printVersion(c.App.Writer)
		return nil
	}
	if !c.Args().Present() {
		if !atRoot(c) {
			return cli.ShowSubcommandHelp(c)
		}
		return cli.ShowAppHelp(c)
	}
	return unknownWord(c, c.Args().First())
}

// helpTopic refuses "skillsync help WORD", and "skillsync agents help
// WORD", when WORD is no command, as [unknownCommand] refuses WORD alone:
// urfave/cli would answer in its own words.
func helpTopic(c *cli.Context) error {
	if first := c.Args().First(); first != "help" && first != "h" || c.NArg() < 2 {
		return nil
	}
	word := c.Args().Get(1)
	if slices.ContainsFunc(subcommands(c), func(cmd *cli.Command) bool { return cmd.HasName(word) }) {
		return nil
	}
	return unknownWord(c, word)
}

// unknownWord is the error of a command word that names no command here,
// with the one most like it, if any.
func unknownWord(c *cli.Context, word string) error {
	var names []string
	for _, cmd := range subcommands(c) {
		if !cmd.Hidden {
			names = append(names, cmd.Name)
		}
	}
	err := fmt.Errorf("unknown command %q", word)
	if best := suggest.Closest(word, names); best != "" {
		return withHint(err, "did you mean '%s %s'? run '%s --help' to list the commands", commandPath(c), best, commandPath(c))
	}
	return withHint(err, "run '%s --help' to list the commands", commandPath(c))
}

// subcommands are the commands that can follow the command of c.
func subcommands(c *cli.Context) []*cli.Command {
	if atRoot(c) {
		return c.App.Commands
	}
	return c.Command.Subcommands
}

// atRoot reports whether c is the app's, before any command.
func atRoot(c *cli.Context) bool {
	return c.Command == nil || c.Command.Name == "" || c.Command.Name == c.App.Name
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
