package render

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
)

// TestReviewNamedAsItsHost: a GitLab note speaks of the merge request, a
// GitHub comment of the pull request, wherever the plan names it.
func TestReviewNamedAsItsHost(t *testing.T) {
	p := splitPlan()
	p.Publish = append(p.Publish, reconcile.AgentPublish{ID: "a1", Name: "Support Bot", Origin: reconcile.OriginPR})
	for _, tc := range []struct {
		host, want, not string
	}{
		{"", "pull request", "this merge request"},
		{"GitLab", "merge request", "this pull request"},
	} {
		var b strings.Builder
		if err := Markdown(&b, p, MarkdownOptions{Host: tc.host}); err != nil {
			t.Fatal(err)
		}
		got := b.String()
		for _, want := range []string{"Changes from this " + tc.want, "added to agents.publish by this " + tc.want} {
			if !strings.Contains(got, want) {
				t.Errorf("host %q: the plan lacks %q:\n%s", tc.host, want, got)
			}
		}
		if strings.Contains(got, tc.not) {
			t.Errorf("host %q: the plan speaks of %s:\n%s", tc.host, tc.not, got)
		}
	}
}
