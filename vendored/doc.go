// Package vendored copies skill folders from git repositories into a
// skills repository and keeps them current: [Add] copies a folder at a
// branch, tag or commit and records its provenance in skillsync.lock (see
// [fsrepo.Lock]); [Outdated] asks each upstream whether the folder changed
// since; [Update] brings those changes in with a three-way merge against
// the locked commit, so local edits survive, and reports the files that
// conflict instead of writing them.
//
// Sources are read with go-git and no git binary: an https URL is fetched
// at depth 1 into a temporary folder, removed afterwards, each object's
// size checked as the pack is read (see [MaxFetchBytes]), with the token
// that [Auth] finds for its host, if any; a local path is opened where it
// is. This is the one package of skillsync's repository side that reaches
// the network, which is why it is not part of fsrepo: fsrepo reads
// skillsync.lock and checks the vendored folders against it (validate),
// offline.
package vendored
