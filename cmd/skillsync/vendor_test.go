package main

import (
	"errors"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdGitCommit commits every file of DIR with go-git, as an upstream
// repository of vendored skills would, making DIR a repository (branch
// main) first when it is not one; with VAR, it sets VAR to the commit's
// id and VAR_SHORT to its first 12 digits, as skillsync prints it. The
// scripts need no git binary, as skillsync uses none.
//
//	gitcommit DIR MESSAGE [VAR]
func cmdGitCommit(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 {
		ts.Fatalf("usage: gitcommit DIR MESSAGE [VAR]")
	}
	dir := ts.MkAbs(args[0])
	r, err := git.PlainOpen(dir)
	if errors.Is(err, git.ErrRepositoryNotExists) {
		r, err = git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: plumbing.Main}})
	}
	ts.Check(err)
	wt, err := r.Worktree()
	ts.Check(err)
	ts.Check(wt.AddWithOptions(&git.AddOptions{All: true}))
	sig := &object.Signature{Name: "upstream", Email: "upstream@example.com", When: time.Unix(1700000000, 0)}
	h, err := wt.Commit(args[1], &git.CommitOptions{Author: sig, Committer: sig})
	ts.Check(err)
	if len(args) == 3 {
		ts.Setenv(args[2], h.String())
		ts.Setenv(args[2]+"_SHORT", h.String()[:12])
	}
}

// cmdGitTag tags the HEAD of the repository DIR with a lightweight tag.
//
//	gittag DIR NAME
func cmdGitTag(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: gittag DIR NAME")
	}
	r, err := git.PlainOpen(ts.MkAbs(args[0]))
	ts.Check(err)
	head, err := r.Head()
	ts.Check(err)
	_, err = r.CreateTag(args[1], head.Hash(), nil)
	ts.Check(err)
}
