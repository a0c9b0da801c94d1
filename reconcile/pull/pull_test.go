package pull

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/internal/bug"
	"github.com/skillsync/skillsync/reconcile/reconciletest"
)

func pullOptions(t *testing.T) Options {
	return Options{Root: t.TempDir(), Config: config.Default()}
}

// TestPull drives the pull workflow through an in-memory service: what is
// read, what is written, and the report of it.
func TestPull(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	guide := svc.Add("guide", "See [the form](form.md), run scripts/fill.py, and see example/out.txt.\n", false)
	svc.Files[guide.ID] = map[string]string{"form.md": "# Form\n", "scripts/fill.py": "print(1)\n"}
	svc.Add("plain", "Just text.\n", true)
	gone := svc.Add("gone", "x\n", true)
	svc.Hook = func(call string) {
		if call == "GET "+gone.ID {
			svc.Skills = svc.Skills[:2] // deleted between the list and the read
		}
	}

	o := pullOptions(t)
	o.WriteConfig, o.BaseURL = true, "https://tenant.example.com"
	rep, err := Skills(t.Context(), svc, "ab12", o)
	if err != nil {
		t.Fatal(err)
	}
	want := []Skill{
		{Slug: "gone", Dir: "skills/gone", Status: Skipped, Reason: "no longer in the space", SpaceEnabled: true},
		{Slug: "guide", Dir: "skills/guide", Status: Written, Files: []string{"SKILL.md", "form.md", "scripts/fill.py"}},
		{Slug: "plain", Dir: "skills/plain", Status: Written, Files: []string{"SKILL.md"}, SpaceEnabled: true},
	}
	if !reflect.DeepEqual(rep.Skills, want) {
		t.Errorf("skills:\n got %+v\nwant %+v", rep.Skills, want)
	}
	if rep.Summary != (Summary{Pulled: 3, Written: 2, Skipped: 1}) || !rep.ConfigWritten || rep.Unfound != 1 {
		t.Errorf("summary %+v, config written %t, unfound %d", rep.Summary, rep.ConfigWritten, rep.Unfound)
	}
	md, err := os.ReadFile(filepath.Join(o.Root, "skills", "guide", "SKILL.md"))
	if err != nil || !strings.Contains(string(md), "enabled: false") {
		t.Errorf("guide's SKILL.md: %q, %v", md, err)
	}
	if cfg, err := config.Read(o.Root); err != nil || cfg.Space != "ab12" || cfg.BaseURL != o.BaseURL {
		t.Errorf("skillsync.yaml: %+v, %v", cfg, err)
	}

	// Pulled again: nothing to write.
	o.WriteConfig = false
	rep, err = Skills(t.Context(), svc, "ab12", o)
	if err != nil || rep.Summary != (Summary{Pulled: 2, Unchanged: 2}) {
		t.Errorf("second pull: %+v, %v", rep.Summary, err)
	}
}

// TestPullGitControlFile: a space's file linked as .gitignore (whose "*"
// would leave the skill out of git) or .gitattributes is never written:
// pull writes the rest of the skill, and warns of each.
func TestPullGitControlFile(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	sk := svc.Add("guide", "See [ignored](.gitignore), [attributes](docs/.gitattributes) and [notes](notes.md).\n", true)
	svc.Files[sk.ID] = map[string]string{".gitignore": "*\n", "docs/.gitattributes": "*.md binary\n", "notes.md": "notes\n"}
	o := pullOptions(t)
	rep, err := Skills(t.Context(), svc, "ab12", o)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{
		"skills/guide/.gitignore is not written: a file git reads for itself (what it ignores, how it shows a file, its submodules) is never written into a skill folder",
		"skills/guide/docs/.gitattributes is not written: a file git reads for itself (what it ignores, how it shows a file, its submodules) is never written into a skill folder",
	}; !reflect.DeepEqual(rep.Warnings, want) {
		t.Errorf("warnings %q, want %q", rep.Warnings, want)
	}
	if len(rep.Skills) != 1 || !reflect.DeepEqual(rep.Skills[0].Files, []string{"SKILL.md", "notes.md"}) {
		t.Errorf("pulled %+v, want SKILL.md and notes.md written", rep.Skills)
	}
	for _, p := range []string{".gitignore", "docs/.gitattributes"} {
		if _, err := os.Lstat(filepath.Join(o.Root, "skills", "guide", filepath.FromSlash(p))); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s was written: %v", p, err)
		}
	}
}

func TestPullSlugErrors(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	svc.Add("a", "x\n", true)
	twin := svc.Add("b", "x\n", true)
	svc.Add("b", "y\n", true)

	_, err := Skills(t.Context(), svc, "ab12", Options{Slugs: []string{"a", "nope", "zz"}})
	var unknown *UnknownSlugsError
	if !errors.As(err, &unknown) || err.Error() != `no skill with slug "nope", "zz" in space ab12` ||
		unknown.Advice() != "nothing was written; the skills of space ab12 are: a, b" {
		t.Errorf("unknown slugs: %v", err)
	}
	_, err = Skills(t.Context(), svc, "ab12", Options{Slugs: []string{"b"}})
	var shared *SharedSlugsError
	if !errors.As(err, &shared) || !strings.HasPrefix(err.Error(), `2 skills of space ab12 share the slug "b": `+twin.ID+", ") {
		t.Errorf("shared slug: %v", err)
	}
	if w := svc.Writes(); len(w) > 0 {
		t.Errorf("requests past the list: %v", w)
	}
	for _, c := range svc.Calls() {
		if strings.HasPrefix(c, "GET ") {
			t.Errorf("read %s before refusing", c)
		}
	}
}

// TestPullPanicIsAnError: a read that panics fails the pull with a
// *bug.Error, which the CLI reports, rather than ending the process with
// Go's exit code 2; nothing is written.
func TestPullPanicIsAnError(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	s := svc.Add("a", "x\n", true)
	svc.Hook = func(call string) {
		if call == "GET "+s.ID {
			panic("boom")
		}
	}
	o := pullOptions(t)
	_, err := Skills(t.Context(), svc, "ab12", o)
	var be *bug.Error
	if !errors.As(err, &be) || be.Value != "boom" {
		t.Fatalf("Skills = %v, want a *bug.Error", err)
	}
	if _, err := os.Stat(filepath.Join(o.Root, "skills")); !os.IsNotExist(err) {
		t.Errorf("a pull that failed wrote the skills folder: %v", err)
	}
}

// TestPullLeavesOutDevelopmentFiles: files of evals/, excludeFiles and the
// local folder's .skillignore are never asked for, even when the
// instructions link them; pull says why.
func TestPullLeavesOutDevelopmentFiles(t *testing.T) {
	svc := reconciletest.NewService("ab12")
	sk := svc.Add("guide", "See [the form](form.md), [the evals](evals/evals.json), [a draft](drafts/a.md) and [notes](notes.wip.md).\n", true)
	svc.Files[sk.ID] = map[string]string{"form.md": "# Form\n", "evals/evals.json": "{}", "drafts/a.md": "a\n", "notes.wip.md": "n\n"}
	o := pullOptions(t)
	o.Config.ExcludeFiles = []string{"*.wip.md"}
	if err := os.MkdirAll(filepath.Join(o.Root, "skills", "guide"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(o.Root, "skills", "guide", ".skillignore"), []byte("drafts/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Skills(t.Context(), svc, "ab12", o)
	if err != nil {
		t.Fatal(err)
	}
	if got := rep.Skills[0].Files; !reflect.DeepEqual(got, []string{"SKILL.md", "form.md"}) {
		t.Errorf("written %q, want SKILL.md and form.md", got)
	}
	var notRead []string
	for _, n := range rep.Skills[0].NotRead {
		if strings.Contains(n.Reason, "development file") {
			notRead = append(notRead, n.Path)
		}
	}
	sort.Strings(notRead)
	if want := []string{"drafts/a.md", "evals/evals.json", "notes.wip.md"}; !reflect.DeepEqual(notRead, want) {
		t.Errorf("not read as development files: %q, want %q", notRead, want)
	}
	for _, c := range svc.Calls() {
		if strings.Contains(c, "evals") || strings.Contains(c, "drafts") || strings.Contains(c, "wip") {
			t.Errorf("asked the space for %s", c)
		}
	}
}
