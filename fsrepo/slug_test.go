package fsrepo_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// slugNames are skill names whose slugs take care: case, runs of
// punctuation and spaces, digits, letters outside a-z, none of a-z at all.
var slugNames = []string{
	"PDF Processing", "sql-style", "A", "x1", "Hello  World", "Test-Driven Development TDD",
	"Café crème 2", "Ünïcödé Names", "日本語", "Ελληνικά", "München 2024", "a - b", "1-2-3", "K8s Ops",
}

// TestSlugifyAgreesWithEmulator: the slug validate expects of a folder is
// the one the emulator, the model of the service, makes from the same
// name when the skill is created.
func TestSlugifyAgreesWithEmulator(t *testing.T) {
	e := remotetest.New()
	for i, name := range slugNames {
		space := "sp" + string(rune('a'+i))
		e.AddSpace(remotetest.Space{ID: space})
		got := e.AddSkill(space, remotetest.SkillSeed{Name: name, Description: "d", Instructions: "x\n", Enabled: true})
		if want := fsrepo.Slugify(name); got.Slug != want {
			t.Errorf("name %q: the emulator makes slug %q, fsrepo.Slugify %q", name, got.Slug, want)
		}
	}
}

// TestSlugMismatchSaysWhatToDo: a folder not named by the slug its name
// gives draws a warning that says the slug the service would make, and
// that a new skill gets its slug when it is created in the app.
func TestSlugMismatchSaysWhatToDo(t *testing.T) {
	root := t.TempDir()
	for slug, name := range map[string]string{"pdf-tools": "PDF Processing", "kana": "日本語", "pdf-processing": "PDF Processing",
		"pdf-processing-2": "PDF Processing"} {
		p := filepath.Join(root, "skills", slug, skillmd.FileName)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: "+name+"\ndescription: d\n---\nBody.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte("space: ab12\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds, err := fsrepo.Load(context.Background(), root, fsrepo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]diag.Diagnostic{}
	for _, d := range ds {
		if d.Code == "slug-mismatch" {
			got[d.Path] = d
		}
	}
	if len(got) != 2 {
		t.Fatalf("slug-mismatch warnings %v, want two", ds)
	}
	for path, slug := range map[string]string{"skills/pdf-tools/SKILL.md": "pdf-processing", "skills/kana/SKILL.md": "skill"} {
		d := got[path]
		text := d.Message + "\n" + d.Hint
		if d.Severity != diag.SeverityWarning || !strings.Contains(d.Message, `"`+slug+`"`) ||
			!strings.Contains(text, "created in the app") {
			t.Errorf("%s: %q, hint %q; want the slug %q and how a new skill gets its slug", path, d.Message, d.Hint, slug)
		}
	}
}
