package main

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/suggest"
)

// usageErrors words the messages of Go's flag package and urfave/cli for a
// bad command line, which speak of "-parallelism" where the user wrote
// "--parallelism", in the user's terms, each with what to do: one row a
// message, its pattern and its wording. A message no row matches keeps
// its words and gets the hint to read the command's help.
var usageErrors = []struct {
	pattern *regexp.Regexp
	word    func(c *cli.Context, m []string) error
}{
	{regexp.MustCompile(`^flag provided but not defined: -+(.+)$`), unknownFlag},
	{regexp.MustCompile(`^flag needs an argument: -+(.+)$`), func(c *cli.Context, m []string) error {
		return withHint(fmt.Errorf("--%s needs a value", m[1]), "write --%s VALUE; %s", m[1], helpHint(c))
	}},
	{regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-+([^:]+): `), func(c *cli.Context, m []string) error {
		return withHint(fmt.Errorf("--%s %q is not %s", m[2], unquoted(m[1]), valueKind(c, m[2])), "%s", helpHint(c))
	}},
}

// usageError is the OnUsageError of the app and every command.
func usageError(c *cli.Context, err error, isSubcommand bool) error {
	for _, row := range usageErrors {
		if m := row.pattern.FindStringSubmatch(err.Error()); m != nil {
			return row.word(c, m)
		}
	}
	return withHint(err, "%s", helpHint(c))
}

func helpHint(c *cli.Context) string {
	return fmt.Sprintf("run '%s --help' for its flags", commandPath(c))
}

// unknownFlag words an unknown flag, m[1] its name: before the command it
// belongs to, a typo of a flag of the command, or a flag of others.
func unknownFlag(c *cli.Context, m []string) error {
	name := m[1]
	dashes := "--"
	if len(name) == 1 {
		dashes = "-" // as the user most likely wrote it: -o
	}
	flag := dashes + name
	switch {
	case atRoot(c):
		if hint := flagGoesAfter(c.App.Commands, nil, flag, name, "command"); hint != "" {
			return withHint(fmt.Errorf("unknown flag %s before the command", flag), "%s", hint)
		}
		return withHint(fmt.Errorf("unknown flag %s", flag), "%s", helpHint(c))
	case len(c.Command.Subcommands) > 0:
		if hint := flagGoesAfter(c.Command.Subcommands, []string{c.Command.Name}, flag, name, "subcommand"); hint != "" {
			return withHint(fmt.Errorf("unknown flag %s before the subcommand", flag), "%s", hint)
		}
	}
	unknown := fmt.Errorf("unknown flag %s for %s", flag, commandPath(c))
	if s := similarFlag(c.Command.Flags, name); s != "" {
		return withHint(unknown, "did you mean --%s? %s", s, helpHint(c))
	}
	if others := commandsWithFlag(c.App.Commands, nil, name); len(others) > 0 {
		if len(others) > 3 {
			others = append(others[:3], "...")
		}
		return withHint(unknown, "%s is a flag of skillsync %s; %s", flag, strings.Join(others, ", "), helpHint(c))
	}
	return withHint(unknown, "%s", helpHint(c))
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
	if len(has) == 0 {
		return ""
	}
	command := has[0]
	if len(has) > 1 {
		command = strings.Join(append(slices.Clone(parent), strings.ToUpper(what)), " ")
	}
	return fmt.Sprintf("flags go after the %s name: skillsync %s %s ...", what, command, flag)
}

// similarFlag is the flag of the command that name is a typo or an
// abbreviation of (see [suggest.Closest]); "" when none.
func similarFlag(fl []cli.Flag, name string) string {
	var names []string
	for _, f := range fl {
		names = append(names, f.Names()...)
	}
	return suggest.Closest(name, names)
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
