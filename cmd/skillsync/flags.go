package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/skillsync/skillsync/internal/visible"
)

// Every flag is named once, here, by a constant of its type, and read only
// through it: a misspelt name, or a bool flag read as a string, does not
// compile. Flags are read only in the command constructors' actions, which
// turn them into typed options; nothing below sees a *cli.Context.
//
// No flag reads the environment itself (urfave/cli's EnvVars would read
// the process's): the variables are read in settings.go, through the
// getenv that run is given, so that tests need no process environment.

type (
	// stringFlag is the name of a flag with a string value.
	stringFlag string
	// intFlag is the name of a flag with a whole-number value.
	intFlag string
	// boolFlag is the name of a flag that is set or not.
	boolFlag string
	// stringsFlag is the name of a flag that may be given several times.
	stringsFlag string
)

const (
	flagDir        stringFlag = "dir"
	flagRef        stringFlag = "ref"
	flagCache      stringFlag = "cache"
	flagBaseURL    stringFlag = "base-url"
	flagSpace      stringFlag = "space"
	flagTokenFile  stringFlag = "token-file"
	flagFormat     stringFlag = "format"
	flagOut        stringFlag = "out"
	flagBase       stringFlag = "base"
	flagJournal    stringFlag = "journal"
	flagGitHubRepo stringFlag = "github-repo"
	flagAddr       stringFlag = "addr"
	flagSeed       stringFlag = "seed"
	flagToken      stringFlag = "token"
	flagState      stringFlag = "state"
	flagPRBase     stringFlag = "pr-base"
	flagInterval   stringFlag = "interval"
	flagListen     stringFlag = "listen"
	flagTimeout    stringFlag = "timeout"

	flagTarget stringsFlag = "target"

	flagParallelism intFlag = "parallelism"
	flagPR          intFlag = "pr"

	flagNoColor          boolFlag = "no-color"
	flagForce            boolFlag = "force"
	flagDebug            boolFlag = "debug"
	flagDetailedExitcode boolFlag = "detailed-exitcode"
	flagComment          boolFlag = "comment"
	flagIssue            boolFlag = "issue"
	flagAutoApprove      boolFlag = "auto-approve"
	flagYes              boolFlag = "yes"
	flagVersion          boolFlag = "version"
	flagKeepGoing        boolFlag = "keep-going"
	flagChanged          boolFlag = "changed"
	flagPropose          boolFlag = "pr" // drift and vendor update; plan's --pr is flagPR
	flagWatch            boolFlag = "watch"
	flagSelfHeal         boolFlag = "self-heal"
)

// vendor add's flags.
const (
	flagPath stringFlag = "path"
	flagAs   stringFlag = "as"
)

func (f stringFlag) def(usage string) *cli.StringFlag {
	return &cli.StringFlag{Name: string(f), Usage: usage}
}
func (f stringFlag) get(c *cli.Context) string { return c.String(string(f)) }

func (f intFlag) def(usage string) *cli.IntFlag { return &cli.IntFlag{Name: string(f), Usage: usage} }
func (f intFlag) get(c *cli.Context) int        { return c.Int(string(f)) }

// given reports whether the flag is on the command line.
func (f intFlag) given(c *cli.Context) bool { return c.IsSet(string(f)) }

func (f boolFlag) def(usage string) *cli.BoolFlag {
	return &cli.BoolFlag{Name: string(f), Usage: usage}
}
func (f boolFlag) get(c *cli.Context) bool { return c.Bool(string(f)) }

func (f stringsFlag) def(usage string) *cli.StringSliceFlag {
	return &cli.StringSliceFlag{Name: string(f), Usage: usage}
}
func (f stringsFlag) get(c *cli.Context) []string { return c.StringSlice(string(f)) }

// withEnv ends a flag's usage with the variable that sets it when the flag
// is not given, as urfave/cli shows its EnvVars.
func withEnv(usage, env string) string { return usage + " [$" + env + "]" }

// Shared flags, built per command so no state is shared between runs
// (urfave/cli keeps state in flag values).

func dirFlag() cli.Flag {
	return flagDir.def(withEnv("repository root (default: the nearest folder upward holding skillsync.yaml, not above the git root)", envDir))
}

// formatFlag is --format, taking one of formats, the first by default. A
// value the command does not write is refused before the command runs.
func formatFlag(formats ...string) cli.Flag {
	f := flagFormat.def("output format: " + strings.Join(formats, ", "))
	f.Value = formats[0]
	f.Action = func(_ *cli.Context, v string) error {
		if slices.Contains(formats, v) {
			return nil
		}
		return withHint(fmt.Errorf("unknown --format %s", visible.Quote(v)), "use one of: %s", strings.Join(formats, ", "))
	}
	return choiceFlag{f, formats}
}

// choiceFlag is a string flag that takes one of a few values, which shell
// completion offers after the flag.
type choiceFlag struct {
	*cli.StringFlag
	choices []string
}

func noColorFlag() cli.Flag {
	return flagNoColor.def("never colour the output (also NO_COLOR; FORCE_COLOR or CLICOLOR_FORCE colour a pipe)")
}

// remoteFlags are the flags of every command that talks to a space, for
// one target or several; see [readConnFlags].
func remoteFlags() []cli.Flag {
	return remoteFlagsFor(withEnv("target of skillsync.yaml to work on (repeat, or comma-separate, for several; default: all, in file order)", envTarget))
}

// oneTargetRemoteFlags are [remoteFlags] for a command that works on one
// space (pull, agents, assets, restore): its --target takes one name.
func oneTargetRemoteFlags() []cli.Flag {
	return remoteFlagsFor(withEnv("the target of skillsync.yaml to work on: one name, needed when it has several targets", envTarget))
}

func remoteFlagsFor(targetUsage string) []cli.Flag {
	par := flagParallelism.def(withEnv("requests in flight at once", envParallelism))
	par.Value = defaultParallelism
	return []cli.Flag{
		flagTarget.def(targetUsage),
		flagBaseURL.def(withEnv("service address, https://... (or http:// on loopback)", envBaseURL)),
		flagSpace.def(withEnv("space id", envSpace)),
		flagTokenFile.def("file holding the bearer token, for every target selected (default: each target's tokenEnv, else $" + envToken + ")"),
		par,
		flagTimeout.def(withEnv("how long each request waits for the service's answer before it is retried, such as 10s or 2m (default 30s; a request is tried 5 times)", envTimeout)),
		flagDebug.def("log every request (method, path, status, time, attempt) to stderr"),
	}
}

// planFlags are the flags of every command that plans: plan, apply, drift;
// see [readPlanning].
func planFlags() []cli.Flag {
	return []cli.Flag{
		dirFlag(),
		noColorFlag(),
		flagRef.def("plan from a git revision (branch, tag, SHA, HEAD~1) instead of the working tree"),
		flagForce.def("allow disabling more than maxDisablePercent of the managed skills"),
		flagCache.def(withEnv("keep skills read from the space in `DIR` and skip reading again those whose updatedAt has not moved (for CI caches)", envCache)),
	}
}

// githubRepoFlag names the repository of the comment or issue when the job
// does not (GITHUB_REPOSITORY), as when trying it from a laptop.
func githubRepoFlag() cli.Flag {
	return flagGitHubRepo.def("GitHub repository `owner/name` of the comment or issue (default: GITHUB_REPOSITORY)")
}

// connFlags are the [remoteFlags] as given on the command line.
type connFlags struct {
	targets                   []string // --target, each given
	baseURL, space, tokenFile string
	parallelism               int
	parallelismGiven          bool
	timeout                   string // --timeout, "" when not given
	debug                     bool
}

func readConnFlags(c *cli.Context) connFlags {
	return connFlags{
		targets:          flagTarget.get(c),
		baseURL:          flagBaseURL.get(c),
		space:            flagSpace.get(c),
		tokenFile:        flagTokenFile.get(c),
		parallelism:      flagParallelism.get(c),
		parallelismGiven: flagParallelism.given(c),
		timeout:          flagTimeout.get(c),
		debug:            flagDebug.get(c),
	}
}

// readGitHub reads the flags of plan --comment and drift --issue.
func readGitHub(c *cli.Context) githubOptions {
	return githubOptions{
		comment: flagComment.get(c),
		issue:   flagIssue.get(c),
		repo:    flagGitHubRepo.get(c),
		pr:      flagPR.get(c),
		prGiven: flagPR.given(c),
	}
}

// readPlanning reads the [planFlags] and [remoteFlags] of c.
func readPlanning(c *cli.Context, e *env) (planningOptions, error) {
	cs, err := resolveConn(readConnFlags(c), e)
	if err != nil {
		return planningOptions{}, err
	}
	cache, _ := pick(flagCache, flagCache.get(c), envCache, e.getenv, "")
	return planningOptions{
		dir:   resolveDir(flagDir.get(c), e.getenv),
		ref:   flagRef.get(c),
		force: flagForce.get(c),
		cache: cache,
		color: useColor(flagNoColor.get(c), e.getenv, e.ui),
		conn:  cs,
	}, nil
}

// readAgents reads the flags of the agents and assets commands: --dir and
// the [remoteFlags].
func readAgents(c *cli.Context, e *env) (agentsOptions, error) {
	cs, err := resolveConn(readConnFlags(c), e)
	return agentsOptions{dir: resolveDir(flagDir.get(c), e.getenv), conn: cs}, err
}
