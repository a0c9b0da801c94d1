package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile/render"
)

func validateCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "validate",
		Usage: "check the repository's skills against the service's rules and the security rules (no network)",
		Description: `Checks every SKILL.md and supporting file and reports all problems at once,
as path:line:col: error: message. The security rules judge every skill folder,
valid or not: what they find names the rule, the text matched (decoded when
hidden or encoded), why it matters and how to waive it. Under GitHub Actions (GITHUB_ACTIONS=true)
each problem is also printed as an ::error annotation, on stderr.

With --format markdown the report is fit for a job summary or a comment;
with --format json it is the list of diagnostics as data; with --format
sarif it is a SARIF 2.1.0 log for code scanning (GitHub's upload-sarif,
GitLab's security reports): the security rules tagged "security", with a
security-severity.

Examples:
   skillsync validate
   skillsync validate --ref main --format json
   skillsync validate --format markdown >> "$GITHUB_STEP_SUMMARY"
   skillsync validate --format sarif > skillsync.sarif

Exit codes: 0 valid (warnings allowed), 1 any error.`,
		Flags: []cli.Flag{
			dirFlag(),
			noColorFlag(), // accepted as everywhere; validate prints no colour
			formatFlag("text", "markdown", "json", "sarif"),
			flagRef.def("validate a git revision (branch, tag, SHA, HEAD~1) instead of the working tree"),
		},
		Action: func(c *cli.Context) error {
			return runValidate(c.Context, e, validateOptions{dir: resolveDir(flagDir.get(c), e.getenv), ref: flagRef.get(c), format: flagFormat.get(c)})
		},
	}
}

// validateOptions are validate's settings.
type validateOptions struct {
	dir    string // --dir or SKILLSYNC_DIR; "" to look upward
	ref    string // --ref: validate this git revision
	format string // text, markdown, json or sarif
}

func runValidate(ctx context.Context, e *env, o validateOptions) error {
	ui := e.ui
	root, err := findRepo(o.dir)
	if err != nil {
		return err
	}
	format := o.format
	repo, diags, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{Ref: o.ref, Judge: judge(ui.secrets, e.getenv, "", nil)})
	if err != nil {
		return err
	}
	// The 40-active limit needs no network: validate, and so the
	// pre-commit hook, catches what plan would refuse.
	if more := fsrepo.ActiveLimit(repo); len(more) > 0 {
		diags = append(diags, more...)
		diags.Sort()
	}
	dropEchoingHints(ui, repo, diags)
	switch format {
	case "json":
		if diags == nil {
			diags = diag.Diagnostics{}
		}
		if err := writeJSON(ui, diags); err != nil {
			return err
		}
	case "markdown":
		writeDiagnosticsMarkdown(ui, len(repo.Skills), diags)
	case "sarif":
		if err := writeSARIF(ui, root, diags); err != nil {
			return err
		}
	default:
		writeDiagnostics(ui, diags)
		fprintf(ui.stdout, "%s.\n", validateSummary(len(repo.Skills), diags))
	}
	// On stderr, as every command puts them, so that stdout holds only
	// the report in the format asked for.
	writeAnnotations(ui, diags)
	if diags.HasErrors() {
		return errSilent
	}
	return nil
}

// writeDiagnosticsMarkdown writes the report of validate as markdown: the
// counts in bold, then one list item a problem with its hint.
func writeDiagnosticsMarkdown(ui *ui, skills int, diags diag.Diagnostics) {
	fprintf(ui.stdout, "### skillsync validate\n\n**%s.**\n", validateSummary(skills, diags))
	if len(diags) > 0 {
		fprintf(ui.stdout, "\n")
	}
	for _, d := range diags {
		fprintf(ui.stdout, "- **%s** %s: %s\n", d.Severity, render.CodeSpan(d.Location()), render.MarkdownText(d.Message))
		if d.Hint != "" {
			fprintf(ui.stdout, "  - hint: %s\n", render.MarkdownText(d.Hint)) // a nested item: a bare indented line joins the one above
		}
	}
}

// validateSummary sums up validate's report of skills with diags, with no
// final period: "3 skills valid (1 warning)", or "2 errors, 0 warnings".
func validateSummary(skills int, diags diag.Diagnostics) string {
	errs, warns := diags.Count()
	if errs == 0 {
		return fmt.Sprintf("%d %s valid (%s)", skills, names.Plural(skills, "skill", "skills"), names.Count(warns, "warning", "warnings"))
	}
	return fmt.Sprintf("%s, %s", names.Count(errs, "error", "errors"), names.Count(warns, "warning", "warnings"))
}

// writeDiagnostics prints diagnostics with their hints.
func writeDiagnostics(ui *ui, diags diag.Diagnostics) {
	for _, d := range diags {
		fprintf(ui.stdout, "%s\n", visible.Line(d.String()))
		if d.Hint != "" {
			fprintf(ui.stdout, "\thint: %s\n", visible.Line(d.Hint))
		}
	}
}
