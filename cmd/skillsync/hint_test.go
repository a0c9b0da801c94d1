package main

import (
	"strings"
	"testing"

	"github.com/skillsync/skillsync/remote"
)

// TestHintForConflict: only a refused enable is about the 40-active limit;
// a 409 elsewhere must not send the user disabling skills.
func TestHintForConflict(t *testing.T) {
	enable := &remote.Error{StatusCode: 409, Method: "POST", Path: "/api/v1/spaces/ab12/skills/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/enable"}
	if h := hintFor(enable); !strings.Contains(h, "40 active skills") {
		t.Errorf("hint for a refused enable = %q, want the 40-active limit", h)
	}
	publish := &remote.Error{StatusCode: 409, Method: "POST", Path: "/api/v1/spaces/ab12/agents/3f2b6c1e-8a4d-4e7f-9b0a-1c2d3e4f5a6b/publish"}
	if h := hintFor(publish); h == "" || strings.Contains(h, "40") {
		t.Errorf("hint for a 409 on publish = %q, want one that is not about the skill limit", h)
	}
}
