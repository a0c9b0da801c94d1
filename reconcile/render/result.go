package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/skillsync/skillsync/reconcile"
)

// ResultLine is the closing line of an apply: "Apply: 3 applied, 1 failed,
// 0 skipped.".
func ResultLine(r *reconcile.Result) string {
	n := r.Counts()
	if n.Accepted > 0 {
		return fmt.Sprintf("Apply: %d applied, %d failed, %d skipped, %d accepted not visible yet.", n.Applied, n.Failed, n.Skipped, n.Accepted)
	}
	return fmt.Sprintf("Apply: %d applied, %d failed, %d skipped.", n.Applied, n.Failed, n.Skipped)
}

// ResultMarkdown writes r for a CI job summary: a heading, the
// [ResultLine] in bold, a caution when the space does not match the plan,
// and one table row per step with the reason of every failure or skip. It
// stays under o.MaxLen bytes like [Markdown]: rows that do not fit are
// counted in a note, the heading and counts never cut.
func ResultMarkdown(w io.Writer, r *reconcile.Result, o MarkdownOptions) error {
	m := &mdWriter{limit: o.maxLen() - mdReserve}
	m.must("### skillsync apply to space " + CodeSpan(r.Space) + "\n\n")
	m.must("**" + ResultLine(r) + "**\n\n")
	switch {
	case r.JournalError != "":
		m.must("> [!CAUTION]\n> Writing the journal failed, so apply stopped: " + MarkdownText(r.JournalError) + "\n\n")
	case r.Interrupted:
		m.must("> [!WARNING]\n> Apply was interrupted: the steps not started were skipped. Run apply again to finish.\n\n")
	case r.Failed():
		m.must("> [!CAUTION]\n> The space does not match the plan: see the failed and skipped steps below, then plan again.\n\n")
	}
	if len(r.Steps) == 0 {
		return writeLines(w, m.b.String())
	}
	m.must("| | Skill | Action | Outcome | Reason |\n|:-:|---|---|---|---|\n")
	// An accepted write is neither done nor failed: it does not show yet.
	symbols := map[reconcile.Outcome]string{
		reconcile.OutcomeApplied: "✓", reconcile.OutcomeFailed: "✗", reconcile.OutcomeSkipped: "–", reconcile.OutcomeAccepted: "…",
	}
	for i, s := range r.Steps {
		reason := strings.TrimSpace(s.Reason + " " + s.Mismatch)
		if !m.add(fmt.Sprintf("| %s | %s | %s | %s | %s |\n", symbols[s.Outcome], cell(CodeSpan(s.Slug)), s.Action, s.Outcome, cell(MarkdownText(reason)))) {
			m.must(fmt.Sprintf("\n_…and %d more steps, cut to fit; the job's log and the apply journal list them all._\n", len(r.Steps)-i))
			break
		}
	}
	return writeLines(w, m.b.String())
}
