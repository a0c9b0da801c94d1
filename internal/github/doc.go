// Package github posts plans where reviewers read them: the sticky pull
// request comment, the job summary, the drift issue and the annotations of a
// GitHub Actions run.
//
// [ReadEnv] reads, once, what a workflow step is given (GITHUB_ACTIONS,
// GITHUB_TOKEN, GITHUB_REPOSITORY, the step summary's path) into an [Env],
// which reads the event payload only when asked for the pull request.
// [Client] talks to the REST API through google/go-github:
// [Client.SyncPlanComment] keeps one comment per space on a pull request,
// found again by the marker it starts with (the markdown plan's first line,
// which the plan's renderer owns) and its author, and edited in place on
// every push; a plan with no changes starts no comment, and turns one that
// is there into a few lines saying so. [Client.SyncDriftIssue] keeps one
// open issue per space while the space has drifted from git and closes it
// once it is back in sync. [Client.Propose] carries a [forge.Proposal]
// as one commit on a branch of its own (through the git data API) and one
// pull request, opened or edited, found again by its marker and author as
// the comment is; [Client.Withdraw] closes it and deletes the branch.
// [AppendStepSummary] and [Annotation] need no API at all: they write to
// the files and the log that the runner reads.
//
// No answer of GitHub's is read past [MaxResponseBytes], and no list past
// [MaxPages] pages: a hostile or broken API, or a proxy posing as one
// (GITHUB_API_URL), cannot exhaust memory or keep the job reading for
// ever.
//
// GitHub caps a comment or issue body at 65,536 characters and a step summary
// at 1 MiB; both are enforced here, cutting at a line with a note (which
// links the run, whose log holds all of it), so that a huge plan is
// shortened rather than rejected.
package github
