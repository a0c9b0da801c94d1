package main

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote/remotetest"
	"github.com/skillsync/skillsync/remote/remotetest/testserver"
)

// TestTargetsReadPagesBeforeSkills: targets planned at once share one
// --parallelism, and every page of their lists is asked for before any
// skill is read, so that the reads of a small space never hold up the
// pages of a large one. The large space answers its first page late, when
// the small one is long listed.
func TestTargetsReadPagesBeforeSkills(t *testing.T) {
	t.Parallel()
	e := remotetest.New()
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv := testserver.New(t, e)
	dir := bulkRepo(t, e, 350, "skillsDir: skills\nmissing: warn\ntargets:\n  small: {space: sml1}\n  large: {space: big1}\n",
		map[string]int{"sml1": 60, "big1": 350})
	var (
		mu    sync.Mutex
		order []string // "page" or "read", as they arrive
	)
	e.SetOnRequest(func(r *http.Request) {
		kind := "read"
		if strings.HasSuffix(r.URL.Path, "/skills") || strings.HasSuffix(r.URL.Path, "/agents") {
			kind = "page"
		}
		mu.Lock()
		order = append(order, kind)
		mu.Unlock()
		if strings.Contains(r.URL.Path, "/big1/skills") && r.URL.Query().Get("offset") == "0" {
			time.Sleep(300 * time.Millisecond)
		}
	})
	env := testEnv{"SKILLSYNC_BASE_URL": srv.URL, "SKILLSYNC_TOKEN": scriptToken, "NO_COLOR": "1"}
	code, stdout, stderr := runCLI(t, env, "plan", "--dir", dir, "--parallelism", "2")
	if code != 0 || !strings.Contains(stdout, "target small (space sml1): ") || !strings.Contains(stdout, "target large (space big1): ") {
		t.Fatalf("plan: exit %d\n%s\n%s", code, stdout, stderr)
	}
	pages, late, reads := 0, 0, 0
	for _, kind := range order {
		switch {
		case kind == "read":
			reads++
		case reads > 0:
			late++
			fallthrough
		default:
			pages++
		}
	}
	if pages != 7 || reads != 410 {
		t.Errorf("%d pages, %d skill reads; want 7 (1 + 4 of skills, 2 of agents) and 410", pages, reads)
	}
	if late > 0 {
		t.Errorf("%d of %d pages asked for after a skill was read", late, pages)
	}
}

// TestPlanListsWhileLoading: the lists of the space are asked for while
// the repository loads: a plan stopped by a validation error, found once
// the repository is read, has asked for them by then. A supporting file of
// 256 MiB (sparse: it costs no disk) makes the load last long enough for
// any list started with it to reach the server. No skill is read.
func TestPlanListsWhileLoading(t *testing.T) {
	t.Parallel()
	e := remotetest.New()
	e.AddToken(scriptToken, remotetest.ReadWrite)
	srv := testserver.New(t, e)
	dir := bulkRepo(t, e, 20, "skillsDir: skills\nspace: ab12\n", map[string]int{"ab12": 10})
	broken := filepath.Join(dir, "skills", "skill-019", "SKILL.md")
	if err := os.WriteFile(broken, []byte("---\nname: Skill 019\n---\nno description\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, err := os.Create(filepath.Join(dir, "skills", "skill-000", "reference.md"))
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(big.Truncate(256<<20), big.Close()); err != nil {
		t.Fatal(err)
	}
	env := testEnv{"SKILLSYNC_BASE_URL": srv.URL, "SKILLSYNC_TOKEN": scriptToken, "NO_COLOR": "1"}
	code, _, stderr := runCLI(t, env, "plan", "--dir", dir)
	if code != 1 || !strings.Contains(stderr, "the repository has 1 validation error") {
		t.Fatalf("plan: exit %d\n%s", code, stderr)
	}
	r := e.Requests()
	if r[remotetest.KeyListSkills] == 0 || r[remotetest.KeyGetSkill] != 0 {
		t.Errorf("requests %v: want the skills list asked for while the repository loaded, and no skill read", r)
	}
}
