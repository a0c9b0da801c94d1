package forge_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/redact"
)

// host is a scripted forge.Host: it holds open requests and a branch,
// and records what it was asked to do.
type host struct {
	open     []forge.Request
	pushErrs []error // returned by the first pushes, in order
	raced    bool    // a request appears when Open is asked
	calls    []string
}

func (h *host) Requests(context.Context, string, string) ([]forge.Request, error) {
	h.calls = append(h.calls, "requests")
	return slices.Clone(h.open), nil
}

func (h *host) Push(context.Context, forge.Proposal) (string, bool, error) {
	h.calls = append(h.calls, "push")
	if len(h.pushErrs) > 0 {
		err := h.pushErrs[0]
		h.pushErrs = h.pushErrs[1:]
		return "", false, err
	}
	return "c0ffee", true, nil
}

func (h *host) Open(_ context.Context, p forge.Proposal) (forge.Request, error) {
	h.calls = append(h.calls, "open")
	r := forge.Request{Number: int64(len(h.open) + 1), Ref: fmt.Sprintf("#%d", len(h.open)+1), Title: p.Title, Body: p.Body, Base: p.Base}
	h.open = append(h.open, r)
	if h.raced {
		h.open[len(h.open)-1].Body = "another job's"
		return forge.Request{}, forge.ErrRequestExists
	}
	return r, nil
}

func (h *host) Edit(_ context.Context, r forge.Request, p forge.Proposal) (forge.Request, error) {
	h.calls = append(h.calls, "edit "+r.Ref)
	r.Title, r.Body, r.Base = p.Title, p.Body, p.Base
	return r, nil
}

func (h *host) Close(_ context.Context, r forge.Request, why string) error {
	h.calls = append(h.calls, "close "+r.Ref+": "+why)
	return nil
}

func (h *host) DeleteBranch(_ context.Context, branch string) error {
	h.calls = append(h.calls, "delete "+branch)
	return nil
}

func TestPropose(t *testing.T) {
	p := forge.Proposal{Base: "main", Head: "skillsync/x", Title: "t", Body: "b", Message: "m", Marker: "<!-- m -->"}
	moved := fmt.Errorf("pushing: %w", forge.ErrBaseMoved)
	tests := []struct {
		name      string
		host      host
		want      string
		wantErr   error
		wantCalls []string
	}{
		{
			name: "none open", want: forge.ProposalOpened,
			wantCalls: []string{"requests", "push", "open"},
		},
		{
			name: "ours open, saying it", host: host{open: []forge.Request{{Number: 4, Ref: "#4", Title: "t", Body: "b", Base: "main"}}},
			want: forge.ProposalUpdated, wantCalls: []string{"requests", "push"},
		},
		{
			name: "ours open, saying something else", host: host{open: []forge.Request{{Number: 4, Ref: "#4", Title: "t", Body: "old", Base: "main"}}},
			want: forge.ProposalUpdated, wantCalls: []string{"requests", "push", "edit #4"},
		},
		{
			name: "two open (jobs that raced)", host: host{open: []forge.Request{{Number: 4, Ref: "#4", Title: "t", Body: "b", Base: "main"}, {Number: 6, Ref: "#6"}}},
			want: forge.ProposalUpdated, wantCalls: []string{"requests", "push", "close #6: Superseded by #4."},
		},
		{
			name: "opened by another job meanwhile", host: host{raced: true},
			want: forge.ProposalUpdated, wantCalls: []string{"requests", "push", "open", "requests", "edit #1"},
		},
		{
			name: "the base moved once", host: host{pushErrs: []error{moved}},
			want: forge.ProposalOpened, wantCalls: []string{"requests", "push", "push", "open"},
		},
		{
			name: "the base moved twice", host: host{pushErrs: []error{moved, moved}},
			wantErr: forge.ErrBaseMoved, wantCalls: []string{"requests", "push", "push"},
		},
		{
			name: "nothing to propose", host: host{pushErrs: []error{forge.ErrNothingToPropose}},
			wantErr: forge.ErrNothingToPropose, wantCalls: []string{"requests", "push"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := forge.Propose(context.Background(), &tt.host, p)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("error %v, want %v", err, tt.wantErr)
				}
			} else if err != nil || out.Action != tt.want {
				t.Errorf("%+v, %v; want %s", out, err, tt.want)
			}
			if !slices.Equal(tt.host.calls, tt.wantCalls) {
				t.Errorf("calls %q, want %q", tt.host.calls, tt.wantCalls)
			}
		})
	}
}

func TestWithdraw(t *testing.T) {
	w := forge.Withdrawal{Head: "skillsync/x", Marker: "<!-- m -->", Reason: "gone"}
	h := &host{}
	if out, err := forge.Withdraw(context.Background(), h, w, redact.New("")); err != nil || out.Action != forge.ProposalNone {
		t.Errorf("none open: %+v, %v", out, err)
	}
	if !slices.Equal(h.calls, []string{"requests"}) {
		t.Errorf("none open: calls %q", h.calls)
	}
	h = &host{open: []forge.Request{{Number: 4, Ref: "#4", URL: "u4"}, {Number: 6, Ref: "#6"}}}
	out, err := forge.Withdraw(context.Background(), h, w, redact.New(""))
	if err != nil || out.Action != forge.ProposalClosed || out.Number != 4 || out.URL != "u4" {
		t.Errorf("two open: %+v, %v", out, err)
	}
	if want := []string{"requests", "close #4: gone", "close #6: gone", "delete skillsync/x"}; !slices.Equal(h.calls, want) {
		t.Errorf("calls %q, want %q", h.calls, want)
	}
}
