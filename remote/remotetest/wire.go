package remotetest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/skillsync/skillsync/remote"
	"go.yaml.in/yaml/v3"
)

// Error codes of the error body, {"error":{"code":...,"message":...}}.
const (
	CodeUnauthorized     = "unauthorized"                    // 401
	CodeForbidden        = "forbidden"                       // 403: token lacks the permission or the space
	CodeFeatureDisabled  = "feature_disabled"                // 403: the space's skills feature is off
	CodeBuiltinSkill     = "builtin_skill"                   // 403: update of a built-in skill
	CodeNotFound         = "not_found"                       // 404
	CodeMethodNotAllowed = "method_not_allowed"              // 405
	CodeInvalidRequest   = "invalid_request"                 // 400: path, query or body breaks a rule
	CodeUnsupportedMedia = "unsupported_media_type"          // 415
	CodeTooLarge         = "payload_too_large"               // 413
	CodeActiveLimit      = "active_skill_limit"              // 409: 40 active skills
	CodeEmbedWhitelist   = "embed_domain_whitelist_required" // 422: publish
	CodeInternal         = "internal_error"                  // 500 (injected)
	CodeUnavailable      = "service_unavailable"             // 503 (injected)
	CodeRateLimited      = "rate_limited"                    // 429 (injected)
)

const (
	skillFileName         = "SKILL.md"
	maxBodyBytes          = 1 << 20 // bodies beyond are answered 413
	contentTypeJSON       = "application/json"
	contentTypeJSONHeader = "application/json; charset=utf-8"
)

// ErrorBody is the JSON body of every error answer.
type ErrorBody struct {
	Error struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// writeError answers an error in the style the emulator's [Answers] ask
// for, when w is the request's own writer, else as [ErrorBody].
func writeError(w http.ResponseWriter, status int, code, msg string) {
	style, path, now := ErrorNested, "", time.Time{}
	if sw, ok := w.(*statusWriter); ok {
		style, path, now = sw.errors, sw.path, sw.now
	}
	writeJSON(w, status, errorBody(style, status, code, msg, path, now))
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("remotetest: encoding response: " + err.Error())
	}
	writeRaw(w, status, buf.Bytes())
}

func writeRaw(w http.ResponseWriter, status int, body []byte) {
	h := w.Header()
	h.Set("Content-Type", contentTypeJSONHeader)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	w.Write(body)
}

// singleSkill is a single-skill answer: instructions always present, last,
// and null when unreadable. (remote.Skill leaves out a nil Instructions,
// which suits a list item and a client, not this.)
func singleSkill(s remote.Skill) any {
	return struct {
		remote.Skill
		Instructions *string `json:"instructions"`
	}{s, s.Instructions}
}

// renderSkillFile is the SKILL.md the files endpoint serves: frontmatter
// with name and description (mirrored on every update), then the
// instructions as the body.
func (sk *skill) renderSkillFile() string {
	fm, err := yaml.Marshal(struct {
		Name        string `yaml:"name"`
		Description string `yaml:"description"`
	}{sk.Name, sk.Description})
	if err != nil {
		panic("remotetest: rendering SKILL.md: " + err.Error())
	}
	return "---\n" + string(fm) + "---\n" + sk.Instructions
}
