package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/github"
)

// commandsDoc is docs/commands.md, from this package's folder.
const commandsDoc = "../../docs/commands.md"

// TestCommandReference: docs/commands.md is the command tree of this
// build, every command with its help and flags (go test ./cmd/skillsync
// -run TestCommandReference -update rewrites it).
func TestCommandReference(t *testing.T) {
	noEnv := func(string) string { return "" }
	app := newApp(&env{ui: newUI(io.Discard, io.Discard, github.ReadEnv(noEnv)), getenv: noEnv, stdin: strings.NewReader("")})
	want := renderCommands(app)
	if *update {
		if err := os.WriteFile(commandsDoc, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(commandsDoc)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not the command tree of this build: run go test ./cmd/skillsync -run TestCommandReference -update and commit it", commandsDoc)
	}
	for _, cmd := range app.Commands {
		if cmd.Name != "help" && !bytes.Contains(got, []byte("\n## skillsync "+cmd.Name)) {
			t.Errorf("%s has no section for skillsync %s", commandsDoc, cmd.Name)
		}
	}
}

// renderCommands writes the command tree as markdown: an index, then a
// section per command and subcommand with its help text and flags.
func renderCommands(app *cli.App) []byte {
	var b bytes.Buffer
	b.WriteString("# Commands\n\n")
	b.WriteString("<!-- Generated from the command tree by go test ./cmd/skillsync -run TestCommandReference -update; do not edit. -->\n\n")
	b.WriteString("Flags come after the command name and before its arguments (a plan file,\n" +
		"a journal, slugs, an id): `skillsync apply --auto-approve plan.json`. A\n" +
		"flag written after an argument is refused with a hint, rather than taken\n" +
		"for an argument. Every command prints this help with `--help`.\n" +
		"Settings come from the flag, else the `SKILLSYNC_*` variable, else\n" +
		"`skillsync.yaml` ([configuration](configuration.md)); exit codes and the\n" +
		"JSON documents are in [output](output.md).\n\n")
	type entry struct {
		path string
		cmd  *cli.Command
	}
	var all []entry
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			if c.Name == "help" || c.Hidden {
				continue
			}
			p := prefix + " " + c.Name
			all = append(all, entry{p, c})
			walk(p, c.Subcommands)
		}
	}
	walk("skillsync", app.Commands)
	b.WriteString("| Command | What it does |\n|---|---|\n")
	for _, e := range all {
		fmt.Fprintf(&b, "| [`%s`](#%s) | %s |\n", e.path, anchor(e.path), cell(e.cmd.Usage))
	}
	b.WriteString("\n")
	for _, e := range all {
		c := e.cmd
		fmt.Fprintf(&b, "## %s\n\n%s.\n\n", e.path, upperFirst(c.Usage))
		usage := e.path
		if len(c.VisibleFlags()) > 0 {
			usage += " [flags]"
		}
		if len(c.Subcommands) > 0 {
			usage += " COMMAND"
		}
		if c.ArgsUsage != "" {
			usage += " " + c.ArgsUsage
		}
		fmt.Fprintf(&b, "~~~text\n%s\n~~~\n\n", usage)
		if d := strings.TrimSpace(c.Description); d != "" {
			fmt.Fprintf(&b, "~~~text\n%s\n~~~\n\n", d)
		}
		var flags []cli.DocGenerationFlag
		for _, f := range c.VisibleFlags() {
			if df, ok := f.(cli.DocGenerationFlag); ok && !slices.Contains(f.Names(), "help") {
				flags = append(flags, df)
			}
		}
		if len(flags) == 0 {
			continue
		}
		b.WriteString("| Flag | Default | What it does |\n|---|---|---|\n")
		for _, f := range flags {
			var names []string
			for _, n := range f.Names() {
				dash := "--"
				if len(n) == 1 {
					dash = "-"
				}
				names = append(names, "`"+dash+n+"`")
			}
			placeholder, usage := unquoteUsage(f.GetUsage())
			if f.TakesValue() {
				if placeholder == "" {
					placeholder = strings.ToUpper(strings.ReplaceAll(f.Names()[0], "-", "_"))
				}
				names[0] = strings.TrimSuffix(names[0], "`") + " " + placeholder + "`"
			}
			def := ""
			if f.TakesValue() {
				def = strings.Trim(f.GetValue(), `"`)
			}
			if def != "" {
				def = "`" + def + "`"
			}
			fmt.Fprintf(&b, "| %s | %s | %s |\n", strings.Join(names, ", "), def, cell(usage))
		}
		b.WriteString("\n")
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// anchor is the id GitHub gives the heading text s.
func anchor(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }

// cell makes s fit in a markdown table cell.
func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", "\\|"), "\n", " ")
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// unquoteUsage splits a flag's usage into the name of its value, the
// first word in back quotes as urfave/cli reads it, and the usage without
// the quotes.
func unquoteUsage(usage string) (name, text string) {
	if a := strings.IndexByte(usage, '`'); a >= 0 {
		if n := strings.IndexByte(usage[a+1:], '`'); n >= 0 {
			name = usage[a+1 : a+1+n]
			return name, usage[:a] + name + usage[a+n+2:]
		}
	}
	return "", usage
}
