package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/render"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

func agentsCommand(e *env) *cli.Command {
	common := func() []cli.Flag { return slices.Concat([]cli.Flag{dirFlag()}, oneTargetRemoteFlags()) }
	return &cli.Command{
		Name:  "agents",
		Usage: "list, publish or delete the agents of the space",
		Description: `Examples:
   skillsync agents list
   skillsync agents list --format json
   skillsync agents publish "Support Bot"
   skillsync agents delete --yes 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b

Exit codes: 0 success, 1 error.`,
		Subcommands: []*cli.Command{
			{
				Name:  "list",
				Usage: "list the agents (draft state) with publication state and skills",
				Description: `Examples:
   skillsync agents list
   skillsync agents list --format json
   skillsync agents list --format markdown >> "$GITHUB_STEP_SUMMARY"

Exit codes: 0 success, 1 error.`,
				Flags: slices.Concat(common(), []cli.Flag{formatFlag("text", "markdown", "json")}),
				Action: func(c *cli.Context) error {
					o, err := readAgents(c, e)
					if err != nil {
						return err
					}
					return runAgentsList(c.Context, e, o, flagFormat.get(c))
				},
			},
			{
				Name:      "publish",
				Usage:     "publish an agent's draft (by id or exact name)",
				ArgsUsage: "ID|NAME",
				Description: `Copies the draft (settings, actions, skills) over the published version.
An agent whose draft has embedEnabled and no allowed domain is refused
before any request.

Example:
   skillsync agents publish "Support Bot"

Exit codes: 0 published (or already up to date), 1 error.`,
				Flags: common(),
				Action: func(c *cli.Context) error {
					o, err := readAgents(c, e)
					if err != nil {
						return err
					}
					ref, err := oneArg(c, "agent id or name", `skillsync agents publish "Support Bot"`)
					if err != nil {
						return err
					}
					return runAgentsPublish(c.Context, e, o, ref)
				},
			},
			{
				Name:      "delete",
				Usage:     "delete an agent permanently",
				ArgsUsage: "ID",
				Description: `Deletes the agent with its draft and published settings, actions and
skills. This is permanent: the API has no way to bring it back. Asks for
confirmation on a terminal; elsewhere --yes is required.

Example:
   skillsync agents delete --yes 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b

Exit codes: 0 deleted, 1 error or not confirmed.`,
				Flags: slices.Concat(common(), []cli.Flag{flagYes.def("delete without asking")}),
				Action: func(c *cli.Context) error {
					o, err := readAgents(c, e)
					if err != nil {
						return err
					}
					id, err := oneArg(c, "agent id", "skillsync agents delete --yes 3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b (ids from: skillsync agents list)")
					if err != nil {
						return err
					}
					return runAgentsDelete(c.Context, e, o, id, flagYes.get(c))
				},
			},
		},
	}
}

// agentsOptions are the settings of the agents and assets commands, which
// also work outside a skills repository.
type agentsOptions struct {
	dir  string // --dir or SKILLSYNC_DIR; "" to look upward, and go on without one
	conn connSettings
}

func runAgentsList(ctx context.Context, e *env, o agentsOptions, format string) error {
	ui := e.ui
	cl, t, err := agentClient(e, o, "agents list")
	if err != nil {
		return err
	}
	agents, err := listAgents(ctx, cl, t.Space)
	if err != nil {
		return err
	}
	switch {
	case format == "json":
		if agents == nil {
			agents = []remote.Agent{}
		}
		return writeJSON(ui, agents)
	case len(agents) == 0:
		fprintf(ui.stdout, "No agents.\n")
	case format == "markdown":
		writeAgentMarkdown(ui, agents)
	default:
		writeAgentTable(ui, agents)
	}
	return nil
}

// runAgentsPublish publishes the agent ref names (an id or a name).
func runAgentsPublish(ctx context.Context, e *env, o agentsOptions, ref string) error {
	ui := e.ui
	cl, t, err := agentClient(e, o, "agents publish")
	if err != nil {
		return err
	}
	a, err := findAgent(ctx, cl, t.Space, ref)
	if err != nil {
		return err
	}
	if reconcile.CheckPublish(*a) != nil {
		return withHint(fmt.Errorf("agent %s has the embed widget enabled but no allowed domain; the service refuses to publish it", visible.Quote(a.Name)),
			"add the sites that may embed it to embedOptions.domainWhitelist in the app, or turn embedding off")
	}
	if !reconcile.NeedsPublish(*a) {
		fprintf(ui.stdout, "Agent %s (%s) is already published with no unpublished changes.\n", visible.Quote(a.Name), a.ID)
		return nil
	}
	got, err := cl.PublishAgent(ctx, t.Space, a.ID)
	if err != nil {
		return fmt.Errorf("publishing agent %s: %w", visible.Quote(a.Name), err)
	}
	fprintf(ui.stdout, "Published agent %s (%s).\n", visible.Quote(got.Name), got.ID)
	return nil
}

// runAgentsDelete deletes the agent id, asking first unless yes.
func runAgentsDelete(ctx context.Context, e *env, o agentsOptions, id string, yes bool) error {
	ui := e.ui
	if err := spec.CheckUUID("agent id", id); err != nil {
		return withHint(err, "agents delete takes the agent's id, not its name, so that a typo never deletes another agent; see skillsync agents list")
	}
	cl, t, err := agentClient(e, o, "agents delete")
	if err != nil {
		return err
	}
	what := id
	if !yes {
		// An id says nothing to the one asked: name the agent.
		agents, err := listAgents(ctx, cl, t.Space)
		if err != nil {
			return err
		}
		i := slices.IndexFunc(agents, func(a remote.Agent) bool { return a.ID == id })
		if i < 0 {
			return withHint(fmt.Errorf("no agent %s in space %s", id, t.Space), "nothing was deleted; see the agents with: skillsync agents list")
		}
		what = fmt.Sprintf("%s (%s)", visible.Quote(agents[i].Name), id)
		if err := confirmDelete(ctx, e, what); err != nil {
			return err
		}
	}
	if err := cl.DeleteAgent(ctx, t.Space, id); err != nil {
		return fmt.Errorf("deleting agent %s: %w", what, err)
	}
	fprintf(ui.stdout, "Deleted agent %s permanently.\n", what)
	return nil
}

// agentClient resolves the one target of command (such as "agents
// publish") from flags, env and, when there is one, skillsync.yaml, and
// builds its client.
func agentClient(e *env, o agentsOptions, command string) (*remote.Client, targetSettings, error) {
	_, cfg, err := optionalConfig(o.dir)
	if err != nil {
		return nil, targetSettings{}, err
	}
	t, err := o.conn.target(cfg, command)
	if err != nil {
		return nil, t, err
	}
	cl, err := newClient(e, o.conn, t)
	return cl, t, err
}

// listAgents lists every agent of space: the API reads no agent alone.
func listAgents(ctx context.Context, cl *remote.Client, space string) ([]remote.Agent, error) {
	agents, err := cl.StreamAgents(ctx, space, remote.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("listing agents of space %s: %w", space, err)
	}
	return agents, nil
}

// findAgent finds an agent by id, or else by exact name; a name shared by
// several agents is refused rather than guessed.
func findAgent(ctx context.Context, cl *remote.Client, space, ref string) (*remote.Agent, error) {
	agents, err := listAgents(ctx, cl, space)
	if err != nil {
		return nil, err
	}
	a, err := reconcile.FindAgent(agents, ref)
	var (
		notFound  *reconcile.AgentNotFoundError
		ambiguous *reconcile.AgentAmbiguousError
	)
	switch {
	case errors.As(err, &notFound) && len(notFound.Near) > 0:
		near := make([]string, len(notFound.Near))
		for i, n := range notFound.Near {
			near[i] = visible.Quote(n)
		}
		return nil, withHint(fmt.Errorf("no agent %s in space %s", visible.Quote(ref), space),
			"names match exactly, case included: did you mean %s? see the agents with: skillsync agents list", strings.Join(near, " or "))
	case errors.As(err, &notFound):
		return nil, withHint(fmt.Errorf("no agent %s in space %s", visible.Quote(ref), space), "see the agents with: skillsync agents list")
	case errors.As(err, &ambiguous):
		return nil, withHint(fmt.Errorf("%d agents are named %s", len(ambiguous.IDs), visible.Quote(ref)), "use the agent's id instead; see skillsync agents list")
	case err != nil:
		return nil, err
	}
	return &a, nil
}

// confirmDelete asks on a terminal before the agent what (its name and
// id) is deleted.
func confirmDelete(ctx context.Context, e *env, what string) error {
	in, ok := e.stdin.(*os.File)
	if !ok || !isTerminal(in) {
		return withHint(errors.New("deleting an agent needs confirmation, and there is no terminal to ask on"), "pass --yes to delete without asking; deletion is permanent")
	}
	line, err := ask(ctx, e.ui, e.ui.stdout, in, fmt.Sprintf("Delete agent %s permanently? Its draft, published version, actions and skills are lost for good. Type 'yes' to confirm: ", what))
	if err != nil {
		return err
	}
	if strings.TrimSpace(line) != "yes" {
		return withHint(errors.New("delete cancelled"), "nothing was deleted")
	}
	return nil
}

func writeAgentTable(ui *ui, agents []remote.Agent) {
	tw := tabwriter.NewWriter(ui.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSTATE\tSKILLS\tEMBED")
	for _, a := range agents {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", tableCell(a.ID), tableCell(a.Name), agentState(a), len(a.SkillIDs), agentEmbed(a))
	}
	tw.Flush()
}

// tableCell is text of the space shown in one cell of a table: a tab or a
// newline in an agent's name would start another cell or fake a row.
func tableCell(s string) string {
	return strings.ReplaceAll(visible.Line(s), "\t", visible.Open+visible.Name('\t')+visible.Close)
}

// writeAgentMarkdown writes the agents as a markdown table, for a job
// summary or a wiki page.
func writeAgentMarkdown(ui *ui, agents []remote.Agent) {
	// Names and ids of the space go in code spans, whose pipes alone a
	// table needs escaped.
	cell := func(s string) string { return strings.ReplaceAll(render.CodeSpan(s), "|", `\|`) }
	fprintf(ui.stdout, "| Name | ID | State | Skills | Embed |\n|---|---|---|--:|---|\n")
	for _, a := range agents {
		fprintf(ui.stdout, "| %s | %s | %s | %d | %s |\n", cell(a.Name), cell(a.ID), agentState(a), len(a.SkillIDs), agentEmbed(a))
	}
}

func agentState(a remote.Agent) string {
	switch {
	case a.Published && a.UnpublishedUnknown:
		return "published, changes unknown"
	case a.Published && a.HasUnpublishedChanges:
		return "unpublished changes"
	case a.Published:
		return "published"
	}
	return "draft only"
}

func agentEmbed(a remote.Agent) string {
	if !a.EmbedEnabled {
		return "off"
	}
	return fmt.Sprintf("on (%d domains)", len(a.EmbedOptions.DomainWhitelist))
}
