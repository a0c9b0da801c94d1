package remotetest

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/skillsync/skillsync/remote"
	"github.com/skillsync/skillsync/spec"
)

// appFixture is the app of an emulator with space ab12, served on
// loopback, and a client that does not follow redirects.
type appFixture struct {
	t       *testing.T
	e       *Emulator
	app     *App
	url     string
	changes atomic.Int64 // calls of onChange
}

func newAppFixture(t *testing.T) *appFixture {
	t.Helper()
	f := &appFixture{t: t, e: New()}
	f.e.AddSpace(Space{ID: testSpace})
	f.e.AddToken(rwToken, ReadWrite)
	f.app = NewApp(f.e, func() { f.changes.Add(1) })
	srv, err := f.app.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	f.url = srv.URL
	return f
}

// page is an answer of the app read whole.
type appAnswer struct {
	status   int
	location string
	body     string
}

func (f *appFixture) do(req *http.Request) appAnswer {
	f.t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := c.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return appAnswer{status: resp.StatusCode, location: resp.Header.Get("Location"), body: string(body)}
}

func (f *appFixture) get(path string) appAnswer {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodGet, f.url+path, nil)
	if err != nil {
		f.t.Fatal(err)
	}
	return f.do(req)
}

// post sends a form as a page of the app would: with the headers a
// browser sends from a page of the same origin.
func (f *appFixture) post(path string, form url.Values) appAnswer {
	f.t.Helper()
	return f.postRaw(path, form, map[string]string{"Origin": f.url, "Sec-Fetch-Site": "same-origin"})
}

func (f *appFixture) postRaw(path string, form url.Values, header map[string]string) appAnswer {
	f.t.Helper()
	req, err := http.NewRequest(http.MethodPost, f.url+path, strings.NewReader(form.Encode()))
	if err != nil {
		f.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return f.do(req)
}

func (f *appFixture) skill(slug string) remote.Skill {
	f.t.Helper()
	s, ok := f.e.SkillBySlug(testSpace, slug)
	if !ok {
		f.t.Fatalf("space has no skill %s", slug)
	}
	return s
}

// wantStatus checks an answer's status and that its page holds each of
// contains, as markup or as the text it shows.
func wantStatus(t *testing.T, a appAnswer, status int, contains ...string) {
	t.Helper()
	main := a.body
	if i := strings.Index(main, "<main>"); i >= 0 {
		main = main[i:]
	}
	if a.status != status {
		t.Fatalf("status %d, want %d; page:\n%s", a.status, status, main)
	}
	text := html.UnescapeString(a.body)
	for _, c := range contains {
		if !strings.Contains(a.body, c) && !strings.Contains(text, c) {
			t.Errorf("the page lacks %q:\n%s", c, main)
		}
	}
}

// addSlug adds a skill with that slug to space ab12.
func addSlug(e *Emulator, slug string, enabled bool) remote.Skill {
	s := seedSkill("Skill " + slug)
	s.Slug, s.Enabled = slug, enabled
	return e.AddSkill(testSpace, s)
}

// TestAppRefusesFormsFromElsewhere: a form sent from another origin
// changes nothing.
func TestAppRefusesFormsFromElsewhere(t *testing.T) {
	f := newAppFixture(t)
	before := addSlug(f.e, "sql-style", true)
	path := "/app/spaces/ab12/skills/sql-style/disable"
	for _, tc := range []struct {
		name   string
		header map[string]string
		want   string
	}{
		{"another site, Sec-Fetch-Site", map[string]string{"Sec-Fetch-Site": "cross-site"}, "sent from another site"},
		{"another local page, Sec-Fetch-Site", map[string]string{"Sec-Fetch-Site": "same-site"}, "sent from another site"},
		{"another origin, Origin", map[string]string{"Origin": "http://127.0.0.1:1"}, "sent from another site"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := f.postRaw(path, url.Values{}, tc.header)
			wantStatus(t, a, http.StatusForbidden, tc.want)
		})
	}
	if after := f.skill("sql-style"); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused form changed the skill: %+v", after)
	}
	if n := f.changes.Load(); n != 0 {
		t.Errorf("onChange called %d times for refused forms", n)
	}
	// The same form, from the app's own page, goes through.
	a := f.post(path, url.Values{})
	wantStatus(t, a, http.StatusSeeOther)
	if f.skill("sql-style").Enabled {
		t.Error("the form from the app's page did not disable the skill")
	}
}

// TestAppAnswersOnlyOnLoopbackNames: a page or form sent under another
// host name (a DNS name rebound to 127.0.0.1, whose pages are of the same
// origin) is refused.
func TestAppAnswersOnlyOnLoopbackNames(t *testing.T) {
	f := newAppFixture(t)
	req, err := http.NewRequest(http.MethodGet, f.url+"/app/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "rebound.example:80"
	a := f.do(req)
	wantStatus(t, a, http.StatusForbidden, "only on a loopback host name")
	addSlug(f.e, "sql-style", true)
	post, err := http.NewRequest(http.MethodPost, f.url+"/app/spaces/ab12/skills/sql-style/disable", strings.NewReader(""))
	if err != nil {
		t.Fatal(err)
	}
	post.Host = "rebound.example:80"
	post.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	post.Header.Set("Origin", "http://rebound.example:80")
	post.Header.Set("Sec-Fetch-Site", "same-origin")
	wantStatus(t, f.do(post), http.StatusForbidden, "only on a loopback host name")
	if !f.skill("sql-style").Enabled {
		t.Error("a form sent under a rebound host name disabled the skill")
	}
	req.URL.Path = "/app/spaces/ab12/"
	req.Host = "localhost"
	wantStatus(t, f.do(req), http.StatusOK, "sql-style")
}

// TestAppEnableRefusedAtTheLimit: with 40 active skills (built-in ones
// counted), enabling a 41st from the app is refused with a message that
// says what to do, and nothing changes.
func TestAppEnableRefusedAtTheLimit(t *testing.T) {
	for _, builtin := range []int{0, 3} {
		t.Run(fmt.Sprintf("builtinActive=%d", builtin), func(t *testing.T) {
			f := newAppFixture(t)
			f.e.AddSpace(Space{ID: testSpace, BuiltinActive: builtin})
			for i := range spec.MaxActiveSkills - builtin {
				addSlug(f.e, fmt.Sprintf("active-%02d", i), true)
			}
			before := addSlug(f.e, "one-too-many", false)
			for _, from := range []string{"skill", "space"} {
				a := f.post("/app/spaces/ab12/skills/one-too-many/enable", url.Values{"return": {from}})
				want := "Space ab12 already has 40 active skills, the most"
				if builtin > 0 {
					want = "Space ab12 already has 40 active skills (3 of them built in), the most"
				}
				wantStatus(t, a, http.StatusConflict, want, "disable another skill first")
			}
			if after := f.skill("one-too-many"); !reflect.DeepEqual(after, before) {
				t.Errorf("the refused enable changed the skill: %+v", after)
			}
			if n := f.e.ActiveCount(testSpace); n != spec.MaxActiveSkills {
				t.Errorf("%d active, want 40", n)
			}
			// Disable one, and the enable goes through.
			wantStatus(t, f.post("/app/spaces/ab12/skills/active-00/disable", url.Values{}), http.StatusSeeOther)
			wantStatus(t, f.post("/app/spaces/ab12/skills/one-too-many/enable", url.Values{}), http.StatusSeeOther)
			if !f.skill("one-too-many").Enabled {
				t.Error("the enable under the limit did not enable the skill")
			}
		})
	}
}

// TestAppCreateAtTheLimitCreatesDisabled: the space at 40 active, a new
// skill is created disabled, and the page says why.
func TestAppCreateAtTheLimitCreatesDisabled(t *testing.T) {
	f := newAppFixture(t)
	f.e.AddSpace(Space{ID: testSpace, BuiltinActive: spec.MaxActiveSkills})
	a := f.post("/app/spaces/ab12/skills", url.Values{"name": {"Late Comer"}, "description": {"Comes late."}})
	wantStatus(t, a, http.StatusSeeOther)
	if f.skill("late-comer").Enabled {
		t.Error("the skill was created enabled past the limit")
	}
	wantStatus(t, f.get(a.location), http.StatusOK, "Skill created, disabled: the space already has 40 active skills.")
}

// TestAppUnknownSlug: a slug the space does not have, or that is no slug
// at all, is a 404 page naming it, for every page and form.
func TestAppUnknownSlug(t *testing.T) {
	f := newAppFixture(t)
	addSlug(f.e, "sql-style", true)
	for _, slug := range []string{"no-such-skill", "SQL-Style", "sql%20style", "%3Cb%3E"} {
		t.Run(slug, func(t *testing.T) {
			base := "/app/spaces/ab12/skills/" + slug
			shown, _ := url.PathUnescape(slug)
			want := fmt.Sprintf("Space ab12 has no skill with the slug %q", shown)
			wantStatus(t, f.get(base), http.StatusNotFound, want)
			for _, p := range []string{"", "/enable", "/disable", "/file", "/file/delete"} {
				wantStatus(t, f.post(base+p, url.Values{"name": {"X"}, "description": {"Y"}, "path": {"a.md"}, "new": {"1"}}), http.StatusNotFound, "has no skill with the slug")
			}
		})
	}
	wantStatus(t, f.get("/app/spaces/zz99/"), http.StatusNotFound, "There is no space &#34;zz99&#34;")
	wantStatus(t, f.get("/app/spaces/ab12/skills/sql-style/file?path=nope.md"), http.StatusNotFound, "has no text file &#34;nope.md&#34;")
	wantStatus(t, f.get("/app/nowhere"), http.StatusNotFound, "There is no page at /app/nowhere")
	if n := f.changes.Load(); n != 0 {
		t.Errorf("onChange called %d times, for nothing changed", n)
	}
}

// TestAppRefusesInvalidNames: a name that breaks the service's rule is
// refused on create and on edit, with the rule in words and the form
// filled as it was sent; nothing changes.
func TestAppRefusesInvalidNames(t *testing.T) {
	f := newAppFixture(t)
	before := addSlug(f.e, "sql-style", true)
	for _, tc := range []struct{ name, want string }{
		{"", "must be 1 to 64 characters long"},
		{strings.Repeat("a", 65), "must be 1 to 64 characters long"},
		{"-leading", "must begin and end with a letter or digit"},
		{"trailing ", "must begin and end with a letter or digit"},
		{"under_score", "may contain only letters, digits, spaces and hyphens"},
		{"Caf\u00e9 Notes", "may contain only ASCII letters"},
		{"<b>bold</b>", "must begin and end with a letter or digit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sent := url.Values{"name": {tc.name}, "description": {"A description."}, "instructions": {"Body"}}
			a := f.post("/app/spaces/ab12/skills", sent)
			wantStatus(t, a, http.StatusBadRequest, tc.want, `aria-invalid="true"`)
			if tc.name != "" && !strings.Contains(a.body, `value="`+templateEscape(tc.name)+`"`) {
				t.Errorf("the refused form does not hold the name sent, escaped:\n%s", a.body)
			}
			a = f.post("/app/spaces/ab12/skills/sql-style", sent)
			wantStatus(t, a, http.StatusBadRequest, tc.want)
		})
	}
	if n := len(f.e.Skills(testSpace)); n != 1 {
		t.Errorf("%d skills, want only the one seeded", n)
	}
	if after := f.skill("sql-style"); !reflect.DeepEqual(after, before) {
		t.Errorf("a refused edit changed the skill: %+v", after)
	}
}

func templateEscape(s string) string {
	return strings.NewReplacer("<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "&", "&amp;").Replace(s)
}

// TestAppCreatesSkillsAsTheServiceDoes: the slug is made from the name as
// the emulator makes it for AddSkill (and fsrepo.Slugify expects), with
// "-2" for a slug taken; a created skill is enabled, manual, with a fresh
// id and the instructions as typed (browser CRLF line ends as LF).
func TestAppCreatesSkillsAsTheServiceDoes(t *testing.T) {
	f := newAppFixture(t)
	for _, tc := range []struct{ name, slug string }{
		{"Brand Voice", "brand-voice"},
		{"brand  voice", "brand-voice-2"},
		{"SQL-Style 2", "sql-style-2"},
		{"42", "42"},
	} {
		a := f.post("/app/spaces/ab12/skills", url.Values{"name": {tc.name}, "description": {"About " + tc.name + "."}, "instructions": {"# Title\r\n\r\nBody.\r\n"}})
		wantStatus(t, a, http.StatusSeeOther)
		if want := "/app/spaces/ab12/skills/" + tc.slug + "?done=created"; a.location != want {
			t.Errorf("created %q: redirected to %s, want %s", tc.name, a.location, want)
		}
		s := f.skill(tc.slug)
		if s.Name != tc.name || !s.Enabled || s.Source != remote.SourceManual || *s.Instructions != "# Title\n\nBody.\n" {
			t.Errorf("created %q: %+v (instructions %q)", tc.name, s, *s.Instructions)
		}
		if s.ID == nameUUID(testSpace, "skill", tc.slug) {
			t.Errorf("created %q: the id is the one derived from the slug, not a new one", tc.name)
		}
	}
	// The slug AddSkill makes from the same names, in a fresh space.
	e := New()
	e.AddSpace(Space{ID: "cd34"})
	for _, name := range []string{"Brand Voice", "brand  voice", "SQL-Style 2", "42"} {
		made := e.AddSkill("cd34", SkillSeed{Name: name, Description: "d"})
		if _, ok := f.e.SkillBySlug(testSpace, made.Slug); !ok {
			t.Errorf("AddSkill made slug %q from %q, which the app did not", made.Slug, name)
		}
	}
	if n := f.changes.Load(); n != 4 {
		t.Errorf("onChange called %d times for 4 skills created", n)
	}
}

// TestAppEditsOnlyWhatChanged: a saved form writes only the fields that
// differ from what the page showed, as EditSkill would (updatedAt moves);
// a form sent back unchanged writes nothing, even when the stored text has
// line ends a browser rewrites.
func TestAppEditsOnlyWhatChanged(t *testing.T) {
	f := newAppFixture(t)
	f.e.AddSkill(testSpace, SkillSeed{Slug: "crlf", Name: "Crlf", Description: "Old.", Instructions: "\nline one\r\nline two\r\n", Enabled: true})
	before := f.skill("crlf")

	// The page holds the instructions so that the browser sends them back
	// as they are: the textarea's first newline is eaten by the parser.
	page := f.get("/app/spaces/ab12/skills/crlf")
	wantStatus(t, page, http.StatusOK)
	if !strings.Contains(page.body, "name=\"instructions\" rows=\"18\" aria-describedby=\"instructions-hint\">\n\nline one\r\nline two\r\n</textarea>") {
		t.Errorf("the textarea does not hold the instructions with their leading newline kept:\n%s", page.body)
	}
	asSent := url.Values{"name": {"Crlf"}, "description": {"Old."}, "instructions": {"\r\nline one\r\nline two\r\n"}}
	a := f.post("/app/spaces/ab12/skills/crlf", asSent)
	wantStatus(t, a, http.StatusSeeOther)
	if !strings.HasSuffix(a.location, "done=unchanged") {
		t.Errorf("an unchanged form redirected to %s", a.location)
	}
	if after := f.skill("crlf"); !reflect.DeepEqual(after, before) {
		t.Errorf("an unchanged form changed the skill: %+v", after)
	}

	asSent.Set("description", "New.")
	wantStatus(t, f.post("/app/spaces/ab12/skills/crlf", asSent), http.StatusSeeOther)
	after := f.skill("crlf")
	if after.Description != "New." || *after.Instructions != *before.Instructions || after.Name != before.Name {
		t.Errorf("after a description edit: %+v (instructions %q)", after, *after.Instructions)
	}
	if after.UpdatedAt <= before.UpdatedAt {
		t.Errorf("updatedAt %s did not move past %s", after.UpdatedAt, before.UpdatedAt)
	}
	if after.Slug != "crlf" || after.ID != before.ID {
		t.Errorf("the edit changed the slug or id: %+v", after)
	}

	asSent.Set("name", "Renamed Skill")
	asSent.Set("instructions", "New body.\r\n")
	wantStatus(t, f.post("/app/spaces/ab12/skills/crlf", asSent), http.StatusSeeOther)
	after = f.skill("crlf")
	if after.Name != "Renamed Skill" || *after.Instructions != "New body.\n" || after.Slug != "crlf" {
		t.Errorf("after a name and instructions edit: %+v (instructions %q)", after, *after.Instructions)
	}
	if f.e.SkillFiles(testSpace, after.ID)["SKILL.md"] != "---\nname: Renamed Skill\ndescription: New.\n---\nNew body.\n" {
		t.Errorf("SKILL.md as the API serves it: %q", f.e.SkillFiles(testSpace, after.ID)["SKILL.md"])
	}
	if n := f.changes.Load(); n != 2 {
		t.Errorf("onChange called %d times for 2 edits", n)
	}
}

// TestAppEditsFiles: a text file is added, changed and deleted; SKILL.md,
// a path breaking the rule, a binary file and a taken path are refused.
func TestAppEditsFiles(t *testing.T) {
	f := newAppFixture(t)
	f.e.AddSkill(testSpace, SkillSeed{Slug: "pdf", Name: "Pdf", Description: "d", Enabled: true, BinaryFiles: []string{"logo.png"}})
	base := "/app/spaces/ab12/skills/pdf/file"
	wantStatus(t, f.post(base, url.Values{"new": {"1"}, "path": {"references/check.md"}, "content": {"- one\r\n"}}), http.StatusSeeOther)
	id := f.skill("pdf").ID
	if got := f.e.SkillFiles(testSpace, id)["references/check.md"]; got != "- one\n" {
		t.Errorf("added file holds %q", got)
	}
	wantStatus(t, f.get(base+"?path=references/check.md"), http.StatusOK, "- one")
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"SKILL.md", http.StatusBadRequest, "SKILL.md is made of the skill&#39;s name"},
		{"../escape.md", http.StatusBadRequest, "must not contain"},
		{"a b.md", http.StatusBadRequest, "may contain only letters"},
		{"logo.png", http.StatusConflict, "is a binary file"},
		{"references/check.md", http.StatusConflict, "already has a file"},
	} {
		a := f.post(base, url.Values{"new": {"1"}, "path": {tc.path}, "content": {"x"}})
		wantStatus(t, a, tc.status, tc.want)
	}
	wantStatus(t, f.post(base, url.Values{"path": {"references/check.md"}, "content": {"- two\r\n"}}), http.StatusSeeOther)
	if got := f.e.SkillFiles(testSpace, id)["references/check.md"]; got != "- two\n" {
		t.Errorf("changed file holds %q", got)
	}
	wantStatus(t, f.post(base+"/delete", url.Values{"path": {"references/check.md"}}), http.StatusSeeOther)
	wantStatus(t, f.post(base+"/delete", url.Values{"path": {"logo.png"}}), http.StatusSeeOther)
	files := f.e.SkillFiles(testSpace, id)
	if _, ok := files["references/check.md"]; ok || len(files) != 1 {
		t.Errorf("after deletes the skill serves %v", files)
	}
	if s, _ := f.e.Skill(testSpace, id); len(f.e.spaces[testSpace].skills[s.ID].BinaryFiles) != 0 {
		t.Error("the binary file was not deleted")
	}
	wantStatus(t, f.post(base+"/delete", url.Values{"path": {"references/check.md"}}), http.StatusNotFound, "no file")
}

// TestAppShowsHiddenCharacters: text of a skill is escaped, and the
// characters a reader cannot see are shown as markers.
func TestAppShowsHiddenCharacters(t *testing.T) {
	f := newAppFixture(t)
	hidden := "Be brief.\U000E0069\U000E0067\U000E006E\U000E006F\U000E0072\U000E0065 Use zero\u200bwidth.\x1b[2J"
	f.e.AddSkill(testSpace, SkillSeed{Slug: "sneaky", Name: "Sneaky", Description: "<script>alert(1)</script>", Instructions: hidden, Enabled: true})
	a := f.get("/app/spaces/ab12/skills/sneaky")
	wantStatus(t, a, http.StatusOK,
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"instructions: 8 hidden characters (tag characters, zero-width characters, control characters)",
		`[U+E0069 U+E0067 U+E006E U+E006F ... 6 in all spelling "ignore"]`,
		"[U+200B]", "[U+001B]")
	if strings.Contains(a.body, "<script>") {
		t.Error("the description reached the page unescaped")
	}
	wantStatus(t, f.get("/app/spaces/ab12/"), http.StatusOK)
}

// TestAppAgents: an agent is created as a draft, edited (skills attached,
// embed settings) and published, through EditAgent's rules: a draft
// put back as published has no unpublished changes.
func TestAppAgents(t *testing.T) {
	f := newAppFixture(t)
	s1, s2 := addSlug(f.e, "one", true), addSlug(f.e, "two", true)
	wantStatus(t, f.get("/app/spaces/ab12/agents/new"), http.StatusOK, "Draft of a new agent")
	wantStatus(t, f.post("/app/spaces/ab12/agents", url.Values{"name": {"  "}}), http.StatusBadRequest, "an agent needs a name")
	wantStatus(t, f.post("/app/spaces/ab12/agents", url.Values{"name": {"Bot"}, "skill": {"0b7e5a4c-3d2f-4e1a-8b9c-5d6e7f8a9b10"}}), http.StatusBadRequest, "has no skill")
	a := f.post("/app/spaces/ab12/agents", url.Values{"name": {"Bot"}, "systemInstruction": {"Help.\r\n"}, "skill": {s2.ID}})
	wantStatus(t, a, http.StatusSeeOther)
	agents := f.e.Agents(testSpace)
	if len(agents) != 1 {
		t.Fatalf("%d agents", len(agents))
	}
	bot := agents[0]
	if bot.Name != "Bot" || bot.SystemInstruction != "Help.\n" || bot.Published || !bot.HasUnpublishedChanges || len(bot.SkillIDs) != 1 || bot.SkillIDs[0] != s2.ID {
		t.Errorf("created agent: %+v", bot)
	}
	page := "/app/spaces/ab12/agents/" + bot.ID
	if a.location != page+"?done=agent-created" {
		t.Errorf("redirected to %s", a.location)
	}
	form := url.Values{"name": {"Bot"}, "systemInstruction": {"Help.\r\n"}, "skill": {s2.ID, s1.ID}, "embedEnabled": {"1"}, "domains": {"\r\n"}}
	wantStatus(t, f.post(page, form), http.StatusSeeOther)
	wantStatus(t, f.post(page+"/publish", url.Values{}), http.StatusUnprocessableEntity, "Add an allowed domain, or turn embedding off")
	form.Set("domains", " example.com \r\ndocs.example.com\r\n")
	wantStatus(t, f.post(page, form), http.StatusSeeOther)
	bot = f.e.Agents(testSpace)[0]
	if want := []string{s2.ID, s1.ID}; fmt.Sprint(bot.SkillIDs) != fmt.Sprint(want) || fmt.Sprint(bot.EmbedOptions.DomainWhitelist) != "[example.com docs.example.com]" || !bot.EmbedEnabled {
		t.Errorf("edited agent: %+v", bot)
	}
	wantStatus(t, f.post(page+"/publish", url.Values{}), http.StatusSeeOther)
	bot = f.e.Agents(testSpace)[0]
	if !bot.Published || bot.HasUnpublishedChanges {
		t.Errorf("after publish: %+v", bot)
	}
	a = f.post(page+"/publish", url.Values{})
	if !strings.HasSuffix(a.location, "done=nothing-to-publish") {
		t.Errorf("a second publish redirected to %s", a.location)
	}
	form.Set("name", "Bot 2")
	wantStatus(t, f.post(page, form), http.StatusSeeOther)
	if bot = f.e.Agents(testSpace)[0]; !bot.HasUnpublishedChanges {
		t.Error("an edit after the publish left no unpublished changes")
	}
	form.Set("name", "Bot")
	wantStatus(t, f.post(page, form), http.StatusSeeOther)
	if bot = f.e.Agents(testSpace)[0]; bot.HasUnpublishedChanges {
		t.Error("the draft put back as published still has unpublished changes")
	}
	if p, _ := f.e.PublishedAgent(testSpace, bot.ID); p.Name != "Bot" {
		t.Errorf("published version: %+v", p)
	}
	wantStatus(t, f.get("/app/spaces/ab12/agents/"+s1.ID), http.StatusNotFound, "has no agent")
}

// TestAppLeavesTheAPIAlone: the API answers through the app as it does
// alone; "/" leads to the app; onChange follows the API's successful
// writes only.
func TestAppLeavesTheAPIAlone(t *testing.T) {
	f := newAppFixture(t)
	s := addSlug(f.e, "one", true)
	a := f.get("/")
	if a.status != http.StatusFound || a.location != AppPath {
		t.Errorf("/ answered %d to %q", a.status, a.location)
	}
	a = f.get("/nowhere")
	wantStatus(t, a, http.StatusNotFound, `"code":"not_found"`)
	api := func(method, path string) int {
		req, err := http.NewRequest(method, f.url+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+rwToken)
		return f.do(req).status
	}
	skillPath := "/api/v1/spaces/ab12/skills/" + s.ID
	for _, tc := range []struct {
		method, path string
		status       int
		changes      int64
	}{
		{http.MethodGet, skillPath, http.StatusOK, 0},
		{http.MethodPost, skillPath + "/disable", http.StatusOK, 1},
		{http.MethodPost, skillPath + "/nope", http.StatusNotFound, 1},
		{http.MethodPost, "/api/v1/spaces/ab12/skills/" + nameUUID("x") + "/enable", http.StatusNotFound, 1},
		{http.MethodPost, skillPath + "/enable", http.StatusOK, 2},
	} {
		if got := api(tc.method, tc.path); got != tc.status {
			t.Errorf("%s %s: %d, want %d", tc.method, tc.path, got, tc.status)
		}
		if n := f.changes.Load(); n != tc.changes {
			t.Errorf("after %s %s: onChange called %d times, want %d", tc.method, tc.path, n, tc.changes)
		}
	}
}
