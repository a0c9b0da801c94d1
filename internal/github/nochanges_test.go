package github_test

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/github"
	"github.com/skillsync/skillsync/internal/github/githubtest"
)

// noChanges is the short report of a plan with nothing to review, as
// render.NoChangesMarkdown writes it.
const noChanges = markerAB + "\n### skillsync plan for space `ab12`\n\n**No changes.** Commit `0123456789ab`.\n"

// TestSyncPlanCommentSkipsNoChanges: a plan with no changes starts no
// comment (tfcmt's skip-no-changes); once a plan was commented, a plan
// with no changes replaces it with the short report, so that no stale
// plan stays up; the same report again sends nothing.
func TestSyncPlanCommentSkipsNoChanges(t *testing.T) {
	ctx := context.Background()
	f := githubtest.New(t)
	f.AddIssue(githubtest.Issue{State: "open", PR: true})
	// A reviewer quoting the marker has not made a plan comment.
	f.AddComment(githubtest.Comment{ID: 1, Issue: 1, Author: "alice", Body: markerAB + "\nquoted"})
	c := newClient(t, f)

	action, url, err := c.SyncPlanComment(ctx, 1, github.PlanComment{Marker: markerAB, Markdown: noChanges, NoChanges: true})
	if err != nil {
		t.Fatal(err)
	}
	if action != github.CommentSkipped || url != "" {
		t.Errorf("no comment yet, no changes: %q %q, want skipped", action, url)
	}
	if n := countRequests(f.Requests(), "POST "); n != 0 || len(f.Comments()) != 1 {
		t.Fatalf("a plan with no changes was commented: %d POST, comments %+v", n, f.Comments())
	}

	plan := markerAB + "\nPlan: 1 to update, 0 to enable, 0 to disable.\n"
	action, url, err = c.SyncPlanComment(ctx, 1, github.PlanComment{Marker: markerAB, Markdown: plan})
	if err != nil || action != github.CommentCreated || url == "" {
		t.Fatalf("changes: %q %q %v, want a new comment", action, url, err)
	}

	action, url2, err := c.SyncPlanComment(ctx, 1, github.PlanComment{Marker: markerAB, Markdown: noChanges, NoChanges: true})
	if err != nil {
		t.Fatal(err)
	}
	if action != github.CommentUpdated || url2 != url {
		t.Errorf("a plan comment, then no changes: %q %q, want %q updated", action, url2, url)
	}
	comments := f.Comments()
	if len(comments) != 2 || comments[1].Body != noChanges || comments[0].Body != markerAB+"\nquoted" {
		t.Errorf("comments %+v, want the quote untouched and the plan replaced by %q", comments, noChanges)
	}

	before := len(f.Requests())
	action, _, err = c.SyncPlanComment(ctx, 1, github.PlanComment{Marker: markerAB, Markdown: noChanges, NoChanges: true})
	if err != nil || action != github.CommentUnchanged {
		t.Errorf("the same report again: %q %v, want unchanged", action, err)
	}
	if n := countRequests(f.Requests()[before:], "PATCH "); n != 0 {
		t.Errorf("the same report again sent %d PATCH", n)
	}
}

// TestCutPlanLinksTheRun: a plan cut to fit GitHub's limit says where all
// of it is: the log and job summary of the run, linked when the runner
// says which run it is; the drift issue's body likewise.
func TestCutPlanLinksTheRun(t *testing.T) {
	ctx := context.Background()
	huge := markerAB + "\n" + strings.Repeat("+ a line of a very long diff\n", 5000)
	env := github.ReadEnv(func(k string) string {
		return map[string]string{
			"GITHUB_TOKEN": githubtest.Token, "GITHUB_REPOSITORY": githubtest.Repository,
			"GITHUB_SERVER_URL": "https://ghe.example.com", "GITHUB_RUN_ID": "987654321",
		}[k]
	})
	link := "[the run that made it](https://ghe.example.com/acme/skills/actions/runs/987654321)"
	for _, tc := range []struct {
		name, runURL, want string
	}{
		{"run known", env.RunURL, "65536 characters. All of it is in the log and job summary of " + link + "."},
		{"run unknown", "", "65536 characters. Run skillsync locally or read the job's log for all of it."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := githubtest.New(t)
			f.AddIssue(githubtest.Issue{State: "open", PR: true})
			e := env
			e.APIURL, e.RunURL = f.URL, tc.runURL
			c, err := github.NewClient(ctx, e, f.Client())
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.SyncPlanComment(ctx, 1, github.PlanComment{Marker: markerAB, Markdown: huge}); err != nil {
				t.Fatal(err)
			}
			if _, _, err := c.SyncDriftIssue(ctx, "ab12", "", true, huge); err != nil {
				t.Fatal(err)
			}
			bodies := []string{f.Comments()[0].Body, f.Issues()[1].Body}
			for i, body := range bodies {
				if n := utf8.RuneCountInString(body); n > github.MaxBodyChars {
					t.Errorf("body %d: %d characters, over %d", i, n, github.MaxBodyChars)
				}
				if !strings.HasSuffix(body, tc.want+"\n") {
					t.Errorf("body %d ends %q, want it to end with %q", i, body[len(body)-200:], tc.want)
				}
			}
		})
	}
}

func TestReadEnvRunURL(t *testing.T) {
	for _, tc := range []struct {
		server, repo, id string
		want             string
	}{
		{"", "acme/skills", "42", "https://github.com/acme/skills/actions/runs/42"},
		{"https://ghe.example.com/", "acme/skills", "42", "https://ghe.example.com/acme/skills/actions/runs/42"},
		{"", "acme/skills", "", ""},
		{"", "acme/skills", "42)](javascript:x", ""},
		{"", "acme/skills)", "42", ""},
		{"javascript:alert(1)//", "acme/skills", "42", ""},
		{"https://ghe.example.com/x)<b>", "acme/skills", "42", ""},
		{"https://ghe.example.com/?q=1", "acme/skills", "42", ""},
	} {
		env := github.ReadEnv(func(k string) string {
			return map[string]string{"GITHUB_SERVER_URL": tc.server, "GITHUB_REPOSITORY": tc.repo, "GITHUB_RUN_ID": tc.id}[k]
		})
		if env.RunURL != tc.want {
			t.Errorf("server %q, repository %q, run %q: RunURL %q, want %q", tc.server, tc.repo, tc.id, env.RunURL, tc.want)
		}
	}
}
