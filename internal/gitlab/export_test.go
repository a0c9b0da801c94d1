package gitlab

import "fmt"

// DriftMarker is the marker of the drift issue of space, as skillsync
// writes it on GitHub and GitLab alike.
func DriftMarker(space string) string {
	return "<!-- skillsync:drift space=" + space + " -->"
}

// SpaceDrift is the DriftIssue of space that skillsync syncs.
func SpaceDrift(space string, drift bool, markdown string) DriftIssue {
	return DriftIssue{
		Marker:   DriftMarker(space),
		Title:    "skillsync: drift in space " + space,
		Drift:    drift,
		Markdown: markdown,
		InSync:   fmt.Sprintf("Space %s is back in sync with git.", space),
	}
}
