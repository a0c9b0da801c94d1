package main

import (
	"context"
	"fmt"
	"io"
	"path"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/remote"
)

// planningOptions are the settings of every command that plans: plan,
// apply and drift.
type planningOptions struct {
	dir   string // --dir or SKILLSYNC_DIR; "" to look upward
	ref   string // --ref: plan from this git revision
	force bool
	cache string // --cache or SKILLSYNC_CACHE; "" for none
	color bool
	conn  connSettings
}

// planRun is everything one planning command resolved and fetched.
type planRun struct {
	root   string
	repo   *fsrepo.Repo
	target targetSettings
	client *remote.Client
	par    int
	plan   *reconcile.Plan
}

// loadRepo loads the desired state and stops on any validation error: a
// plan must never be made from a skill the service would reject. Then it
// prints every diagnostic; otherwise it returns the warnings unprinted,
// for the plan to carry in every format (see [validationWarnings]).
func loadRepo(ctx context.Context, ui *ui, o planningOptions) (string, *fsrepo.Repo, fsrepo.Diagnostics, error) {
	root, err := findRepo(o.dir)
	if err != nil {
		return "", nil, nil, err
	}
	repo, diags, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{Ref: o.ref})
	if err != nil {
		return "", nil, nil, err
	}
	// The diagnostics may quote the token (in a name, a file name): the
	// --token-file's is registered before they are printed. A missing
	// token is reported when the client is made.
	t, _ := o.conn.target(repo.Config)
	_, _ = readToken(ui, t, o.conn.getenv)
	if diags.HasErrors() {
		printDiagnostics(ui, diags)
		return "", nil, nil, withHint(&invalidRepoError{diags: diags}, "fix the errors above; 'skillsync validate' lists them again without contacting the space")
	}
	return root, repo, diags, nil
}

// printDiagnostics prints diags on stderr, and as annotations under GitHub
// Actions.
func printDiagnostics(ui *ui, diags fsrepo.Diagnostics) {
	for _, d := range diags {
		ui.logf("%s", d)
		if d.Hint != "" {
			ui.logf("\thint: %s", d.Hint)
		}
	}
	writeAnnotations(ui, diags)
}

// validationWarnings are the warnings of validation as plan warnings, so
// that a reviewer sees them in the plan, its comment and its JSON: "path:
// line:col: message" with the diagnostic's code, path and line.
func validationWarnings(diags fsrepo.Diagnostics) []reconcile.Problem {
	var out []reconcile.Problem
	for _, d := range diags {
		if d.Severity != fsrepo.SeverityWarning {
			continue
		}
		out = append(out, reconcile.Problem{Code: d.Code, Message: d.Location() + ": " + d.Message, Hint: d.Hint, Path: d.Path, Line: d.Line})
	}
	return out
}

// invalidRepoError stops a plan made from a repository with validation
// errors; it keeps them for the pull-request comment that says why there
// is no plan.
type invalidRepoError struct {
	diags fsrepo.Diagnostics
}

func (e *invalidRepoError) Error() string {
	errs, _ := countDiagnostics(e.diags)
	return "the repository has " + count(errs, "validation error", "validation errors")
}

// errorLines are the validation errors, as "path:line:col: error: message".
func (e *invalidRepoError) errorLines() []string {
	var out []string
	for _, d := range e.diags {
		if d.Severity == fsrepo.SeverityError {
			out = append(out, d.String())
		}
	}
	return out
}

// target resolves where the plans of a loaded repo go, with --force.
func (o planningOptions) target(repo *fsrepo.Repo) (targetSettings, error) {
	t, err := o.conn.target(repo.Config)
	t.Policy.Force = o.force
	return t, err
}

// connect builds the client of target t.
func connect(e *env, o planningOptions, t targetSettings) (*remote.Client, error) {
	if err := o.conn.checkParallelism(); err != nil {
		return nil, err
	}
	return newClient(e, o.conn, t)
}

// refuseTokenInRepo refuses a repository whose skills hold the token (a
// real one, of 12 bytes or more), spelt in any way, in a file or in the
// name of a file or folder: a plan would carry it into the space, the plan
// file, the journal and the pull request's comment. Redacting it instead
// would write "[REDACTED]" into the space. The path in the error is printed
// redacted, as all output is.
func refuseTokenInRepo(ui *ui, repo *fsrepo.Repo) error {
	inName := func(p string) error {
		return withHint(fmt.Errorf("the name of %s holds the access token; skillsync will not send it to the space nor write it anywhere", p),
			"rename it, and rotate the token: anyone who can read the repository has seen it")
	}
	inContent := func(p string) error {
		return withHint(fmt.Errorf("%s holds the access token; skillsync will not send it to the space nor write it anywhere", p),
			"remove it from the file, and rotate the token: anyone who can read the repository has seen it")
	}
	for _, s := range repo.Skills {
		if ui.holdsSecret(s.Path) { // the folder's name: the slug, or skillsDir
			return inName(s.Path)
		}
		if ui.holdsSecret(s.Name + "\n" + s.Description + "\n" + s.Instructions) {
			return inContent(s.Path)
		}
		for _, f := range s.Files {
			p := path.Join(path.Dir(s.Path), f.Path)
			if ui.holdsSecret(f.Path) {
				return inName(p)
			}
			if ui.holdsSecret(string(f.Content)) {
				return inContent(p)
			}
		}
	}
	return nil
}

// makePlan loads the repository and plans it against its target: the one
// that skillsync.yaml, the flags and the variables name. (With targets: in
// skillsync.yaml, planTarget runs once for each.)
func makePlan(ctx context.Context, e *env, o planningOptions, progress bool) (*planRun, error) {
	root, repo, diags, err := loadRepo(ctx, e.ui, o)
	if err != nil {
		return nil, err
	}
	t, err := o.target(repo)
	if err != nil {
		return nil, err
	}
	return planTarget(ctx, e, o, &planRun{root: root, repo: repo, target: t}, diags, progress)
}

// planTarget reads the space of r.target and plans r.repo against it,
// carrying the warnings of diags.
func planTarget(ctx context.Context, e *env, o planningOptions, r *planRun, diags fsrepo.Diagnostics, progress bool) (*planRun, error) {
	ui, repo, t := e.ui, r.repo, r.target
	cl, err := connect(e, o, t)
	if err != nil {
		return nil, err
	}
	if err := refuseTokenInRepo(ui, repo); err != nil {
		return nil, err
	}
	par := o.conn.parallelism
	r.client, r.par = cl, par
	fo := reconcile.FetchOptions{Parallelism: par}
	if dir := o.cache; dir != "" {
		if fo.Cache, err = reconcile.OpenCache(dir); err != nil {
			return nil, err
		}
	}
	var pr *progressLine
	if progress {
		pr = ui.progress("fetching skills")
	}
	fo.Progress = pr.update
	live, err := reconcile.Fetch(ctx, cl, t.Space, repo, fo)
	pr.done()
	if err != nil {
		return nil, fmt.Errorf("reading space %s: %w", t.Space, err)
	}
	r.plan = reconcile.Compute(repo, live, t.Policy)
	r.plan.Warnings = append(validationWarnings(diags), r.plan.Warnings...)
	return r, nil
}

// renderPlan writes p to w in format, titled for the command that made it
// ("plan" or "drift").
func renderPlan(w io.Writer, p *reconcile.Plan, format string, color bool, kind string) error {
	switch format {
	case "json":
		return reconcile.RenderJSON(w, p)
	case "markdown":
		return reconcile.RenderMarkdown(w, p, reconcile.MarkdownOptions{Title: "skillsync " + kind})
	default:
		return reconcile.RenderText(w, p, reconcile.TextOptions{Color: color, Title: "skillsync " + kind})
	}
}

// planErrors is the error of a plan that has errors, after rendering it.
func planErrors(p *reconcile.Plan) error {
	n := len(p.Errors)
	return withHint(fmt.Errorf("the plan has %d error(s); nothing can be applied until they are fixed", n), "see the errors listed in the plan above, each with what to do")
}
