package github

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// TestCommandGuard: lines of a plan that the runner would obey as
// workflow commands (a fake annotation, a mask, stop-commands, after
// spaces the runner trims) are shown as they are and obeyed not at all,
// however the writes cut them.
func TestCommandGuard(t *testing.T) {
	lines := []string{
		"Plan: 1 to update, 0 to enable, 0 to disable.",
		"         ::error title=Approved::all security checks passed",
		"        +Say hello. ##[add-mask]evil",
		" \u3000::stop-commands::resume-me",
		"        -::warning::x",
		"\t::group::folded",
		"the end, not ended",
	}
	log := strings.Join(lines, "\n")
	if obeyed, _ := githubtest.RunnerReads(log); len(obeyed) < 2 {
		t.Fatalf("the runner's model obeys %q: it cannot tell", obeyed)
	}
	for _, step := range []int{1, 7, len(log)} {
		var b bytes.Buffer
		g := NewCommandGuard(&b)
		for i := 0; i < len(log); i += step {
			if _, err := g.Write([]byte(log[i:min(i+step, len(log))])); err != nil {
				t.Fatal(err)
			}
		}
		if err := g.Flush(); err != nil {
			t.Fatal(err)
		}
		obeyed, shown := githubtest.RunnerReads(b.String())
		if len(obeyed) > 0 || !slices.Equal(shown, lines) {
			t.Errorf("writes of %d bytes: the runner obeys %q and shows\n%s", step, obeyed, strings.Join(shown, "\n"))
		}
	}
}

// TestCommandGuardCarriageReturn: the runner ends a line at a carriage
// return as at a line feed, so a command after a carriage return in the
// middle of a written line is obeyed no more than one at its start.
func TestCommandGuardCarriageReturn(t *testing.T) {
	log := "Say hello.\r::error title=Approved::all checks passed\n" +
		"        +ok\r  ##[add-mask]evil\n" +
		"the end\r::stop-commands::resume-me"
	if obeyed, _ := githubtest.RunnerReads(log); len(obeyed) < 2 {
		t.Fatalf("the runner's model obeys %q: it cannot tell", obeyed)
	}
	var b bytes.Buffer
	g := NewCommandGuard(&b)
	if _, err := g.Write([]byte(log)); err != nil {
		t.Fatal(err)
	}
	if err := g.Flush(); err != nil {
		t.Fatal(err)
	}
	obeyed, shown := githubtest.RunnerReads(b.String())
	want := []string{"Say hello.", "::error title=Approved::all checks passed", "        +ok", "  ##[add-mask]evil", "the end", "::stop-commands::resume-me"}
	if len(obeyed) > 0 || !slices.Equal(shown, want) {
		t.Errorf("the runner obeys %q and shows\n%s", obeyed, strings.Join(shown, "\n"))
	}
}
