// Package config is skillsync.yaml: the [Config] a repository declares, its
// targets ([Target]) and ignore rules ([IgnoreRule]). [Read] finds, reads
// and checks the file, reporting a problem as an [Error] that names
// its line; [SetTargetEnabled] edits it byte for byte (comments and order
// kept) and [Write] writes a new one; [Schema] is its JSON Schema.
//
// It knows nothing of skill folders: package fsrepo loads those and applies
// a target's configuration to them.
package config
