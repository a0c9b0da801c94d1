package remotetest

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

var agentKeys = sorted("id", "spaceId", "name", "description", "systemInstruction", "conversationStarters",
	"welcomeMessage", "model", "temperature", "attachmentIds", "folderIds", "contentIds", "allowUploads",
	"allowUrls", "enableFollowUpMessages", "categoryId", "voiceId", "appEnabled", "embedEnabled", "embedId",
	"embedOptions", "actions", "skillIds", "published", "hasUnpublishedChanges", "createdAt", "updatedAt")

func TestAgentFields(t *testing.T) {
	f := newFixture(t)
	f.e.AddAgent(testSpace, remote.Agent{
		Name:    "Support",
		Actions: []remote.Action{{ID: "5b6c7d8e-9f0a-4b1c-8d2e-3f4a5b6c7d8e", Key: "search"}},
		ConversationStarters: []remote.ConversationStarter{
			{Text: "hi", ID: "4a5b6c7d-8e9f-4a0b-9c1d-2e3f4a5b6c7d", Label: "Hi", Type: "text"}},
	})
	r := f.req(http.MethodGet, "/api/v1/spaces/ab12/agents")
	f.mustStatus(r, 200, "list agents")
	var page struct {
		Data []map[string]json.RawMessage `json:"data"`
	}
	r.json(t, &page)
	if len(page.Data) != 1 {
		t.Fatalf("%d agents", len(page.Data))
	}
	a := page.Data[0]
	if got := keys(a); !slices.Equal(got, agentKeys) {
		t.Errorf("agent keys %v\nwant %v", got, agentKeys)
	}
	var eo, act, cs map[string]json.RawMessage
	json.Unmarshal(a["embedOptions"], &eo)
	if got, want := keys(eo), sorted("domainWhitelist", "showSources", "allowVoiceInput", "allowFileUpload", "themeMode", "lightTheme", "darkTheme"); !slices.Equal(got, want) {
		t.Errorf("embedOptions keys %v", got)
	}
	var theme map[string]map[string]json.RawMessage
	json.Unmarshal(eo["lightTheme"], &theme)
	if _, ok := theme["backgroundColor"]["h"]; !ok || len(theme["primaryColor"]) != 4 {
		t.Errorf("lightTheme %s", eo["lightTheme"])
	}
	var acts, starters []json.RawMessage
	json.Unmarshal(a["actions"], &acts)
	json.Unmarshal(acts[0], &act)
	if got, want := keys(act), sorted("id", "integration", "key", "requiresConfirmation", "defaultValues", "integrationId", "mcpClientId"); !slices.Equal(got, want) {
		t.Errorf("action keys %v", got)
	}
	if string(act["defaultValues"]) != "{}" {
		t.Errorf("defaultValues %s, want {}", act["defaultValues"])
	}
	json.Unmarshal(a["conversationStarters"], &starters)
	json.Unmarshal(starters[0], &cs)
	if got, want := keys(cs), sorted("text", "id", "label", "type"); !slices.Equal(got, want) {
		t.Errorf("starter keys %v", got)
	}
	for _, k := range []string{"attachmentIds", "folderIds", "contentIds", "skillIds"} {
		if string(a[k]) != "[]" {
			t.Errorf("%s = %s, want []", k, a[k])
		}
	}
	if string(a["welcomeMessage"]) != "{}" || string(a["published"]) != "false" || string(a["hasUnpublishedChanges"]) != "true" {
		t.Errorf("welcomeMessage %s published %s hasUnpublishedChanges %s", a["welcomeMessage"], a["published"], a["hasUnpublishedChanges"])
	}
	var ts string
	json.Unmarshal(a["updatedAt"], &ts)
	parseTS(t, ts)
}

func TestAgentListOrderAndPaging(t *testing.T) {
	f := newFixture(t)
	old := f.e.AddAgent(testSpace, remote.Agent{Name: "old", UpdatedAt: "2026-01-01T00:00:00.000Z"})
	tieB := f.e.AddAgent(testSpace, remote.Agent{ID: "bbbbbbbb-0000-4000-8000-000000000000", UpdatedAt: "2026-01-02T00:00:00Z"})
	tieA := f.e.AddAgent(testSpace, remote.Agent{ID: "aaaaaaaa-0000-4000-8000-000000000000", UpdatedAt: "2026-01-02T00:00:00Z"})
	newest := f.e.AddAgent(testSpace, remote.Agent{Name: "new"})
	var p remote.Page[remote.Agent]
	f.req(http.MethodGet, "/api/v1/spaces/ab12/agents?limit=3").json(t, &p)
	if p.Total != 4 || !p.HasMore || p.Limit != 3 || len(p.Data) != 3 {
		t.Fatalf("page %+v", p)
	}
	got := []string{p.Data[0].ID, p.Data[1].ID, p.Data[2].ID}
	if want := []string{newest.ID, tieA.ID, tieB.ID}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v (ties by id)", got, want)
	}
	f.req(http.MethodGet, "/api/v1/spaces/ab12/agents?limit=3&offset=3").json(t, &p)
	if len(p.Data) != 1 || p.Data[0].ID != old.ID || p.HasMore {
		t.Errorf("second page %+v", p)
	}
	if tieB.UpdatedAt != "2026-01-02T00:00:00.000Z" {
		t.Errorf("seeded timestamp not normalised: %s", tieB.UpdatedAt)
	}
}

// TestAgentGivenOneTime: an agent given only its createdAt, later than the
// emulator's clock, is not updated before it was created; one given only
// its updatedAt is not created after it was updated.
func TestAgentGivenOneTime(t *testing.T) {
	f := newFixture(t)
	f.e.SetClock(func() time.Time { return time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC) })
	created := f.e.AddAgent(testSpace, remote.Agent{Name: "created", CreatedAt: "2026-06-01T00:00:00.000Z"})
	if created.UpdatedAt < created.CreatedAt {
		t.Errorf("given createdAt %s, updatedAt %s is before it", created.CreatedAt, created.UpdatedAt)
	}
	updated := f.e.AddAgent(testSpace, remote.Agent{Name: "updated", UpdatedAt: "2027-06-01T00:00:00.000Z"})
	if updated.CreatedAt > updated.UpdatedAt {
		t.Errorf("given updatedAt %s, createdAt %s is after it", updated.UpdatedAt, updated.CreatedAt)
	}
}

func TestPublish(t *testing.T) {
	f := newFixture(t)
	a := f.e.AddAgent(testSpace, remote.Agent{Name: "a", SkillIDs: []string{"7b1e4d2a-3c5f-4a8b-9d0e-1f2a3b4c5d6e"}})
	publish := func() remote.Agent {
		t.Helper()
		r := f.req(http.MethodPost, agentPath(testSpace, a.ID, "publish"))
		f.mustStatus(r, 200, "publish")
		var got remote.Agent
		r.json(t, &got)
		return got
	}
	if _, ok := f.e.PublishedAgent(testSpace, a.ID); ok {
		t.Fatal("published version before publish")
	}
	// draft only -> published.
	p1 := publish()
	if !p1.Published || p1.HasUnpublishedChanges || p1.UpdatedAt == a.UpdatedAt {
		t.Errorf("after first publish %+v", p1)
	}
	pub, ok := f.e.PublishedAgent(testSpace, a.ID)
	if !ok || !slices.Equal(pub.SkillIDs, a.SkillIDs) {
		t.Errorf("published copy %+v", pub)
	}
	// Nothing to publish: a no-op.
	if p2 := publish(); p2.UpdatedAt != p1.UpdatedAt || !p2.Published || p2.HasUnpublishedChanges {
		t.Errorf("idempotent publish changed the agent: %+v", p2)
	}
	// A draft edit, then publish copies it.
	f.e.EditAgent(testSpace, a.ID, func(d *remote.Agent) { d.SystemInstruction = "new"; d.Published = false })
	if d := f.e.Agents(testSpace)[0]; !d.HasUnpublishedChanges || !d.Published {
		t.Errorf("after edit %+v", d)
	}
	if pub, _ := f.e.PublishedAgent(testSpace, a.ID); pub.SystemInstruction != "" {
		t.Error("edit reached the published version")
	}
	p3 := publish()
	if p3.HasUnpublishedChanges || !p3.Published || p3.SystemInstruction != "new" {
		t.Errorf("after second publish %+v", p3)
	}
	if pub, _ := f.e.PublishedAgent(testSpace, a.ID); pub.SystemInstruction != "new" {
		t.Error("publish did not copy the draft")
	}
	// The spec: true "when the draft differs from the published version".
	// An edit that changes nothing, or one undone, leaves it false.
	f.e.EditAgent(testSpace, a.ID, func(*remote.Agent) {})
	if d := f.e.Agents(testSpace)[0]; d.HasUnpublishedChanges {
		t.Errorf("an edit that changed nothing set hasUnpublishedChanges: %+v", d)
	}
	f.e.EditAgent(testSpace, a.ID, func(d *remote.Agent) { d.SystemInstruction = "newer" })
	f.e.EditAgent(testSpace, a.ID, func(d *remote.Agent) { d.SystemInstruction = "new" })
	if d := f.e.Agents(testSpace)[0]; d.HasUnpublishedChanges {
		t.Errorf("a draft back as published still has unpublished changes: %+v", d)
	}
}

// TestPublishedWithUnseenChanges: an agent added as published with
// unpublished changes stands for a published version the emulator does not
// hold; an edit cannot make the draft equal to it, only a publish clears
// the flag.
func TestPublishedWithUnseenChanges(t *testing.T) {
	f := newFixture(t)
	a := f.e.AddAgent(testSpace, remote.Agent{Name: "a", Published: true, HasUnpublishedChanges: true})
	f.e.EditAgent(testSpace, a.ID, func(*remote.Agent) {})
	if d := f.e.Agents(testSpace)[0]; !d.HasUnpublishedChanges {
		t.Fatalf("an edit that changed nothing cleared unpublished changes it cannot see: %+v", d)
	}
	f.mustStatus(f.req(http.MethodPost, agentPath(testSpace, a.ID, "publish")), 200, "publish")
	f.e.EditAgent(testSpace, a.ID, func(*remote.Agent) {})
	if d := f.e.Agents(testSpace)[0]; d.HasUnpublishedChanges {
		t.Errorf("after a publish, an edit that changed nothing set the flag: %+v", d)
	}
}

func TestPublishEmbedRule(t *testing.T) {
	f := newFixture(t)
	a := f.e.AddAgent(testSpace, remote.Agent{Name: "a", EmbedEnabled: true})
	r := f.req(http.MethodPost, agentPath(testSpace, a.ID, "publish"))
	if r.status != 422 || r.errorCode(t) != CodeEmbedWhitelist {
		t.Fatalf("publish with empty whitelist: %d %s, want 422", r.status, r.body)
	}
	if d := f.e.Agents(testSpace)[0]; d.Published || !d.HasUnpublishedChanges || d.UpdatedAt != a.UpdatedAt {
		t.Errorf("rejected publish changed the agent: %+v", d)
	}
	f.e.EditAgent(testSpace, a.ID, func(d *remote.Agent) { d.EmbedOptions.DomainWhitelist = []string{"example.com"} })
	f.mustStatus(f.req(http.MethodPost, agentPath(testSpace, a.ID, "publish")), 200, "publish with whitelist")
	// embedEnabled false with an empty whitelist is fine.
	b := f.e.AddAgent(testSpace, remote.Agent{Name: "b"})
	f.mustStatus(f.req(http.MethodPost, agentPath(testSpace, b.ID, "publish")), 200, "publish without embed")
}

func TestDeleteAgent(t *testing.T) {
	f := newFixture(t)
	a := f.e.AddAgent(testSpace, remote.Agent{Name: "a", Published: true})
	b := f.e.AddAgent(testSpace, remote.Agent{Name: "b"})
	r := f.req(http.MethodDelete, agentPath(testSpace, a.ID))
	if r.status != 204 || len(r.body) != 0 {
		t.Fatalf("delete: %d %q, want 204 with no body", r.status, r.body)
	}
	f.mustStatus(f.req(http.MethodDelete, agentPath(testSpace, a.ID)), 404, "delete again")
	f.mustStatus(f.req(http.MethodPost, agentPath(testSpace, a.ID, "publish")), 404, "publish deleted")
	var p remote.Page[remote.Agent]
	f.req(http.MethodGet, "/api/v1/spaces/ab12/agents").json(t, &p)
	if p.Total != 1 || p.Data[0].ID != b.ID {
		t.Errorf("list after delete %+v", p)
	}
	if _, ok := f.e.PublishedAgent(testSpace, a.ID); ok {
		t.Error("published version survived delete")
	}
}

func TestAssets(t *testing.T) {
	f := newFixture(t)
	f.e.AddSpace(Space{ID: "cd34"})
	f.e.AddToken("cd34-only", ReadOnly, "cd34")
	id := "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	rec := `{"id":"` + id + `", "name":"handbook.pdf","mimeType":"application/pdf","connector":{"type":"upload"},"metadata":{"pages":42},"processingState":"done","extra":[1,2]}`
	f.e.AddAsset(testSpace, id, json.RawMessage(rec))
	r := f.req(http.MethodGet, "/api/kb/assets/ab12/"+id)
	f.mustStatus(r, 200, "asset")
	if string(r.body) != rec {
		t.Errorf("asset body %s, want the record whole %s", r.body, rec)
	}
	f.mustStatus(f.send(http.MethodGet, "/api/kb/assets/ab12/"+id, roToken, "", ""), 200, "read-only asset")
	r = f.send(http.MethodGet, "/api/kb/assets/ab12/"+id, "cd34-only", "", "")
	if r.status != 403 || r.errorCode(t) != CodeForbidden {
		t.Errorf("asset of a space the token cannot read: %d, want 403", r.status)
	}
	f.mustStatus(f.req(http.MethodGet, "/api/kb/assets/cd34/"+id), 404, "asset of another space")
}

func TestAuth(t *testing.T) {
	f := newFixture(t)
	f.e.AddSpace(Space{ID: "cd34"})
	f.e.AddToken("cd34-rw", ReadWrite, "cd34")
	sk := f.e.AddSkill(testSpace, seedSkill("a"))
	ag := f.e.AddAgent(testSpace, remote.Agent{Name: "x"})
	asset := "9c8b7a6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"
	f.e.AddAsset(testSpace, asset, json.RawMessage(`{}`))
	type call struct{ method, path, body string }
	reads := []call{
		{http.MethodGet, "/api/v1/spaces/ab12/skills", ""},
		{http.MethodGet, skillPath(testSpace, sk.ID), ""},
		{http.MethodGet, skillPath(testSpace, sk.ID, "files", "SKILL.md"), ""},
		{http.MethodGet, "/api/v1/spaces/ab12/agents", ""},
		{http.MethodGet, "/api/kb/assets/ab12/" + asset, ""},
	}
	writes := []call{
		{http.MethodPatch, skillPath(testSpace, sk.ID), `{"name":"b"}`},
		{http.MethodPost, skillPath(testSpace, sk.ID, "enable"), ""},
		{http.MethodPost, skillPath(testSpace, sk.ID, "disable"), ""},
		{http.MethodPost, agentPath(testSpace, ag.ID, "publish"), ""},
		{http.MethodDelete, agentPath(testSpace, ag.ID), ""},
	}
	do := func(c call, header string) response {
		t.Helper()
		req, _ := http.NewRequest(c.method, f.srv.URL+c.path, nil)
		if c.body != "" {
			req, _ = http.NewRequest(c.method, f.srv.URL+c.path, stringsReader(c.body))
			req.Header.Set("Content-Type", "application/json")
		}
		if header != "" {
			req.Header.Set("Authorization", header)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var r response
		r.status, r.header = res.StatusCode, res.Header
		r.body = readAll(res.Body)
		return r
	}
	for _, c := range append(slices.Clone(reads), writes...) {
		for _, h := range []string{"", "Bearer", "Bearer ", "Bearer nope", "bearer " + rwToken, "Basic " + rwToken, rwToken, "Bearer  " + rwToken} {
			r := do(c, h)
			if r.status != 401 || r.errorCode(t) != CodeUnauthorized || r.header.Get("WWW-Authenticate") == "" {
				t.Errorf("%s %s with Authorization %q: %d, want 401 with WWW-Authenticate", c.method, c.path, h, r.status)
			}
		}
		if r := do(c, "Bearer cd34-rw"); r.status != 403 {
			t.Errorf("%s %s with a token of another space: %d, want 403", c.method, c.path, r.status)
		}
	}
	for _, c := range reads {
		if r := do(c, "Bearer "+roToken); r.status != 200 {
			t.Errorf("read-only %s %s: %d, want 200", c.method, c.path, r.status)
		}
	}
	for _, c := range writes {
		r := do(c, "Bearer "+roToken)
		if r.status != 403 || r.errorCode(t) != CodeForbidden {
			t.Errorf("read-only %s %s: %d, want 403", c.method, c.path, r.status)
		}
	}
	if s, _ := f.e.Skill(testSpace, sk.ID); s.Name != "a" || !s.Enabled || len(f.e.Agents(testSpace)) != 1 {
		t.Error("a refused write took effect")
	}
	// A token of another space gets 403 even for a space that does not exist.
	if r := do(reads[0], "Bearer cd34-rw"); r.status != 403 {
		t.Errorf("other space: %d", r.status)
	}
	f.e.RemoveToken(rwToken)
	if r := do(reads[0], "Bearer "+rwToken); r.status != 401 {
		t.Errorf("removed token: %d, want 401", r.status)
	}
}
