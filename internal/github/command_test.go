package github

import (
	"bytes"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// readBack is what a person reads in a line the guard escaped, and what
// JSON reads back.
var readBack = strings.NewReplacer(`\u003a`, ":", `\u0023`, "#")

// TestCommandGuard: lines of a plan that the runner would obey as
// workflow commands (a fake annotation, a mask, stop-commands, after
// spaces the runner trims) are shown, escaped, and obeyed not at all,
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
		if len(obeyed) > 0 || len(shown) != len(lines) || readBack.Replace(strings.Join(shown, "\n")) != log {
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
	if len(obeyed) > 0 || !slices.Equal(strings.Split(readBack.Replace(strings.Join(shown, "\n")), "\n"), want) {
		t.Errorf("the runner obeys %q and shows\n%s", obeyed, strings.Join(shown, "\n"))
	}
}

// TestCommandGuardInterleaved: the runner reads stdout and stderr apart
// and may interleave their lines anywhere; wherever skillsync's own
// annotation on stderr lands among the guarded lines of stdout, the
// runner obeys it, and no line of the plan.
func TestCommandGuardInterleaved(t *testing.T) {
	var out, errs bytes.Buffer
	gOut, gErr := NewCommandGuard(&out), NewCommandGuard(&errs)
	plan := "Plan: 1 to update.\n::stop-commands::resume-me\n+Say hello. ##[add-mask]evil\n::error title=Approved::all checks passed\nNo more.\n"
	if _, err := gOut.Write([]byte(plan)); err != nil {
		t.Fatal(err)
	}
	own := "::error file=skills/greet/SKILL.md,line=3::hidden text\n"
	if _, err := gErr.Own().Write([]byte(own)); err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(out.String(), "\n") // whole lines, then ""
	for at := 0; at < len(lines); at++ {
		merged := strings.Join(lines[:at], "") + errs.String() + strings.Join(lines[at:], "")
		obeyed, _ := githubtest.RunnerReads(merged)
		if !slices.Equal(obeyed, []string{strings.TrimSuffix(own, "\n")}) {
			t.Errorf("the annotation read after line %d of stdout: the runner obeys %q\n%s", at, obeyed, merged)
		}
	}
}
