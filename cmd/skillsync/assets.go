package main

import (
	"bytes"
	"fmt"

	"github.com/urfave/cli/v2"
)

func assetsCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:  "assets",
		Usage: "read knowledge-base assets",
		Description: `Example:
   skillsync assets get 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b

Exit codes: 0 success, 1 error.`,
		Subcommands: []*cli.Command{{
			Name:      "get",
			Usage:     "print an asset record (JSON as returned, or a summary with --format text)",
			ArgsUsage: "ID",
			Description: `Example:
   skillsync assets get --format text 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b

Exit codes: 0 success, 1 error (404: no such asset in the space).`,
			Flags: flags([]cli.Flag{dirFlag(), formatFlag("json", "text")}, remoteFlags()),
			Action: func(c *cli.Context) error {
				if err := oneArg(c, "asset id", "skillsync assets get --format text 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b"); err != nil {
					return err
				}
				format := c.String("format")
				if !c.IsSet("format") {
					format = "json"
				}
				if format != "json" && format != "text" {
					return withHint(fmt.Errorf("unknown --format %q", format), "use json or text")
				}
				cl, t, err := agentClient(c, ui)
				if err != nil {
					return err
				}
				a, err := cl.GetAsset(c.Context, t.Space, c.Args().First())
				if err != nil {
					return fmt.Errorf("reading asset: %w", err)
				}
				if format == "json" {
					// The record as served, whatever whitespace ends it, then one newline.
					fprintf(ui.stdout, "%s\n", bytes.TrimRight(a.Raw, " \t\r\n"))
					return nil
				}
				fprintf(ui.stdout, "id:               %s\nname:             %s\nMIME type:        %s\nprocessing state: %s\n",
					orDash(a.ID), orDash(a.Name), orDash(a.MIMEType), orDash(a.ProcessingState))
				return nil
			},
		}},
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
