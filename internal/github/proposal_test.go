package github_test

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
	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
)

const (
	prMarker = "<!-- skillsync:drift-pr space=ab12 target=prod -->"
	prHead   = "skillsync/drift/prod"
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
} = (*github.Client)(nil)

func proposalServer(t *testing.T) *githubtest.Server {
	t.Helper()
	f := githubtest.New(t)
	f.AllowActionsPullRequests()
	f.Git().CommitFiles("main", "seed", seedFiles)
	return f
}

func proposal(body string, files map[string]forge.FileChange) forge.Proposal {
	return forge.Proposal{
		Base: "main", Head: prHead, Files: files,
		Message: "skillsync: adopt the app's edits of target prod",
		Title:   "skillsync: drift in target prod (space ab12)",
		Body:    body, Marker: prMarker,
	}
}

func write(s string) forge.FileChange { return forge.FileChange{Content: []byte(s)} }

// checkBranch fails unless the head branch is one commit on main's head
// holding exactly main's files with changes made.
func checkBranch(t *testing.T, f *githubtest.Server, changes map[string]forge.FileChange) string {
	t.Helper()
	return f.Git().CheckProposal(t, "main", prHead, changes)
}

func openPulls(f *githubtest.Server, head string) []githubtest.Issue {
	var out []githubtest.Issue
	for _, is := range f.Issues() {
		if is.PR && is.State == "open" && is.Head == head {
			out = append(out, is)
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

// TestProposeLifecycle: a proposal opens one pull request; the same
// proposal again changes nothing; a new body edits it; a new change
// force-updates the branch and edits the pull request; a base that moved
// gets the change made again on top of it; withdrawing closes it with a
// comment and deletes the branch; proposing again opens a new one.
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
		wantNumber int64
		wantWrites int // -1: any
		wantCommit bool
	}{
		{name: "first proposal", body: "report A", changes: changeA, wantAction: forge.ProposalOpened, wantNumber: 1, wantWrites: -1, wantCommit: true},
		{name: "the same again", body: "report A", changes: changeA, wantAction: forge.ProposalUnchanged, wantNumber: 1, wantWrites: 0},
		{name: "a new report", body: "report A'", changes: changeA, wantAction: forge.ProposalUpdated, wantNumber: 1, wantWrites: 1},
		{name: "another change", body: "report B", changes: changeB, wantAction: forge.ProposalUpdated, wantNumber: 1, wantWrites: -1, wantCommit: true},
		{name: "main moved", before: func() {
			f.Git().CommitFiles("main", "unrelated", map[string]*forgetest.File{"README.md": {Content: "hi\n"}})
		}, body: "report B", changes: changeB, wantAction: forge.ProposalUpdated, wantNumber: 1, wantWrites: -1, wantCommit: true},
		{name: "withdrawn", withdraw: true, wantAction: forge.ProposalClosed, wantNumber: 1, wantWrites: 3},
		{name: "withdrawn again", withdraw: true, wantAction: forge.ProposalNone, wantWrites: 0},
		{name: "proposed again", body: "report B", changes: changeB, wantAction: forge.ProposalOpened, wantNumber: 2, wantWrites: -1, wantCommit: true},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		before := len(f.Requests())
		var out forge.Outcome
		var err error
		if s.withdraw {
			out, err = c.Withdraw(ctx, forge.Withdrawal{Head: prHead, Marker: prMarker, Reason: "The drift is gone."})
		} else {
			out, err = c.Propose(ctx, proposal(s.body, s.changes))
		}
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if out.Action != s.wantAction || out.Number != s.wantNumber {
			t.Fatalf("%s: %+v, want %s #%d", s.name, out, s.wantAction, s.wantNumber)
		}
		if n := writes(f.Requests()[before:]); s.wantWrites >= 0 && n != s.wantWrites {
			t.Errorf("%s: %d writes, want %d: %q", s.name, n, s.wantWrites, f.Requests()[before:])
		}
		if s.withdraw {
			if _, ok := f.Git().Branch(prHead); ok {
				t.Errorf("%s: the branch is still there", s.name)
			}
			if n := len(openPulls(f, prHead)); n != 0 {
				t.Errorf("%s: %d open pull requests, want none", s.name, n)
			}
			continue
		}
		head := checkBranch(t, f, s.changes)
		if out.Commit != head {
			t.Errorf("%s: commit %s, want the branch's %s", s.name, out.Commit, head)
		}
		prs := openPulls(f, prHead)
		if len(prs) != 1 {
			t.Fatalf("%s: %d open pull requests, want 1", s.name, len(prs))
		}
		pr := prs[0]
		if pr.Number != int(out.Number) || pr.Base != "main" || pr.Body != prMarker+"\n"+s.body || pr.Title != "skillsync: drift in target prod (space ab12)" {
			t.Errorf("%s: pull request %+v", s.name, pr)
		}
		if want := fmt.Sprintf("https://github.com/acme/skills/pull/%d", out.Number); out.URL != want {
			t.Errorf("%s: URL %q, want %q", s.name, out.URL, want)
		}
		if n := countRequests(f.Requests()[before:], "POST /repos/acme/skills/git/commits"); (n == 1) != s.wantCommit || n > 1 {
			t.Errorf("%s: %d commits made", s.name, n)
		}
	}
	if closing := f.Comments(); len(closing) != 1 || closing[0].Issue != 1 || closing[0].Body != "The drift is gone." {
		t.Errorf("comments %+v, want the reason on #1", closing)
	}
}

// TestProposeFiles: content is written byte for byte, text or binary; an
// executable stays one; a new file may be made executable; a file is
// deleted.
func TestProposeFiles(t *testing.T) {
	f := proposalServer(t)
	changes := map[string]forge.FileChange{
		"skills/sql-style/fmt.sh":     write("#!/bin/sh\nsqlfmt --strict\r\n"),
		"skills/sql-style/logo.png":   {Content: []byte{0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0xff, 0xfe}},
		"skills/sql-style/lint.sh":    {Content: []byte("#!/bin/sh\n"), Mode: forge.ExecutableMode},
		"skills/sql-style/empty.txt":  {},
		"skills/review/SKILL.md":      {Delete: true},
		"skills/sql-style/ünïcödé.md": write("ü\n"),
	}
	if _, err := newClient(t, f).Propose(context.Background(), proposal("r", changes)); err != nil {
		t.Fatal(err)
	}
	head := checkBranch(t, f, changes)
	files := f.Git().Files(head)
	if files["skills/sql-style/fmt.sh"].Mode != filemode.Executable || files["skills/sql-style/lint.sh"].Mode != filemode.Executable {
		t.Errorf("modes %o and %o, want both executable", files["skills/sql-style/fmt.sh"].Mode, files["skills/sql-style/lint.sh"].Mode)
	}
	if _, ok := files["skills/review/SKILL.md"]; ok {
		t.Error("the deleted file is there")
	}
}

// TestProposeNotOurs: an open pull request from the head branch that is
// not skillsync's (a person's, another app's, one that quotes the
// marker) is never pushed over nor closed, and the error says whose it
// is; a fork's branch of the same name is not in the way.
func TestProposeNotOurs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		pr    githubtest.Issue
		taken bool
	}{
		{"a person's", githubtest.Issue{Author: "alice", Body: prMarker + "\nmine now"}, true},
		{"another app's", githubtest.Issue{Author: "other-app[bot]", Body: prMarker + "\nreport"}, true},
		{"the bot's, quoting the marker", githubtest.Issue{Body: "see " + prMarker}, true},
		{"a fork's", githubtest.Issue{Author: "alice", HeadOwner: "alice", Body: "from my fork"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := proposalServer(t)
			theirs := f.Git().CommitFiles(prHead, "their work", map[string]*forgetest.File{"notes.md": {Content: "theirs"}})
			tt.pr.Title, tt.pr.State, tt.pr.PR, tt.pr.Head, tt.pr.Base = "their PR", "open", true, prHead, "main"
			f.AddIssue(tt.pr)
			c := newClient(t, f)
			before := len(f.Requests())
			_, err := c.Propose(ctx, proposal("report", map[string]forge.FileChange{"skills/review/SKILL.md": write("x\n")}))
			_, werr := c.Withdraw(ctx, forge.Withdrawal{Head: prHead, Marker: prMarker, Reason: "gone"})
			if !tt.taken {
				if err != nil || werr != nil {
					t.Fatalf("propose: %v; withdraw: %v", err, werr)
				}
				if is := f.Issues()[0]; is.State != "open" || is.Body != tt.pr.Body {
					t.Errorf("the fork's pull request = %+v, want it untouched", is)
				}
				return
			}
			for _, e := range []error{err, werr} {
				if !errors.Is(e, forge.ErrBranchTaken) || !strings.Contains(e.Error(), "pull request #1") || !strings.Contains(e.Error(), "not skillsync's") {
					t.Errorf("error %v, want one saying pull request #1 is not skillsync's", e)
				}
			}
			if n := writes(f.Requests()[before:]); n != 0 {
				t.Errorf("%d writes: %q", n, f.Requests()[before:])
			}
			if head, _ := f.Git().Branch(prHead); head != theirs {
				t.Error("their branch was moved")
			}
			if is := f.Issues()[0]; is.State != "open" || is.Body != tt.pr.Body {
				t.Errorf("their pull request = %+v, want it untouched", is)
			}
		})
	}
}

// TestProposeErrorsSayWhatToDo: a refusal names what was being done and
// says what to change: the job's permissions, the repository's setting
// for GITHUB_TOKEN's pull requests, a protected branch, a missing base.
func TestProposeErrorsSayWhatToDo(t *testing.T) {
	refuse := func(method, prefix, body string) func(f *githubtest.Server) {
		return func(f *githubtest.Server) {
			f.Inject(func(r *http.Request) *githubtest.Fault {
				if r.Method == method && strings.HasPrefix(r.URL.Path, prefix) {
					return &githubtest.Fault{Status: http.StatusForbidden, Body: body}
				}
				return nil
			})
		}
	}
	tests := []struct {
		name        string
		setup       func(f *githubtest.Server)
		denyActions bool // the repository's setting is off
		base        string
		content     string
		want        []string
	}{
		{
			name:  "no contents: write",
			setup: refuse(http.MethodPost, "/repos/acme/skills/git/", `{"message":"Resource not accessible by integration"}`),
			want:  []string{"writing the commit of the change", "403", "`permissions: { contents: write, pull-requests: write }`"},
		},
		{
			name:  "no pull-requests: write",
			setup: refuse(http.MethodPost, "/repos/acme/skills/pulls", `{"message":"Resource not accessible by integration"}`),
			want:  []string{"opening a pull request from skillsync/drift/prod into main in acme/skills", "403", "pull-requests: write"},
		},
		{
			name:        "GITHUB_TOKEN may not open pull requests",
			denyActions: true,
			want:        []string{"403", "not permitted to create or approve pull requests", `"Allow GitHub Actions to create and approve pull requests"`, "Workflow permissions"},
		},
		{
			name: "protected branch",
			setup: func(f *githubtest.Server) {
				f.Git().CommitFiles(prHead, "old", map[string]*forgetest.File{"x": {Content: "x"}})
				f.Protect(prHead)
			},
			want: []string{"pushing branch skillsync/drift/prod of acme/skills", "422", "Protected branch update failed", "branch skillsync/drift/prod is protected", "ruleset"},
		},
		{
			name: "protected branch, creation",
			setup: func(f *githubtest.Server) {
				f.Protect(prHead)
			},
			want: []string{"pushing branch skillsync/drift/prod", "422", "Reference update failed", "is protected"},
		},
		{
			name: "no base branch",
			base: "trunk",
			want: []string{"the base branch trunk does not exist in acme/skills"},
		},
		{
			name:    "the token in a file",
			content: "token: " + githubtest.Token,
			want:    []string{"skills/review/SKILL.md holds the GitHub token"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := githubtest.New(t)
			if !tt.denyActions {
				f.AllowActionsPullRequests()
			}
			f.Git().CommitFiles("main", "seed", seedFiles)
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
			if strings.Contains(err.Error(), githubtest.Token) {
				t.Error("the error shows the token")
			}
			if tt.content != "" && len(f.Requests()) != before {
				t.Errorf("sent %q", f.Requests()[before:])
			}
		})
	}
}

// TestProposeBaseMoved: a push to the base between reading it and
// committing on it gets the change made again on the new head, once; a
// base that keeps moving is an error saying so.
func TestProposeBaseMoved(t *testing.T) {
	for _, times := range []int{1, 2} {
		f := proposalServer(t)
		moves := 0
		f.OnRequest(func(r *http.Request) {
			if r.Method == http.MethodPost && r.URL.Path == "/repos/acme/skills/git/commits" && moves < times {
				moves++
				f.Git().CommitFiles("main", "pushed meanwhile", map[string]*forgetest.File{"skills/review/SKILL.md": {Content: "pushed meanwhile\n"}, "README.md": {Content: "hi\n"}})
			}
		})
		changes := map[string]forge.FileChange{"skills/sql-style/SKILL.md": write("edited\n")}
		out, err := newClient(t, f).Propose(context.Background(), proposal("report", changes))
		if times == 2 {
			if !errors.Is(err, forge.ErrBaseMoved) || !strings.Contains(err.Error(), "the base branch main kept moving") {
				t.Errorf("moved twice: error %v, want one saying main kept moving", err)
			}
			if _, ok := f.Git().Branch(prHead); ok {
				t.Error("moved twice: the branch was pushed")
			}
			continue
		}
		if err != nil || out.Action != forge.ProposalOpened {
			t.Fatalf("moved once: %+v, %v", out, err)
		}
		checkBranch(t, f, changes)
		if n := countRequests(f.Requests(), "POST /repos/acme/skills/git/commits"); n != 2 {
			t.Errorf("%d commits made, want 2", n)
		}
	}
}

// TestProposeLimits: a body over GitHub's limit is cut with a note, a
// title over it is cut, and the token is never posted.
func TestProposeLimits(t *testing.T) {
	f := proposalServer(t)
	body := strings.Repeat("línea ✓ "+githubtest.Token+"\n", 10000)
	p := proposal(body, map[string]forge.FileChange{"skills/review/SKILL.md": write("x\n")})
	p.Title = strings.Repeat("drift ", 100)
	p.Message = "adopt " + githubtest.Token
	if _, err := newClient(t, f).Propose(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	pr := openPulls(f, prHead)[0]
	if n := utf8.RuneCountInString(pr.Body); n > github.MaxBodyChars || !strings.Contains(pr.Body, "was cut to fit GitHub's limit") || !strings.HasPrefix(pr.Body, prMarker+"\n") {
		t.Errorf("body of %d characters, want it cut with a note under %d, the marker first", n, github.MaxBodyChars)
	}
	if n := utf8.RuneCountInString(pr.Title); n != github.MaxTitleChars {
		t.Errorf("title of %d characters, want %d", n, github.MaxTitleChars)
	}
	head, _ := f.Git().Branch(prHead)
	c, _ := f.Git().Commit(head)
	for what, text := range map[string]string{"body": pr.Body, "title": pr.Title, "commit message": c.Message} {
		if strings.Contains(text, githubtest.Token) {
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
