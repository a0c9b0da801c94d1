package remote

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

// slashToken has the characters JSON, URLs, HTML and markdown spell
// otherwise: a slash, a plus, an underscore, a dot, an equals sign.
const slashToken = "Zm9vYmFy/c2VjcmV0+sntl_7Qx-Lk2P.zR="

// TestErrorBodiesOfEveryShape: a service that echoes the token in an error
// body, in any field of any shape and in any spelling, never gets it into
// the error; and the message of an RFC 7807 problem is its detail.
func TestErrorBodiesOfEveryShape(t *testing.T) {
	const tok = slashToken
	bodies := []struct {
		contentType, body string
	}{
		{"application/problem+json", `{"title":"Unauthorized","detail":"token %s rejected"}`},
		{"application/problem+json", `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"bad","instance":"/x?token=%s"}`},
		{"application/json", `{"errors":[{"detail":"no","meta":{"seen":["Bearer %s"]}}],"invalid-params":[{"name":"Authorization","reason":"%s"}]}`},
		{"application/json", `{"error":{"message":"token %s rejected","code":"unauthorized"}}`},
		{"application/json", `{"message":"token %s rejected"}`},
		{"application/json", `{"error":"token %s rejected"}`},
		{"application/json", `{"%s":true}`},
		{"text/plain", "token %s rejected"},
		{"text/html", "<p>token %s rejected</p>"},
	}
	for _, status := range []int{400, 401, 403, 404, 409, 500} {
		for _, b := range bodies {
			for name, enc := range redacttest.Spellings {
				body := strings.ReplaceAll(b.body, "%s", enc(tok))
				srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", b.contentType)
					w.WriteHeader(status)
					w.Write([]byte(body))
				})
				_, err := newClient(t, srv.URL, func(o *Options) { o.Token, o.MaxAttempts = tok, 1 }).GetSkill(t.Context(), space, skillID)
				var e *Error
				if !errors.As(err, &e) || e.StatusCode != status {
					t.Fatalf("%d %s: error %v, want an *Error of status %d", status, body, err, status)
				}
				if l := redacttest.Leak(err.Error(), tok); l != "" {
					t.Errorf("%d %s (%s): the error shows %s: %v", status, body, name, l, err)
				}
			}
		}
	}
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/problem+json")
		w.WriteHeader(401)
		w.Write([]byte(`{"title":"Unauthorized","detail":"token ` + strings.ReplaceAll(tok, "/", `\/`) + ` rejected"}`))
	})
	_, err := newClient(t, srv.URL, func(o *Options) { o.Token, o.MaxAttempts = tok, 1 }).GetSkill(t.Context(), space, skillID)
	if want := ": 401 Unauthorized: token [REDACTED] rejected"; err == nil || !strings.HasSuffix(err.Error(), want) {
		t.Errorf("error = %v, want it to end with %q", err, want)
	}
}

// TestTokenAtTheCutEveryOffset: an echoed token that the 500-character cut
// of a message, the 200-character excerpt of a body, or the 80-character
// excerpt of a body that is not JSON splits at any offset leaves no run of
// 8 of its characters, in any spelling.
func TestTokenAtTheCutEveryOffset(t *testing.T) {
	const tok = slashToken
	cases := []struct {
		name, contentType string
		status            int
		limit             int
		body              func(pad, token string) string
		spellings         []string
		decoded           bool // the cut is made after JSON decoding
	}{
		{"message", "application/json", 401, maxMessage,
			func(pad, token string) string { return `{"error":{"message":"` + pad + token + ` rejected"}}` },
			[]string{"raw", "json slash", "json u lower", "json u upper"}, true},
		{"problem detail", "application/problem+json", 401, maxMessage,
			func(pad, token string) string {
				return `{"title":"Unauthorized","detail":"` + pad + token + ` rejected"}`
			},
			[]string{"raw", "json slash", "json u upper", "percent upper"}, true},
		{"excerpt", "text/plain", 403, maxExcerpt,
			func(pad, token string) string { return pad + token + " rejected" },
			[]string{"raw", "percent upper", "html hex", "html named"}, false},
		{"not JSON", "text/html", 200, 80,
			func(pad, token string) string { return "<" + pad + token + " rejected" },
			[]string{"raw", "percent lower", "html decimal"}, false},
	}
	for _, tc := range cases {
		for _, name := range tc.spellings {
			spelt := redacttest.Spellings[name](tok)
			most := min(len(spelt), tc.limit-1)
			if tc.decoded {
				var decoded string
				if err := json.Unmarshal([]byte(`"`+spelt+`"`), &decoded); err != nil {
					t.Fatal(err)
				}
				most = len(decoded)
			}
			for off := 0; off <= most; off++ {
				// off characters of the token (as the cut sees it) fit
				// before the cut.
				pad := strings.Repeat("x", tc.limit-off)
				if tc.name == "not JSON" {
					pad = pad[1:] // the "<"
				}
				body := tc.body(pad, spelt)
				srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Content-Type", tc.contentType)
					w.WriteHeader(tc.status)
					w.Write([]byte(body))
				})
				_, err := newClient(t, srv.URL, func(o *Options) { o.Token, o.MaxAttempts = tok, 1 }).GetSkill(t.Context(), space, skillID)
				if err == nil {
					t.Fatalf("%s, %s, offset %d: no error", tc.name, name, off)
				}
				if l := redacttest.Leak(err.Error(), tok); l != "" {
					t.Errorf("%s, %s, offset %d: the error shows %s:\n%v", tc.name, name, off, l, err)
				}
			}
		}
	}
}
