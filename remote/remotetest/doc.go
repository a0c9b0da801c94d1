// Package remotetest is an emulator of the space service as its HTTP
// interface specification, space-api.md (kept with the project's shared
// design documents, not in this module), describes it:
// an [http.Handler] over in-memory state that implements every endpoint
// and every rule of the specification, so that every test of skillsync
// (and `skillsync emulator`, `skillsync demo`) runs with no tenant at hand.
//
// Where the specification is silent the emulator picks the strictest
// plausible behaviour, so that a tool that works against it works against
// the real service. Those choices are listed below; tests of the package
// pin each of them.
//
// # Setting up
//
// [New] returns an empty [Emulator]; [Emulator.AddSpace], [Emulator.AddToken],
// [Emulator.AddSkill], [Emulator.AddAgent] and [Emulator.AddAsset] fill it,
// or [Emulator.LoadSeed] reads a seed directory. [Emulator.Start] serves it
// on loopback, and package testserver does so for one test. [NewApp] adds
// the app, a web page standing in for the service's app, served with the
// API by [App.Start]. [Emulator.SaveState] and [Emulator.LoadState] keep the
// whole emulator in a file across restarts. [Emulator.EditSkill] and
// [Emulator.EditAgent] simulate edits made in the app behind the tool's
// back; [Emulator.SetFaults] injects latency, errors, rate limits and
// dropped connections; [Emulator.Requests] and [Emulator.MaxActiveSeen]
// let tests assert what a client did; [Emulator.SetOnRequest] runs a hook
// before each request (for instance to shift the list order between two
// page requests).
//
// # Answers where the specification is silent
//
//   - Errors: every error answer has the body
//     {"error":{"code":"...","message":"..."}} with Content-Type
//     application/json; the codes are the Code constants.
//   - Checks run in a fixed order: unknown path 404, wrong method 405 (with
//     an Allow header); missing, malformed or unknown bearer token 401
//     (with WWW-Authenticate); then query, body and path parameters 400
//     (413, 415); then the token's permission 403; the space 404; the
//     skills feature 403; the skill, agent or asset 404; last the
//     endpoint's own rules (409, 422).
//   - Authorization must be exactly one header "Bearer <token>" (the scheme
//     spelled so, case included) naming a token added with AddToken.
//   - 403: a token limited to other spaces (on every endpoint, reads
//     included, whether the space exists or not); a read-only token on
//     every write (update, enable, disable, publish, delete); a space whose
//     skills feature is disabled on every skill write (update, enable,
//     disable; reads still work); an update of a built-in skill (code
//     builtin_skill). Built-in skills are otherwise invisible: get, enable,
//     disable and files answer 404 for them.
//   - Validation failures are 400, never 422: a limit outside 1..100 or
//     written other than as plain decimal digits, a negative or malformed
//     offset, any query parameter but limit and offset on the list
//     endpoints, any query parameter at all elsewhere, a parameter given
//     twice; a spaceId breaking its rule, including a 21-character spaceId
//     anywhere but enable (the spec documents 2 to 6 there); a skillId,
//     agentId or assetId that is not a canonical UUID (looked up exactly as
//     written afterwards, so an upper-case variant of an ID is 404); a file
//     path breaking its rule, read strictly: ".." is refused anywhere in
//     the path ("a..b.md" too), not only as a segment. Path parameters are
//     taken as sent, still percent-encoded, so an escaped character breaks
//     the rule. An offset has no upper bound but must fit in 18 digits.
//   - Update body: a JSON object in valid UTF-8 with only the keys name,
//     description and instructions (exact case, each at most once), each a
//     string (null is refused), or 400; the rules of the remote package
//     apply (lengths counted in UTF-16 code units),
//     and a name's letters and digits must be ASCII: the spec says
//     "letters, digits" and a service's pattern is most likely
//     [A-Za-z0-9], so the emulator refuses "Café" (skillsync validate
//     warns about such names rather than refusing them). A skill added
//     by AddSkill or a seed, which stands for one made in the app, may
//     have letters of any script: a tool must cope with what the service
//     may hold even if it cannot write it. An empty object is
//     accepted. A body sent with a Content-Type other than application/json
//     (charset utf-8 allowed) is 415; a body over 1 MiB is 413.
//   - Endpoints with no body refuse any body with 400, and also refuse
//     Content-Type: application/json with an empty body (as Fastify does
//     by default): send no Content-Type when sending no body.
//   - Publishing a draft with embedEnabled and an empty domainWhitelist is
//     422 Unprocessable Entity (code embed_domain_whitelist_required): the
//     request is well formed, the agent is not publishable.
//   - Delete agent answers 204 No Content with no body; the agent is then
//     404 on publish and delete, and gone from the list.
//   - Binary files of a skill are 404 (only text files are readable);
//     so is SKILL.md when the skill's instructions are null.
//   - Timestamps are RFC 3339 in UTC with milliseconds
//     ("2026-01-02T03:04:05.678Z"). A logical clock makes every change
//     strictly later than the one before, even within one millisecond, so
//     it may run ahead of the wall clock.
//   - Lists are ordered by updatedAt descending, ties (possible only for
//     agents seeded with equal timestamps) by id ascending. An offset past
//     the end gives an empty data array. Arrays are never null.
//   - updatedAt moves on every update (even one that sets a field to its
//     current value, or an empty object: a write happened), on every
//     enable or disable that changes the state, and on every publish that
//     copies the draft. An enable of an enabled skill, a disable of a
//     disabled one and a publish with nothing to publish are no-ops: 200,
//     nothing moves. But at 40 active, enable answers 409 whatever the
//     skill's state: the state table shows the 409 only from enabled =
//     false, and the errors table with no condition on the skill; the
//     emulator takes the stricter reading (a client must cope with it).
//   - The limit of 40 counts enabled user skills, enabled built-in skills
//     and [Space.BuiltinActive].
//   - hasUnpublishedChanges is true while the draft differs from the
//     published version ([Emulator.EditAgent] compares them). An agent
//     added with Published and HasUnpublishedChanges both set stands for
//     one whose earlier published version is not modelled: the flag stays
//     set, whatever the edits, until a publish.
//   - Agents are held to the agent table: skillIds, attachmentIds,
//     folderIds, contentIds and the ids of conversationStarters and
//     actions must be UUIDs, welcomeMessage an object; AddAgent, EditAgent
//     and the seed refuse others.
//
// # Other plausible answers
//
// [Emulator.SetAnswers] switches the emulator, gap by gap, from the strict
// reading above to another that a service built on a common framework may
// give, so that a test can show skillsync tells the truth against it too:
//
//   - [Answers.Errors]: error bodies as NestJS gives them (message a
//     string, or a list from its validation pipe) or as Spring Boot does
//     ({"timestamp","status","error","message","path"}).
//   - [Answers.RateLimit]: a 429 that says when to come back only in
//     X-RateLimit-Reset, in seconds from now or as an epoch second.
//   - [Answers.Form]: the text of skills and files returned in Unicode
//     normal form D (or C), whatever form it was sent in.
//   - [Answers.Write]: update, enable and disable answered 204, 200 with
//     an empty body, 200 {"success":true}, or 202 {"success":true} with
//     the write landing [Answers.AcceptedAfter] later by the emulator's
//     clock (its checks, the 409 included, run then).
//   - [Answers.Times]: timestamps in whole seconds; or in milliseconds in
//     the answers to writes and whole seconds in reads; or in whole
//     seconds in list items only.
//   - [Answers.Agents]: agents with other types than the table's
//     (temperature "0.20", categoryId "3", conversation starters as
//     strings, colours as hex strings or without alpha, a field the table
//     does not name), or sparse (null temperature and embedOptions; no
//     categoryId, welcomeMessage or hasUnpublishedChanges).
//   - [Answers.NoHasMore], [Answers.NoTotal], [Answers.NoLimit]: list
//     envelopes without hasMore, total, or limit and offset;
//     [Answers.PageCap] caps pages below the limit asked for.
//   - [Answers.StateKeepsTime]: an enable or disable through the API
//     leaves updatedAt, and so the skill's place in the lists, as it was.
//
// # Not modelled
//
//   - The JWT format of tokens (Authentication, rule 2): a token is any
//     string added with AddToken. skillsync never builds or reads a token,
//     and the service answers a malformed one with 401, which the emulator
//     gives any unknown token; so this leniency hides no client bug.
//   - Visibility of agents per caller (rule 5): every token with access to
//     a space sees all its agents, and total counts them all.
//   - Built-in system agents, which the spec excludes from listings: the
//     emulator has none to exclude. (Built-in skills are modelled, and
//     hidden as the spec says.)
//   - The SKILL.md served by the files endpoint is rendered from the skill:
//     "---\n", YAML of name then description, "---\n", then the
//     instructions. Other frontmatter keys of a seed are not kept.
//   - Update of name or description of a skill whose SKILL.md is
//     unreadable succeeds and leaves instructions null; an update that
//     sets instructions makes it readable.
//   - Injected faults ([Faults]) strike before any check, as a proxy in
//     front of the service would; a 429 carries Retry-After in whole
//     seconds (0 when [Faults.RetryAfter] is zero).
//   - HEAD, OPTIONS and any method an endpoint does not list are 405; a
//     trailing slash or any other path is 404.
//
// # The app
//
// The spec has no endpoint to create a skill or an agent, nor says how the
// service's app edits them; [App] does so as plainly as an app may:
//
//   - A skill is created with a new random id, source manual, and the slug
//     [SkillSeed] describes; enabled, unless the space has 40 active skills
//     already, when it is created disabled. Its name, description and
//     instructions obey the update endpoint's rules, ASCII names included.
//   - Enabling a skill at 40 active is refused, as the API's enable is.
//   - Saving a form changes only the fields that differ from the page as
//     shown, through [Emulator.EditSkill]'s rules (updatedAt moves); a form
//     with no difference writes nothing. Text areas' CRLF line ends are
//     stored as LF.
//   - Supporting text files are added, changed and deleted; SKILL.md is
//     not one of them. In a space whose skills feature is disabled nothing
//     about skills can be changed.
//   - An agent is created as a never published draft with a random id; its
//     draft is edited through [Emulator.EditAgent]'s rules, and published as
//     the publish endpoint does.
//
// # Seed directory
//
// [Emulator.LoadSeed] and [Emulator.LoadSeedFS] read a seed directory:
//
//	DIR/emulator.yaml                        optional: spaces and tokens
//	DIR/<spaceId>/skills/<slug>/SKILL.md     one folder per skill, named by slug
//	DIR/<spaceId>/skills/<slug>/<any path>   supporting files (binary when not UTF-8 or holding NUL)
//	DIR/<spaceId>/agents/<any>.json          one remote.Agent (draft) per file
//	DIR/<spaceId>/assets/<assetId>.json      one asset record per file, served whole
//
// docs/emulator.md at the root of the module documents the seed, its
// emulator.yaml and the keys of a seeded SKILL.md, and the state file;
// testdata/emulator/example is an example seed. A seed that breaks the
// field table of the spec is refused.
package remotetest
