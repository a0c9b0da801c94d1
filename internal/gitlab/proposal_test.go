package gitlab_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/go-git/go-git/v5/plumbing/filemode"

	"github.com/skillsync/skillsync/internal/forge"
	"github.com/skillsync/skillsync/internal/forge/forgetest"
	"github.com/skillsync/skillsync/internal/gitlab"
	"github.com/skillsync/skillsync/internal/gitlab/gitlabtest"
)

const (
	mrMarker = "<!-- skillsync:drift-pr space=ab12 target=prod -->"
	mrHead   = "skillsync/drift/prod"
)

// seedFiles are main's files before any proposal.
var seedFiles = map[string]*forgetest.File{
	"skillsync.yaml":            {Content: "targets:\n  prod: {space: ab12}\n"},
	"skills/sql-style/SKILL.md": {Content: "---\nname: SQL style\n---\nUse CTEs.\n"},
	"skills/sql-style/fmt.sh":   {Content: "#!/bin/sh\nsqlfmt\n", Mode: filemode.Executable},
	"skills/review/SKILL.md":    {Content: "---\nname: Review\n---\nBe kind.\n"},
}

var _ interface {
	Propose(context.Context, forge.Proposal) (forge.Outcome, error)
	Withdraw(context.Context, forge.Withdrawal) (forge.Outcome, error)
} = (*gitlab.Client)(nil)

func proposalServer(t *testing.T) *gitlabtest.Server {
	t.Helper()
	f := gitlabtest.New(t)
	f.Git().CommitFiles("main", "seed", seedFiles)
	return f
}

func proposal(body string, files map[string]forge.FileChange) forge.Proposal {
	return forge.Proposal{
		Base: "main", Head: mrHead, Files: files,
		Message: "skillsync: adopt the app's edits of target prod",
		Title:   "skillsync: drift in target prod (space ab12)",
		Body:    body, Marker: mrMarker,
	}
}

func write(s string) forge.FileChange { return forge.FileChange{Content: []byte(s)} }

func openMRs(f *gitlabtest.Server, head string) []gitlabtest.MergeRequest {
	var out []gitlabtest.MergeRequest
	for _, mr := range f.MergeRequests() {
		if mr.State == "opened" && mr.SourceBranch == head {
			out = append(out, mr)
		}
	}
	return out
}

// writes counts the requests that change something.
func writes(requests []string) int {
	n := 0
	for _, r := range requests {
		if !strings.HasPrefix(r, "GET ") {
			n++
		}
	}
	return n
}

const commitsPath = "POST /api/v4/projects/4242/repository/commits"

// TestProposeLifecycle: a proposal opens one merge request; the same
// proposal again changes nothing; a new description edits it; a new
// change force-updates the branch and edits the merge request; a base
// that moved gets the change made again on top of it; withdrawing closes
// it with a note and deletes the branch; proposing again opens a new
// one.
func TestProposeLifecycle(t *testing.T) {
	ctx := context.Background()
	f := proposalServer(t)
	c := newClient(t, f)
	changeA := map[string]forge.FileChange{
		"skills/sql-style/SKILL.md": write("---\nname: SQL style\n---\nUse CTEs, always.\n"),
	}
	changeB := map[string]forge.FileChange{
		"skills/review/SKILL.md": write("---\nname: Review\n---\nBe kind and brief.\n"),
		"skills/new/SKILL.md":    write("---\nname: New\n---\n"),
	}
	steps := []struct {
		name       string
		before     func()
		withdraw   bool
		body       string
		changes    map[string]forge.FileChange
		wantAction string
		wantIID    int64
		wantWrites int // -1: any
		wantCommit bool
	}{
		{name: "first proposal", body: "report A", changes: changeA, wantAction: forge.ProposalOpened, wantIID: 1, wantWrites: 2, wantCommit: true},
		{name: "the same again", body: "report A", changes: changeA, wantAction: forge.ProposalUnchanged, wantIID: 1, wantWrites: 0},
		{name: "a new report", body: "report A'", changes: changeA, wantAction: forge.ProposalUpdated, wantIID: 1, wantWrites: 1},
		{name: "another change", body: "report B", changes: changeB, wantAction: forge.ProposalUpdated, wantIID: 1, wantWrites: 2, wantCommit: true},
		{name: "main moved", before: func() {
			f.Git().CommitFiles("main", "unrelated", map[string]*forgetest.File{"README.md": {Content: "hi\n"}})
		}, body: "report B", changes: changeB, wantAction: forge.ProposalUpdated, wantIID: 1, wantWrites: 1, wantCommit: true},
		{name: "withdrawn", withdraw: true, wantAction: forge.ProposalClosed, wantIID: 1, wantWrites: 3},
		{name: "withdrawn again", withdraw: true, wantAction: forge.ProposalNone, wantWrites: 0},
		{name: "proposed again", body: "report B", changes: changeB, wantAction: forge.ProposalOpened, wantIID: 2, wantWrites: 2, wantCommit: true},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		before := len(f.Requests())
		var out forge.Outcome
		var err error
		if s.withdraw {
			out, err = c.Withdraw(ctx, forge.Withdrawal{Head: mrHead, Marker: mrMarker, Reason: "The drift is gone."})
		} else {
			out, err = c.Propose(ctx, proposal(s.body, s.changes))
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if out.Action != s.wantAction || out.Number != s.wantIID {
			t.Fatalf("%s: %+v, want %s !%d", s.name, out, s.wantAction, s.wantIID)
		}
		if n := writes(f.Requests()[before:]); s.wantWrites >= 0 && n != s.wantWrites {
			t.Errorf("%s: %d writes, want %d: %q", s.name, n, s.wantWrites, f.Requests()[before:])
		}
		if s.withdraw {
			if _, ok := f.Git().Branch(mrHead); ok {
				t.Errorf("%s: the branch is still there", s.name)
			}
			if n := len(openMRs(f, mrHead)); n != 0 {
				t.Errorf("%s: %d open merge requests, want none", s.name, n)
			}
			continue
		}
		head := f.Git().CheckProposal(t, "main", mrHead, s.changes)
		if out.Commit != head {
			t.Errorf("%s: commit %s, want the branch's %s", s.name, out.Commit, head)
		}
		mrs := openMRs(f, mrHead)
		if len(mrs) != 1 {
			t.Fatalf("%s: %d open merge requests, want 1", s.name, len(mrs))
		}
		mr := mrs[0]
		if mr.IID != out.Number || mr.TargetBranch != "main" || mr.Description != mrMarker+"\n"+s.body || mr.Title != "skillsync: drift in target prod (space ab12)" {
			t.Errorf("%s: merge request %+v", s.name, mr)
		}
		if want := fmt.Sprintf("%s/-/merge_requests/%d", gitlabtest.WebURL, out.Number); out.URL != want {
			t.Errorf("%s: URL %q, want %q", s.name, out.URL, want)
		}
		if n := countRequests(f.Requests()[before:], commitsPath); (n == 1) != s.wantCommit || n > 1 {
			t.Errorf("%s: %d commits made", s.name, n)
		}
	}
	var notes []gitlabtest.Note
	for _, n := range f.Notes() {
		if n.Noteable == "MergeRequest" {
			notes = append(notes, n)
		}
	}
	if len(notes) != 1 || notes[0].IID != 1 || notes[0].Body != "The drift is gone." {
		t.Errorf("notes %+v, want the reason on !1", notes)
	}
}

// TestProposeFiles: content is written byte for byte, text or binary; an
// executable stays one; a new file may be made executable, an executable
// a regular file; a file is deleted.
func TestProposeFiles(t *testing.T) {
	f := proposalServer(t)
	f.Git().CommitFiles("main", "more", map[string]*forgetest.File{"skills/review/run.sh": {Content: "#!/bin/sh\n", Mode: filemode.Executable}})
	changes := map[string]forge.FileChange{
		"skills/sql-style/fmt.sh":     write("#!/bin/sh\nsqlfmt --strict\r\n"),
		"skills/sql-style/logo.png":   {Content: []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0xff, 0xfe}},
		"skills/sql-style/lint.sh":    {Content: []byte("#!/bin/sh\n"), Mode: forge.ExecutableMode},
		"skills/sql-style/empty.txt":  {},
		"skills/review/SKILL.md":      {Delete: true},
		"skills/review/run.sh":        {Content: []byte("#!/bin/sh\n"), Mode: forge.RegularMode},
		"skills/sql-style/ünïcödé.md": write("ü\n"),
	}
	if _, err := newClient(t, f).Propose(context.Background(), proposal("r", changes)); err != nil {
		t.Fatal(err)
	}
	head := f.Git().CheckProposal(t, "main", mrHead, changes)
	files := f.Git().Files(head)
	if files["skills/sql-style/fmt.sh"].Mode != filemode.Executable || files["skills/sql-style/lint.sh"].Mode != filemode.Executable || files["skills/review/run.sh"].Mode != filemode.Regular {
		t.Errorf("modes %o, %o and %o, want 755, 755, 644", files["skills/sql-style/fmt.sh"].Mode, files["skills/sql-style/lint.sh"].Mode, files["skills/review/run.sh"].Mode)
	}
}

// TestProposeNotOurs: an open merge request from the head branch that is
// not skillsync's (a person's, one that quotes the marker) is never
// pushed over nor closed, and the error says whose it is; a fork's
// branch of the same name is not in the way.
func TestProposeNotOurs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		mr    gitlabtest.MergeRequest
		taken bool
	}{
		{"a person's", gitlabtest.MergeRequest{AuthorID: 5, Description: mrMarker + "\nmine now"}, true},
		{"the bot's, quoting the marker", gitlabtest.MergeRequest{Description: "see " + mrMarker}, true},
		{"a fork's", gitlabtest.MergeRequest{AuthorID: 5, SourceProjectID: 99, Description: "from my fork"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := proposalServer(t)
			theirs := f.Git().CommitFiles(mrHead, "their work", map[string]*forgetest.File{"notes.md": {Content: "theirs"}})
			tt.mr.Title, tt.mr.SourceBranch, tt.mr.TargetBranch = "their MR", mrHead, "main"
			f.OpenMergeRequest(tt.mr)
			c := newClient(t, f)
			before := len(f.Requests())
			_, err := c.Propose(ctx, proposal("report", map[string]forge.FileChange{"skills/review/SKILL.md": write("x\n")}))
			_, werr := c.Withdraw(ctx, forge.Withdrawal{Head: mrHead, Marker: mrMarker, Reason: "gone"})
			if !tt.taken {
				if err != nil || werr != nil {
					t.Fatalf("propose: %v; withdraw: %v", err, werr)
				}
				if mr := f.MergeRequests()[0]; mr.State != "opened" || mr.Description != tt.mr.Description {
					t.Errorf("the fork's merge request = %+v, want it untouched", mr)
				}
				return
			}
			for _, e := range []error{err, werr} {
				if !errors.Is(e, forge.ErrBranchTaken) || !strings.Contains(e.Error(), "merge request !1") || !strings.Contains(e.Error(), "not skillsync's") {
					t.Errorf("error %v, want one saying merge request !1 is not skillsync's", e)
				}
			}
			if n := writes(f.Requests()[before:]); n != 0 {
				t.Errorf("%d writes: %q", n, f.Requests()[before:])
			}
			if head, _ := f.Git().Branch(mrHead); head != theirs {
				t.Error("their branch was moved")
			}
			if mr := f.MergeRequests()[0]; mr.State != "opened" || mr.Description != tt.mr.Description {
				t.Errorf("their merge request = %+v, want it untouched", mr)
			}
		})
	}
}

// TestProposeErrorsSayWhatToDo: a refusal names what was being done and
// says what to change: the token's scope or role, a protected branch, a
// missing base.
func TestProposeErrorsSayWhatToDo(t *testing.T) {
	refuse := func(method, path, body string) func(f *gitlabtest.Server) {
		return func(f *gitlabtest.Server) {
			f.Inject(func(r *http.Request) *gitlabtest.Fault {
				if r.Method == method && r.URL.Path == path {
					return &gitlabtest.Fault{Status: http.StatusForbidden, Body: body}
				}
				return nil
			})
		}
	}
	tests := []struct {
		name    string
		setup   func(f *gitlabtest.Server)
		base    string
		content string
		want    []string
	}{
		{
			name:  "read_api token",
			setup: func(f *gitlabtest.Server) { f.ReadOnly() },
			want:  []string{"pushing branch skillsync/drift/prod of project 4242", "403", "lacks the api scope"},
		},
		{
			name:  "Reporter role",
			setup: refuse(http.MethodPost, "/api/v4/projects/4242/repository/commits", `{"message":"403 Forbidden - You are not allowed to push into this branch"}`),
			want:  []string{"pushing branch skillsync/drift/prod", "403", "You are not allowed to push into this branch", "Developer role or higher", "protected branch rule"},
		},
		{
			name:  "may not open merge requests",
			setup: refuse(http.MethodPost, "/api/v4/projects/4242/merge_requests", `{"message":"403 Forbidden"}`),
			want:  []string{"opening a merge request from skillsync/drift/prod into main in project 4242", "403", "may not open, edit and close merge requests", "Developer role"},
		},
		{
			name:  "protected branch",
			setup: func(f *gitlabtest.Server) { f.Protect(mrHead) },
			want:  []string{"pushing branch skillsync/drift/prod", "403", "may not push to branch skillsync/drift/prod", "allow it to push there"},
		},
		{
			name: "no base branch",
			base: "trunk",
			want: []string{"the base branch trunk does not exist in project 4242"},
		},
		{
			name:    "the token in a file",
			content: "token: " + gitlabtest.Token,
			want:    []string{"skills/review/SKILL.md holds the GitLab token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := proposalServer(t)
			if tt.setup != nil {
				tt.setup(f)
			}
			p := proposal("report", map[string]forge.FileChange{"skills/review/SKILL.md": write("new\n" + tt.content)})
			if tt.base != "" {
				p.Base = tt.base
			}
			before := len(f.Requests())
			_, err := newClient(t, f).Propose(context.Background(), p)
			if err == nil {
				t.Fatal("no error")
			}
			t.Log(err)
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), gitlabtest.Token) {
				t.Error("the error shows the token")
			}
			if tt.content != "" && len(f.Requests()) != before {
				t.Errorf("sent %q", f.Requests()[before:])
			}
		})
	}
}

// TestProposeBaseMoved: a push to the base between reading it and
// committing on it is taken in: the commit lands on the new head, made
// again when an action no longer fits (a file to create that the push
// made), once; a base that keeps moving so (the file then deleted, so
// that it cannot be updated) is an error saying so.
func TestProposeBaseMoved(t *testing.T) {
	tests := []struct {
		name        string
		pushed      string // the path the push to main writes
		times       int
		wantCommits int
		wantErr     bool
	}{
		{"elsewhere", "README.md", 1, 1, false},
		{"the file to create, once", "skills/new/SKILL.md", 1, 2, false},
		{"the file to create, twice", "skills/new/SKILL.md", 2, 2, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := proposalServer(t)
			moves := 0
			f.OnRequest(func(r *http.Request) {
				if r.Method+" "+r.URL.Path == commitsPath && moves < tt.times {
					moves++
					file := &forgetest.File{Content: "pushed meanwhile\n"}
					if moves == 2 {
						file = nil
					}
					f.Git().CommitFiles("main", "pushed meanwhile", map[string]*forgetest.File{tt.pushed: file})
				}
			})
			changes := map[string]forge.FileChange{"skills/new/SKILL.md": write("new\n"), "skills/sql-style/SKILL.md": write("edited\n")}
			out, err := newClient(t, f).Propose(context.Background(), proposal("report", changes))
			if n := countRequests(f.Requests(), commitsPath); n != tt.wantCommits {
				t.Errorf("%d commits asked for, want %d", n, tt.wantCommits)
			}
			if tt.wantErr {
				if !errors.Is(err, forge.ErrBaseMoved) || !strings.Contains(err.Error(), "the base branch main kept moving") {
					t.Errorf("error %v, want one saying main kept moving", err)
				}
				return
			}
			if err != nil || out.Action != forge.ProposalOpened {
				t.Fatalf("%+v, %v", out, err)
			}
			f.Git().CheckProposal(t, "main", mrHead, changes)
		})
	}
}

// TestProposeLimits: a description over GitLab's limit is cut with a
// note, a title over it is cut, and the token is never posted.
func TestProposeLimits(t *testing.T) {
	f := proposalServer(t)
	body := strings.Repeat("línea ✓ "+gitlabtest.Token+"\n", 60000)
	p := proposal(body, map[string]forge.FileChange{"skills/review/SKILL.md": write("x\n")})
	p.Title = strings.Repeat("drift ", 100)
	p.Message = "adopt " + gitlabtest.Token
	if _, err := newClient(t, f).Propose(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	mr := openMRs(f, mrHead)[0]
	if n := utf8.RuneCountInString(mr.Description); n > gitlab.MaxNoteChars || !strings.Contains(mr.Description, "was cut to fit GitLab's limit") || !strings.HasPrefix(mr.Description, mrMarker+"\n") {
		t.Errorf("description of %d characters, want it cut with a note under %d, the marker first", n, gitlab.MaxNoteChars)
	}
	if n := utf8.RuneCountInString(mr.Title); n != gitlab.MaxTitleChars {
		t.Errorf("title of %d characters, want %d", n, gitlab.MaxTitleChars)
	}
	head, _ := f.Git().Branch(mrHead)
	c, _ := f.Git().Commit(head)
	for what, text := range map[string]string{"description": mr.Description, "title": mr.Title, "commit message": c.Message} {
		if strings.Contains(text, gitlabtest.Token) {
			t.Errorf("the %s holds the token", what)
		}
	}
}

// TestProposeNothingToPropose: a change the base holds already is an
// error the caller can tell, and nothing is written.
func TestProposeNothingToPropose(t *testing.T) {
	f := proposalServer(t)
	before := len(f.Requests())
	_, err := newClient(t, f).Propose(context.Background(), proposal("r", map[string]forge.FileChange{
		"skills/review/SKILL.md": write(seedFiles["skills/review/SKILL.md"].Content),
		"skills/gone/SKILL.md":   {Delete: true},
	}))
	if !errors.Is(err, forge.ErrNothingToPropose) {
		t.Errorf("error %v, want ErrNothingToPropose", err)
	}
	if n := writes(f.Requests()[before:]); n != 0 {
		t.Errorf("%d writes", n)
	}
}
