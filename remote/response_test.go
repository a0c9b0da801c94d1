package remote

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestBadResponses(t *testing.T) {
	const where = "GET /api/v1/spaces/ab12/skills/" + skillID
	tests := []struct {
		name        string
		contentType string // "-" for none
		body        string
		list        bool // call ListSkills instead of GetSkill
		want        string
	}{
		{"malformed JSON", "application/json", `{"id": "x", `, false, "malformed JSON"},
		{"truncated object", "application/json", `{"id": `, false, "malformed JSON"},
		{"wrong type", "application/json", `{"id":"` + skillID + `","enabled":"yes"}`, false, `field "enabled" is a JSON string, expected bool`},
		{"HTML page with 200", "text/html; charset=utf-8", "<!doctype html><title>Sign in</title>", false, `expected JSON, got text/html: "<!doctype html><title>Sign in</title>"`},
		{"HTML page without a content type", "-", "<html><body>proxy</body></html>", false, "expected JSON, got HTML"},
		{"plain text", "text/plain", "ok", false, "expected JSON, got text/plain"},
		{"bad content type", "]]", "{}", false, "expected JSON, got ]]"},
		{"empty body", "application/json", "", false, "empty body, expected JSON"},
		{"null", "application/json", "null", false, "got JSON null, expected a JSON object"},
		{"array", "application/json", `[1]`, false, "got a JSON array, expected a JSON object"},
		{"no id", "application/json", `{}`, false, "has no id"},
		{"another skill", "application/json", `{"id":"` + agentID + `"}`, false, "the response is for skill " + agentID},
		{"json suffix type accepted but wrong", "application/problem+json", `"x"`, false, "got a JSON string"},
		{"list without data", "application/json", `{"total":0}`, true, `no "data" array`},
		{"list item without id", "application/json", `{"data":[{"name":"x"}],"total":1}`, true, "item 0 of the list has no id"},
		{"list with data of wrong type", "application/json", `{"data":{},"total":1}`, true, `field "data" is a JSON object`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				if tt.contentType == "-" {
					w.Header()["Content-Type"] = nil
				} else {
					w.Header().Set("Content-Type", tt.contentType)
				}
				w.Write([]byte(tt.body))
			})
			c := newClient(t, srv.URL, nil)
			var err error
			wantWhere := where
			if tt.list {
				_, err = c.ListSkills(t.Context(), space, 5, 0)
				wantWhere = "GET /api/v1/spaces/ab12/skills?limit=5&offset=0"
			} else {
				_, err = c.GetSkill(t.Context(), space, skillID)
			}
			if err == nil {
				t.Fatal("no error")
			}
			if !strings.HasPrefix(err.Error(), wantWhere+": invalid response: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q\nwant it to start with %q and contain %q", err, wantWhere, tt.want)
			}
			if n := srv.count(); n != 1 {
				t.Errorf("%d requests, want 1 (a bad response is not retried)", n)
			}
		})
	}
}

func TestErrorResponses(t *testing.T) {
	const path = "/api/v1/spaces/ab12/skills/" + skillID
	longHTML := "<html>" + strings.Repeat("<p>oops</p>\n", 100) + "</html>"
	tests := []struct {
		status  int
		body    string
		message string
		text    string
		is      string // the predicate that holds
	}{
		{409, `{"error":{"message":"space already has 40 active skills","code":"limit"}}`, "space already has 40 active skills",
			"PATCH " + path + ": 409 Conflict: space already has 40 active skills", "IsConflict"},
		{404, `{"message":"skill not found"}`, "skill not found", "PATCH " + path + ": 404 Not Found: skill not found", "IsNotFound"},
		{403, `{"error":"skills feature disabled"}`, "skills feature disabled", "PATCH " + path + ": 403 Forbidden: skills feature disabled", "IsForbidden"},
		{401, "invalid\ttoken\n", "invalid token", "PATCH " + path + ": 401 Unauthorized: invalid token", "IsUnauthorized"},
		{400, `{"error":{"code":1},"message":"name: too long"}`, "name: too long", "PATCH " + path + ": 400 Bad Request: name: too long", ""},
		{422, "", "", "PATCH " + path + ": 422 Unprocessable Entity", ""},
		{499, "x", "x", "PATCH " + path + ": 499: x", ""},
		{400, longHTML, shorten(longHTML, 200), "", ""},
	}
	for _, tt := range tests {
		t.Run(strconv.Itoa(tt.status), func(t *testing.T) {
			srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				w.Write([]byte(tt.body))
			})
			_, err := newClient(t, srv.URL, nil).UpdateSkill(t.Context(), space, skillID, SkillUpdate{Name: ptr("x")})
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error = %v, want an *Error", err)
			}
			if e.StatusCode != tt.status || e.Method != "PATCH" || e.Path != path || e.Message != tt.message {
				t.Errorf("Error = %+v, want message %q", e, tt.message)
			}
			if len([]rune(e.Message)) > 203 {
				t.Errorf("message of %d characters", len([]rune(e.Message)))
			}
			if tt.text != "" && err.Error() != tt.text {
				t.Errorf("Error() = %q\n          want %q", err, tt.text)
			}
			preds := map[string]func(error) bool{"IsNotFound": IsNotFound, "IsConflict": IsConflict,
				"IsForbidden": IsForbidden, "IsUnauthorized": IsUnauthorized, "IsRateLimited": IsRateLimited}
			for name, p := range preds {
				want := name == tt.is
				if got := p(fmt.Errorf("wrapped: %w", err)); got != want {
					t.Errorf("%s = %v, want %v", name, got, want)
				}
			}
		})
	}
}

func TestBodyLimit(t *testing.T) {
	const size = 100 << 20
	chunk := make([]byte, 64<<10)
	for i := range chunk {
		chunk[i] = ' '
	}
	t.Run("streamed 100 MB body", func(t *testing.T) {
		var written atomic.Int64
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"`))
			for written.Load() < size {
				n, err := w.Write(chunk)
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
		})
		c := newClient(t, srv.URL, nil)
		c.maxBody = 1 << 20
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := c.GetSkill(t.Context(), space, skillID)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "response body exceeds the limit of 1048576 bytes") {
			t.Errorf("error = %v", err)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 24<<20 {
			t.Errorf("allocated %d MiB for a 1 MiB limit", alloc>>20)
		}
		if n := srv.count(); n != 1 {
			t.Errorf("%d requests, want 1", n)
		}
	})
	t.Run("declared 100 MB body, default limit", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", strconv.Itoa(size))
			w.Write(chunk)
		})
		_, err := newClient(t, srv.URL, nil).ListSkills(t.Context(), space, 100, 0)
		if err == nil || !strings.Contains(err.Error(), "response body of 104857600 bytes exceeds the limit of 33554432 bytes") {
			t.Errorf("error = %v", err)
		}
	})
	t.Run("huge error body is cut", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusBadRequest)
			for range 100 {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		})
		_, err := newClient(t, srv.URL, nil).GetSkill(t.Context(), space, skillID)
		var e *Error
		if !errors.As(err, &e) || e.StatusCode != 400 {
			t.Errorf("error = %v, want a 400", err)
		}
	})
}

func TestRedirects(t *testing.T) {
	t.Run("to another host is refused and leaks nothing", func(t *testing.T) {
		other := serve(t, func(w http.ResponseWriter, r *http.Request) { writeJSON(w, 200, fullSkill()) })
		// Same IP, other port: another origin all the same.
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+r.URL.Path, http.StatusTemporaryRedirect)
		})
		_, err := newClient(t, srv.URL, nil).GetSkill(t.Context(), space, skillID)
		if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect to "+other.URL) {
			t.Errorf("error = %v", err)
		}
		if n := other.count(); n != 0 {
			t.Errorf("the other host got %d requests (Authorization %q)", n, other.requests()[0].Header.Get("Authorization"))
		}
		if n := srv.count(); n != 1 {
			t.Errorf("%d requests, want 1 (a refused redirect is not retried)", n)
		}
	})
	t.Run("to another host by name", func(t *testing.T) {
		var target string
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, target, http.StatusFound)
		})
		target = strings.Replace(srv.URL, "127.0.0.1", "localhost", 1) + "/x"
		_, err := newClient(t, srv.URL, nil).GetSkill(t.Context(), space, skillID)
		if err == nil || !strings.Contains(err.Error(), "refusing to follow a redirect") || srv.count() != 1 {
			t.Errorf("error = %v after %d requests", err, srv.count())
		}
	})
	t.Run("on the same host is followed with the token", func(t *testing.T) {
		srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
			if !strings.HasPrefix(r.URL.Path, "/moved/") {
				http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusPermanentRedirect)
				return
			}
			writeJSON(w, 200, fullSkill())
		})
		if _, err := newClient(t, srv.URL, nil).EnableSkill(t.Context(), space, skillID); err != nil {
			t.Fatal(err)
		}
		reqs := srv.requests()
		if len(reqs) != 2 || reqs[1].Method != "POST" || reqs[1].Header.Get("Authorization") != "Bearer "+testToken {
			t.Errorf("requests = %+v", reqs)
		}
	})
	t.Run("the caller's client is not changed", func(t *testing.T) {
		hc := &http.Client{}
		newClient(t, "https://example.com", func(o *Options) { o.HTTPClient = hc })
		if hc.CheckRedirect != nil {
			t.Error("New set CheckRedirect on the caller's http.Client")
		}
	})
}

// countingTransport fails the test if any request goes out.
type countingTransport struct{ n atomic.Int32 }

func (c *countingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return nil, errors.New("no request expected")
}

func TestNew(t *testing.T) {
	tests := []struct {
		url  string
		want string // "" when accepted
	}{
		{"https://tenant.example.com", ""},
		{"https://tenant.example.com/", ""},
		{"https://tenant.example.com:8443/prefix", ""},
		{"http://127.0.0.1:8080", ""},
		{"http://127.3.2.1", ""},
		{"http://localhost:1234", ""},
		{"http://LOCALHOST", ""},
		{"http://[::1]:9000", ""},
		{"http://tenant.example.com", "plain http is allowed only for loopback hosts"},
		{"http://10.0.0.1", "plain http is allowed only for loopback hosts"},
		{"http://0.0.0.0:80", "plain http is allowed only for loopback hosts"},
		{"http://localhost.evil.com", "plain http is allowed only for loopback hosts"},
		{"http://127.0.0.1.nip.io", "plain http is allowed only for loopback hosts"},
		{"ftp://example.com", "scheme must be https"},
		{"tenant.example.com", `base URL "tenant.example.com" has no scheme: write https://tenant.example.com`},
		{"127.0.0.1:8080", `base URL "127.0.0.1:8080" has no scheme: write https://127.0.0.1:8080 (http:// only for a loopback host`},
		{"https:/tenant.example.com", `base URL "https:/tenant.example.com": the scheme is misspelt; write https://tenant.example.com`},
		{"https//tenant.example.com", `the scheme is misspelt; write https://tenant.example.com`},
		{"http:127.0.0.1:8080", `the scheme is misspelt; write http://127.0.0.1:8080`},
		{"https://tenant.example.com/api/v1", `base URL "https://tenant.example.com/api/v1" ends in /api/v1, which skillsync adds to every request itself: use "https://tenant.example.com"`},
		{"https://tenant.example.com/prefix/api/", `ends in /api, which skillsync adds to every request itself: use "https://tenant.example.com/prefix"`},
		{"", "no base URL"},
		{"https://", "no host"},
		{"https://user:pw@example.com", "must not hold credentials"},
		{"user:pw@example.com", `base URL "xxxxx@example.com"`},
		{"https:/u:pw@example.com", `base URL "https:/xxxxx@example.com"`},
		{"ftp://u:pw@example.com", `base URL "ftp://xxxxx@example.com": scheme must be https`},
		{"http://api.example.com/@team/v1", `base URL "http://api.example.com/@team/v1": plain http`},
		{"https://example.com?token=1", "must not have a query"},
		{"https://example.com/#x", "must not have a query or fragment"},
		{"https://exa mple.com", "not a valid URL"},
		{"https://tenant.example.com ", `base URL "https://tenant.example.com " has white space at its start or end: write "https://tenant.example.com"`},
		{"\thttps://u:pw@tenant.example.com", `base URL "\thttps://xxxxx@tenant.example.com" has white space`},
	}
	for _, tt := range tests {
		t.Run(tt.url, func(t *testing.T) {
			rt := &countingTransport{}
			c, err := New(Options{BaseURL: tt.url, Token: testToken, HTTPClient: &http.Client{Transport: rt}})
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			case tt.want != "" && c != nil:
				t.Error("client returned with an error")
			}
			if err != nil && strings.Contains(err.Error(), "pw") {
				t.Errorf("error %q shows the URL's password", err)
			}
			if rt.n.Load() != 0 {
				t.Error("New made a request")
			}
		})
	}

	opts := []struct {
		name string
		o    Options
		want string
	}{
		{"no token", Options{BaseURL: "https://x.io"}, "no token"},
		{"Bearer prefix", Options{BaseURL: "https://x.io", Token: "Bearer " + testToken}, `starts with "Bearer "`},
		{"newline in token", Options{BaseURL: "https://x.io", Token: testToken + "\n"}, "space or control character"},
	}
	for _, tt := range opts {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.o)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want one containing %q", err, tt.want)
			}
			if err != nil && strings.Contains(err.Error(), testToken) {
				t.Errorf("error %q shows the token", err)
			}
		})
	}
}

func TestTokenNeverShown(t *testing.T) {
	// The server echoes the Authorization header back in every way it can.
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		switch {
		case strings.HasSuffix(r.URL.Path, "/enable"):
			writeJSON(w, 401, map[string]any{"error": map[string]string{"message": "bad credentials: " + auth}})
		case strings.HasSuffix(r.URL.Path, "/disable"):
			w.WriteHeader(500)
			w.Write([]byte("<pre>" + auth + "</pre>"))
		case strings.HasSuffix(r.URL.Path, "/publish"):
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<p>" + auth + "</p>"))
		default:
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id": "` + auth + `", `))
		}
	})
	var infos []string
	opts := Options{
		BaseURL:     srv.URL,
		Token:       testToken,
		MaxAttempts: 1,
		OnRequest: func(ri RequestInfo) {
			infos = append(infos, fmt.Sprintf("%v %+v %#v", ri, ri, ri), ri.Err.Error())
		},
	}
	c, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	var errs []error
	_, err = c.EnableSkill(ctx, space, skillID)
	errs = append(errs, err)
	_, err = c.DisableSkill(ctx, space, skillID)
	errs = append(errs, err)
	_, err = c.PublishAgent(ctx, space, agentID)
	errs = append(errs, err)
	_, err = c.GetSkill(ctx, space, skillID)
	errs = append(errs, err)
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = c.GetSkill(cancelled, space, skillID)
	errs = append(errs, err)

	var shown []string
	for _, err := range errs {
		if err == nil {
			t.Fatal("a call succeeded")
		}
		shown = append(shown, err.Error(), fmt.Sprintf("%v %+v %#v", err, err, err))
	}
	shown = append(shown, infos...)
	type holder struct{ Client *Client }
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%d", "%x", "%T"} {
		shown = append(shown, fmt.Sprintf(verb, c), fmt.Sprintf(verb, *c), fmt.Sprintf(verb, holder{c}), fmt.Sprintf(verb, []*Client{c}))
	}
	if len(infos) != 8 {
		t.Errorf("%d attempts recorded, want 4", len(infos)/2)
	}
	for _, s := range shown {
		if strings.Contains(s, testToken) || strings.Contains(s, "sentinel") {
			t.Errorf("token shown in %q", s)
		}
	}
	if !strings.Contains(fmt.Sprint(c), srv.URL) || !strings.Contains(fmt.Sprint(c), "[REDACTED]") {
		t.Errorf("a Client prints as %v", c)
	}
	if !strings.Contains(errs[0].Error(), "bad credentials: Bearer [REDACTED]") {
		t.Errorf("error = %v, want the echoed token redacted", errs[0])
	}
}

// TestGetSkillFileUpTo reads files over the limit asked for: each fails
// with ErrTooLarge after one request, having read little more of the
// answer than the limit.
func TestGetSkillFileUpTo(t *testing.T) {
	const limit = 64 << 10
	const where = "GET /api/v1/spaces/ab12/skills/" + skillID + "/files/big.md"
	file := func(content string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			writeJSON(w, 200, map[string]string{"path": "big.md", "content": content})
		}
	}
	var written atomic.Int64
	tests := []struct {
		name   string
		handle http.HandlerFunc
		want   string
	}{
		{"content one byte over", file(strings.Repeat("x", limit+1)),
			where + ": the file is 65537 bytes, more than the 65536 read"},
		{"content of escapes far over", file(strings.Repeat("\x01", 100*limit)),
			where + ": response body exceeds the limit of 458752 bytes"},
		{"a body that never ends", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"path": "big.md", "content": "`))
			chunk := []byte(strings.Repeat("x", 64<<10))
			for written.Load() < 1<<30 {
				n, err := w.Write(chunk)
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
		}, where + ": response body exceeds the limit of 458752 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := serve(t, tt.handle)
			// The server encodes megabytes of escapes before it answers:
			// under -race on a loaded machine that can pass newClient's
			// 5s timeout, and the retry would be a second request.
			c := newClient(t, srv.URL, func(o *Options) { o.Timeout = time.Minute })
			f, err := c.GetSkillFileUpTo(t.Context(), space, skillID, "big.md", limit)
			if !errors.Is(err, ErrTooLarge) || err.Error() != tt.want {
				t.Errorf("error = %v, want %q wrapping ErrTooLarge", err, tt.want)
			}
			if f != nil {
				t.Errorf("file = %d bytes, want none", len(f.Content))
			}
			if n := srv.count(); n != 1 {
				t.Errorf("%d requests, want 1", n)
			}
		})
	}
	if n := written.Load(); n >= 1<<30 {
		t.Errorf("the endless body was read to its end (%d MB)", n>>20)
	}

	srv := serve(t, file(strings.Repeat("x", limit)))
	f, err := newClient(t, srv.URL, nil).GetSkillFileUpTo(t.Context(), space, skillID, "big.md", limit)
	if err != nil || len(f.Content) != limit {
		t.Errorf("a file of the limit: %v", err)
	}
}
