// Package notify tells people what skillsync did or found: an apply that
// failed or succeeded, drift found or resolved, a vendored skill whose
// upstream moved, a plan that could not be made. It posts [Event]s to
// Slack and Microsoft Teams incoming webhooks and to a generic webhook
// signed as Standard Webhooks specifies; docs/notifications.md is the
// reference for users and receivers.
//
// A [Config] is a notify: section of skillsync.yaml, top-level or a
// target's, which [Config.ForTarget] merges by destination name:
//
//	notify:
//	  team-chat:
//	    kind: slack                  # slack | teams | webhook
//	    urlEnv: SKILLSYNC_NOTIFY_SLACK
//	    # events: [failures]         # the default: apply.failed, drift.found, plan.error
//	  audit:
//	    kind: webhook
//	    urlEnv: SKILLSYNC_NOTIFY_AUDIT
//	    secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET
//	    events: [all]
//	targets:
//	  staging:
//	    space: st01
//	    notify:
//	      team-chat: {events: []}    # nothing from staging to the chat
//	  prod:
//	    space: pr01
//	    notify:
//	      team-chat: {events: [failures, apply.succeeded, drift.resolved]}
//	      oncall: {kind: teams, urlEnv: SKILLSYNC_NOTIFY_TEAMS_ONCALL}
//
// URLs and signing secrets come only from environment variables whose
// names begin with SKILLSYNC_NOTIFY_: a webhook's URL is its credential,
// and a pull request that edits skillsync.yaml must not be able to point
// one at another secret of the job. [New] reads them into a [Sender] and
// adds them to the process's [redact.Set].
//
// [Sender.Send] redacts every text of an event with that set, renders it
// for each destination that wants its kind (escaping what the repository
// or the space wrote, so that it can neither link nor mention), and posts
// to all of them at once: https only (plain http to loopback), no
// redirect followed, a short timeout, and one retry after a 429 or a 5xx
// that honours a short Retry-After. A delivery that fails is a [Warning]
// for the caller to print, never an error: a notification is not worth a
// failed apply.
package notify
