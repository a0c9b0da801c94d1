package main

import (
	"os"
	"path/filepath"

	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/lint"
	"github.com/skillsync/skillsync/lint/sarif"
)

// judge returns what makes the judge of the security rules for a load of
// a repository configured by cfg: every token the process knows (the
// environment's, each target's, --token-file's) is registered first, so
// that a skill holding one is a finding naming its variable.
func judge(e *env, tokenFile string) func(config.Config) (*lint.Judge, error) {
	return func(cfg config.Config) (*lint.Judge, error) {
		registerTokens(e.ui.secrets, cfg, e.getenv, tokenFile)
		return lint.New(lint.Options{Secrets: e.ui.secrets.Named()})
	}
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
