package main

import (
	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo/config"
)

func schemaCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "schema",
		Usage: "print the JSON Schema of skillsync.yaml, for editors and checks",
		Description: `Prints the JSON Schema (draft 2020-12) of skillsync.yaml: its keys, their
values and their shape, as skillsync reads them. Editors with the YAML
language server pick it up from the first line pull writes:
   ` + config.SchemaComment + `

Example:
   skillsync schema > skillsync.schema.json

Exit codes: 0.`,
		Action: func(c *cli.Context) error {
			_, err := e.ui.stdout.Write(config.Schema())
			return err
		},
	}
}
