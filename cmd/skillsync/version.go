package main

import (
	"runtime"
	"runtime/debug"

	"github.com/urfave/cli/v2"
)

func versionCommand(ui *ui) *cli.Command {
	return &cli.Command{
		Name:  "version",
		Usage: "print the version of skillsync",
		Description: `Example:
   skillsync version

Exit codes: 0.`,
		Action: func(c *cli.Context) error {
			fprintf(ui.stdout, "skillsync %s (%s, %s/%s)\n", buildVersion(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
			return nil
		},
	}
}

// buildVersion is the stamped version, or the module version of a
// `go install ...@vX` build.
func buildVersion() string {
	if version != "dev" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return version
}
