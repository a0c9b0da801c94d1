package main

import (
	"io"
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

func versionCommand(e *env) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version of skillsync",
		Description: `Example:
   skillsync version

Exit codes: 0.`,
		Action: func(c *cli.Context) error {
			printVersion(e.ui.stdout)
			return nil
		},
	}
}

// printVersion writes the version line of skillsync version and
// skillsync --version.
func printVersion(w io.Writer) {
	fprintf(w, "skillsync %s (%s, %s/%s)\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
}

// buildVersion is the stamped version, else the module version of the
// build (`go install ...@vX`, or the pseudo-version go derives from git in
// a clone), else "dev" with the commit when the build recorded one.
func buildVersion() string {
	bi, _ := debug.ReadBuildInfo()
	return versionOf(version, bi)
}

// versionOf is buildVersion for a stamped version and build info (nil when
// there is none).
func versionOf(stamped string, bi *debug.BuildInfo) string {
	if stamped != "dev" || bi == nil {
		return stamped
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) < 12 {
		return stamped
	}
	v := stamped + "+" + rev[:12]
	if modified == "true" {
		v += ".dirty"
	}
	return v
}
