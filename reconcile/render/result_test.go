package render

import (
	"fmt"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/reconcile"
)

func TestRenderResultMarkdown(t *testing.T) {
	r := &reconcile.Result{Space: "ab12", Steps: []reconcile.StepResult{
		{Slug: "a", Action: reconcile.ActionDisable, Outcome: reconcile.OutcomeApplied},
		{Slug: "b|c", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeFailed, Reason: "409 Conflict: a | b\n<script>", Mismatch: "instructions differ"},
		{Slug: "d", Action: reconcile.ActionEnable, Outcome: reconcile.OutcomeSkipped, Reason: "the disable of b failed"},
	}}
	var b strings.Builder
	if err := ResultMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	want := "### skillsync apply to space `ab12`\n\n" +
		"**Apply: 1 applied, 1 failed, 1 skipped.**\n\n" +
		"> [!CAUTION]\n> The space does not match the plan: see the failed and skipped steps below, then plan again.\n\n" +
		"| | Skill | Action | Outcome | Reason |\n|:-:|---|---|---|---|\n" +
		"| ✓ | `a` | disable | applied |  |\n" +
		"| ✗ | `b\\|c` | update | failed | 409 Conflict: a `\\| b <script>` instructions differ |\n" +
		"| – | `d` | enable | skipped | the disable of b failed |\n"
	if got := b.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestRenderResultMarkdownAccepted: a write the service accepted but does
// not show yet is not ticked as done in the comment.
func TestRenderResultMarkdownAccepted(t *testing.T) {
	r := &reconcile.Result{Space: "ab12", Steps: []reconcile.StepResult{
		{Slug: "a", Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeAccepted, Reason: "accepted by the service, not visible yet"},
	}}
	var b strings.Builder
	if err := ResultMarkdown(&b, r, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if row := "| … | `a` | update | accepted | accepted by the service, not visible yet |\n"; !strings.Contains(b.String(), row) {
		t.Errorf("want the row %q in:\n%s", row, b.String())
	}
}

func TestRenderResultMarkdownStaysUnderLimit(t *testing.T) {
	r := &reconcile.Result{Space: "ab12"}
	for i := range 5000 {
		r.Steps = append(r.Steps, reconcile.StepResult{Slug: fmt.Sprintf("skill-%04d", i), Action: reconcile.ActionUpdate, Outcome: reconcile.OutcomeFailed, Reason: strings.Repeat("x", 100)})
	}
	var b strings.Builder
	if err := ResultMarkdown(&b, r, MarkdownOptions{MaxLen: 65536}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if len(md) > 65536 {
		t.Errorf("%d bytes, over the limit of 65,536", len(md))
	}
	if !strings.Contains(md, "**Apply: 0 applied, 5000 failed, 0 skipped.**") || !strings.Contains(md, "more steps, cut to fit") {
		t.Errorf("the counts or the cut note are missing:\n%s", md[len(md)-300:])
	}
}

func TestRenderResultMarkdownInterrupted(t *testing.T) {
	r := &reconcile.Result{Space: "ab12", Interrupted: true, Steps: []reconcile.StepResult{{Slug: "a", Action: reconcile.ActionEnable, Outcome: reconcile.OutcomeSkipped, Reason: "interrupted"}}}
	var b strings.Builder
	ResultMarkdown(&b, r, MarkdownOptions{})
	if !strings.Contains(b.String(), "Apply was interrupted") {
		t.Errorf("no word of the interrupt:\n%s", b.String())
	}
}

func TestRenderFailureMarkdown(t *testing.T) {
	var problems []string
	for i := range 3000 {
		problems = append(problems, fmt.Sprintf("skills/s%04d/SKILL.md:2:7: error: name must begin with a letter or digit `x` | y", i))
	}
	var b strings.Builder
	if err := FailureMarkdown(&b, "ab12", "", "the repository has 3000 validation error(s)", "fix them", problems, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	if len(md) > defaultMarkdownMaxLen {
		t.Errorf("%d bytes, over %d", len(md), defaultMarkdownMaxLen)
	}
	for _, want := range []string{
		MarkdownMarker("ab12", "") + "\n### skillsync plan for space `ab12`\n\n",
		"> [!CAUTION]\n> **No plan could be made:** the repository has 3000 validation error(s)\n>\n> fix them\n",
		"- `` skills/s0000/SKILL.md:2:7: error: name must begin with a letter or digit `x` | y ``\n",
		"more problems, cut",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("lacks %q", want)
		}
	}
}
