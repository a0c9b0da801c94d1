package remotetest

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/skillsync/skillsync/remote"
)

const exampleSeed = "../../testdata/emulator/example"

func TestLoadSeedExample(t *testing.T) {
	e := New()
	if err := e.LoadSeed(exampleSeed); err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, e: e, srv: serveForTest(t, e)}
	send := func(method, path, token string) response {
		t.Helper()
		return f.send(method, path, token, "", "")
	}

	var p remote.Page[remote.Skill]
	r := send(http.MethodGet, "/api/v1/spaces/ab12/skills", "example-token")
	f.mustStatus(r, 200, "list")
	r.json(t, &p)
	var slugs []string
	for _, s := range p.Data {
		slugs = append(slugs, s.Slug)
	}
	if got := strings.Join(slugs, " "); got != "release-notes pdf-forms code-review" {
		t.Errorf("slugs in list order: %s", got)
	}
	cr, ok := e.SkillBySlug("ab12", "code-review")
	if !ok || cr.ID != "7b1e4d2a-3c5f-4a8b-9d0e-1f2a3b4c5d6e" || cr.Name != "Code review" || !cr.Enabled ||
		!strings.HasPrefix(*cr.Instructions, "# Code review\n\n1. Read") {
		t.Errorf("code-review %+v", cr)
	}
	pdf, _ := e.SkillBySlug("ab12", "pdf-forms")
	if pdf.Enabled || pdf.Source != "github" || pdf.SourceURL == nil || pdf.Description != "Fills PDF forms: reads the fields, asks for missing values, writes the result." {
		t.Errorf("pdf-forms %+v", pdf)
	}
	if n := e.ActiveCount("ab12"); n != 4 {
		t.Errorf("active %d, want 4 (2 user, 1 built-in skill, 1 hidden)", n)
	}
	f.mustStatus(send(http.MethodGet, skillPath("ab12", cr.ID, "files", "references/checklist.md"), "example-token"), 200, "reference")
	f.mustStatus(send(http.MethodGet, skillPath("ab12", pdf.ID, "files", "assets/logo.png"), "example-token"), 404, "binary")

	var agents remote.Page[remote.Agent]
	send(http.MethodGet, "/api/v1/spaces/ab12/agents", "example-token").json(t, &agents)
	if agents.Total != 2 || agents.Data[0].Name != "Support" || agents.Data[0].EmbedOptions.LightTheme.PrimaryColor.H != 210 {
		t.Fatalf("agents %+v", agents)
	}
	f.mustStatus(send(http.MethodPost, agentPath("ab12", agents.Data[0].ID, "publish"), "example-token"), 422, "publish support (embed rule)")
	f.mustStatus(send(http.MethodPost, agentPath("ab12", agents.Data[1].ID, "publish"), "example-token"), 200, "publish writer")

	r = send(http.MethodGet, "/api/kb/assets/ab12/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d", "example-read-only")
	f.mustStatus(r, 200, "asset")
	if !strings.Contains(string(r.body), `"processingState": "done"`) {
		t.Errorf("asset %s", r.body)
	}

	sg, _ := e.SkillBySlug("cd34", "style-guide")
	f.mustStatus(send(http.MethodPost, skillPath("cd34", sg.ID, "disable"), "example-token"), 403, "feature disabled")
	f.mustStatus(send(http.MethodGet, "/api/v1/spaces/ab12/skills", "example-cd34-only"), 403, "scoped token")
	f.mustStatus(send(http.MethodGet, "/api/v1/spaces/cd34/skills", "example-cd34-only"), 200, "scoped token, own space")
	f.mustStatus(send(http.MethodPost, skillPath("ab12", pdf.ID, "enable"), "example-read-only"), 403, "read-only")
}

func TestLoadSeedFS(t *testing.T) {
	skill := func(fm string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\n" + fm + "\n---\nbody\n")}
	}
	good := fstest.MapFS{
		"seed/xy/skills/one/SKILL.md":                              skill("name: One\ndescription: d\nmetadata: {a: 1}"),
		"seed/xy/skills/one/notes.txt":                             {Data: []byte("text")},
		"seed/xy/skills/one/font.woff":                             {Data: []byte{0, 1, 2}},
		"seed/xy/skills/two/SKILL.md":                              {Data: []byte("---\r\nname: Two\r\ndescription: d\r\nenabled: false\r\n---\r\nwindows\r\n")},
		"seed/xy/skills/tel/SKILL.md":                              skill("name: Telescope\ndescription: \"Looks up \\uD83D\\uDD2D\""),
		"seed/README.md":                                           {Data: []byte("ignored")},
		"seed/xy/agents/a.json":                                    {Data: []byte(`{"name":"A"}`)},
		"seed/xy/assets/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.json": {Data: []byte(`{"name":"x"}`)},
	}
	e := New()
	if err := e.LoadSeedFS(good, "seed"); err != nil {
		t.Fatal(err)
	}
	one, _ := e.SkillBySlug("xy", "one")
	if *one.Instructions != "body\n" || !one.Enabled || one.Name != "One" {
		t.Errorf("one %+v", one)
	}
	files := e.SkillFiles("xy", one.ID)
	if files["notes.txt"] != "text" || files["font.woff"] != "" || files[skillFileName] == "" {
		t.Errorf("files %v", files)
	}
	two, _ := e.SkillBySlug("xy", "two")
	if two.Enabled || *two.Instructions != "windows\r\n" {
		t.Errorf("two %+v", two)
	}
	// A JSON-style surrogate pair is valid YAML 1.2, as skillsync's own
	// loader reads it.
	if tel, _ := e.SkillBySlug("xy", "tel"); tel.Description != "Looks up \U0001F52D" {
		t.Errorf("tel %+v", tel)
	}
	if len(e.Agents("xy")) != 1 {
		t.Error("agent not loaded")
	}

	for name, fsys := range map[string]fstest.MapFS{
		"no frontmatter":       {"s/xy/skills/a/SKILL.md": {Data: []byte("body")}},
		"unclosed frontmatter": {"s/xy/skills/a/SKILL.md": {Data: []byte("---\nname: a\n")}},
		"bad yaml":             {"s/xy/skills/a/SKILL.md": skill("name: [")},
		"half a surrogate":     {"s/xy/skills/a/SKILL.md": skill("name: a\ndescription: \"\\uD83D\"")},
		"enabled not bool":     {"s/xy/skills/a/SKILL.md": skill("name: a\ndescription: d\nenabled: maybe")},
		"no SKILL.md":          {"s/xy/skills/a/x.md": {Data: []byte("x")}},
		"bad space folder":     {"s/x/skills/a/SKILL.md": skill("name: a\ndescription: d")},
		"unknown folder":       {"s/xy/other/x": {Data: []byte("x")}},
		"agent unknown field":  {"s/xy/agents/a.json": {Data: []byte(`{"nam":"A"}`)}},
		"agent bad id":         {"s/xy/agents/a.json": {Data: []byte(`{"id":"x"}`)}},
		"asset not uuid":       {"s/xy/assets/x.json": {Data: []byte(`{}`)}},
		"asset not object":     {"s/xy/assets/9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d.json": {Data: []byte(`[]`)}},
		"config unknown key":   {"s/emulator.yaml": {Data: []byte("spaces: []\nusers: []\n")}},
		"config bad perm":      {"s/emulator.yaml": {Data: []byte("tokens: [{token: t, permission: admin}]\n")}},
		"config bad space":     {"s/emulator.yaml": {Data: []byte("spaces: [{id: x}]\n")}},
		"duplicate id": {
			"s/xy/skills/a/SKILL.md": skill("name: a\ndescription: d\nid: 7b1e4d2a-3c5f-4a8b-9d0e-1f2a3b4c5d6e"),
			"s/xy/skills/b/SKILL.md": skill("name: b\ndescription: d\nid: 7b1e4d2a-3c5f-4a8b-9d0e-1f2a3b4c5d6e"),
		},
		"missing dir": {},
	} {
		if err := New().LoadSeedFS(fsys, "s"); err == nil {
			t.Errorf("%s: no error", name)
		} else if !strings.Contains(err.Error(), "s") {
			t.Errorf("%s: error %q names no path", name, err)
		}
	}
}

// TestLoadSeedHoldsSkillsToTheSpec: a seed cannot make the emulator serve a
// skill the service could not hold.
func TestLoadSeedHoldsSkillsToTheSpec(t *testing.T) {
	for fm, want := range map[string]string{
		"name: -a\ndescription: d":               "name",
		"name: a":                                "description",
		"name: a\ndescription: d\nsource: bogus": `source "bogus"`,
		"name: a\ndescription: d\nsourceUrl: https://example.com/x": "sourceUrl",
	} {
		fsys := fstest.MapFS{"s/xy/skills/a/SKILL.md": {Data: []byte("---\n" + fm + "\n---\nbody\n")}}
		err := New().LoadSeedFS(fsys, "s")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "s/xy/skills/a/SKILL.md") {
			t.Errorf("%q: error %v, want one naming the file and %s", fm, err, want)
		}
	}
	fsys := fstest.MapFS{"s/xy/skills/not safe/SKILL.md": {Data: []byte("---\nname: a\ndescription: d\n---\n")}}
	if err := New().LoadSeedFS(fsys, "s"); err == nil || !strings.Contains(err.Error(), "URL-safe") {
		t.Errorf("a folder name with a space: error %v", err)
	}
	ok := fstest.MapFS{"s/xy/skills/a/SKILL.md": {Data: []byte("---\nname: a\ndescription: d\nsource: github\nsourceUrl: https://example.com/x\n---\n")}}
	if err := New().LoadSeedFS(ok, "s"); err != nil {
		t.Errorf("an imported skill: %v", err)
	}
}

// TestLoadSeedHoldsAgentsToTheSpec: the agent table's uuid arrays and
// object welcomeMessage, which Go's types alone do not enforce.
func TestLoadSeedHoldsAgentsToTheSpec(t *testing.T) {
	for body, want := range map[string]string{
		`{"name":"a","skillIds":["nope"]}`:                       "skillIds[0]",
		`{"name":"a","welcomeMessage":"hi"}`:                     "welcomeMessage must be an object",
		`{"name":"a","conversationStarters":[{"text":"x"}]}`:     "conversationStarters[0].id",
		`{"name":"a","actions":[{"id":"x","key":"k"}]}`:          "actions[0].id",
		`{"name":"a","folderIds":["0000-not-a-uuid-000000000"]}`: "folderIds[0]",
	} {
		fsys := fstest.MapFS{"s/xy/agents/a.json": {Data: []byte(body)}}
		err := New().LoadSeedFS(fsys, "s")
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "a.json") {
			t.Errorf("%s: error %v, want one naming the file and %s", body, err, want)
		}
	}
	ok := fstest.MapFS{"s/xy/agents/a.json": {Data: []byte(`{"name":"a","welcomeMessage":{"text":"hi"},"skillIds":["7b1e4d2a-3c5f-4a8b-9d0e-1f2a3b4c5d6e"]}`)}}
	if err := New().LoadSeedFS(ok, "s"); err != nil {
		t.Errorf("a valid agent: %v", err)
	}
}

// TestAddSkillHoldsToTheSpec: AddSkill refuses what the service could not
// hold, as a seed does, and accepts a name in any script (made in the app).
func TestAddSkillHoldsToTheSpec(t *testing.T) {
	e := New()
	e.AddSpace(Space{ID: "ab12"})
	func() {
		defer func() {
			if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "description") {
				t.Errorf("AddSkill with no description: panic %v, want one naming the description", r)
			}
		}()
		e.AddSkill("ab12", SkillSeed{Name: "a"})
	}()
	if s := e.AddSkill("ab12", SkillSeed{Name: "Café", Description: "d"}); s.Name != "Café" {
		t.Errorf("AddSkill(Café) = %+v", s)
	}
}
