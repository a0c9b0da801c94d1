// Package remote is the typed HTTP client of the service described in
// space-api.md: the skills, agents and assets of a space.
//
// A [Client], made by [New] from [Options], has one method per endpoint
// ([Client.ListSkills], [Client.GetSkill], [Client.UpdateSkill],
// [Client.EnableSkill], [Client.DisableSkill], [Client.GetSkillFile],
// [Client.ListAgents], [Client.PublishAgent], [Client.DeleteAgent],
// [Client.GetAsset]) and two that read whole lists, several pages at once
// ([Client.StreamSkills], [Client.StreamAgents]), re-listing when the
// order shifts under them while they page. Every argument is checked against
// the service's rules before any request, failing with a [*spec.RuleError] that
// names the field. Every endpoint is idempotent, so each request is retried
// with jittered exponential backoff on 429, 500, 502, 503, 504 and network errors,
// honouring Retry-After. A status the service reports as a failure becomes an
// [*Error], which callers inspect with [IsNotFound], [IsConflict] and the
// other predicates. The bearer token never appears in an error, in a
// [RequestInfo] or in the printed form of an [Options] or a [Client], and it
// is never sent to another host: the client refuses cross-host redirects,
// and plain http except on loopback.
//
// The emulator in package remotetest serves the same interface in memory.
package remote
