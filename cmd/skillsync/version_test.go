package main

import (
	"runtime/debug"
	"testing"
)

// TestVersionOf: what `skillsync version` says for each way of building.
func TestVersionOf(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	const rev = "ac5dc4630b28726a8fe536ae015dca20caaefa8a"
	for _, tc := range []struct {
		name    string
		stamped string
		bi      *debug.BuildInfo
		want    string
	}{
		{"release build stamped by ldflags", "v1.2.3", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "v1.2.3"},
		{"go install @v1.2.3", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{"go build in a clone (pseudo-version)", "dev", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261123130717-ac5dc4630b28"}}, "v0.0.0-20261123130717-ac5dc4630b28"},
		{"no module version, a commit", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "false")}, "dev+ac5dc4630b28"},
		{"no module version, uncommitted edits", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs(rev, "true")}, "dev+ac5dc4630b28.dirty"},
		{"go run: nothing recorded", "dev", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, "dev"},
		{"no build info", "dev", nil, "dev"},
	} {
		if got := versionOf(tc.stamped, tc.bi); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
