package remotetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// FuzzServeHTTP: whatever a client sends, the emulator answers it as the
// spec says a server does (no panic, no 5xx, an error as JSON), and its
// skills stay readable and within the limit of 40 active.
func FuzzServeHTTP(f *testing.F) {
	f.Add(uint8(0), "/api/v1/spaces/ab12/skills?limit=100&offset=0", []byte(nil), false)
	f.Add(uint8(1), "/api/v1/spaces/ab12/skills/{skill}", []byte(`{"instructions": "new", "name": "Alpha"}`), false)
	f.Add(uint8(1), "/api/v1/spaces/ab12/skills/{skill}", []byte(`{"description": "\ud800", "enabled": true}`), false)
	f.Add(uint8(2), "/api/v1/spaces/ab12/skills/{skill}/enable", []byte(nil), false)
	f.Add(uint8(2), "/api/v1/spaces/ab12/skills/{skill}/disable", []byte(nil), true)
	f.Add(uint8(0), "/api/v1/spaces/ab12/skills/{skill}/files/scripts%2Frun.sh", []byte(nil), false)
	f.Add(uint8(0), "/api/v1/spaces/ab12/agents?limit=0", []byte(nil), false)
	f.Add(uint8(2), "/api/v1/spaces/ab12/agents/{agent}/publish", []byte(nil), false)
	f.Add(uint8(3), "/api/v1/spaces/ab12/agents/{agent}", []byte(nil), false)
	f.Add(uint8(0), "/api/kb/assets/ab12/x", []byte(nil), false)
	methods := []string{http.MethodGet, http.MethodPatch, http.MethodPost, http.MethodDelete, http.MethodPut, http.MethodHead}
	f.Fuzz(func(t *testing.T, method uint8, target string, body []byte, readOnly bool) {
		e := New()
		e.AddSpace(Space{ID: testSpace})
		e.AddToken(rwToken, ReadWrite)
		e.AddToken(roToken, ReadOnly)
		sk := e.AddSkill(testSpace, SkillSeed{Name: "Alpha", Description: "a skill", Instructions: "do it", Enabled: true,
			Files: map[string]string{"scripts/run.sh": "echo hi"}})
		ag := e.AddAgent(testSpace, remote.Agent{Name: "Helper", SkillIDs: []string{sk.ID}})
		target = strings.NewReplacer("{skill}", sk.ID, "{agent}", ag.ID).Replace(target)
		req, err := http.NewRequest(methods[int(method)%len(methods)], "http://127.0.0.1"+target, bytes.NewReader(body))
		if err != nil || req.URL.Host != "127.0.0.1" {
			return // not a request a client could send here
		}
		req.Header.Set("Authorization", "Bearer "+map[bool]string{false: rwToken, true: roToken}[readOnly])
		req.Header.Set("Content-Type", "application/json")
		w := httptest.NewRecorder()
		e.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("%s %s %q: %d %s", req.Method, target, body, w.Code, w.Body)
		}
		if w.Code >= 400 && req.Method != http.MethodHead && !json.Valid(w.Body.Bytes()) {
			t.Fatalf("%s %s %q: %d with a body that is not JSON: %q", req.Method, target, body, w.Code, w.Body)
		}
		if n := e.ActiveCount(testSpace); n > 40 {
			t.Fatalf("%s %s %q: %d skills active", req.Method, target, body, n)
		}
		get := httptest.NewRequest(http.MethodGet, "/api/v1/spaces/"+testSpace+"/skills/"+sk.ID, nil)
		get.Header.Set("Authorization", "Bearer "+rwToken)
		w = httptest.NewRecorder()
		e.ServeHTTP(w, get)
		var got remote.Skill
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &got) != nil || got.ID != sk.ID {
			t.Fatalf("after %s %s %q, the skill reads %d %s", req.Method, target, body, w.Code, w.Body)
		}
	})
}
