package fsrepo

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
)

// TestRepoForTarget: a target's desired state leaves out what it
// excludes and takes its enabled states over the SKILL.md's.
func TestRepoForTarget(t *testing.T) {
	cfg, err := config.Parse([]byte("targets:\n  staging: {space: st01}\n  prod:\n    space: pr01\n    exclude: [\"exp-*\"]\n    enabled: {b: false}\n"))
	if err != nil {
		t.Fatal(err)
	}
	repo := &Repo{Config: cfg, Skills: []Skill{{Slug: "a", Enabled: true}, {Slug: "b", Enabled: true}, {Slug: "exp-1", Enabled: true}}}
	staging, prod := repo.ForTarget("staging"), repo.ForTarget("prod")
	if len(staging.Skills) != 3 || !staging.Skills[1].Enabled || staging.Config.Space != "st01" {
		t.Errorf("staging: %+v", staging)
	}
	if len(prod.Skills) != 2 || prod.Skills[0].Slug != "a" || prod.Skills[1].Slug != "b" || prod.Skills[1].Enabled || prod.Config.Space != "pr01" {
		t.Errorf("prod: %+v", prod)
	}
	if !repo.Skills[1].Enabled || len(repo.Skills) != 3 {
		t.Error("ForTarget changed the repository's own skills")
	}
	if repo.ForTarget("") != repo {
		t.Error("the implicit target's state is not the repository's")
	}
}

// TestConfigGlobWarnings: an exclude or ignore glob, or an enabled slug,
// that matches no skill is a warning at its line of skillsync.yaml.
func TestConfigGlobWarnings(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("skills/sql-style/SKILL.md", "---\nname: SQL style\ndescription: How we write SQL.\n---\nUse CTEs.\n")
	write(config.FileName, `ignore:
  - skills: [sql-style, sq-style]
    fields: [enabled]
targets:
  prod:
    space: pr01
    exclude: ["exp-*", "sql-*"]
    enabled: {sql-styl: false}
    ignore:
      - {skills: [nope], fields: [name]}
`)
	_, ds, err := Load(context.Background(), root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Code == "config-unmatched" && d.Severity == diag.SeverityWarning {
			got = append(got, d.String())
		}
	}
	want := []string{
		`skillsync.yaml:2:1: warning: ignore: "sq-style" matches no skill of the repository`,
		`skillsync.yaml:7:1: warning: targets.prod.exclude: "exp-*" matches no skill of the repository`,
		`skillsync.yaml:8:1: warning: targets.prod.enabled: "sql-styl" is no skill of the repository`,
		`skillsync.yaml:10:1: warning: targets.prod.ignore: "nope" matches no skill of the repository`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if ds.HasErrors() {
		t.Errorf("errors: %v", ds)
	}
}

// TestConfigOverrideWarnings: an enabled override that an ignore rule of
// enabled or the target's own exclude makes do nothing is a warning at its
// line, naming the rule's or the exclude's line.
func TestConfigOverrideWarnings(t *testing.T) {
	root := t.TempDir()
	for _, slug := range []string{"a", "b", "c", "e"} {
		p := filepath.Join(root, "skills", slug, skillmd.FileName)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: "+slug+"\ndescription: The skill "+slug+".\n---\nDo it.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := `ignore:
  - skills: [a]
    fields: [enabled]
targets:
  prod:
    space: pr01
    exclude: ["c*"]
    enabled:
      a: false
      b: false
      c: true
      e: false
    ignore:
      - {skills: [b], fields: [name, enabled]}
      - {skills: [e], fields: [name]}
  staging:
    space: st01
    enabled: {b: false}
`
	if err := os.WriteFile(filepath.Join(root, config.FileName), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	_, ds, err := Load(context.Background(), root, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range ds {
		if d.Code == "config-override-unused" && d.Severity == diag.SeverityWarning {
			got = append(got, d.String())
		}
	}
	want := []string{
		`skillsync.yaml:9:1: warning: targets.prod.enabled: the override of "a" does nothing: the ignore rule at line 2 ignores its enabled field`,
		`skillsync.yaml:10:1: warning: targets.prod.enabled: the override of "b" does nothing: the ignore rule at line 14 ignores its enabled field`,
		`skillsync.yaml:11:1: warning: targets.prod.enabled: the override of "c" does nothing: targets.prod.exclude "c*" (line 7) leaves the skill out of the target`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
