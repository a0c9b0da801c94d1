package main

import (
	"bytes"
	"context"
	"fmt"
	"slices"

	"github.com/skillsync/skillsync/internal/visible"

	"github.com/urfave/cli/v2"
)

func assetsCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "assets",
		Usage: "read knowledge-base assets",
		Description: `Example:
   skillsync assets get 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a

Exit codes: 0 success, 1 error.`,
		Subcommands: []*cli.Command{{
			Name:      "get",
			Usage:     "print an asset record (JSON as returned, or a summary with --format text)",
			ArgsUsage: "ID",
			Description: `Example:
   skillsync assets get --format text 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a

Exit codes: 0 success, 1 error (404: no such asset in the space).`,
			Flags: slices.Concat([]cli.Flag{dirFlag(), formatFlag("json", "text")}, oneTargetRemoteFlags()),
			Action: func(c *cli.Context) error {
				o, err := readAgents(c, e)
				if err != nil {
					return err
				}
				id, err := oneArg(c, "asset id", "skillsync assets get --format text 5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a")
				if err != nil {
					return err
				}
				return runAssetsGet(c.Context, e, o, id, flagFormat.get(c))
			},
		}},
	}
}

// runAssetsGet prints the asset id in format: json as served, or text.
func runAssetsGet(ctx context.Context, e *env, o agentsOptions, id, format string) error {
	cl, t, err := agentClient(e, o, "assets get")
	if err != nil {
		return err
	}
	a, err := cl.GetAsset(ctx, t.Space, id)
	if err != nil {
		return fmt.Errorf("reading asset: %w", err)
	}
	if format == "json" {
		// The record as served, whatever whitespace ends it, then one
		// newline; what no one can see in it as \u escapes.
		fprintf(e.ui.stdout, "%s\n", visible.EscapeJSON(bytes.TrimRight(a.Raw, " \t\r\n")))
		return nil
	}
	fprintf(e.ui.stdout, "id:               %s\nname:             %s\nMIME type:        %s\nprocessing state: %s\n",
		orDash(a.ID), orDash(a.Name), orDash(a.MIMEType), orDash(a.ProcessingState))
	return nil
}

// orDash is s as a field of the text format shows it, "-" when empty.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return visible.Line(s)
}
