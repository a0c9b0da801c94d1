package main

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/fetch"
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

// planRun is everything one planning command resolved and fetched for a
// target.
type planRun struct {
	root   string
	repo   *fsrepo.Repo // the target's desired state ([fsrepo.Repo.ForTarget])
	target targetSettings
	client *remote.Client
	par    int
	plan   *reconcile.Plan
	// appliedAlready is true for a saved plan that an earlier apply went
	// through: plan then holds no change.
	appliedAlready bool
	// err is why the target could not be planned, when it is one of
	// several: the others are planned still, and plan holds err as its
	// one error, for every format to show.
	err error
	// issueURL is the page of the target's drift issue, once drift
	// --issue has opened, updated or closed it; resolved says it closed it.
	issueURL string
	resolved bool
	// proposalURL is the page of the target's drift pull request.
	proposalURL string
}

// fail records err as why r could not be planned.
func (r *planRun) fail(err error) {
	r.err = fmt.Errorf("target %s: %w", r.target.Name, err)
	var commit string
	if r.repo != nil {
		commit = r.repo.Commit
	}
	r.plan = reconcile.FailedPlan(r.target.Space, r.target.Name, commit, reconcile.Problem{
		Code: reconcile.CodeNoPlan, Message: err.Error(), Hint: hintFor(err)})
}

// plans are the plans of runs, in their order.
func plans(runs []*planRun) []*reconcile.Plan {
	out := make([]*reconcile.Plan, len(runs))
	for i, r := range runs {
		out[i] = r.plan
	}
	return out
}

// loadRepo loads the desired state, with the judge of the security rules,
// and stops on any validation error: a plan must never be made from a
// skill the service would reject. With findings, errors of the security
// rules do not stop it: the plan shows them above its changes and refuses
// them ([planFindings]). What stops it is printed; otherwise the
// diagnostics come back unprinted, for the plan to carry ([validationWarnings]).
func loadRepo(ctx context.Context, ui *ui, o planningOptions, findings bool) (string, *fsrepo.Repo, diag.Diagnostics, *lint.Judge, error) {
	root, err := findRepo(o.dir)
	if err != nil {
		return "", nil, nil, nil, err
	}
	var j *lint.Judge
	repo, diags, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{Ref: o.ref, Judge: judge(o.conn.secrets, o.conn.getenv, o.conn.flags.tokenFile, &j)})
	if err != nil {
		return "", nil, nil, nil, err
	}
	// The diagnostics may quote a token (in a name, a file name): the
	// --token-file's, and every target's, is registered before they are
	// printed. A missing token is reported when the client is made.
	ts, _ := o.conn.targets(repo.Config)
	for _, t := range ts {
		_, _ = readToken(ui, t, o.conn.getenv)
	}
	dropEchoingHints(ui, repo, diags)
	if slices.ContainsFunc(diags, func(d diag.Diagnostic) bool { return d.Severity == diag.SeverityError && !(findings && isFinding(d)) }) {
		printDiagnostics(ui, diags)
		return "", nil, nil, nil, withHint(&invalidRepoError{diags: diags}, "fix the errors above; 'skillsync validate' lists them again without contacting the space")
	}
	return root, repo, diags, j, nil
}

// dropEchoingHints leaves out the hints of the diagnostics of each skill
// whose name shows a secret: a hint may suggest a valid name made of it
// ("tok_1" as "tok-1"), a form that redaction does not find.
func dropEchoingHints(ui *ui, repo *fsrepo.Repo, diags diag.Diagnostics) {
	for _, s := range repo.Skills {
		if ui.secrets.Redact(s.Name) == s.Name {
			continue
		}
		for i := range diags {
			if diags[i].Path == s.Path {
				diags[i].Hint = ""
			}
		}
	}
}

// printDiagnostics prints diags on stderr, and as annotations under GitHub
// Actions.
func printDiagnostics(ui *ui, diags diag.Diagnostics) {
	for _, d := range diags {
		ui.logf("%s", d)
		if d.Hint != "" {
			ui.logf("\thint: %s", d.Hint)
		}
	}
	writeAnnotations(ui, diags)
}

// validationWarnings are the warnings of validation as the plan warnings
// of target, so that a reviewer sees them in the plan, its comment and its
// JSON: "path:line:col: message" with the diagnostic's code, path and
// line. A warning of another target is left to that target's plan.
func validationWarnings(diags diag.Diagnostics, target string) []reconcile.Problem {
	var out []reconcile.Problem
	for _, d := range diags {
		if d.Severity != diag.SeverityWarning || isFinding(d) || d.Target != "" && d.Target != target {
			continue // another target's, said in its own plan
		}
		out = append(out, reconcile.Problem{Code: d.Code, Message: d.Location() + ": " + d.Message, Hint: d.Hint, Path: d.Path, Line: d.Line})
	}
	return out
}

// invalidRepoError stops a plan made from a repository with validation
// errors; it keeps them for the pull-request comment that says why there
// is no plan.
type invalidRepoError struct {
	diags diag.Diagnostics
}

func (e *invalidRepoError) Error() string {
	errs, _ := e.diags.Count()
	return "the repository has " + names.Count(errs, "validation error", "validation errors")
}

// errorLines are the validation errors, as "path:line:col: error: message".
func (e *invalidRepoError) errorLines() []string {
	var out []string
	for _, d := range e.diags {
		if d.Severity == diag.SeverityError {
			out = append(out, d.String())
		}
	}
	return out
}

// targets resolves the targets the plans of a loaded repo go to, with
// --force.
func (o planningOptions) targets(repo *fsrepo.Repo) ([]targetSettings, error) {
	ts, err := o.conn.targets(repo.Config)
	for i := range ts {
		ts[i].Policy.Force = o.force
	}
	return ts, err
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

// makePlans loads the repository and plans it against each target
// selected, reading the lists of their spaces while the repository loads
// ([startLists]). One target is planned as a repository without targets
// always was: the error of its plan is the command's. Several are planned
// at once, sharing one --parallelism, and a target that cannot be planned
// does not stop the others: its run holds the error ([planRun.fail]).
func makePlans(ctx context.Context, e *env, o planningOptions, progress bool) ([]*planRun, error) {
	budget := fetch.NewBudget(o.conn.parallelism)
	early := startLists(ctx, e, o, budget)
	defer early.stop()
	root, repo, diags, j, err := loadRepo(ctx, e.ui, o, true)
	if err != nil {
		return nil, err
	}
	ts, err := o.targets(repo)
	if err != nil {
		return nil, err
	}
	if err := o.conn.checkParallelism(); err != nil {
		return nil, err
	}
	if !early.madeFor(ts) {
		early.stop()
		early = nil
	}
	runs := make([]*planRun, len(ts))
	for i, t := range ts {
		runs[i] = &planRun{root: root, repo: repo.ForTarget(t.Name), target: t, par: o.conn.parallelism}
	}
	var pr *progressLine
	if progress {
		pr = e.ui.progress("fetching skills")
	}
	sum := newProgressSum(pr.update, len(ts))

	// Every target's lists are read before any skill, so that the reads
	// of one target never hold up the pages of another: a page unlocks
	// reads, a read unlocks nothing.
	listings := make([]*fetch.Listing, len(runs))
	errs := make([]error, len(runs))
	crash := eachTarget(runs, errs, func(i int, r *planRun) (err error) {
		listings[i], err = listTarget(ctx, e, o, r, early, i, budget)
		return err
	})
	if crash == nil {
		crash = eachTarget(runs, errs, func(i int, r *planRun) error {
			return planTarget(ctx, r, listings[i], diags, j, sum.part(i))
		})
	}
	pr.done()
	switch {
	case crash != nil:
		return nil, crash
	case len(runs) == 1 && errs[0] != nil:
		return nil, errs[0]
	case ctx.Err() != nil:
		return nil, ctx.Err()
	}
	for i, r := range runs {
		if errs[i] != nil {
			r.fail(errs[i])
		}
	}
	return runs, nil
}

// eachTarget calls f for each run whose errs is nil, all at once, and
// records what each returns in errs. It returns the first panic.
func eachTarget(runs []*planRun, errs []error, f func(i int, r *planRun) error) error {
	var g errgroup.Group
	for i, r := range runs {
		if errs[i] == nil {
			bug.Go(&g, func() error {
				errs[i] = f(i, r)
				return nil
			})
		}
	}
	return g.Wait() // a *bug.Error
}

// listTarget connects to the space of r.target and lists it, or takes the
// client and lists of target i of early.
func listTarget(ctx context.Context, e *env, o planningOptions, r *planRun, early *earlyLists, i int, budget *fetch.Budget) (*fetch.Listing, error) {
	var err error
	if early != nil {
		r.client = early.clients[i]
	} else if r.client, err = connect(e, o.conn, r.target); err != nil {
		return nil, err
	}
	if err := refuseTokenInRepo(e.ui, r.repo); err != nil {
		return nil, err
	}
	var l *fetch.Listing
	if early != nil {
		err = early.lists[i].Wait()
		l = early.listings[i]
	} else {
		fo := fetch.Options{Parallelism: r.par, Budget: budget}
		if fo.Cache, err = openCache(o); err != nil {
			return nil, err
		}
		l, err = fetch.List(ctx, r.client, r.target.Space, fo)
	}
	if err != nil {
		return nil, fmt.Errorf("reading space %s: %w", r.target.Space, err)
	}
	return l, nil
}

// planTarget reads what l lists of r.repo and plans r.repo against it,
// carrying the warnings of diags and the findings of the security rules
// (j's, in the space).
func planTarget(ctx context.Context, r *planRun, l *fetch.Listing, diags diag.Diagnostics, j *lint.Judge, progress func(done, total int)) error {
	t := r.target
	live, err := l.Read(ctx, r.repo, progress)
	if err != nil {
		return fmt.Errorf("reading space %s: %w", t.Space, err)
	}
	r.plan = reconcile.Compute(r.repo, live, t.Policy)
	r.plan.Target = t.Name
	r.plan.Warnings = append(validationWarnings(diags, t.Name), r.plan.Warnings...)
	planFindings(r.plan, r.repo.Config.SkillsDir, diags, j)
	return nil
}

// openCache opens the --cache folder; nil for none. It keeps no skill
// holding a secret of this process.
func openCache(o planningOptions) (*fetch.Cache, error) {
	if o.cache == "" {
		return nil, nil
	}
	c, err := fetch.OpenCache(o.cache)
	if err != nil {
		return nil, err
	}
	c.Secrets = o.conn.secrets.Found
	return c, nil
}

// earlyLists are the lists of the targets skillsync.yaml selects, read
// while the repository loads and is validated. They are a guess from the
// file alone: any problem makes none, for the loaded repository to
// report, and they are dropped unless it selects the same targets.
type earlyLists struct {
	targets  []targetSettings
	clients  []*remote.Client
	cancel   context.CancelFunc
	lists    []errgroup.Group // one per target
	listings []*fetch.Listing // once its lists have ended
}

// startLists starts reading the lists of the targets skillsync.yaml
// selects, within budget; nil if it cannot.
func startLists(ctx context.Context, e *env, o planningOptions, budget *fetch.Budget) *earlyLists {
	root, err := findRepo(o.dir)
	if err != nil {
		return nil
	}
	cfg, err := config.Read(root)
	if err != nil {
		return nil
	}
	ts, err := o.conn.targets(cfg)
	if err != nil || o.conn.checkParallelism() != nil {
		return nil
	}
	fo := fetch.Options{Parallelism: o.conn.parallelism, Budget: budget}
	if fo.Cache, err = openCache(o); err != nil {
		return nil
	}
	early := &earlyLists{targets: ts, clients: make([]*remote.Client, len(ts)),
		lists: make([]errgroup.Group, len(ts)), listings: make([]*fetch.Listing, len(ts))}
	for i, t := range ts {
		if early.clients[i], err = newClient(e, o.conn, t); err != nil {
			return nil
		}
	}
	ctx, early.cancel = context.WithCancel(ctx)
	for i, t := range ts {
		bug.Go(&early.lists[i], func() (err error) {
			early.listings[i], err = fetch.List(ctx, early.clients[i], t.Space, fo)
			return err
		})
	}
	return early
}

// madeFor reports whether the lists were started for ts: the same
// targets, each with the same space, address and token.
func (early *earlyLists) madeFor(ts []targetSettings) bool {
	return early != nil && slices.EqualFunc(early.targets, ts, func(a, b targetSettings) bool {
		return a.Name == b.Name && a.Space == b.Space && a.BaseURL == b.BaseURL &&
			a.TokenEnv == b.TokenEnv && a.TokenFile == b.TokenFile
	})
}

// stop ends the lists, read or not.
func (early *earlyLists) stop() {
	if early != nil {
		early.cancel()
		for i := range early.lists {
			_ = early.lists[i].Wait()
		}
	}
}

// plansErrors is the error of runs of which bad says some have errors,
// after rendering them; nil when none has. One run's is its plan's
// error; several runs' names the targets, and the errors of targets that
// could not be planned are also said on stderr, where errors are looked
// for.
func plansErrors(ui *ui, runs []*planRun, bad func(*planRun) bool) error {
	var names []string
	for _, r := range runs {
		if r.err != nil { // only ever set when there are several
			reportAlso(ui, r.err)
		}
		if bad(r) {
			names = append(names, r.target.Name)
		}
	}
	switch {
	case len(names) == 0:
		return nil
	case len(runs) == 1:
		return planErrors(runs[0].plan)
	}
	return withHint(fmt.Errorf("%d of %d targets have errors (%s); nothing can be applied to them until they are fixed", len(names), len(runs), strings.Join(names, ", ")),
		"see the errors of each target above, each with what to do")
}

// planErrors is the error of a plan that has errors, after rendering it.
func planErrors(p *reconcile.Plan) error {
	return withHint(fmt.Errorf("the plan has %s; nothing can be applied until they are fixed", names.Count(len(p.Errors), "error", "errors")), "see the errors listed in the plan above, each with what to do")
}
