// Package reconcile plans how to make a space match a skills repository,
// and makes it so.
//
// [Compute] is a pure function from the desired state ([fsrepo.Repo]), the
// live state ([Live], read by package reconcile/fetch) and a [Policy] to a [Plan]: the
// field-level changes of every skill, with before and after ([Change.Diff]
// makes the diff of the instructions), and, as data, everything the API
// cannot do (create a skill, write a file). The decisions about a plan are
// made here too: which changes a pull request makes and which are drift
// ([SetOrigins]), drift's verdict ([Plan.Drift]) and whether a plan may be
// applied ([Plan.Validate]). Package reconcile/render shows plans and
// writes and reads them as JSON; it decides nothing. Package
// reconcile/planfile checks a saved plan before apply applies it.
//
// [Apply] reaches the space through a [Service], an interface of the few
// calls it makes, so that it runs against an in-memory fake as well as the
// real client. Apply's journal is written through a [JournalWriter]:
// package reconcile/journal keeps it in a file and restores from it; the
// logic of this package does no file I/O of its own.
package reconcile
