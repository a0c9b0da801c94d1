package remotetest

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// everything is what a client and a test can see of an emulator, to
// compare two of them. Agents are held as JSON, as they are served: the
// bytes of a welcomeMessage may be laid out otherwise, never differ.
type everything struct {
	Spaces    []string
	Tokens    []TokenInfo
	Skills    map[string][]remote.Skill
	Files     map[string]map[string]string
	Agents    map[string]string
	Published map[string]string
	Active    map[string]int
	Answers   map[string]string // API answers by path
}

func seeEverything(t *testing.T, e *Emulator) everything {
	t.Helper()
	v := everything{
		Spaces: e.SpaceIDs(), Tokens: e.Tokens(),
		Skills: map[string][]remote.Skill{}, Files: map[string]map[string]string{},
		Agents: map[string]string{}, Published: map[string]string{},
		Active: map[string]int{}, Answers: map[string]string{},
	}
	srv := serveForTest(t, e)
	get := func(path string) {
		req, err := http.NewRequest(http.MethodGet, srv.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer example-token")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		v.Answers[path] = resp.Status + " " + string(b)
	}
	for _, sp := range v.Spaces {
		v.Skills[sp] = e.Skills(sp)
		v.Agents[sp] = asJSON(t, e.Agents(sp))
		v.Active[sp] = e.ActiveCount(sp)
		for _, s := range v.Skills[sp] {
			v.Files[s.ID] = e.SkillFiles(sp, s.ID)
			get("/api/v1/spaces/" + sp + "/skills/" + s.ID)
		}
		for _, a := range e.Agents(sp) {
			if p, ok := e.PublishedAgent(sp, a.ID); ok {
				v.Published[a.ID] = asJSON(t, p)
			}
		}
		get("/api/v1/spaces/" + sp + "/skills")
		get("/api/v1/spaces/" + sp + "/agents")
	}
	get("/api/kb/assets/ab12/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
	return v
}

func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// changedExample is the example seed after edits a seed cannot express:
// an agent published then edited, one published, an edited skill.
func changedExample(t *testing.T) *Emulator {
	t.Helper()
	e := New()
	if err := e.LoadSeed(exampleSeed); err != nil {
		t.Fatal(err)
	}
	cr, _ := e.SkillBySlug("ab12", "code-review")
	e.EditSkill("ab12", cr.ID, func(s *SkillSeed) { s.Instructions = "Edited in the app.\r\n"; s.Files["notes.md"] = "new" })
	e.AddToken("limited", ReadOnly, "cd34")
	for _, a := range e.Agents("ab12") {
		if a.Name == "Writer" {
			e.EditAgent("ab12", a.ID, func(a *remote.Agent) { a.Description = "Drafts and edits." })
		}
	}
	return e
}

// TestStateRoundTrip: an emulator saved and loaded answers every request
// as before, and keeps what a seed cannot hold: timestamps, the
// published version of an agent, the clock.
func TestStateRoundTrip(t *testing.T) {
	e := changedExample(t)
	path := filepath.Join(t.TempDir(), "state.json")
	if err := e.SaveState(path); err != nil {
		t.Fatal(err)
	}
	loaded := New()
	loaded.AddSpace(Space{ID: "zz99"}) // replaced, not kept
	if err := loaded.LoadState(path); err != nil {
		t.Fatal(err)
	}
	want, got := seeEverything(t, e), seeEverything(t, loaded)
	if !reflect.DeepEqual(got, want) {
		a, _ := json.MarshalIndent(want, "", " ")
		b, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("loaded state differs.\nsaved:\n%s\nloaded:\n%s", a, b)
	}

	// Putting the writer's description back clears its unpublished
	// changes: the published version came through.
	var writer remote.Agent
	for _, a := range loaded.Agents("ab12") {
		if a.Name == "Writer" {
			writer = a
		}
	}
	if !writer.HasUnpublishedChanges {
		t.Fatal("the edited writer has no unpublished changes after loading")
	}
	loaded.EditAgent("ab12", writer.ID, func(a *remote.Agent) { a.Description = "Drafts documents." })
	latest := ""
	for _, a := range loaded.Agents("ab12") {
		if a.ID == writer.ID {
			if a.HasUnpublishedChanges {
				t.Error("the draft put back as published still has unpublished changes: the published version was lost")
			}
			latest = a.UpdatedAt
		}
	}
	for _, s := range want.Skills["ab12"] {
		if s.UpdatedAt >= latest {
			t.Errorf("an edit after loading is at %s, not after %s's %s: the clock went back", latest, s.Slug, s.UpdatedAt)
		}
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("the state folder holds %d files, want the state alone", len(entries))
	}
}

// TestLoadStateRefusesBadFiles: a missing file says so (fs.ErrNotExist);
// a broken one is refused whole with the reason, and the emulator keeps
// what it had.
func TestLoadStateRefusesBadFiles(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.json")
	if err := changedExample(t).SaveState(good); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	e := New()
	if err := e.LoadState(filepath.Join(dir, "none.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	for _, tc := range []struct{ name, old, new, want string }{
		{"version", `"format_version": 1`, `"format_version": 2`, "format_version 2 is not 1"},
		{"unknown field", `"format_version": 1,`, `"format_version": 1, "extra": 1,`, `unknown field "extra"`},
		{"bad name", `"name": "Code review"`, `"name": "-bad"`, "skill code-review: invalid name"},
		{"bad time", `"createdAt": "2026-01-10T09:00:00.000Z"`, `"createdAt": "yesterday"`, `is not RFC 3339`},
		{"bad permission", `"permission": "read-only"`, `"permission": "admin"`, `permission "admin"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(data), tc.old) {
				t.Fatalf("the saved state has no %s", tc.old)
			}
			bad := filepath.Join(dir, tc.name+".json")
			if err := os.WriteFile(bad, []byte(strings.Replace(string(data), tc.old, tc.new, 1)), 0o600); err != nil {
				t.Fatal(err)
			}
			e := New()
			e.AddSpace(Space{ID: "keep"})
			err := e.LoadState(bad)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), bad) {
				t.Errorf("error %v, want one naming %s and saying %q", err, bad, tc.want)
			}
			if ids := e.SpaceIDs(); len(ids) != 1 || ids[0] != "keep" {
				t.Errorf("after a refused load the emulator holds spaces %v", ids)
			}
		})
	}
}
