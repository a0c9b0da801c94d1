package fsrepo

import (
	"context"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
)

// TestUnaddressableFileWarns: a supporting file whose path the files
// endpoint cannot take ("with spaces.cast") is one the API neither reads
// nor writes. It is no reason to refuse the skill: a warning says it
// cannot be compared, and the skill stays valid.
func TestUnaddressableFileWarns(t *testing.T) {
	root := t.TempDir()
	writeAll(t, root, map[string]string{
		"skills/demo/SKILL.md":                        "---\nname: Demo\ndescription: d\n---\nBody.\n",
		"skills/demo/tests/fixtures/with spaces.cast": "{}\n",
	})
	cfg, err := config.Parse(nil)
	if err != nil {
		t.Fatal(err)
	}
	repo, ds, err := loadWorkTree(context.Background(), root, cfg, nil, "", checks{lint: cfg.Lint})
	if err != nil {
		t.Fatal(err)
	}
	if ds.HasErrors() || len(ds) != 1 {
		t.Fatalf("diagnostics %v, want one warning", ds)
	}
	d := ds[0]
	if d.Severity != diag.SeverityWarning || d.Path != "skills/demo/tests/fixtures/with spaces.cast" ||
		!strings.Contains(d.Message, "cannot be compared") {
		t.Errorf("diagnostic %v, want a warning that the file cannot be compared", d)
	}
	if len(repo.Skills) != 1 || repo.Skills[0].Invalid || len(repo.Skills[0].Files) != 1 {
		t.Errorf("skills %+v, want one valid skill holding the file", repo.Skills)
	}
}
