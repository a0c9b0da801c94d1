package remotetest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

var tsPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

var skillKeys = []string{"createdAt", "description", "enabled", "id", "name", "slug", "source", "sourceUrl", "spaceId", "updatedAt"}

func TestSkillFieldsListAndGet(t *testing.T) {
	f := newFixture(t)
	url := "https://github.com/example/skills"
	sk := f.e.AddSkill(testSpace, SkillSeed{Name: "PDF forms", Description: "Fills forms", Instructions: "body\n",
		Enabled: true, Source: remote.SourceGitHub, SourceURL: &url})

	r := f.req(http.MethodGet, "/api/v1/spaces/ab12/skills")
	f.mustStatus(r, 200, "list")
	if ct := r.header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("Content-Type %q", ct)
	}
	var page struct {
		Data    []map[string]json.RawMessage `json:"data"`
		Total   int                          `json:"total"`
		Limit   int                          `json:"limit"`
		Offset  int                          `json:"offset"`
		HasMore bool                         `json:"hasMore"`
	}
	var env map[string]json.RawMessage
	r.json(t, &env)
	if got, want := keys(env), sorted("data", "total", "limit", "offset", "hasMore"); !slices.Equal(got, want) {
		t.Errorf("envelope keys %v, want %v", got, want)
	}
	r.json(t, &page)
	if page.Total != 1 || page.Limit != 50 || page.Offset != 0 || page.HasMore || len(page.Data) != 1 {
		t.Fatalf("page %+v", page)
	}
	if got := keys(page.Data[0]); !slices.Equal(got, skillKeys) {
		t.Errorf("list item keys %v, want %v (no instructions)", got, skillKeys)
	}

	r = f.req(http.MethodGet, skillPath(testSpace, sk.ID))
	f.mustStatus(r, 200, "get")
	var item map[string]json.RawMessage
	r.json(t, &item)
	if got, want := keys(item), sorted(append(slices.Clone(skillKeys), "instructions")...); !slices.Equal(got, want) {
		t.Errorf("get keys %v, want %v", got, want)
	}
	var got remote.Skill
	r.json(t, &got)
	if got.ID != sk.ID || got.SpaceID != testSpace || got.Name != "PDF forms" || got.Description != "Fills forms" ||
		got.Slug != "pdf-forms" || got.Source != "github" || got.SourceURL == nil || *got.SourceURL != url ||
		!got.Enabled || got.Instructions == nil || *got.Instructions != "body\n" {
		t.Errorf("get = %+v", got)
	}
	if err := spec.CheckUUID("id", got.ID); err != nil {
		t.Error(err)
	}
	parseTS(t, got.CreatedAt)
	parseTS(t, got.UpdatedAt)
}

func TestSourceURLNullAndInstructionsNull(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, SkillSeed{Name: "x", Description: "d", Unreadable: true, Enabled: true})
	r := f.req(http.MethodGet, skillPath(testSpace, sk.ID))
	var m map[string]json.RawMessage
	r.json(t, &m)
	if string(m["sourceUrl"]) != "null" || string(m["instructions"]) != "null" || string(m["source"]) != `"manual"` {
		t.Errorf("sourceUrl %s, instructions %s, source %s; want null, null, \"manual\"", m["sourceUrl"], m["instructions"], m["source"])
	}
	f.mustStatus(f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", "SKILL.md")), 404, "unreadable SKILL.md")

	// A name update leaves it unreadable; setting instructions fixes it.
	r = f.patch(skillPath(testSpace, sk.ID), `{"name":"y"}`)
	f.mustStatus(r, 200, "rename unreadable")
	r.json(t, &m)
	if string(m["instructions"]) != "null" {
		t.Errorf("instructions after rename = %s, want null", m["instructions"])
	}
	r = f.patch(skillPath(testSpace, sk.ID), `{"instructions":"now"}`)
	r.json(t, &m)
	if string(m["instructions"]) != `"now"` {
		t.Errorf("instructions = %s", m["instructions"])
	}
}

func TestListOrderAndPagination(t *testing.T) {
	f := newFixture(t)
	var ids []string // oldest first
	for i := range 7 {
		ids = append(ids, f.e.AddSkill(testSpace, seedSkill(fmt.Sprintf("skill %d", i))).ID)
	}
	list := func(query string) remote.Page[remote.Skill] {
		t.Helper()
		r := f.req(http.MethodGet, "/api/v1/spaces/ab12/skills"+query)
		f.mustStatus(r, 200, "list "+query)
		var p remote.Page[remote.Skill]
		r.json(t, &p)
		return p
	}
	var got []string
	for off := 0; ; off += 3 {
		p := list(fmt.Sprintf("?limit=3&offset=%d", off))
		if p.Total != 7 || p.Limit != 3 || p.Offset != off || p.HasMore != (off+3 < 7) {
			t.Fatalf("page at %d: total %d limit %d offset %d hasMore %v", off, p.Total, p.Limit, p.Offset, p.HasMore)
		}
		for _, s := range p.Data {
			if s.Instructions != nil {
				t.Errorf("list item %s has instructions", s.Slug)
			}
			got = append(got, s.ID)
		}
		if !p.HasMore {
			break
		}
	}
	want := slices.Clone(ids)
	slices.Reverse(want)
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want most recently updated first %v", got, want)
	}

	// An update moves the skill to the front.
	f.mustStatus(f.patch(skillPath(testSpace, ids[0]), `{"description":"new"}`), 200, "update")
	if p := list(""); p.Data[0].ID != ids[0] || p.Limit != 50 {
		t.Errorf("after update first = %s (limit %d), want %s", p.Data[0].ID, p.Limit, ids[0])
	}
	if p := list("?offset=7"); len(p.Data) != 0 || p.HasMore || p.Total != 7 {
		t.Errorf("offset at end: %+v", p)
	}
	if r := f.req(http.MethodGet, "/api/v1/spaces/ab12/skills?offset=50"); !strings.Contains(string(r.body), `"data":[]`) {
		t.Errorf("empty page body %s, want data []", r.body)
	}
	// The spec bounds offset only below: a huge one is an empty page.
	if p := list("?offset=1000000000000"); len(p.Data) != 0 || p.HasMore || p.Total != 7 {
		t.Errorf("offset far past the end: %+v", p)
	}
	if p := list("?limit=100&offset=0"); len(p.Data) != 7 {
		t.Errorf("limit 100: %d items", len(p.Data))
	}
	if p := list("?limit=1"); len(p.Data) != 1 || !p.HasMore {
		t.Errorf("limit 1: %+v", p)
	}
}

func TestListQueryRules(t *testing.T) {
	f := newFixture(t)
	for _, q := range []string{
		"limit=0", "limit=101", "limit=-1", "limit=abc", "limit=1.5", "limit=", "limit=+5", "limit=%205",
		"offset=-1", "offset=x", "offset=", "limit=5&limit=6", "page=2", "Limit=5", "limit=5;offset=1",
	} {
		for _, ep := range []string{"skills", "agents"} {
			r := f.req(http.MethodGet, "/api/v1/spaces/ab12/"+ep+"?"+q)
			if r.status != 400 || r.errorCode(t) != CodeInvalidRequest {
				t.Errorf("%s?%s: %d %s, want 400 invalid_request", ep, q, r.status, r.body)
			}
		}
	}
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	if r := f.req(http.MethodGet, skillPath(testSpace, sk.ID)+"?limit=5"); r.status != 400 {
		t.Errorf("query on get: %d, want 400", r.status)
	}
}

func TestUpdate(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("Code Review"))
	if sk.Slug != "code-review" {
		t.Fatalf("slug %q", sk.Slug)
	}
	r := f.patch(skillPath(testSpace, sk.ID), `{"name":"Reviewer 2","description":"Reviews: code, tests"}`)
	f.mustStatus(r, 200, "update")
	var got remote.Skill
	r.json(t, &got)
	if got.Name != "Reviewer 2" || got.Description != "Reviews: code, tests" || got.Slug != "code-review" {
		t.Errorf("after rename: name %q description %q slug %q (slug must not change)", got.Name, got.Description, got.Slug)
	}
	if got.Instructions == nil || *got.Instructions != "Do Code Review.\n" {
		t.Errorf("instructions changed by a rename: %v", got.Instructions)
	}
	if !parseTS(t, got.UpdatedAt).After(parseTS(t, sk.UpdatedAt)) || got.CreatedAt != sk.CreatedAt {
		t.Errorf("updatedAt %s -> %s, createdAt %s -> %s", sk.UpdatedAt, got.UpdatedAt, sk.CreatedAt, got.CreatedAt)
	}

	// name and description are mirrored into the served SKILL.md.
	r = f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", "SKILL.md"))
	f.mustStatus(r, 200, "SKILL.md")
	var file remote.SkillFile
	r.json(t, &file)
	want := "---\nname: Reviewer 2\ndescription: 'Reviews: code, tests'\n---\nDo Code Review.\n"
	if file.Path != "SKILL.md" || file.Content != want {
		t.Errorf("SKILL.md = %q, want %q", file.Content, want)
	}

	// instructions replace the body fully; omitted fields keep their value.
	r = f.patch(skillPath(testSpace, sk.ID), `{"instructions":"# New\n\nbody"}`)
	f.mustStatus(r, 200, "update instructions")
	r.json(t, &got)
	if *got.Instructions != "# New\n\nbody" || got.Name != "Reviewer 2" {
		t.Errorf("after instructions: %+v", got)
	}
	r = f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", "SKILL.md"))
	r.json(t, &file)
	if !strings.HasSuffix(file.Content, "---\n# New\n\nbody") {
		t.Errorf("SKILL.md body: %q", file.Content)
	}

	// An empty object is accepted and still counts as a write.
	before := getSkill(f, sk.ID).UpdatedAt
	f.mustStatus(f.patch(skillPath(testSpace, sk.ID), `{}`), 200, "empty update")
	if after := getSkill(f, sk.ID).UpdatedAt; after == before {
		t.Errorf("updatedAt did not move on update")
	}
}

func TestUpdateRules(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	p := skillPath(testSpace, sk.ID)
	long := func(n int, s string) string { return strings.Repeat(s, n) }
	ok := []string{
		`{"name":"a"}`, `{"name":"7"}`, `{"name":"` + long(64, "x") + `"}`, `{"name":"My skill-2"}`,
		`{"description":"` + long(1024, "d") + `"}`,
		`{"instructions":""}`, `{"instructions":"` + long(50000, "i") + `"}`,
		`{"instructions":"` + long(25000, `\ud83d\ude00`) + `"}`, // 25000 emoji = 50000 UTF-16 units
	}
	for _, b := range ok {
		if r := f.patch(p, b); r.status != 200 {
			t.Errorf("%.60s: %d %s, want 200", b, r.status, r.body)
		}
	}
	bad := []string{
		`{"name":""}`, `{"name":"-a"}`, `{"name":"a-"}`, `{"name":" a"}`, `{"name":"a_b"}`, `{"name":"a.b"}`,
		`{"name":"` + long(65, "x") + `"}`,
		`{"description":""}`, `{"description":"` + long(1025, "d") + `"}`,
		`{"instructions":"` + long(50001, "i") + `"}`,
		`{"instructions":"` + long(25000, `\ud83d\ude00`) + `x"}`, // 50001 UTF-16 units, 25001 runes
		`{"name":null}`, `{"name":5}`, `{"enabled":true}`, `{"Name":"a"}`, `{"slug":"x"}`,
		`{"name":"a","name":"b"}`, `[]`, `"name"`, `null`, `{"name":"a"`, `{"name":"a"}{}`, `{"name":"a"} x`,
		"{\"name\":\"a\xff\"}",
		`{"name":"Ünïcode"}`, `{"name":"Café"}`, // letters and digits are ASCII (doc.go)
	}
	for _, b := range bad {
		r := f.patch(p, b)
		if r.status != 400 || r.errorCode(t) != CodeInvalidRequest {
			t.Errorf("%.60q: %d %s, want 400", b, r.status, r.body)
		}
	}
	// Body and Content-Type.
	cases := []struct {
		ct, body string
		want     int
	}{
		{"", `{"name":"a"}`, 415},
		{"text/plain", `{"name":"a"}`, 415},
		{"application/json; charset=latin1", `{"name":"a"}`, 415},
		{"application/json; charset=utf-8", `{"name":"a"}`, 200},
		{"application/json", "", 400},
		{"", "", 400},
	}
	for _, c := range cases {
		if r := f.send(http.MethodPatch, p, rwToken, c.ct, c.body); r.status != c.want {
			t.Errorf("Content-Type %q body %q: %d, want %d", c.ct, c.body, r.status, c.want)
		}
	}
	if r := f.patch(p, `{"instructions":"`+long(maxBodyBytes, "x")+`"}`); r.status != 413 {
		t.Errorf("huge body: %d, want 413", r.status)
	}
}

func TestBuiltinSkills(t *testing.T) {
	f := newFixture(t)
	b := f.e.AddSkill(testSpace, SkillSeed{Name: "Web search", Description: "d", Enabled: true, Builtin: true})
	u := f.e.AddSkill(testSpace, seedSkill("mine"))
	var p remote.Page[remote.Skill]
	f.req(http.MethodGet, "/api/v1/spaces/ab12/skills").json(t, &p)
	if p.Total != 1 || p.Data[0].ID != u.ID {
		t.Errorf("list shows built-in: %+v", p)
	}
	for _, path := range []string{skillPath(testSpace, b.ID), skillPath(testSpace, b.ID, "files", "SKILL.md")} {
		if r := f.req(http.MethodGet, path); r.status != 404 {
			t.Errorf("GET %s: %d, want 404", path, r.status)
		}
	}
	for _, path := range []string{skillPath(testSpace, b.ID, "enable"), skillPath(testSpace, b.ID, "disable")} {
		if r := f.req(http.MethodPost, path); r.status != 404 {
			t.Errorf("POST %s: %d, want 404", path, r.status)
		}
	}
	r := f.patch(skillPath(testSpace, b.ID), `{"name":"x"}`)
	if r.status != 403 || r.errorCode(t) != CodeBuiltinSkill {
		t.Errorf("update built-in: %d %s, want 403 builtin_skill", r.status, r.body)
	}
	if s, _ := f.e.Skill(testSpace, b.ID); s.Name != "Web search" {
		t.Errorf("built-in renamed to %q", s.Name)
	}
	if n := f.e.ActiveCount(testSpace); n != 2 {
		t.Errorf("active %d, want 2 (built-in counts)", n)
	}
}

func TestEnableDisable(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, SkillSeed{Name: "a", Description: "d", Instructions: "i"})
	r := f.req(http.MethodPost, skillPath(testSpace, sk.ID, "enable"))
	f.mustStatus(r, 200, "enable")
	var got remote.Skill
	r.json(t, &got)
	if !got.Enabled || got.Instructions == nil || *got.Instructions != "i" {
		t.Errorf("enable answer %+v", got)
	}
	// A no-op enable changes nothing, updatedAt included.
	r = f.req(http.MethodPost, skillPath(testSpace, sk.ID, "enable"))
	f.mustStatus(r, 200, "enable again")
	var again remote.Skill
	r.json(t, &again)
	if again.UpdatedAt != got.UpdatedAt || !again.Enabled {
		t.Errorf("no-op enable moved updatedAt %s -> %s", got.UpdatedAt, again.UpdatedAt)
	}
	r = f.req(http.MethodPost, skillPath(testSpace, sk.ID, "disable"))
	f.mustStatus(r, 200, "disable")
	r.json(t, &got)
	if got.Enabled || *got.Instructions != "i" {
		t.Errorf("disable answer %+v", got)
	}
	r = f.req(http.MethodPost, skillPath(testSpace, sk.ID, "disable"))
	f.mustStatus(r, 200, "disable again")
	r.json(t, &again)
	if again.UpdatedAt != got.UpdatedAt || again.Enabled {
		t.Errorf("no-op disable moved updatedAt %s -> %s", got.UpdatedAt, again.UpdatedAt)
	}
}

func TestEnableLimit(t *testing.T) {
	for _, c := range []struct {
		name           string
		builtinActive  int
		builtinSeeds   int
		userEnabled    int
		wantEnableCode int
	}{
		{"39 user", 0, 0, 39, 200},
		{"40 user", 0, 0, 40, 409},
		{"38 user and 2 hidden", 2, 0, 38, 409},
		{"37 user, 1 hidden, 1 built-in seed", 1, 1, 37, 200},
		{"38 user, 1 hidden, 1 built-in seed", 1, 1, 38, 409},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			f.e.AddSpace(Space{ID: testSpace, BuiltinActive: c.builtinActive})
			for i := range c.builtinSeeds {
				f.e.AddSkill(testSpace, SkillSeed{Name: fmt.Sprintf("b%d", i), Description: "d", Enabled: true, Builtin: true})
			}
			var first string
			for i := range c.userEnabled {
				s := f.e.AddSkill(testSpace, seedSkill(fmt.Sprintf("u%d", i)))
				if i == 0 {
					first = s.ID
				}
			}
			off := f.e.AddSkill(testSpace, SkillSeed{Name: "off", Description: "d"})
			r := f.req(http.MethodPost, skillPath(testSpace, off.ID, "enable"))
			if r.status != c.wantEnableCode {
				t.Fatalf("enable: %d %s, want %d", r.status, r.body, c.wantEnableCode)
			}
			if r.status == 409 {
				if code := r.errorCode(t); code != CodeActiveLimit {
					t.Errorf("code %q", code)
				}
				if s, _ := f.e.Skill(testSpace, off.ID); s.Enabled {
					t.Error("409 enabled the skill")
				}
				// At the limit even an enabled skill is refused: the
				// errors table's 409 sets no condition on the skill.
				f.mustStatus(f.req(http.MethodPost, skillPath(testSpace, first, "enable")), 409, "enable of an enabled skill at 40")
				if s, _ := f.e.Skill(testSpace, first); !s.Enabled {
					t.Error("409 disabled the enabled skill")
				}
				// Disable one, then enable works.
				f.mustStatus(f.req(http.MethodPost, skillPath(testSpace, first, "disable")), 200, "disable")
				f.mustStatus(f.req(http.MethodPost, skillPath(testSpace, off.ID, "enable")), 200, "enable after disable")
			}
			if n := f.e.ActiveCount(testSpace); n != 40 {
				t.Errorf("active %d, want 40", n)
			}
			if m := f.e.MaxActiveSeen(testSpace); m != 40 {
				t.Errorf("max active seen %d, want 40", m)
			}
		})
	}
}

func TestSkillsFeatureDisabled(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, SkillSeed{Name: "a", Description: "d"})
	f.e.AddSpace(Space{ID: testSpace, SkillsFeatureDisabled: true})
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, skillPath(testSpace, sk.ID, "enable"), ""},
		{http.MethodPost, skillPath(testSpace, sk.ID, "disable"), ""},
		{http.MethodPatch, skillPath(testSpace, sk.ID), `{"name":"b"}`},
	} {
		ct := ""
		if c.body != "" {
			ct = "application/json"
		}
		r := f.send(c.method, c.path, rwToken, ct, c.body)
		if r.status != 403 || r.errorCode(t) != CodeFeatureDisabled {
			t.Errorf("%s %s: %d %s, want 403 feature_disabled", c.method, c.path, r.status, r.body)
		}
	}
	f.mustStatus(f.req(http.MethodGet, skillPath(testSpace, sk.ID)), 200, "get with feature disabled")
	f.mustStatus(f.req(http.MethodGet, "/api/v1/spaces/ab12/skills"), 200, "list with feature disabled")
}

func TestFiles(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, SkillSeed{Name: "a", Description: "d", Instructions: "i",
		Files:       map[string]string{"references/guide.md": "guide", "scripts/run_1.sh": "echo", "SKILL.md": "ignored"},
		BinaryFiles: []string{"assets/logo.png"}})
	for path, want := range map[string]string{"references/guide.md": "guide", "scripts/run_1.sh": "echo", "SKILL.md": "---\nname: a\ndescription: d\n---\ni"} {
		r := f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", path))
		f.mustStatus(r, 200, path)
		var file map[string]string
		r.json(t, &file)
		if len(file) != 2 || file["path"] != path || file["content"] != want {
			t.Errorf("%s: %v", path, file)
		}
	}
	for _, path := range []string{"assets/logo.png", "missing.md", "skill.md", "references"} {
		if r := f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", path)); r.status != 404 {
			t.Errorf("%s: %d, want 404", path, r.status)
		}
	}
	for _, path := range []string{
		"a//b", "./a", "a/./b", "a/../b", "..", "a/", "a%2Fb", "a%20b", "a b", "a~b", "é.md", "a:b",
		strings.Repeat("a", 513), "a?x=1",
	} {
		r := f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", path))
		if r.status != 400 {
			t.Errorf("path %.40q: %d %s, want 400", path, r.status, r.body)
		}
	}
	// 512 characters is the limit.
	if r := f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files", strings.Repeat("a", 512))); r.status != 404 {
		t.Errorf("512-char path: %d, want 404", r.status)
	}
	// No path at all is no endpoint.
	if r := f.req(http.MethodGet, skillPath(testSpace, sk.ID, "files")); r.status != 404 {
		t.Errorf("files without path: %d, want 404", r.status)
	}
}

func TestNotFound(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	f.e.AddSpace(Space{ID: "zz99"})
	other := "00000000-0000-4000-8000-000000000000"
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/spaces/nope/skills"},
		{http.MethodGet, "/api/v1/spaces/nope/agents"},
		{http.MethodGet, skillPath("nope", sk.ID)},
		{http.MethodGet, skillPath("zz99", sk.ID)}, // skill of another space
		{http.MethodGet, skillPath(testSpace, other)},
		{http.MethodGet, skillPath(testSpace, strings.ToUpper(sk.ID))},
		{http.MethodPost, skillPath(testSpace, other, "enable")},
		{http.MethodPost, skillPath(testSpace, other, "disable")},
		{http.MethodGet, skillPath(testSpace, other, "files", "SKILL.md")},
		{http.MethodPost, agentPath(testSpace, other, "publish")},
		{http.MethodDelete, agentPath(testSpace, other)},
		{http.MethodGet, "/api/kb/assets/ab12/" + other},
		{http.MethodGet, "/api/v1/spaces/ab12/skills/"},
		{http.MethodGet, "/api/v2/spaces/ab12/skills"},
		{http.MethodGet, "/api/v1/spaces/ab12"},
		{http.MethodGet, "/"},
		{http.MethodGet, "/api/kb/assets/ab12"},
	} {
		r := f.req(c.method, c.path)
		if r.status != 404 || r.errorCode(t) != CodeNotFound {
			t.Errorf("%s %s: %d %s, want 404", c.method, c.path, r.status, r.body)
		}
	}
	r := f.patch(skillPath(testSpace, other), `{"name":"a"}`)
	f.mustStatus(r, 404, "update unknown skill")
}

func TestMethodNotAllowed(t *testing.T) {
	f := newFixture(t)
	id := "00000000-0000-4000-8000-000000000000"
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPost, "/api/v1/spaces/ab12/skills", "GET"},
		{http.MethodDelete, skillPath(testSpace, id), ""},
		{http.MethodPut, skillPath(testSpace, id), ""},
		{http.MethodGet, skillPath(testSpace, id, "enable"), "POST"},
		{http.MethodHead, "/api/v1/spaces/ab12/skills", "GET"},
		{http.MethodGet, agentPath(testSpace, id), "DELETE"},
		{http.MethodGet, agentPath(testSpace, id, "publish"), "POST"},
		{http.MethodDelete, "/api/kb/assets/ab12/" + id, "GET"},
	} {
		r := f.req(c.method, c.path)
		if r.status != 405 {
			t.Errorf("%s %s: %d, want 405", c.method, c.path, r.status)
			continue
		}
		allow := r.header.Get("Allow")
		if c.allow != "" && allow != c.allow || c.allow == "" && allow == "" {
			t.Errorf("%s %s: Allow %q", c.method, c.path, allow)
		}
	}
}

func TestPathParamRules(t *testing.T) {
	f := newFixture(t)
	long := "abcdefghijklmnopqrstu" // 21 characters
	f.e.AddSpace(Space{ID: long})
	sk := f.e.AddSkill(long, SkillSeed{Name: "a", Description: "d"})
	f.mustStatus(f.req(http.MethodPost, skillPath(long, sk.ID, "enable")), 200, "enable on a 21-character space")
	id := sk.ID
	for _, c := range []struct{ method, path string }{
		{http.MethodGet, "/api/v1/spaces/" + long + "/skills"},
		{http.MethodGet, skillPath(long, id)},
		{http.MethodPost, skillPath(long, id, "disable")},
		{http.MethodGet, skillPath(long, id, "files", "SKILL.md")},
		{http.MethodGet, "/api/v1/spaces/" + long + "/agents"},
		{http.MethodPost, agentPath(long, id, "publish")},
		{http.MethodDelete, agentPath(long, id)},
		{http.MethodGet, "/api/kb/assets/" + long + "/" + id},
		{http.MethodGet, "/api/v1/spaces/a/skills"},
		{http.MethodGet, "/api/v1/spaces/abcdefg/skills"},
		{http.MethodPost, skillPath("abcdefghijklmnopqrst", id, "enable")}, // 20
		{http.MethodGet, "/api/v1/spaces//skills"},
		{http.MethodGet, "/api/v1/spaces/a%2Fb/skills"},
		{http.MethodGet, skillPath(testSpace, "not-a-uuid")},
		{http.MethodGet, skillPath(testSpace, id+"0")},
		{http.MethodPost, skillPath(testSpace, "x", "enable")},
		{http.MethodPost, agentPath(testSpace, "x", "publish")},
		{http.MethodDelete, agentPath(testSpace, "x")},
		{http.MethodGet, "/api/kb/assets/ab12/x"},
	} {
		r := f.req(c.method, c.path)
		if r.status != 400 || r.errorCode(t) != CodeInvalidRequest {
			t.Errorf("%s %s: %d %s, want 400", c.method, c.path, r.status, r.body)
		}
	}
	f.mustStatus(f.patch(skillPath(long, id), `{"name":"b"}`), 400, "update on a 21-character space")
}

func TestNoBodyEndpoints(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	ag := f.e.AddAgent(testSpace, remote.Agent{Name: "x"})
	for _, c := range []struct{ method, path string }{
		{http.MethodPost, skillPath(testSpace, sk.ID, "enable")},
		{http.MethodPost, skillPath(testSpace, sk.ID, "disable")},
		{http.MethodPost, agentPath(testSpace, ag.ID, "publish")},
		{http.MethodDelete, agentPath(testSpace, ag.ID)},
	} {
		if r := f.send(c.method, c.path, rwToken, "application/json", `{}`); r.status != 400 {
			t.Errorf("%s %s with a body: %d, want 400", c.method, c.path, r.status)
		}
		if r := f.send(c.method, c.path, rwToken, "application/json", ""); r.status != 400 {
			t.Errorf("%s %s with Content-Type and no body: %d, want 400", c.method, c.path, r.status)
		}
	}
	if r := f.send(http.MethodGet, "/api/v1/spaces/ab12/skills", rwToken, "application/json", "{}"); r.status != 400 {
		t.Errorf("GET with a body: %d, want 400", r.status)
	}
	// Nothing above took effect.
	if len(f.e.Agents(testSpace)) != 1 {
		t.Error("agent deleted by a refused request")
	}
}

func TestSlugs(t *testing.T) {
	for in, want := range map[string]string{
		"Code Review": "code-review", "  PDF -- forms!! ": "pdf-forms", "A1": "a1", "Ünïcode x": "n-code-x",
		"---": "skill", "x_y.z": "x-y-z",
	} {
		if got := names.Slug(in); got != want {
			t.Errorf("names.Slug(%q) = %q, want %q", in, got, want)
		}
	}
	f := newFixture(t)
	a := f.e.AddSkill(testSpace, seedSkill("Same Name"))
	b := f.e.AddSkill(testSpace, seedSkill("same name"))
	if a.Slug != "same-name" || b.Slug != "same-name-2" || a.ID == b.ID {
		t.Errorf("slugs %q %q ids %s %s", a.Slug, b.Slug, a.ID, b.ID)
	}
}

func TestUpdatedAtStrictlyIncreasing(t *testing.T) {
	f := newFixture(t)
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	prev := parseTS(t, sk.UpdatedAt)
	for i := range 30 {
		r := f.patch(skillPath(testSpace, sk.ID), fmt.Sprintf(`{"description":"d%d"}`, i))
		var s remote.Skill
		r.json(t, &s)
		ts := parseTS(t, s.UpdatedAt)
		if !ts.After(prev) {
			t.Fatalf("update %d: updatedAt %s not after %s", i, ts, prev)
		}
		prev = ts
	}
}

func TestNewlineModes(t *testing.T) {
	for _, c := range []struct {
		mode NewlineMode
		in   map[string]string
	}{
		{KeepNewline, map[string]string{"a": "a", "a\n": "a\n", "a\n\n": "a\n\n", "": ""}},
		{TrimFinalNewline, map[string]string{"a": "a", "a\n": "a", "a\n\n": "a", "a\r\n": "a", "": ""}},
		{AddFinalNewline, map[string]string{"a": "a\n", "a\n": "a\n", "a\n\n": "a\n\n", "": ""}},
	} {
		f := newFixture(t)
		f.e.SetFaults(Faults{Newline: c.mode})
		sk := f.e.AddSkill(testSpace, seedSkill("a"))
		for in, want := range c.in {
			body, _ := json.Marshal(map[string]string{"instructions": in})
			r := f.patch(skillPath(testSpace, sk.ID), string(body))
			var s remote.Skill
			r.json(t, &s)
			if *s.Instructions != want {
				t.Errorf("mode %d: %q stored as %q, want %q", c.mode, in, *s.Instructions, want)
			}
			if got := getSkill(f, sk.ID); *got.Instructions != want {
				t.Errorf("mode %d: get gives %q", c.mode, *got.Instructions)
			}
		}
	}
}

func TestEditSkill(t *testing.T) {
	f := newFixture(t)
	a := f.e.AddSkill(testSpace, seedSkill("a"))
	b := f.e.AddSkill(testSpace, seedSkill("b"))
	f.e.EditSkill(testSpace, a.ID, func(s *SkillSeed) {
		s.Instructions = "edited in the app"
		s.Slug = "changed" // ignored: immutable
		s.Enabled = false
	})
	var p remote.Page[remote.Skill]
	f.req(http.MethodGet, "/api/v1/spaces/ab12/skills").json(t, &p)
	if p.Data[0].ID != a.ID || p.Data[1].ID != b.ID {
		t.Errorf("edit did not move the skill to the front")
	}
	got := getSkill(f, a.ID)
	if *got.Instructions != "edited in the app" || got.Slug != "a" || got.Enabled {
		t.Errorf("after edit %+v", got)
	}
}
