package forge_test

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/forge"
)

func TestProposalCheck(t *testing.T) {
	good := func() forge.Proposal {
		return forge.Proposal{
			Base: "main", Head: "skillsync/drift/prod",
			Files:   map[string]forge.FileChange{"skills/a/SKILL.md": {Content: []byte("x")}},
			Message: "skillsync: adopt the app's edits", Title: "skillsync: drift in target prod",
			Body: "report", Marker: "<!-- skillsync:drift-pr space=ab12 target=prod -->",
		}
	}
	tests := []struct {
		name string
		edit func(p *forge.Proposal)
		want string // "" for no error
	}{
		{"good", func(*forge.Proposal) {}, ""},
		{"a deletion", func(p *forge.Proposal) { p.Files["skills/b/SKILL.md"] = forge.FileChange{Delete: true} }, ""},
		{"unicode path and branch", func(p *forge.Proposal) {
			p.Head = "skillsync/vendor/straße"
			p.Files["skills/ü/notes v2.md"] = forge.FileChange{}
		}, ""},
		{"no base", func(p *forge.Proposal) { p.Base = "" }, "no base branch"},
		{"head is base", func(p *forge.Proposal) { p.Head = "main" }, "is the base branch"},
		{"ref, not branch", func(p *forge.Proposal) { p.Head = "refs/heads/x" }, "without refs/heads/"},
		{"dot dot", func(p *forge.Proposal) { p.Head = "skillsync/../main" }, "holds .."},
		{"space", func(p *forge.Proposal) { p.Head = "skillsync/drift prod" }, `holds ' '`},
		{"lock", func(p *forge.Proposal) { p.Head = "skillsync/x.lock" }, "ends with .lock"},
		{"double slash", func(p *forge.Proposal) { p.Head = "skillsync//x" }, "empty part"},
		{"colon", func(p *forge.Proposal) { p.Head = "skillsync:x" }, `holds ':'`},
		{"visible marker", func(p *forge.Proposal) { p.Marker = "skillsync drift" }, "not a hidden HTML comment on one line"},
		{"no title", func(p *forge.Proposal) { p.Title = " " }, "title"},
		{"title on two lines", func(p *forge.Proposal) { p.Title = "a\nb" }, "title"},
		{"no message", func(p *forge.Proposal) { p.Message = "" }, "commit message is empty"},
		{"no files", func(p *forge.Proposal) { p.Files = nil }, "no file changes"},
		{"absolute path", func(p *forge.Proposal) { p.Files["/etc/passwd"] = forge.FileChange{} }, "empty part"},
		{"dot dot path", func(p *forge.Proposal) { p.Files["skills/../x"] = forge.FileChange{} }, ". or .. part"},
		{".git path", func(p *forge.Proposal) { p.Files["skills/.GIT/config"] = forge.FileChange{} }, ".git part"},
		{"backslash path", func(p *forge.Proposal) { p.Files[`skills\a`] = forge.FileChange{} }, `holds '\\'`},
		{"file and folder", func(p *forge.Proposal) { p.Files["skills/a"] = forge.FileChange{Content: []byte("y")} }, "skills/a is changed as a file and as a folder"},
		{"deletion with content", func(p *forge.Proposal) {
			p.Files["skills/a/SKILL.md"] = forge.FileChange{Delete: true, Content: []byte("x")}
		}, "a deletion with content"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := good()
			tt.edit(&p)
			err := p.Check()
			if tt.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func TestWithdrawalCheck(t *testing.T) {
	w := forge.Withdrawal{Head: "skillsync/drift/prod", Marker: "<!-- m -->", Reason: "gone"}
	if err := w.Check(); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []forge.Withdrawal{
		{Head: "", Marker: w.Marker, Reason: "gone"},
		{Head: w.Head, Marker: "m", Reason: "gone"},
		{Head: w.Head, Marker: w.Marker},
	} {
		if err := bad.Check(); err == nil {
			t.Errorf("%+v: no error", bad)
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
