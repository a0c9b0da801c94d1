package remotetest

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skillsync/skillsync/remote"
)

const (
	rwToken   = "rw-token"
	roToken   = "ro-token"
	testSpace = "ab12"
)

// fixture is an emulator with space ab12, a read-write and a read-only
// token, served on loopback.
type fixture struct {
	t   *testing.T
	e   *Emulator
	srv *Server
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	e := New()
	e.AddSpace(Space{ID: testSpace})
	e.AddToken(rwToken, ReadWrite)
	e.AddToken(roToken, ReadOnly)
	return &fixture{t: t, e: e, srv: serveForTest(t, e)}
}

// serveForTest starts e for the length of the test; testserver.New,
// which imports this package, cannot serve its own tests.
func serveForTest(t *testing.T, e *Emulator) *Server {
	t.Helper()
	s, err := e.Start("")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// response is an answer read whole.
type response struct {
	status int
	header http.Header
	body   []byte
}

func (r response) json(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decoding %s: %v", r.body, err)
	}
}

func (r response) errorCode(t *testing.T) string {
	t.Helper()
	var b ErrorBody
	r.json(t, &b)
	if b.Error.Code == "" || b.Error.Message == "" {
		t.Fatalf("error body lacks code or message: %s", r.body)
	}
	return b.Error.Code
}

// req sends a request with the read-write token and no body.
func (f *fixture) req(method, path string) response {
	f.t.Helper()
	return f.send(method, path, rwToken, "", "")
}

// send sends a request; an empty token sends no Authorization, an empty
// contentType no Content-Type.
func (f *fixture) send(method, path, token, contentType, body string) response {
	f.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, f.srv.URL+path, rd)
	if err != nil {
		f.t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		f.t.Fatal(err)
	}
	return response{status: res.StatusCode, header: res.Header, body: b}
}

func (f *fixture) patch(path, body string) response {
	f.t.Helper()
	return f.send(http.MethodPatch, path, rwToken, "application/json", body)
}

func (f *fixture) mustStatus(r response, want int, what string) {
	f.t.Helper()
	if r.status != want {
		f.t.Fatalf("%s: status %d, want %d; body %s", what, r.status, want, r.body)
	}
}

func skillPath(spaceID, id string, rest ...string) string {
	return "/api/v1/spaces/" + spaceID + "/skills/" + strings.Join(append([]string{id}, rest...), "/")
}

func agentPath(spaceID, id string, rest ...string) string {
	return "/api/v1/spaces/" + spaceID + "/agents/" + strings.Join(append([]string{id}, rest...), "/")
}

func seedSkill(name string) SkillSeed {
	return SkillSeed{
		Name:         name,
		Description:  "Describes " + name,
		Instructions: "Do " + name + ".\n",
		Enabled:      true,
	}
}

func keys(m map[string]json.RawMessage) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}

func sorted(s ...string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

func parseTS(t *testing.T, s string) time.Time {
	t.Helper()
	if !tsPattern.MatchString(s) {
		t.Fatalf("timestamp %q is not RFC 3339 UTC with milliseconds", s)
	}
	ts, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

func getSkill(f *fixture, id string) remote.Skill {
	f.t.Helper()
	r := f.req(http.MethodGet, skillPath(testSpace, id))
	f.mustStatus(r, 200, "get skill")
	var s remote.Skill
	r.json(f.t, &s)
	return s
}

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

func readAll(r io.Reader) []byte {
	b, _ := io.ReadAll(r)
	return b
}
