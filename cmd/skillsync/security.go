package main

import (
	"github.com/skillsync/skillsync/fsrepo/config"
	"github.com/skillsync/skillsync/lint"
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
