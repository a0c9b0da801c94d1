package remote

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/spec"
)

const (
	testToken = "sentinel-TOKEN-7c1f0e9a.b64payload.sig" // must never appear in output
	space     = "ab12"
	skillID   = "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b"
	agentID   = "9a8b7c6d-1e2f-4a3b-8c9d-0e1f2a3b4c5d"
	assetID   = "00000000-1111-4222-8333-444455556666"
)

// request is what a test server saw of one request.
type request struct {
	Method, Path, Query, Body string
	Header                    http.Header
}

// recorder is a test server that records every request and answers with
// handle.
type recorder struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []request
}

func serve(t *testing.T, handle http.HandlerFunc) *recorder {
	t.Helper()
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.reqs = append(rec.reqs, request{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, string(body), r.Header.Clone()})
		rec.mu.Unlock()
		handle(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) requests() []request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]request(nil), r.reqs...)
}

func (r *recorder) count() int { return len(r.requests()) }

// newClient returns a client of url with test-sized delays, changed by mod.
// Its waits between attempts return at once (see [waitLog]).
func newClient(t *testing.T, url string, mod func(*Options)) *Client {
	t.Helper()
	opts := Options{
		BaseURL:    url,
		Token:      testToken,
		Timeout:    5 * time.Second,
		MinBackoff: time.Millisecond,
		MaxBackoff: 5 * time.Millisecond,
		Sleep:      new(waitLog).sleep,
	}
	if mod != nil {
		mod(&opts)
	}
	c, err := New(opts)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func skillObject(id string, n int) map[string]any {
	return map[string]any{
		"id": id, "spaceId": space, "name": fmt.Sprintf("Skill %d", n),
		"description": "does things", "slug": fmt.Sprintf("skill-%d", n),
		"source": "manual", "sourceUrl": nil, "enabled": true,
		"createdAt": "2026-01-01T00:00:00Z", "updatedAt": fmt.Sprintf("2026-01-01T00:00:%02dZ", n%60),
	}
}

func fullSkill() map[string]any {
	s := skillObject(skillID, 1)
	s["instructions"] = "# Do things\n"
	return s
}

func agentObject(id string) map[string]any {
	return map[string]any{
		"id": id, "spaceId": space, "name": "Helper", "model": "m-1", "temperature": 0.5,
		"conversationStarters": []any{map[string]any{"text": "hi", "id": agentID, "label": "Hi", "type": "text"}},
		"embedOptions":         map[string]any{"domainWhitelist": []string{"example.com"}, "lightTheme": map[string]any{"primaryColor": map[string]any{"h": 1, "s": 0.5, "v": 0.25, "a": 1}}},
		"skillIds":             []string{skillID}, "published": true, "categoryId": 7,
		"updatedAt": "2026-01-02T00:00:00Z",
	}
}

func ptr[T any](v T) *T { return &v }

func TestEndpoints(t *testing.T) {
	type result = any
	tests := []struct {
		name                  string
		call                  func(context.Context, *Client) (result, error)
		status                int
		respond               any // JSON-encoded; nil sends no body
		method, path, query   string
		body                  string // exact JSON sent, "" for none
		check                 func(t *testing.T, got result)
		contentTypeWithoutBdy bool
	}{
		{
			name:    "list skills",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.ListSkills(ctx, space, 10, 20) },
			respond: map[string]any{"data": []any{skillObject(skillID, 1)}, "total": 21, "limit": 10, "offset": 20, "hasMore": false},
			method:  "GET", path: "/api/v1/spaces/ab12/skills", query: "limit=10&offset=20",
			check: func(t *testing.T, got result) {
				p := got.(*Page[Skill])
				if len(p.Data) != 1 || p.Data[0].ID != skillID || p.Total != 21 || p.Data[0].Instructions != nil || p.Data[0].SourceURL != nil {
					t.Errorf("page = %+v", p)
				}
			},
		},
		{
			name:    "get skill",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.GetSkill(ctx, space, skillID) },
			respond: fullSkill(),
			method:  "GET", path: "/api/v1/spaces/ab12/skills/" + skillID,
			check: func(t *testing.T, got result) {
				s := got.(*Skill)
				if s.Instructions == nil || *s.Instructions != "# Do things\n" || s.Slug != "skill-1" || !s.Enabled {
					t.Errorf("skill = %+v", s)
				}
			},
		},
		{
			name: "update only the name",
			call: func(ctx context.Context, c *Client) (result, error) {
				return c.UpdateSkill(ctx, space, skillID, SkillUpdate{Name: ptr("New Name")})
			},
			respond: fullSkill(),
			method:  "PATCH", path: "/api/v1/spaces/ab12/skills/" + skillID,
			body: `{"name":"New Name"}`,
		},
		{
			name: "update every field",
			call: func(ctx context.Context, c *Client) (result, error) {
				return c.UpdateSkill(ctx, space, skillID, SkillUpdate{Name: ptr("N"), Description: ptr("d"), Instructions: ptr("")})
			},
			respond: fullSkill(),
			method:  "PATCH", path: "/api/v1/spaces/ab12/skills/" + skillID,
			body: `{"name":"N","description":"d","instructions":""}`,
		},
		{
			name:    "enable skill",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.EnableSkill(ctx, space, skillID) },
			respond: fullSkill(),
			method:  "POST", path: "/api/v1/spaces/ab12/skills/" + skillID + "/enable",
		},
		{
			name: "enable skill in a 21-character space",
			call: func(ctx context.Context, c *Client) (result, error) {
				return c.EnableSkill(ctx, "V1StGXR8_Z5jdHi6B-myT", skillID)
			},
			respond: fullSkill(),
			method:  "POST", path: "/api/v1/spaces/V1StGXR8_Z5jdHi6B-myT/skills/" + skillID + "/enable",
		},
		{
			name:    "disable skill",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.DisableSkill(ctx, space, skillID) },
			respond: fullSkill(),
			method:  "POST", path: "/api/v1/spaces/ab12/skills/" + skillID + "/disable",
		},
		{
			name: "get skill file keeps its slashes",
			call: func(ctx context.Context, c *Client) (result, error) {
				return c.GetSkillFile(ctx, space, skillID, "scripts/run.sh")
			},
			respond: map[string]any{"path": "scripts/run.sh", "content": "echo hi\n"},
			method:  "GET", path: "/api/v1/spaces/ab12/skills/" + skillID + "/files/scripts/run.sh",
			check: func(t *testing.T, got result) {
				if f := got.(*SkillFile); f.Path != "scripts/run.sh" || f.Content != "echo hi\n" {
					t.Errorf("file = %+v", f)
				}
			},
		},
		{
			name:    "list agents",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.ListAgents(ctx, space, 100, 0) },
			respond: map[string]any{"data": []any{agentObject(agentID)}, "total": 1, "limit": 100, "offset": 0, "hasMore": false},
			method:  "GET", path: "/api/v1/spaces/ab12/agents", query: "limit=100&offset=0",
			check: func(t *testing.T, got result) {
				p := got.(*Page[Agent])
				if len(p.Data) != 1 {
					t.Fatalf("page = %+v", p)
				}
				a := p.Data[0]
				if a.CategoryID != 7 || a.EmbedOptions.LightTheme.PrimaryColor.V != 0.25 || len(a.ConversationStarters) != 1 || a.SkillIDs[0] != skillID {
					t.Errorf("agent = %+v", a)
				}
			},
		},
		{
			name:    "publish agent",
			call:    func(ctx context.Context, c *Client) (result, error) { return c.PublishAgent(ctx, space, agentID) },
			respond: agentObject(agentID),
			method:  "POST", path: "/api/v1/spaces/ab12/agents/" + agentID + "/publish",
		},
		{
			name:   "delete agent 204",
			call:   func(ctx context.Context, c *Client) (result, error) { return nil, c.DeleteAgent(ctx, space, agentID) },
			status: http.StatusNoContent,
			method: "DELETE", path: "/api/v1/spaces/ab12/agents/" + agentID,
		},
		{
			name:    "delete agent 200 with a body",
			call:    func(ctx context.Context, c *Client) (result, error) { return nil, c.DeleteAgent(ctx, space, agentID) },
			respond: map[string]any{"success": true},
			method:  "DELETE", path: "/api/v1/spaces/ab12/agents/" + agentID,
		},
		{
			name:    "delete agent 202",
			call:    func(ctx context.Context, c *Client) (result, error) { return nil, c.DeleteAgent(ctx, space, agentID) },
			status:  http.StatusAccepted,
			respond: "accepted",
			method:  "DELETE", path: "/api/v1/spaces/ab12/agents/" + agentID,
		},
		{
			name: "get asset",
			call: func(ctx context.Context, c *Client) (result, error) { return c.GetAsset(ctx, space, assetID) },
			respond: map[string]any{"id": assetID, "name": "report.pdf", "mimeType": "application/pdf",
				"processingState": map[string]any{"unexpected": "shape"}, "metadata": map[string]any{"pages": 3}, "extra": 1},
			method: "GET", path: "/api/kb/assets/ab12/" + assetID,
			check: func(t *testing.T, got result) {
				a := got.(*Asset)
				if a.ID != assetID || a.Name != "report.pdf" || a.MIMEType != "application/pdf" || string(a.Metadata) != `{"pages":3}` {
					t.Errorf("asset = %+v", a)
				}
				var raw map[string]any
				if err := json.Unmarshal(a.Raw, &raw); err != nil || raw["extra"] != 1.0 {
					t.Errorf("asset raw = %s (%v)", a.Raw, err)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				status := tt.status
				if status == 0 {
					status = http.StatusOK
				}
				if tt.respond == nil {
					w.WriteHeader(status)
					return
				}
				writeJSON(w, status, tt.respond)
			})
			c := newClient(t, srv.URL, func(o *Options) { o.UserAgent = "skillsync/1.2.3" })
			got, err := tt.call(t.Context(), c)
			if err != nil {
				t.Fatalf("error: %v", err)
			}
			reqs := srv.requests()
			if len(reqs) != 1 {
				t.Fatalf("%d requests, want 1", len(reqs))
			}
			r := reqs[0]
			if r.Method != tt.method || r.Path != tt.path || r.Query != tt.query {
				t.Errorf("request = %s %s?%s, want %s %s?%s", r.Method, r.Path, r.Query, tt.method, tt.path, tt.query)
			}
			if r.Body != tt.body {
				t.Errorf("body = %q, want %q", r.Body, tt.body)
			}
			wantHeaders := map[string]string{
				"Authorization": "Bearer " + testToken,
				"User-Agent":    "skillsync/1.2.3",
				"Accept":        "application/json",
			}
			if tt.body != "" {
				wantHeaders["Content-Type"] = "application/json"
			}
			for k, v := range wantHeaders {
				if got := r.Header.Get(k); got != v {
					t.Errorf("header %s = %q, want %q", k, got, v)
				}
			}
			if tt.body == "" && r.Header.Get("Content-Type") != "" {
				t.Errorf("Content-Type %q sent with no body", r.Header.Get("Content-Type"))
			}
			if tt.check != nil {
				tt.check(t, got)
			}
		})
	}
}

func TestDefaultUserAgent(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, fullSkill()) })
	if _, err := newClient(t, srv.URL, nil).GetSkill(t.Context(), space, skillID); err != nil {
		t.Fatal(err)
	}
	if ua := srv.requests()[0].Header.Get("User-Agent"); ua != "skillsync/dev" {
		t.Errorf("User-Agent = %q, want skillsync/dev", ua)
	}
}

func TestBaseURLWithPathPrefix(t *testing.T) {
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, fullSkill()) })
	if _, err := newClient(t, srv.URL+"/tenant/", nil).GetSkill(t.Context(), space, skillID); err != nil {
		t.Fatal(err)
	}
	if p := srv.requests()[0].Path; p != "/tenant/api/v1/spaces/ab12/skills/"+skillID {
		t.Errorf("path = %q", p)
	}
}

func TestArgumentErrorsSendNothing(t *testing.T) {
	long := strings.Repeat("x", spec.MaxInstructionsLen+1)
	tests := []struct {
		name  string
		call  func(context.Context, *Client) error
		field string
	}{
		{"space too short", func(ctx context.Context, c *Client) error { _, err := c.GetSkill(ctx, "a", skillID); return err }, "spaceId"},
		{"space of 7", func(ctx context.Context, c *Client) error { _, err := c.ListSkills(ctx, "abcdefg", 10, 0); return err }, "spaceId"},
		{"space with slash", func(ctx context.Context, c *Client) error {
			_, err := c.StreamSkills(ctx, "a/b", ListOptions{})
			return err
		}, "spaceId"},
		{"21-character space on list (only enable takes it)", func(ctx context.Context, c *Client) error {
			_, err := c.ListSkills(ctx, "V1StGXR8_Z5jdHi6B-myT", 10, 0)
			return err
		}, "spaceId"},
		{"21-character space on update", func(ctx context.Context, c *Client) error {
			_, err := c.UpdateSkill(ctx, "V1StGXR8_Z5jdHi6B-myT", skillID, SkillUpdate{Name: ptr("ok")})
			return err
		}, "spaceId"},
		{"space of dots", func(ctx context.Context, c *Client) error { _, err := c.ListAgents(ctx, "..", 10, 0); return err }, "spaceId"},
		{"skill id not a uuid", func(ctx context.Context, c *Client) error { _, err := c.GetSkill(ctx, space, "../../x"); return err }, "skillId"},
		{"enable bad id", func(ctx context.Context, c *Client) error { _, err := c.EnableSkill(ctx, space, "x"); return err }, "skillId"},
		{"disable bad id", func(ctx context.Context, c *Client) error { _, err := c.DisableSkill(ctx, space, ""); return err }, "skillId"},
		{"limit 0", func(ctx context.Context, c *Client) error { _, err := c.ListSkills(ctx, space, 0, 0); return err }, "limit"},
		{"limit 101", func(ctx context.Context, c *Client) error { _, err := c.ListAgents(ctx, space, 101, 0); return err }, "limit"},
		{"negative offset", func(ctx context.Context, c *Client) error { _, err := c.ListSkills(ctx, space, 10, -1); return err }, "offset"},
		{"bad name", func(ctx context.Context, c *Client) error {
			_, err := c.UpdateSkill(ctx, space, skillID, SkillUpdate{Name: ptr("-bad")})
			return err
		}, "name"},
		{"empty description", func(ctx context.Context, c *Client) error {
			_, err := c.UpdateSkill(ctx, space, skillID, SkillUpdate{Description: ptr("")})
			return err
		}, "description"},
		{"instructions too long", func(ctx context.Context, c *Client) error {
			_, err := c.UpdateSkill(ctx, space, skillID, SkillUpdate{Instructions: &long})
			return err
		}, "instructions"},
		{"file path with ..", func(ctx context.Context, c *Client) error {
			_, err := c.GetSkillFile(ctx, space, skillID, "a/../b")
			return err
		}, "path"},
		{"file path with ?", func(ctx context.Context, c *Client) error {
			_, err := c.GetSkillFile(ctx, space, skillID, "a?b")
			return err
		}, "path"},
		{"agent id", func(ctx context.Context, c *Client) error { _, err := c.PublishAgent(ctx, space, "nope"); return err }, "agentId"},
		{"delete agent id", func(ctx context.Context, c *Client) error { return c.DeleteAgent(ctx, space, "nope") }, "agentId"},
		{"asset id", func(ctx context.Context, c *Client) error { _, err := c.GetAsset(ctx, space, "nope"); return err }, "assetId"},
		{"list all agents space", func(ctx context.Context, c *Client) error {
			_, err := c.StreamAgents(ctx, "", ListOptions{})
			return err
		}, "spaceId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, fullSkill()) })
			err := tt.call(t.Context(), newClient(t, srv.URL, nil))
			var re *spec.RuleError
			if !errors.As(err, &re) {
				t.Fatalf("error = %v, want a *spec.RuleError", err)
			}
			if re.Field != tt.field || re.Rule == "" {
				t.Errorf("RuleError = %+v, want field %q", re, tt.field)
			}
			if n := srv.count(); n != 0 {
				t.Errorf("%d requests sent, want none", n)
			}
		})
	}
}

// TestEchoedTokenAtTheCut: a service that echoes the token where the
// error excerpt or the not-JSON excerpt is cut must not leave half of it.
func TestEchoedTokenAtTheCut(t *testing.T) {
	for _, pad := range []int{maxExcerpt - 10, maxMessage - 10, 4*maxExcerpt - 10, 70} {
		for _, status := range []int{http.StatusBadRequest, http.StatusOK} {
			body := strings.Repeat("x", pad) + " " + testToken + " tail"
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(status)
				io.WriteString(w, "<"+body)
			})
			c := newClient(t, srv.URL, func(o *Options) { o.MaxAttempts = 1 })
			_, err := c.GetSkill(t.Context(), "ab12", "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
			if err == nil {
				t.Fatalf("pad %d, status %d: no error", pad, status)
			}
			for _, part := range []string{testToken[:12], testToken[len(testToken)-12:]} {
				if strings.Contains(err.Error(), part) {
					t.Errorf("pad %d, status %d: error shows part of the token: %v", pad, status, err)
				}
			}
		}
	}
}

// TestTokenInAnswer: an answer that holds the client's token, as it is or
// spelt with JSON escapes, is refused, never handed on; an error message
// that spells it with escapes is redacted once decoded.
func TestTokenInAnswer(t *testing.T) {
	escaped := strings.ReplaceAll(testToken, "s", `\u0073`)
	for _, body := range []string{
		`{"id":"3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b","name":"A","description":"leak ` + testToken + `"}`,
		`{"id":"3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b","name":"A","description":"leak ` + escaped + `"}`,
	} {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, body)
		})
		c := newClient(t, srv.URL, nil)
		s, err := c.GetSkill(t.Context(), "ab12", "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
		if !errors.Is(err, ErrTokenInAnswer) || s != nil {
			t.Errorf("answer %s: %+v, %v; want ErrTokenInAnswer", body, s, err)
		}
		if err != nil && strings.Contains(err.Error(), testToken) {
			t.Errorf("the error shows the token: %v", err)
		}
	}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"message":"bad token `+escaped+`"}}`)
	})
	_, err := newClient(t, srv.URL, func(o *Options) { o.MaxAttempts = 1 }).GetSkill(t.Context(), "ab12", "3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b")
	if err == nil || strings.Contains(err.Error(), testToken) || !strings.Contains(err.Error(), "bad token [REDACTED]") {
		t.Errorf("error message spelling the token with escapes: %v", err)
	}
}
