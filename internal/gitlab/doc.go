// Package gitlab posts plans where reviewers read them on GitLab: the
// note of a space's plan on a merge request, and the issue of a space
// that drifted from git. It is package github's counterpart for GitLab CI.
//
// [ReadEnv] reads, once, what a CI job is given (CI_API_V4_URL,
// CI_PROJECT_ID, CI_MERGE_REQUEST_IID, CI_JOB_URL) and GITLAB_TOKEN into
// an [Env]. [Client] talks to the REST API through GitLab's maintained
// client library, gitlab.com/gitlab-org/api/client-go:
// [Client.SyncPlanNote] keeps one note per space on a merge request, found
// again by the marker it starts with (the markdown plan's first line,
// which the plan's renderer owns) and its author, and edited in place on
// every push; a plan with no changes starts no note, and turns one that
// is there into a few lines saying so. [Client.SyncDriftIssue] keeps one
// open issue per marker, labelled
// [DriftLabel], while the space has drifted from git, and closes it once
// it is back in sync. The caller owns the markers: one that names a
// target of a space too is a note or an issue of its own.
// [Client.Propose] carries a [forge.Proposal] as one commit on a branch
// of its own (the commits API's actions, started from the base and
// forced) and one merge request, opened or edited, found again by its
// marker and author; [Client.Withdraw] closes it and deletes the branch.
// Proposals need the token's Developer role or higher, and leave to push
// to a protected branch that matches the head branch.
//
// The token must be a project or group access token with the api scope
// and the Reporter role or higher, kept in a masked CI/CD variable named
// GITLAB_TOKEN: CI_JOB_TOKEN may not write notes or issues, and is never
// used. It travels in GitLab's PRIVATE-TOKEN header, which net/http keeps
// on a redirect to any host, so a redirect to another origin is refused;
// plain http is allowed to loopback only; no answer is read past
// [MaxResponseBytes], and no list past [MaxPages] pages; a write is sent
// again only after a 429; and the token is scrubbed from every error,
// however GitLab echoes it.
//
// GitLab caps a note at 1,000,000 characters ([MaxNoteChars]); a longer
// body is cut at a line with a note linking the job, whose log holds all
// of it.
package gitlab
