package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/diff"
)

const runURL = "https://github.com/acme/skills/actions/runs/123456789"

func renderMD(t *testing.T, p *reconcile.Plan, o MarkdownOptions) string {
	t.Helper()
	var b bytes.Buffer
	if err := Markdown(&b, p, o); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestRenderMarkdownLinksTheRun: a plan cut to fit a comment ends with a
// link to the run whose log holds all of it, and stays under its limit
// with the link; a plan that fits has no such line.
func TestRenderMarkdownLinksTheRun(t *testing.T) {
	link := "[the run that made this plan](" + runURL + ")"
	for _, tc := range []struct {
		name          string
		skills, lines int
		max           int
	}{
		{"a diff cut", 1, 5000, 0},
		{"diffs left out", 3000, 2, 0},
		{"small limit", 5, 200, 8000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := renderMD(t, hugePlan(tc.skills, tc.lines), MarkdownOptions{MaxLen: tc.max, RunURL: runURL})
			limit := tc.max
			if limit == 0 {
				limit = defaultMarkdownMaxLen
			}
			if len(out) > limit {
				t.Errorf("%d bytes, over %d", len(out), limit)
			}
			if !strings.HasSuffix(out, "_All of it is in the log of "+link+"._\n") {
				t.Errorf("the cut plan does not end with a link to the run:\n...%s", out[max(0, len(out)-300):])
			}
			if n := strings.Count(out, runURL); n != 1 {
				t.Errorf("the run is linked %d times, want once", n)
			}
		})
	}
	t.Run("whole plan", func(t *testing.T) {
		with := renderMD(t, reviewPlan(), MarkdownOptions{RunURL: runURL})
		without := renderMD(t, reviewPlan(), MarkdownOptions{})
		if with != without {
			t.Errorf("a plan that fits changed with a run to link:\n%s", diff.Unified("without", "with", without, with))
		}
	})
	t.Run("failure", func(t *testing.T) {
		problems := make([]string, 3000)
		for i := range problems {
			problems[i] = strings.Repeat("x", 40)
		}
		var b bytes.Buffer
		if err := FailureMarkdown(&b, "ab12", "", "invalid", "", problems, MarkdownOptions{RunURL: runURL}); err != nil {
			t.Fatal(err)
		}
		if b.Len() > defaultMarkdownMaxLen || !strings.Contains(b.String(), "more problems") || !strings.HasSuffix(b.String(), link+"._\n") {
			t.Errorf("%d bytes; the failure report cut is not under the limit with a link to the run:\n...%s", b.Len(), b.String()[b.Len()-300:])
		}
	})
}

// TestRenderMarkdownIgnoresUnsafeRunURLs: an address from the CI's
// environment that is not a plain absolute http(s) URL, or that would
// break out of a markdown link, is not written at all.
func TestRenderMarkdownIgnoresUnsafeRunURLs(t *testing.T) {
	p := hugePlan(1, 5000)
	want := renderMD(t, p, MarkdownOptions{})
	for _, u := range []string{
		"javascript:alert(1)",
		"/acme/skills/actions/runs/1",
		"ftp://example.com/run",
		"https://example.com/run)<img src=x onerror=alert(1)>",
		"https://example.com/a b",
		"https://example.com/run\n# heading",
		"https://example.com/run\"onmouseover=\"x",
		"https://" + strings.Repeat("a", 3000) + ".example.com/",
		"https://",
	} {
		if got := renderMD(t, p, MarkdownOptions{RunURL: u}); got != want {
			t.Errorf("RunURL %q changed the plan:\n%s", u, diff.Unified("want", "got", want, got)[:400])
		}
	}
}

// TestRenderMarkdownNamesTheHost: the cut notes name the limit of the
// host the comment is for.
func TestRenderMarkdownNamesTheHost(t *testing.T) {
	out := renderMD(t, hugePlan(3000, 2), MarkdownOptions{Host: "GitLab"})
	if !strings.Contains(out, "under GitLab's size limit") || strings.Contains(out, "GitHub") {
		t.Errorf("the notes do not name GitLab's limit alone:\n...%s", out[len(out)-400:])
	}
	out = renderMD(t, hugePlan(1, 5000), MarkdownOptions{Host: "GitLab", MaxLen: 1_000_000})
	if strings.Contains(out, "size limit") {
		t.Errorf("a plan under GitLab's larger limit was cut")
	}
}

func TestNothingToReview(t *testing.T) {
	warned := noChangePlan()
	warned.Warnings = append(warned.Warnings, reconcile.Problem{Message: "a warning"})
	for _, tc := range []struct {
		name string
		p    *reconcile.Plan
		want bool
	}{
		{"no change", noChangePlan(), true},
		{"changes", reviewPlan(), false},
		{"errors and no change", errorPlan(), false},
		{"a warning and no change", warned, false},
	} {
		if got := NothingToReview(tc.p); got != tc.want {
			t.Errorf("%s: NothingToReview = %t, want %t", tc.name, got, tc.want)
		}
	}
}

func TestRenderNoChangesMarkdown(t *testing.T) {
	p := noChangePlan()
	p.Commit, p.Dirty = "0123456789abcdef0123456789abcdef01234567", true
	var b bytes.Buffer
	if err := NoChangesMarkdown(&b, p, MarkdownOptions{RunURL: runURL}); err != nil {
		t.Fatal(err)
	}
	golden(t, "nochange.short.md", b.Bytes())
	if !strings.HasPrefix(b.String(), MarkdownMarker("ab12", "")+"\n") {
		t.Errorf("no marker line: %q", b.String())
	}

	// No commit (not a git repository), and no run worth linking.
	p.Commit = ""
	b.Reset()
	if err := NoChangesMarkdown(&b, p, MarkdownOptions{Title: "skillsync drift", RunURL: "javascript:x"}); err != nil {
		t.Fatal(err)
	}
	if want := MarkdownMarker("ab12", "") + "\n### skillsync drift for space `ab12`\n\n**No changes.**\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}

	for name, p := range map[string]*reconcile.Plan{"changes": reviewPlan(), "errors": errorPlan()} {
		b.Reset()
		if err := NoChangesMarkdown(&b, p, MarkdownOptions{}); err == nil || b.Len() > 0 {
			t.Errorf("%s: rendered %q as no changes, error %v", name, b.String(), err)
		}
	}
}
