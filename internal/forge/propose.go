package forge

import (
	"context"
	"errors"
	"fmt"

	"github.com/skillsync/skillsync/internal/redact"
)

// A Request is an open pull (merge) request, as a [Host] lists it.
type Request struct {
	Number int64
	Ref    string // how the host refers to it in markdown: "#3", "!3"
	URL    string
	Title  string
	Body   string
	Base   string // the branch it is into
}

// A Host is a code host's side of [Propose] and [Withdraw]: the clients
// of GitHub and GitLab each make one. Its methods write what they are
// given as it is: the client redacts and cuts first.
type Host interface {
	// Requests returns the open requests from branch head that skillsync
	// opened for marker, oldest first; another's open request from head
	// is an error wrapping ErrBranchTaken.
	Requests(ctx context.Context, head, marker string) ([]Request, error)
	// Push makes p.Head one commit on top of p.Base's head holding
	// p.Files, with p.Message, unless it is that already. It returns the
	// commit and whether the branch moved; an error wrapping
	// ErrNothingToPropose when the base holds every change, or
	// ErrBaseMoved when the base moved so that the commit must be made
	// again.
	Push(ctx context.Context, p Proposal) (commit string, moved bool, err error)
	// Open opens the request of p, or returns an error wrapping
	// ErrRequestExists when one from p.Head was opened meanwhile.
	Open(ctx context.Context, p Proposal) (Request, error)
	// Edit makes r's title, body and base p's.
	Edit(ctx context.Context, r Request, p Proposal) (Request, error)
	// Close comments why on r, then closes it.
	Close(ctx context.Context, r Request, why string) error
	// DeleteBranch deletes branch, and does nothing when it is not there.
	DeleteBranch(ctx context.Context, branch string) error
}

// ErrRequestExists is the error of [Host.Open] when a request from the
// branch was opened since [Host.Requests] was asked (another job's).
var ErrRequestExists = errors.New("a request from the branch is open already")

// Propose carries p through host: its head branch pushed (again once if
// the base moved meanwhile), then its request opened when none of
// skillsync's is, or edited when it says something else. Should two be
// open (jobs that raced), the oldest is kept and the others closed as
// superseded. p is checked by the caller, and its title, body and
// message are as host writes them.
func Propose(ctx context.Context, host Host, p Proposal) (Outcome, error) {
	reqs, err := host.Requests(ctx, p.Head, p.Marker)
	if err != nil {
		return Outcome{}, err
	}
	commit, moved, err := host.Push(ctx, p)
	if errors.Is(err, ErrBaseMoved) {
		commit, moved, err = host.Push(ctx, p)
	}
	if err != nil {
		return Outcome{}, err
	}
	if len(reqs) == 0 {
		r, err := host.Open(ctx, p)
		if err == nil {
			return outcome(ProposalOpened, r, commit), nil
		}
		if !errors.Is(err, ErrRequestExists) {
			return Outcome{}, err
		}
		if reqs, err = host.Requests(ctx, p.Head, p.Marker); err != nil {
			return Outcome{}, err
		}
		if len(reqs) == 0 {
			return Outcome{}, fmt.Errorf("proposing on branch %s: a request opened meanwhile was not found: %w", p.Head, ErrRequestExists)
		}
	}
	keep := reqs[0]
	edited := keep.Title != p.Title || keep.Body != p.Body || keep.Base != p.Base
	if edited {
		if keep, err = host.Edit(ctx, keep, p); err != nil {
			return Outcome{}, err
		}
	}
	for _, dup := range reqs[1:] {
		if err := host.Close(ctx, dup, fmt.Sprintf("Superseded by %s.", keep.Ref)); err != nil {
			return Outcome{}, err
		}
	}
	action := ProposalUnchanged
	if moved || edited {
		action = ProposalUpdated
	}
	return outcome(action, keep, commit), nil
}

// Withdraw closes the open requests of skillsync's from w.Head through
// host, commenting w.Reason redacted by r, then deletes the branch; with
// none it does nothing.
func Withdraw(ctx context.Context, host Host, w Withdrawal, r *redact.Redactor) (Outcome, error) {
	w.Reason = r.Redact(w.Reason)
	reqs, err := host.Requests(ctx, w.Head, w.Marker)
	if err != nil || len(reqs) == 0 {
		return Outcome{Action: ProposalNone}, err
	}
	for _, r := range reqs {
		if err := host.Close(ctx, r, w.Reason); err != nil {
			return Outcome{}, err
		}
	}
	if err := host.DeleteBranch(ctx, w.Head); err != nil {
		return Outcome{}, err
	}
	return outcome(ProposalClosed, reqs[0], ""), nil
}

func outcome(action string, r Request, commit string) Outcome {
	return Outcome{Action: action, Number: r.Number, URL: r.URL, Commit: commit}
}
