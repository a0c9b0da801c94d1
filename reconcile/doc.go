// Package reconcile plans how to make a space match a skills repository,
// and makes it so.
//
// [Compute] is a pure function from the desired state ([fsrepo.Repo]), the
// live state ([Live], read by package reconcile/fetch) and a [Policy] to a [Plan]: the
// field-level changes of every skill, with before and after ([Change.Diff]
// makes the diff of the instructions), and, as data, everything the API
// cannot do (create a skill, write a file). The decisions about a plan are
// made here too: which changes a pull request makes and which are drift
// ([SetOrigins]), drift's verdict ([Plan.Drift]), whether a plan may be
// applied ([Plan.Validate]) and whether a saved one is stale
// ([CheckSaved]). Package reconcile/render shows plans and writes and reads
// them as JSON; it decides nothing.
//
// [Apply] and [CheckStale] reach the space through a [Service], an
// interface of the few calls they make, so that both run against an
// in-memory fake as well as the real client. Apply's journal is written
// through a [JournalWriter] ([Journal] is a file): the logic of this
// package does no file I/O of its own.
package reconcile
