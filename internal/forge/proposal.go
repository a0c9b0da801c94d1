package forge

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/redact"
)

// A Proposal is a change to a repository that a code host carries as
// one commit on a branch of its own and one pull (merge) request from
// that branch: what drift --pr and vendor update --pr hand to
// github.Client.Propose or gitlab.Client.Propose.
type Proposal struct {
	// Base is the branch the change is for ("main"). The commit is made
	// on top of its head as it is when proposed.
	Base string
	// Head is the branch that carries the change, the same from one run
	// to the next ("skillsync/drift/prod", "skillsync/vendor/sql-style").
	// It is skillsync's alone: it is force-updated to the one commit.
	Head string
	// Files are the changes to Base's head commit, by path from the
	// repository's root with slashes ("skills/sql-style/SKILL.md").
	Files map[string]FileChange
	// Message is the commit's message.
	Message string
	// Title is the pull request's title, cut to the host's limit.
	Title string
	// Body is the pull request's description (markdown). It gets Marker
	// as its first line, and is cut with a note to the host's limit.
	Body string
	// Marker identifies the pull request as skillsync's: a hidden HTML
	// comment on one line, "<!-- skillsync:drift-pr space=ab12 -->".
	Marker string
}

// A FileChange is the new content of one file, or its deletion.
type FileChange struct {
	// Content is the file's bytes, written as they are (text or binary).
	Content []byte
	// Delete removes the file; Content and Mode are then unset.
	Delete bool
	// Mode is the file's mode after the change.
	Mode Mode
}

// Mode is the mode a [FileChange] gives its file.
type Mode int

const (
	// KeepMode keeps the mode the file has in the base: an executable
	// stays one. A new file is a regular one.
	KeepMode Mode = iota
	// RegularMode makes the file a regular, non-executable one (100644).
	RegularMode
	// ExecutableMode makes the file executable (100755).
	ExecutableMode
)

// A Withdrawal closes the pull request of a head branch, for the
// github.Client.Withdraw and gitlab.Client.Withdraw calls.
type Withdrawal struct {
	// Head is the branch of the pull request, as in [Proposal.Head]. It
	// is deleted once the pull request is closed.
	Head string
	// Marker identifies the pull request as skillsync's, as in
	// [Proposal.Marker].
	Marker string
	// Reason is commented on the pull request before it is closed: "The
	// drift is gone: the space is back in sync with git."
	Reason string
}

// What a proposal or a withdrawal did, in [Outcome.Action].
const (
	ProposalOpened    = "opened"    // a new pull request
	ProposalUpdated   = "updated"   // the branch moved, or the title or body changed
	ProposalUnchanged = "unchanged" // the branch and the pull request already said it
	ProposalClosed    = "closed"    // withdrawn: closed, and its branch deleted
	ProposalNone      = "none"      // nothing to withdraw
)

// An Outcome is what a proposal or a withdrawal did.
type Outcome struct {
	// Action is ProposalOpened, ProposalUpdated, ProposalUnchanged,
	// ProposalClosed or ProposalNone.
	Action string
	// Number is the pull request's number (a merge request's iid); 0 with
	// ProposalNone.
	Number int64
	// URL is the pull request's web page, "" with ProposalNone (or on
	// GitLab when the host gave none).
	URL string
	// Commit is the id of the commit the head branch holds, "" once
	// withdrawn.
	Commit string
}

// ErrNothingToPropose is the error of a proposal whose every change the
// base branch already holds: there is nothing to commit, and the caller
// withdraws the pull request instead.
var ErrNothingToPropose = errors.New("the base branch already holds every change: nothing to propose")

// ErrBranchTaken is the error of a proposal or withdrawal whose head
// branch carries an open pull request that is not skillsync's: it is
// neither force-updated nor closed.
var ErrBranchTaken = errors.New("an open pull request that is not skillsync's comes from the branch")

// ErrBaseMoved is the error of a push whose base branch moved while the
// commit was made on it: [Propose] pushes once more, and returns the
// error of a base that moved again.
var ErrBaseMoved = errors.New("the base branch moved")

// Check refuses a proposal whose head branch is its base, which would
// be force-updated. The rest of a proposal is skillsync's own making:
// the base is checked where it is read (CheckBranch), the paths by pull
// and vendored, which write them.
func (p Proposal) Check() error {
	if p.Head == p.Base {
		return fmt.Errorf("the head branch %q is the base branch: a proposal needs a branch of its own", p.Head)
	}
	return nil
}

// CheckBranch refuses a branch name that git or a code host refuses
// (git check-ref-format's rules), or that names a ref rather than a
// branch ("refs/heads/main"). what says which branch it is ("head").
func CheckBranch(what, name string) error {
	bad := func(why string) error {
		return fmt.Errorf("the %s branch %q is not a branch name git accepts: %s", what, name, why)
	}
	switch {
	case name == "":
		return fmt.Errorf("no %s branch", what)
	case len(name) > 255:
		return bad("it is over 255 bytes")
	case !utf8.ValidString(name):
		return bad("it is not UTF-8")
	case strings.HasPrefix(name, "refs/"):
		return bad("give the branch's name, without refs/heads/")
	case strings.HasPrefix(name, "-"):
		return bad("it starts with -")
	case name == "@" || strings.Contains(name, "@{"):
		return bad("it holds @{ or is @")
	case strings.Contains(name, ".."):
		return bad("it holds ..")
	case strings.HasSuffix(name, "."):
		return bad("it ends with .")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || unicode.IsSpace(r) || strings.ContainsRune(`~^:?*[\`, r) {
			return bad(fmt.Sprintf("it holds %q", r))
		}
	}
	for seg := range strings.SplitSeq(name, "/") {
		switch {
		case seg == "":
			return bad("it has an empty part between slashes")
		case strings.HasPrefix(seg, "."):
			return bad("a part starts with .")
		case strings.HasSuffix(seg, ".lock"):
			return bad("a part ends with .lock")
		}
	}
	return nil
}

// Prepare checks p, then makes it what a host writes: its title, body
// and message redacted of the token r hides, the title cut to maxTitle
// characters and the body fit by fit (the marker first, within the
// host's limit). A file that holds the token is refused, as no secret is
// ever committed; token names it ("the GitHub token").
func Prepare(p Proposal, r *redact.Redactor, token string, maxTitle int, fit func(body string) string) (Proposal, error) {
	if err := p.Check(); err != nil {
		return Proposal{}, err
	}
	for _, path := range slices.Sorted(maps.Keys(p.Files)) {
		if r.Holds(string(p.Files[path].Content)) {
			return Proposal{}, fmt.Errorf("%s holds %s: it is never committed; take the token out of the file", path, token)
		}
	}
	p.Title = CutTitle(r.Redact(p.Title), maxTitle)
	p.Body = fit(r.Redact(p.Body))
	p.Message = r.Redact(p.Message)
	return p, nil
}

// CutTitle cuts title to max characters, ending it with "…" when cut.
func CutTitle(title string, max int) string {
	if utf8.RuneCountInString(title) <= max {
		return title
	}
	return string([]rune(title)[:max-1]) + "…"
}
