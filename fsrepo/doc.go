// Package fsrepo reads the desired state of a space from a skills repository:
// the [config.Config] in skillsync.yaml and one [Skill] per folder of the skills
// folder, from the working tree or from any git revision (through go-git,
// without a checkout). It checks every skill against the service's rules
// (those of package spec) and reports each problem as a [diag.Diagnostic] with
// a file:line:col position, all at once, never just the first; and, at the
// levels the lint section of skillsync.yaml sets, against the rules of [lint.Check]:
// the Agent Skills format's, and rules of a skill's quality. It imports
// nothing that can send a request.
//
// [Load] is the entry point; package skillmd reads each SKILL.md.
package fsrepo
