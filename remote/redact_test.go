package remote

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// slashToken has the characters JSON, URLs, HTML and markdown spell
// otherwise: a slash, a plus, an underscore, a dot, an equals sign.
const slashToken = "Zm9vYmFy/c2VjcmV0+sntl_7Qx-Lk2P.zR="

// spell writes each byte of s with enc.
func spell(s string, enc func(c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(enc(s[i]))
	}
	return b.String()
}

// punct spells the ASCII punctuation of s with enc, other bytes as they are.
func punct(s string, enc func(c byte) string) string {
	return spell(s, func(c byte) string {
		if isAlnum(c) {
			return string(c)
		}
		return enc(c)
	})
}

var punctRuns = regexp.MustCompile(`[^a-zA-Z0-9]+`)

// spellings are the ways a server, a renderer or a URL may write a token,
// each written here independently of the code under test.
var spellings = map[string]func(string) string{
	"raw":              func(s string) string { return s },
	"json slash":       func(s string) string { return strings.ReplaceAll(s, "/", `\/`) },
	"json u lower":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }) },
	"json u upper":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) }) },
	"json in json":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf(`\\u%04x`, c) }) },
	"json in json /":   func(s string) string { return strings.ReplaceAll(s, "/", `\\\/`) },
	"percent upper":    func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("%%%02X", c) }) },
	"percent lower":    func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("%%%02x", c) }) },
	"percent punct":    func(s string) string { return punct(s, func(c byte) string { return fmt.Sprintf("%%%02X", c) }) },
	"percent twice":    func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("%%25%02X", c) }) },
	"html decimal":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#%d;", c) }) },
	"html hex":         func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#x%x;", c) }) },
	"html HEX":         func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#X%02X;", c) }) },
	"html zero padded": func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#%04d;", c) }) },
	"html named": func(s string) string {
		return strings.NewReplacer("/", "&sol;", "+", "&plus;", "_", "&lowbar;", ".", "&period;", "=", "&equals;").Replace(s)
	},
	"markdown escapes": func(s string) string { return punct(s, func(c byte) string { return `\` + string(c) }) },
	"mixed": func(s string) string {
		i := 0
		return spell(s, func(c byte) string {
			i++
			switch i % 5 {
			case 0:
				return fmt.Sprintf(`\u%04x`, c)
			case 1:
				return fmt.Sprintf("%%%02x", c)
			case 2:
				return fmt.Sprintf("&#%d;", c)
			case 3:
				return string(c)
			}
			return fmt.Sprintf("&#x%X;", c)
		})
	},
}

// foldings are what a slug or an upper-cased header makes of a token: they
// are found whole, not in part.
var foldings = map[string]func(string) string{
	"slug":           func(s string) string { return strings.Trim(punctRuns.ReplaceAllString(strings.ToLower(s), "-"), "-") },
	"upper case":     strings.ToUpper,
	"no punctuation": func(s string) string { return punctRuns.ReplaceAllString(s, "") },
}

// everySpelling is spellings and foldings.
func everySpelling() map[string]func(string) string {
	all := map[string]func(string) string{}
	for _, m := range []map[string]func(string) string{spellings, foldings} {
		for name, enc := range m {
			all[name] = enc
		}
	}
	return all
}

// leak returns a description of the first run of 8 characters of tok that
// out holds, in any of the spellings, or "".
func leak(out, tok string) string {
	for name, enc := range everySpelling() {
		for i := 0; i+8 <= len(tok); i++ {
			if run := enc(tok[i : i+8]); strings.Contains(out, run) {
				return fmt.Sprintf("%q (%s, characters %d to %d of the token)", run, name, i, i+8)
			}
		}
	}
	return ""
}

// TestRedactEverySpelling: the token is found and redacted however it is
// spelt: JSON escapes, percent-encoding, HTML character references,
// markdown's backslash escapes, or a mix, as it is or escaped twice; or
// folded, in a slug or in upper case.
func TestRedactEverySpelling(t *testing.T) {
	for _, tok := range []string{slashToken, testToken} {
		r := NewRedactor(tok)
		for name, enc := range everySpelling() {
			in := `{"detail":"token ` + enc(tok) + ` rejected"}`
			got := r.Redact(in)
			if want := `{"detail":"token [REDACTED] rejected"}`; got != want {
				t.Errorf("%s: Redact(%s)\n = %s\nwant %s", name, in, got, want)
			}
			if !r.Holds(in) {
				t.Errorf("%s: Holds(%s) = false", name, in)
			}
			if r.Holds(got) {
				t.Errorf("%s: Holds(%s) = true after redaction", name, got)
			}
			if got := Redact(in, tok); strings.Contains(got, "rejected") && !strings.Contains(got, "token [REDACTED] rejected") {
				t.Errorf("%s: Redact(s, secret) = %s", name, got)
			}
		}
	}
}

// TestRedactLeavesOtherText: escapes that spell something else, and a
// token with a letter or digit missing or changed, are left as they are.
func TestRedactLeavesOtherText(t *testing.T) {
	tok := slashToken
	r := NewRedactor(tok)
	for _, in := range []string{
		`{"a":"\u0041\/b\\c\n","b":"100% sure &amp; 50%25 &#65;"}`,
		`C:\path\to\file &lt;x&gt; \_ \* %2F`,
		strings.ReplaceAll(tok, "/", `\\/`)[:len(tok)] + " (cut but no mark)",
		tok[1:] + " " + strings.Replace(tok, "zR", "z", 1) + ".",
		strings.Replace(tok, "sntl", "sntk", 1),
		strings.ToLower(tok[:len(tok)-2]),
		spellings["percent upper"](tok[:len(tok)-1]) + "%2",
		spellings["json u lower"](tok[:len(tok)-1]) + `\u003`,
		spellings["html decimal"](strings.Replace(tok, "c", "d", 1)),
		"...",
		"",
	} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%s)\n = %s, want it unchanged", in, got)
		}
		if r.Holds(in) {
			t.Errorf("Holds(%s) = true", in)
		}
	}
}

// TestRedactShortSecret: a secret under ShortSecret bytes is still replaced
// only where no letter or digit touches it, in every spelling.
func TestRedactShortSecret(t *testing.T) {
	r := NewRedactor("ab/c")
	for _, tc := range []struct{ in, want string }{
		{"x ab/c y", "x [REDACTED] y"},
		{`"ab\/c"`, `"[REDACTED]"`},
		{"zab/c", "zab/c"},
		{`ab\/cd`, `ab\/cd`},
		{"%61%62%2F%63.", "[REDACTED]."},
	} {
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if r.Holds("x ab/c y") {
		t.Error("Holds reports a short secret: a test's token is no real token")
	}
}

// TestRedactCutToken: a part of 8 or more characters of the token that a
// cut left before "..." (its start) or after it (its end) is redacted, in
// every spelling; a shorter part is left, as ordinary text may hold it.
func TestRedactCutToken(t *testing.T) {
	tok := slashToken
	r := NewRedactor(tok)
	for name, enc := range spellings {
		for k := 1; k < len(tok); k++ {
			for _, mark := range []string{"...", "…"} {
				head := "see " + enc(tok[:k]) + mark
				tail := mark + enc(tok[len(tok)-k:]) + " end"
				wantHead, wantTail := head, tail
				if k >= 8 {
					wantHead, wantTail = "see [REDACTED]"+mark, mark+"[REDACTED] end"
				}
				if got := r.Redact(head); got != wantHead {
					t.Errorf("%s, %d characters: Redact(%s) = %s, want %s", name, k, head, got, wantHead)
				}
				if got := r.Redact(tail); got != wantTail {
					t.Errorf("%s, %d characters: Redact(%s) = %s, want %s", name, k, tail, got, wantTail)
				}
			}
		}
	}
	// A cut inside an escape still leaves no run of the token.
	in := spellings["json u lower"](tok[:10]) + `\u00` + "..."
	if got := r.Redact(in); leak(got, tok) != "" {
		t.Errorf("Redact(%s) = %s", in, got)
	}
}

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
			for name, enc := range everySpelling() {
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
				if l := leak(err.Error(), tok); l != "" {
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
			[]string{"raw", "json slash", "json u lower", "json in json"}, true},
		{"problem detail", "application/problem+json", 401, maxMessage,
			func(pad, token string) string {
				return `{"title":"Unauthorized","detail":"` + pad + token + ` rejected"}`
			},
			[]string{"raw", "json slash", "json u upper", "percent upper"}, true},
		{"excerpt", "text/plain", 403, maxExcerpt,
			func(pad, token string) string { return pad + token + " rejected" },
			[]string{"raw", "percent upper", "html hex", "mixed"}, false},
		{"not JSON", "text/html", 200, 80,
			func(pad, token string) string { return "<" + pad + token + " rejected" },
			[]string{"raw", "percent lower", "html decimal"}, false},
	}
	for _, tc := range cases {
		for _, name := range tc.spellings {
			spelt := spellings[name](tok)
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
				if l := leak(err.Error(), tok); l != "" {
					t.Errorf("%s, %s, offset %d: the error shows %s:\n%v", tc.name, name, off, l, err)
				}
			}
		}
	}
}

// BenchmarkRedact measures Redact on a JSON plan of 1 MiB, full of the
// escapes it must look into (\n, \u003c, %, &, ...), holding no token: the
// cost every line of output pays. A token that begins with a common letter
// makes more places to look at.
func BenchmarkRedact(b *testing.B) {
	line := `{"slug":"sql-style","instructions":"# SQL\n\nUse \u003cCTE\u003e \u0026 50% less joins: a/b \\ c; see https://example.com/a%2Fb?x=1\u0026y=2 \u2014 done... etc.\n"},` + "\n"
	text := strings.Repeat(line, (1<<20)/len(line))
	for _, tok := range []string{slashToken, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJza2lsbHN5bmMifQ.c2ln"} {
		b.Run(tok[:2], func(b *testing.B) {
			r := NewRedactor(tok)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if r.Redact(text) != text {
					b.Fatal("changed a text without the token")
				}
			}
		})
	}
}
