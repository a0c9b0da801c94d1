package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo"
	"github.com/skillsync/skillsync/reconcile"
	"github.com/skillsync/skillsync/reconcile/fetch"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// TestRecheckAfterConfirmation: an edit made in the app while apply waits
// for "yes" makes apply refuse, naming the skill, instead of overwriting
// the edit with no journal of it.
func TestRecheckAfterConfirmation(t *testing.T) {
	t.Parallel()
	ctx := t.Context()
	e := remotetest.New()
	if err := seedEmulator(e, ""); err != nil {
		t.Fatal(err)
	}
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv := testserver.New(t, e)
	root := filepath.Join(t.TempDir(), "repo")
	if err := copyEmbedded(root, "testdata/demo/repo"); err != nil {
		t.Fatal(err)
	}
	repo, _, err := fsrepo.Load(ctx, root, fsrepo.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := remote.New(remote.Options{BaseURL: srv.URL, Token: scriptToken})
	if err != nil {
		t.Fatal(err)
	}
	live, err := fetch.Space(ctx, cl, demoSpace, repo, fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &planRun{root: root, repo: repo, target: targetSettings{BaseURL: srv.URL, Space: demoSpace}, client: cl,
		plan: reconcile.Compute(repo, live, reconcile.PolicyFromConfig(repo.Config))}

	if err := recheck(ctx, []*planRun{r}); err != nil {
		t.Fatalf("recheck of a fresh plan: %v", err)
	}
	s, _ := e.SkillBySlug(demoSpace, "release-notes")
	e.EditSkill(demoSpace, s.ID, func(sd *remotetest.SkillSeed) { sd.Instructions = "Edited while the prompt was open.\n" })
	err = recheck(ctx, []*planRun{r})
	if err == nil || !strings.Contains(err.Error(), "release-notes") {
		t.Fatalf("recheck after an edit in the app: %v, want an error naming release-notes", err)
	}
}
