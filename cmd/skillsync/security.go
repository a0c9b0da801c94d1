package main

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/lint/sarif"
	"github.com/skillsync/skillsync/reconcile"
)

// judge returns what makes the judge of the security rules for a load of
// a repository configured by cfg: every token the process knows (the
// environment's, each target's, --token-file's) is registered in secrets
// first, so that a skill holding one is a finding naming its variable.
// The judge made is also kept in *made, when made is not nil.
func judge(secrets *redact.Set, getenv func(string) string, tokenFile string, made **lint.Judge) func(config.Config) *lint.Judge {
	return func(cfg config.Config) *lint.Judge {
		registerTokens(secrets, cfg, getenv, tokenFile)
		j := lint.New(lint.Options{Secrets: secrets.Named()})
		if made != nil {
			*made = j
		}
		return j
	}
}

// isFinding reports whether d is a finding of the security rules.
func isFinding(d diag.Diagnostic) bool { return d.Hash != "" }

// planFindings are the findings a plan shows above its changes: those of
// the repository in the skills it changes, and every error among them
// anywhere (which is also the plan's error); and what j finds in the
// space's copy of each skill it changes, unless the repository's copy
// holds the same.
func planFindings(p *reconcile.Plan, skillsDir string, diags diag.Diagnostics, j *lint.Judge) {
	changed := map[string]bool{} // the folders of the skills p changes
	for _, c := range p.Changes {
		if c.Path != "" {
			changed[path.Dir(c.Path)] = true
		}
	}
	var bad []string // the slugs of the skills with an error
	for _, d := range diags {
		if !isFinding(d) {
			continue
		}
		dir := skillDir(skillsDir, d.Path)
		if d.Severity == diag.SeverityError {
			if !slices.Contains(bad, path.Base(dir)) {
				bad = append(bad, path.Base(dir))
			}
		} else if !changed[dir] {
			continue
		}
		p.Findings = append(p.Findings, reconcile.Finding{
			Slug: path.Base(dir), Rule: d.Code, Severity: d.Severity.String(), Path: d.Path, Line: d.Line, Col: d.Col,
			Message: d.Message, Match: d.Match, Decoded: d.Decoded, Hash: d.Hash, Hint: d.Hint})
	}
	if len(bad) > 0 {
		p.Errors = append(p.Errors, reconcile.Problem{Code: reconcile.CodeSecurity, Skills: bad,
			Message: fmt.Sprintf("security rules find errors in %s (listed above)", strings.Join(bad, ", ")),
			Hint:    "remove what they find, or waive a finding in skillsync.yaml if it is intended; 'skillsync validate' lists them offline"})
	}
	if j == nil {
		return
	}
	for _, c := range p.Changes {
		if c.Before.Instructions == nil || c.Unmanaged {
			continue
		}
		ours := map[string]bool{}
		if c.After.Instructions != nil {
			for _, f := range j.Skill([]lint.File{{Path: "SKILL.md", Data: spaceSkillMD(c.After)}}) {
				ours[f.Rule+"\x00"+f.Match] = true
			}
		}
		p2 := c.Path
		if p2 == "" {
			p2 = c.Slug + "/SKILL.md"
		}
		for _, f := range j.Skill([]lint.File{{Path: "SKILL.md", Data: spaceSkillMD(c.Before)}}) {
			if ours[f.Rule+"\x00"+f.Match] {
				continue
			}
			d := f.Diagnostic(path.Dir(p2))
			p.Findings = append(p.Findings, reconcile.Finding{
				Slug: c.Slug, Rule: f.Rule, Severity: d.Severity.String(), InSpace: true, Path: p2, Line: f.Line, Col: f.Col,
				Message: d.Message, Match: f.Match, Decoded: f.Decoded,
				Hint: f.Why() + "; it was typed into the app: applying the repository's copy replaces it, and the journal keeps it"})
		}
	}
}

// skillDir is the skill folder under skillsDir that holds the file p.
func skillDir(skillsDir, p string) string {
	rest := strings.TrimPrefix(p, skillsDir+"/")
	slug, _, _ := strings.Cut(rest, "/")
	return path.Join(skillsDir, slug)
}

// spaceSkillMD is a SKILL.md holding s, as the space keeps it: its name
// and description in the frontmatter, its instructions as the body.
func spaceSkillMD(s reconcile.SkillState) []byte {
	return []byte("---\nname: " + s.Name + "\ndescription: " + s.Description + "\n---\n\n" + *s.Instructions)
}

// writeSARIF writes diags as a SARIF log on stdout, their paths made
// relative to the root of the git checkout holding root, as code
// scanning places them.
func writeSARIF(ui *ui, root string, diags diag.Diagnostics) error {
	tool := sarif.Tool{Name: "skillsync", Version: buildVersion(), InformationURI: "https://github.com/skillsync/skillsync"}
	return writeJSON(ui, sarif.New(tool, diags, checkoutPrefix(root)))
}

// checkoutPrefix is the path of root in the git checkout that holds it,
// slash-separated; "" at its top or outside git.
func checkoutPrefix(root string) string {
	abs, err := filepath.Abs(root)
	if err != nil {
		return ""
	}
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			rel, err := filepath.Rel(dir, abs)
			if err != nil || rel == "." {
				return ""
			}
			return filepath.ToSlash(rel)
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// vendorJudge is the judge of the security rules for vendoring into the
// repository at root: it knows every token of the process and of the
// targets of its skillsync.yaml.
func vendorJudge(e *env, root string) (*lint.Judge, error) {
	cfg, err := config.Read(root)
	if err != nil {
		return nil, err
	}
	return judge(e.ui.secrets, e.getenv, "", nil)(cfg), nil
}
