package forge_test

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/forge"
)

func TestProposalCheck(t *testing.T) {
	p := forge.Proposal{Base: "main", Head: "skillsync/drift/prod"}
	if err := p.Check(); err != nil {
		t.Errorf("error %v, want none", err)
	}
	p.Head = "main"
	if err := p.Check(); err == nil || !strings.Contains(err.Error(), "is the base branch") {
		t.Errorf("head is base: error %v", err)
	}
}

// TestCheckBranch: --pr-base is checked by git's rules before any request.
func TestCheckBranch(t *testing.T) {
	for name, want := range map[string]string{
		"main":                    "",
		"skillsync/vendor/straße": "",
		"":                        "no base branch",
		"refs/heads/x":            "without refs/heads/",
		"skillsync/../main":       "holds ..",
		"skillsync/drift prod":    `holds ' '`,
		"skillsync/x.lock":        "ends with .lock",
		"skillsync//x":            "empty part",
		"skillsync:x":             `holds ':'`,
	} {
		err := forge.CheckBranch("base", name)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckBranch(%q) = %v, want %q", name, err, want)
		}
	}
}

func TestCutTitle(t *testing.T) {
	if got := forge.CutTitle("short", 10); got != "short" {
		t.Errorf("CutTitle = %q", got)
	}
	got := forge.CutTitle(strings.Repeat("ü", 300), 255)
	if n := len([]rune(got)); n != 255 || !strings.HasSuffix(got, "…") {
		t.Errorf("cut title is %d characters, ends %q; want 255 ending with …", n, got[len(got)-6:])
	}
}
