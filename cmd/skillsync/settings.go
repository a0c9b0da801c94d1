package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/bounded"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/render"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
	"github.com/skillsync/skillsync/vendored"
)

// Settings are resolved here, and only here: each from its flag, else its
// environment variable, else skillsync.yaml ([pick]). The variables are
// read through the getenv run is given, never from the process.

// The environment variables skillsync reads.
const (
	envDir         = "SKILLSYNC_DIR"
	envBaseURL     = "SKILLSYNC_BASE_URL"
	envSpace       = "SKILLSYNC_SPACE"
	envTarget      = "SKILLSYNC_TARGET"
	envToken       = "SKILLSYNC_TOKEN"
	envParallelism = "SKILLSYNC_PARALLELISM"
	envCache       = "SKILLSYNC_CACHE"
	envTimeout     = "SKILLSYNC_TIMEOUT"
	envNoColor     = "NO_COLOR"
	envTerm        = "TERM"
	// Either forces colour into a pipe, as CI logs want: FORCE_COLOR
	// (force-color.org) and CLICOLOR_FORCE (bixense.com/clicolors).
	envForceColor    = "FORCE_COLOR"
	envCliColorForce = "CLICOLOR_FORCE"
)

const defaultParallelism = 8

// pick is the precedence of every setting: the flag's value when given,
// else the environment variable's, else the file's. from says which:
// "--"+flag, env, or "skillsync.yaml". An empty value counts as unset: CI
// systems export variables that have no value (GitHub's ${{ vars.X }}
// when X is not defined), and they must not hide skillsync.yaml.
func pick(flag stringFlag, flagValue, env string, getenv func(string) string, file string) (value, from string) {
	if flagValue != "" {
		return flagValue, "--" + string(flag)
	}
	if v := getenv(env); v != "" {
		return v, env
	}
	return file, config.FileName
}

// resolveDir is --dir, else SKILLSYNC_DIR: the repository root asked for,
// or "" to look upward for skillsync.yaml.
func resolveDir(flagValue string, getenv func(string) string) string {
	dir, _ := pick(flagDir, flagValue, envDir, getenv, "")
	return dir
}

// useColor decides colour once, here, so renderers never do: never with
// --no-color or NO_COLOR; always with FORCE_COLOR or CLICOLOR_FORCE set
// (but to 0 or false); never on a dumb terminal; else when stdout is a
// terminal.
func useColor(noColor bool, getenv func(string) string, ui *ui) bool {
	switch {
	case noColor || getenv(envNoColor) != "":
		return false
	case forced(getenv(envForceColor)) || forced(getenv(envCliColorForce)):
		return true
	case getenv(envTerm) == "dumb":
		return false
	}
	return ui.stdoutTTY
}

// forced reports whether a FORCE_COLOR-like variable asks for colour.
func forced(v string) bool {
	return v != "" && v != "0" && !strings.EqualFold(v, "false")
}

// connSettings are how a command talks to a space, whichever it is: the
// flags and variables that [resolveTargets] reads with skillsync.yaml to
// say where requests go, and what holds for every target.
type connSettings struct {
	flags  connFlags
	getenv func(string) string
	// secrets are the ui's: resolving the targets registers every token
	// they name, so that no output shows another target's.
	secrets     *redact.Set
	parallelism int
	// timeout bounds each attempt of a request (--timeout or
	// SKILLSYNC_TIMEOUT); 0 for the client's default.
	timeout time.Duration
	debug   bool
}

// resolveConn resolves what f and the environment say of every target;
// skillsync.yaml says nothing of it. A SKILLSYNC_PARALLELISM that is no
// number is refused as such a --parallelism is, before any work; one out
// of range when requests are about to run ([connSettings.checkParallelism]).
func resolveConn(f connFlags, e *env) (connSettings, error) {
	cs := connSettings{flags: f, getenv: e.getenv, secrets: e.ui.secrets, parallelism: f.parallelism, debug: f.debug}
	if v := e.getenv(envParallelism); !f.parallelismGiven && v != "" {
		n, err := strconv.ParseInt(v, 0, strconv.IntSize)
		if err != nil {
			return cs, withHint(fmt.Errorf("%s=%q is not a whole number (it sets --%s)", envParallelism, v, flagParallelism),
				"correct %s or unset it", envParallelism)
		}
		cs.parallelism = int(n)
	}
	if t, from := pick(flagTimeout, f.timeout, envTimeout, e.getenv, ""); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 {
			return cs, withHint(fmt.Errorf("%s %q is not a duration", from, t), "write a positive duration such as 10s or 2m")
		}
		cs.timeout = d
	}
	return cs, nil
}

// checkParallelism refuses a --parallelism (or SKILLSYNC_PARALLELISM) out
// of range, for the commands that run requests side by side.
func (cs connSettings) checkParallelism() error {
	if cs.parallelism < 1 || cs.parallelism > 64 {
		return withHint(fmt.Errorf("--%s %d out of range", flagParallelism, cs.parallelism), "use 1 to 64")
	}
	return nil
}

// target resolves where requests go with cfg, the repository's
// skillsync.yaml (the zero Config when there is none), for a command that
// talks to one space: it refuses a selection of several targets, naming
// the command (such as "agents publish") in the error.
func (cs connSettings) target(cfg config.Config, command string) (targetSettings, error) {
	ts, err := cs.targets(cfg)
	if err != nil {
		return targetSettings{}, err
	}
	if len(ts) > 1 {
		names := targetNames(ts)
		return targetSettings{}, withHint(fmt.Errorf("%s works on one space, and %d targets are selected (%s)", command, len(ts), strings.Join(names, ", ")),
			"pick one with --target NAME (or %s=NAME): one of %s", envTarget, strings.Join(names, ", "))
	}
	return ts[0], nil
}

// targets resolves the targets selected, in the order of skillsync.yaml
// ([resolveTargets]), once every token of cfg is registered as a secret
// ([registerTokens]).
func (cs connSettings) targets(cfg config.Config) ([]targetSettings, error) {
	registerTokens(cs.secrets, cfg, cs.getenv, cs.flags.tokenFile)
	return resolveTargets(cs.flags, cs.getenv, cfg)
}

// targetNames are the names of ts.
func targetNames(ts []targetSettings) []string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.Name
	}
	return names
}

// targetSettings are where one target's requests go, and with what: its
// space, the service's address, the variable or file holding its token,
// and the policy its plans follow. A skillsync.yaml without targets has
// one implicit target, with no name; with targets, each target selected
// ([resolveTargets]) is planned, drifted and applied with its own.
type targetSettings struct {
	// Name is the target's name in skillsync.yaml, "" for the one target
	// of a skillsync.yaml without targets.
	Name    string
	Space   string
	BaseURL string
	// BaseURLFrom says where BaseURL was set: "--base-url",
	// "SKILLSYNC_BASE_URL" or "skillsync.yaml", for the hint of a network
	// failure.
	BaseURLFrom string
	// TokenEnv names the variable holding the token; TokenFile, when set
	// (--token-file), is read instead.
	TokenEnv, TokenFile string
	// Policy is what the target's plans may do (unmanaged, missing,
	// maxDisablePercent, agents to publish, ignore rules); callers set
	// Force.
	Policy reconcile.Policy
	// Notify are the destinations of the target's events: the top-level
	// notify: section with the target's merged in.
	Notify notify.Config
}

// where names t in messages: "space ab12", or "target prod (space pr01)".
func (t targetSettings) where() string { return render.Where(t.Space, t.Name) }

// selectedTargets are the target names --target gives, else
// SKILLSYNC_TARGET (comma-separated), trimmed, blank ones left out (a CI
// matrix may expand to " "), and where they came from; none selects every
// target. f is not changed.
func selectedTargets(f connFlags, getenv func(string) string) (names []string, from string) {
	from = "--" + string(flagTarget)
	switch {
	case len(f.targets) > 0:
		names = slices.Clone(f.targets)
	case getenv(envTarget) != "":
		from = envTarget
		names = strings.Split(getenv(envTarget), ",")
	}
	for i := range names {
		names[i] = strings.TrimSpace(names[i])
	}
	return slices.DeleteFunc(names, func(n string) bool { return n == "" }), from
}

// resolveTargets is the one place where targets are selected and their
// settings resolved. A skillsync.yaml without targets: has one implicit
// target, with no name. With targets, those named by --target (else
// SKILLSYNC_TARGET, comma-separated) are selected, else all of them, in
// the order of skillsync.yaml. Each gets its space (--space, else
// SKILLSYNC_SPACE, else its own: the first two only when one target is
// selected), its address (--base-url, else SKILLSYNC_BASE_URL, else its
// own baseURL, else the top-level one), its token's variable (tokenEnv,
// else SKILLSYNC_TOKEN; --token-file stands for every target selected)
// and its policy. The token is never read from skillsync.yaml.
//
// The settings come back filled even with an error of one target, for a
// failure report that needs only the space.
func resolveTargets(f connFlags, getenv func(string) string, cfg config.Config) ([]targetSettings, error) {
	selected, from := selectedTargets(f, getenv)
	all := cfg.TargetNames()
	if len(all) == 0 {
		if len(selected) > 0 {
			return nil, withHint(fmt.Errorf("%s %s: %s has no targets", from, strings.Join(selected, ","), config.FileName),
				"leave out %s (and unset %s), or name the spaces under targets: in %s", "--"+string(flagTarget), envTarget, config.FileName)
		}
		all = []string{""} // the implicit target
	}
	for _, n := range selected {
		if !slices.Contains(all, n) {
			err := fmt.Errorf("no target %s in %s", visible.Quote(n), config.FileName)
			if best := suggest.Closest(n, all); best != "" {
				return nil, withHint(err, "did you mean %q? the targets are: %s", best, strings.Join(all, ", "))
			}
			return nil, withHint(err, "the targets are: %s", strings.Join(all, ", "))
		}
	}
	if len(selected) == 0 {
		selected = all
	}
	var out []targetSettings
	var own, ownToken []string // the targets selected with an address, a token of their own
	for _, n := range all {
		if !slices.Contains(selected, n) {
			continue
		}
		tc, _ := cfg.ForTarget(n) // cfg itself for the implicit target
		ft, _ := cfg.Target(n)    // the zero Target for the implicit target
		t := targetSettings{Name: n, Space: tc.Space, TokenEnv: envToken, TokenFile: f.tokenFile, Policy: reconcile.PolicyFromConfig(tc), Notify: tc.Notify}
		if ft.TokenEnv != "" {
			t.TokenEnv = ft.TokenEnv
			ownToken = append(ownToken, n)
		}
		if ft.BaseURL != "" {
			// A target's own address is not the shared one that
			// SKILLSYNC_BASE_URL stands for: a variable set for the
			// whole job must not send this target's token elsewhere.
			// Only --base-url, for this one target, overrides it.
			own = append(own, n)
			t.BaseURL, t.BaseURLFrom = ft.BaseURL, config.FileName
			if f.baseURL != "" {
				t.BaseURL, t.BaseURLFrom = f.baseURL, "--"+string(flagBaseURL)
			}
		} else {
			t.BaseURL, t.BaseURLFrom = pick(flagBaseURL, f.baseURL, envBaseURL, getenv, tc.BaseURL)
			if t.BaseURLFrom == "--"+string(flagBaseURL) && getenv(envBaseURL) == t.BaseURL {
				t.BaseURLFrom = envBaseURL // the same value either way
			}
		}
		out = append(out, t)
	}
	if len(out) > 1 {
		// One address or one token for several targets that each name
		// their own would send one target's token to another's space.
		if f.baseURL != "" && len(own) > 0 {
			return out, withHint(fmt.Errorf("--%s names one address, and %d targets are selected, %s with an address of its own (%s)", flagBaseURL, len(out), names.Plural(len(own), "one", "some"), strings.Join(own, ", ")),
				"pick one target with --%s NAME, or leave out --%s: each target's address is in %s", flagTarget, flagBaseURL, config.FileName)
		}
		if f.tokenFile != "" && len(ownToken) > 0 {
			return out, withHint(fmt.Errorf("--%s names one token, and %d targets are selected, %s with a token of its own (tokenEnv of %s)", flagTokenFile, len(out), names.Plural(len(ownToken), "one", "some"), strings.Join(ownToken, ", ")),
				"pick one target with --%s NAME, or leave out --%s and set each target's tokenEnv variable", flagTarget, flagTokenFile)
		}
	}
	if space, spaceFrom := pick(flagSpace, f.space, envSpace, getenv, ""); space != "" {
		if len(out) > 1 {
			return out, withHint(fmt.Errorf("%s %s names one space, and %d targets are selected (%s)", spaceFrom, space, len(out), strings.Join(targetNames(out), ", ")),
				"pick one target with --%s NAME, or leave out %s: each target names its space in %s", flagTarget, spaceFrom, config.FileName)
		}
		out[0].Space = space
	}
	bySpace := map[string]targetSettings{} // by space and address key
	for _, t := range out {
		if err := t.check(); err != nil {
			return out, err
		}
		// --base-url or SKILLSYNC_BASE_URL may send two targets that
		// skillsync.yaml keeps apart to one space.
		where := t.Space + "\x00" + config.AddressKey(t.BaseURL)
		if o, dup := bySpace[where]; dup {
			return out, withHint(fmt.Errorf("targets %s and %s are both space %s at %s: they would undo each other's changes", o.Name, t.Name, t.Space, t.BaseURL),
				"the address came from %s; select one of them with --%s, or leave out %s", t.BaseURLFrom, flagTarget, t.BaseURLFrom)
		}
		bySpace[where] = t
	}
	return out, nil
}

// check refuses the settings of a target that has no service address or
// no valid space id; the error names the target, when it has a name.
func (t targetSettings) check() error {
	switch {
	case t.BaseURL == "" && t.Name == "":
		return withHint(errors.New("no service address"), "set baseURL in %s, SKILLSYNC_BASE_URL, or pass --base-url https://tenant.example.com", config.FileName)
	case t.BaseURL == "":
		return withHint(fmt.Errorf("target %s: no service address", t.Name),
			"set baseURL in %s (at the top, or in the target), SKILLSYNC_BASE_URL, or pass --base-url https://tenant.example.com", config.FileName)
	case t.Space == "" && t.Name == "":
		return withHint(errors.New("no space"), "set space in %s, SKILLSYNC_SPACE, or pass --space ID", config.FileName)
	}
	if err := spec.CheckShortSpaceID(t.Space); err != nil {
		if t.Name != "" {
			err = fmt.Errorf("target %s: %w", t.Name, err)
		}
		return withHint(err, "skillsync needs a space id of 2 to 6 characters (the API lists skills only for those); check --space, SKILLSYNC_SPACE and %s", config.FileName)
	}
	return nil
}

// registerTokens makes every token the process may send a secret that no
// output shows, named by where it came from, as soon as skillsync.yaml is
// read: each target's (selected or not, as any text may quote it) and
// tokenFile's, if any. run registers SKILLSYNC_TOKEN and the CI tokens. A
// short value is registered once a request uses it ([readToken]).
func registerTokens(secrets *redact.Set, cfg config.Config, getenv func(string) string, tokenFile string) {
	add := func(name, value string) {
		if v := strings.TrimSpace(value); len(v) >= redact.ShortSecret {
			secrets.Add(name, v)
		}
	}
	for _, t := range cfg.Targets {
		if t.TokenEnv != "" {
			add(t.TokenEnv, getenv(t.TokenEnv))
		}
	}
	if tokenFile != "" {
		if tok, err := readTokenFile(tokenFile); err == nil {
			add(tokenFileName(tokenFile), tok)
		}
	}
}

// gitAuth gives the hosts of vendoring's git sources their tokens, from
// the environment; each token is a secret, under its variable's name,
// before it is first sent.
func gitAuth(e *env) vendored.Auth {
	return vendored.Auth{Getenv: e.getenv, Using: e.ui.secrets.Add}
}

// readToken reads t's bearer token, from its file, else its variable, and
// registers it as a secret that no output may show.
func readToken(ui *ui, t targetSettings, getenv func(string) string) (string, error) {
	name, tok := t.TokenEnv, strings.TrimSpace(getenv(t.TokenEnv))
	if f := t.TokenFile; f != "" {
		var err error
		if tok, err = readTokenFile(f); err != nil {
			return "", err
		}
		if tok == "" {
			return "", withHint(fmt.Errorf("token file %s is empty", f), "write the token into it, or set %s", t.TokenEnv)
		}
		name = tokenFileName(f)
	}
	if tok == "" && t.Name != "" {
		// The variable is named, never a value.
		return "", withHint(fmt.Errorf("no token: %s is not set", t.TokenEnv),
			"set %s to an access token of %s (or, with this one target selected, pass --token-file FILE); the token is never read from skillsync.yaml", t.TokenEnv, t.where())
	}
	if tok == "" {
		return "", withHint(errors.New("no token"), "set %s to an access token of the space, or pass --token-file FILE; the token is never read from skillsync.yaml", t.TokenEnv)
	}
	ui.secrets.Add(name, tok)
	return tok, nil
}

// maxTokenFileBytes bounds a token file: a token is a line, not a file.
const maxTokenFileBytes = 64 << 10

// readTokenFile reads the token in the regular file f: its one line, with
// no byte order mark nor surrounding space; "" when f holds only space.
func readTokenFile(f string) (string, error) {
	b, err := bounded.ReadFile(f, maxTokenFileBytes)
	if err != nil {
		return "", withHint(fmt.Errorf("reading token file %s: %w", f, err), "--%s must name a regular file holding the token alone", flagTokenFile)
	}
	tok := strings.TrimSpace(strings.TrimPrefix(string(b), "\ufeff"))
	if n := strings.Count(tok, "\n") + 1; n > 1 {
		// The lines are never shown: one of them is likely the token.
		return "", withHint(fmt.Errorf("token file %s holds %d lines; it must hold the token alone, on one line", f, n),
			"write the token alone into it, on one line")
	}
	return tok, nil
}

// tokenFileName names the token of the file f among the secrets.
func tokenFileName(f string) string { return "--" + string(flagTokenFile) + " " + f }

// newClient builds the API client of target t with its token and, with
// --debug, a log of every request.
func newClient(e *env, cs connSettings, t targetSettings) (*remote.Client, error) {
	ui := e.ui
	tok, err := readToken(ui, t, cs.getenv)
	if err != nil {
		return nil, err
	}
	ui.setService(t.BaseURL, t.BaseURLFrom)
	opts := remote.Options{
		BaseURL:   t.BaseURL,
		Token:     tok,
		UserAgent: "skillsync/" + version,
		Timeout:   cs.timeout,
	}
	wait := newWaitReport(ui, t.BaseURL, cs.timeout)
	opts.HTTPClient = &http.Client{Transport: wait.transport()}
	opts.OnRequest = func(r remote.RequestInfo) {
		wait.attempted(r)
		if !cs.debug {
			return
		}
		status := fmt.Sprint(r.Status)
		if r.Err != nil && r.Status == 0 {
			status = "error: " + r.Err.Error()
		}
		ui.logf("debug: %s %s -> %s (%s, attempt %d) Authorization: Bearer [REDACTED]", r.Method, r.Path, status, r.Duration.Round(time.Millisecond), r.Attempt)
	}
	if e.instantRetries {
		opts.Sleep = func(ctx context.Context, _ time.Duration) error { return ctx.Err() }
	}
	cl, err := remote.New(opts)
	if err != nil {
		if errors.Is(err, remote.ErrPlainHTTP) {
			return nil, withHint(err, "plain http would send the token unencrypted; use https:// (http:// is allowed only for loopback, e.g. the emulator)")
		}
		return nil, withHint(err, "check --base-url, SKILLSYNC_BASE_URL or baseURL in skillsync.yaml")
	}
	return cl, nil
}

// connect builds the client of target t for a command that runs requests
// side by side, once cs's parallelism is in range.
func connect(e *env, cs connSettings, t targetSettings) (*remote.Client, error) {
	if err := cs.checkParallelism(); err != nil {
		return nil, err
	}
	return newClient(e, cs, t)
}

// findRepo locates the repository root: dir (from --dir or SKILLSYNC_DIR),
// else the nearest folder upward holding skillsync.yaml, never looking
// above the root of the git work tree (so a stray skillsync.yaml in a
// parent folder is not picked up).
func findRepo(dir string) (string, error) {
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", err
		}
		if _, err := os.Stat(filepath.Join(abs, config.FileName)); err != nil {
			return "", withHint(fmt.Errorf("%s: no %s here", dir, config.FileName), "create %s at the repository root, or point --dir at the folder that has one", config.FileName)
		}
		return abs, nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root, err := config.FindRoot(wd)
	if errors.Is(err, config.ErrNotFound) {
		return "", withHint(err, "run skillsync inside a skills repository, pass --dir, or start one from a space with: skillsync pull --base-url https://tenant.example.com --space ID")
	}
	return root, err
}

// optionalConfig is the skillsync.yaml of the repository at dir, or found
// upward, for the commands that also work outside a repository (agents,
// assets, restore): the defaults and root "" when there is none, unless
// dir names a folder, which must then hold one.
func optionalConfig(dir string) (root string, cfg config.Config, err error) {
	root, err = findRepo(dir)
	switch {
	case err == nil:
		cfg, err = config.Read(root)
		return root, cfg, err
	case dir != "":
		return "", cfg, err
	}
	return "", config.Default(), nil
}
