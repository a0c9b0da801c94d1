package vendored

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

// gitHost serves the repositories of a folder over git's smart HTTP
// protocol through git http-backend, as a forge does, and records the
// Authorization header of every request it gets.
type gitHost struct {
	URL string // http://127.0.0.1:PORT, or http://localhost:PORT
	// user and token are the credentials it wants in basic auth: none
	// when token is ""; any user name when user is "".
	user, token string
	// redirect, when set, is the base URL it sends every request to.
	redirect string
	// answer, when set, answers the requests it matches instead.
	answer func(w http.ResponseWriter, r *http.Request) bool

	backend http.Handler
	mu      sync.Mutex
	auths   []string
}

// serveGitHost serves the repositories under dir; a repository dir/NAME
// is at URL/NAME.
func serveGitHost(t *testing.T, dir string) *gitHost {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("no git")
	}
	h := &gitHost{backend: &cgi.Handler{Path: git, Args: []string{"http-backend"}, Root: "/",
		Env: []string{"GIT_PROJECT_ROOT=" + dir, "GIT_HTTP_EXPORT_ALL=1"}}}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	h.URL = ts.URL
	return h
}

func (h *gitHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.auths = append(h.auths, r.Header.Get("Authorization"))
	h.mu.Unlock()
	switch {
	case h.answer != nil && h.answer(w, r):
		return
	case h.redirect != "":
		http.Redirect(w, r, h.redirect+r.URL.RequestURI(), http.StatusFound)
		return
	}
	if user, pass, ok := r.BasicAuth(); h.token != "" && (!ok || pass != h.token || h.user != "" && user != h.user) {
		// As some forges do, the answer quotes what it was sent.
		w.Header().Set("WWW-Authenticate", `Basic realm="git"`)
		http.Error(w, "denied: you sent "+r.Header.Get("Authorization")+" = "+pass, http.StatusUnauthorized)
		return
	}
	h.backend.ServeHTTP(w, r)
}

// seen returns the Authorization headers of the requests so far, "" for
// none.
func (h *gitHost) seen() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.auths...)
}

// variable is the name of the variable of h's token.
func (h *gitHost) variable(t *testing.T) string {
	t.Helper()
	u, err := url.Parse(h.URL)
	if err != nil {
		t.Fatal(err)
	}
	host := strings.ToUpper(strings.ReplaceAll(u.Hostname(), ".", "_"))
	return TokenPrefix + host + "_" + u.Port()
}

// onLocalhost is h's URL with "localhost" for its address: another
// host, the same server.
func onLocalhost(base string) string { return strings.Replace(base, "127.0.0.1", "localhost", 1) }

func basic(user, token string) string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(user+":"+token))
}

// servedUpstream is pdfUpstream served by a gitHost, and its URL there.
func servedUpstream(t *testing.T) (*testUpstream, *gitHost, string) {
	up := pdfUpstream(t)
	h := serveGitHost(t, filepath.Dir(up.dir))
	return up, h, h.URL + "/" + filepath.Base(up.dir)
}

// envAuth is the Auth of the variables of env, recording each token it
// registers as "VARIABLE=TOKEN".
func envAuth(env map[string]string, used *[]string) Auth {
	return Auth{Getenv: func(k string) string { return env[k] }, Using: func(v, tok string) { *used = append(*used, v+"="+tok) }}
}

// assertNoLeak fails t when any file under root holds a run of one of
// tokens, in any spelling an echo gives it.
func assertNoLeak(t *testing.T, root string, tokens ...string) {
	t.Helper()
	leak, err := redacttest.LeakInFiles(root, tokens...)
	if err != nil {
		t.Fatal(err)
	}
	if leak != "" {
		t.Error(leak)
	}
}

// TestPrivateSource: a host that wants a token. Without one, add says
// which variable to set and that none was sent; with a wrong one, whose
// was refused; with the right one add, outdated and update work, every
// request carries it, and neither the lock nor any file holds it.
func TestPrivateSource(t *testing.T) {
	const token = "tok-private-0123456789abcdef"
	const wrong = "tok-wrong-0123456789abcdef"
	up, host, source := servedUpstream(t)
	host.token = token
	variable := host.variable(t)
	env := map[string]string{"GITHUB_TOKEN": "ci-token-0123456789abcdef"} // github.com's, never sent here
	var used []string
	auth := envAuth(env, &used)
	ctx := context.Background()
	root := newRoot(t)
	add := func() error {
		_, err := Add(ctx, root, AddOptions{Source: source, Path: "skills/pdf", Auth: auth})
		return err
	}

	err := add()
	var ae *AuthError
	if !errors.As(err, &ae) || ae.Sent != "" || ae.Status != http.StatusUnauthorized ||
		!strings.Contains(err.Error(), "skillsync sent no token: set "+variable+" to a token") {
		t.Fatalf("without a token: %v", err)
	}
	env[variable] = wrong
	err = add()
	if !errors.As(err, &ae) || ae.Sent != variable ||
		!strings.Contains(err.Error(), "refused the token of "+variable+" (sent with user name x-access-token) (HTTP 401)") {
		t.Fatalf("with a wrong token: %v", err)
	}
	if leak := redacttest.Leak(err.Error(), wrong); leak != "" {
		t.Errorf("the error holds %s: %v", leak, err)
	}
	if _, err := os.Stat(filepath.Join(root, "skills", "pdf")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the folder was written: %v", err)
	}

	env[variable] = token
	if err := add(); err != nil {
		t.Fatal(err)
	}
	up.write(map[string]string{"skills/pdf/forms.md": "# Forms\n\nFill them in.\n"})
	moved := up.commit("forms")
	rep, err := Outdated(ctx, root, OutdatedOptions{Auth: auth})
	if err != nil || rep.Skills[0].State != StateOutdated || rep.Skills[0].Latest != moved {
		t.Fatalf("outdated: %+v %v", rep, err)
	}
	urep, err := Update(ctx, root, UpdateOptions{Auth: auth})
	if err != nil || urep.Skills[0].State != StateUpdated {
		t.Fatalf("update: %+v %v", urep, err)
	}
	if got := readFile(t, filepath.Join(root, "skills", "pdf", "forms.md")); got != "# Forms\n\nFill them in.\n" {
		t.Errorf("forms.md after update: %q", got)
	}
	if e := lockOf(t, root).Skills[0]; e.Source != source || e.Commit != moved {
		t.Errorf("lock entry %+v", e)
	}
	assertNoLeak(t, root, token, wrong, strings.TrimPrefix(basic("x-access-token", token), "Basic "))

	right := 0
	for _, a := range host.seen() {
		switch a {
		case basic("x-access-token", token):
			right++
		case "", basic("x-access-token", wrong):
		default:
			t.Errorf("the host got %q", a)
		}
	}
	if right < 4 { // add: list and fetch; outdated and update: list and fetch each
		t.Errorf("%d requests carried the token: %q", right, host.seen())
	}
	for _, u := range used {
		switch u {
		case variable + "=" + token, variable + "=" + wrong, variable + "=" + strings.TrimPrefix(basic("x-access-token", token), "Basic "),
			variable + "=" + strings.TrimPrefix(basic("x-access-token", wrong), "Basic "):
		default:
			t.Errorf("registered %q", u)
		}
	}
	if len(used) == 0 {
		t.Error("no token was registered before it was sent")
	}
}

// TestPrivateSourceUserName: a forge that wants a user name of its own
// is told it by SKILLSYNC_GIT_USER_<HOST>, which the error names.
func TestPrivateSourceUserName(t *testing.T) {
	const token = "tok-private-0123456789abcdef"
	_, host, source := servedUpstream(t)
	host.user, host.token = "bob", token
	variable := host.variable(t)
	userVariable := UserPrefix + strings.TrimPrefix(variable, TokenPrefix)
	env := map[string]string{variable: token}
	var used []string
	auth := envAuth(env, &used)
	_, err := Add(context.Background(), newRoot(t), AddOptions{Source: source, Path: "skills/pdf", Auth: auth})
	if err == nil || !strings.Contains(err.Error(), "whether the forge wants another user name, in "+userVariable) {
		t.Fatalf("with the default user name: %v", err)
	}
	env[userVariable] = "bob"
	if _, err := Add(context.Background(), newRoot(t), AddOptions{Source: source, Path: "skills/pdf", Auth: auth}); err != nil {
		t.Fatal(err)
	}
}

// TestTokenStaysOnItsHost: the token of one host is sent to no other,
// on another port of the same address or under another name, nor are
// the CI forges' tokens, through add, outdated and update.
func TestTokenStaysOnItsHost(t *testing.T) {
	const token = "tok-private-0123456789abcdef"
	up, private, source := servedUpstream(t)
	private.token = token
	other := serveGitHost(t, filepath.Dir(up.dir)) // another port
	name := filepath.Base(up.dir)
	ci := "ci-token-0123456789abcdef"
	env := map[string]string{private.variable(t): token, "GITHUB_TOKEN": ci, "GH_TOKEN": ci, "GITLAB_TOKEN": ci, "CI_JOB_TOKEN": ci}
	var used []string
	auth := envAuth(env, &used)
	ctx := context.Background()
	root := newRoot(t)
	for slug, src := range map[string]string{"pdf": source, "pdf-port": other.URL + "/" + name, "pdf-name": onLocalhost(private.URL) + "/" + name} {
		if slug == "pdf-name" {
			private.token = "" // serves localhost: without a token
		}
		if _, err := Add(ctx, root, AddOptions{Source: src, Path: "skills/pdf", As: slug, Auth: auth}); err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		private.token = token
	}
	up.write(map[string]string{"skills/pdf/forms.md": "# Forms\n\nFill them in.\n"})
	up.commit("forms")
	private.token = ""
	if rep, err := Outdated(ctx, root, OutdatedOptions{Auth: auth}); err != nil || rep.Failed() {
		t.Fatalf("outdated: %+v %v", rep, err)
	}
	if rep, err := Update(ctx, root, UpdateOptions{Auth: auth}); err != nil || rep.Failed() {
		t.Fatalf("update: %+v %v", rep, err)
	}

	var toPrivate, toLocalhost []string
	for _, a := range private.seen() {
		if a == basic("x-access-token", token) {
			toPrivate = append(toPrivate, a)
		} else {
			toLocalhost = append(toLocalhost, a)
		}
	}
	if len(toPrivate) < 6 {
		t.Errorf("the token's host got it %d times", len(toPrivate))
	}
	for host, auths := range map[string][]string{"another port": other.seen(), "another name": toLocalhost} {
		if len(auths) < 6 {
			t.Errorf("%s got %d requests, want 6", host, len(auths))
		}
		for _, a := range auths {
			if a != "" {
				t.Errorf("%s got %q", host, a)
			}
		}
	}
	for _, u := range used {
		if u != private.variable(t)+"="+token && u != private.variable(t)+"="+strings.TrimPrefix(basic("x-access-token", token), "Basic ") {
			t.Errorf("registered %q", u)
		}
	}
}

// TestRedirectDropsToken: a host that sends the client elsewhere (here
// another port, or another name of the same address) does not send the
// token there: the repository is read without it.
func TestRedirectDropsToken(t *testing.T) {
	const token = "tok-private-0123456789abcdef"
	up, target, _ := servedUpstream(t)
	name := filepath.Base(up.dir)
	for _, c := range []struct{ what, to string }{
		{"another port", target.URL},
		{"another name", onLocalhost(target.URL)},
	} {
		t.Run(c.what, func(t *testing.T) {
			from := serveGitHost(t, t.TempDir())
			from.redirect = c.to
			env := map[string]string{from.variable(t): token}
			var used []string
			before := len(target.seen())
			root := newRoot(t)
			ctx := context.Background()
			if _, err := Add(ctx, root, AddOptions{Source: from.URL + "/" + name, Path: "skills/pdf", Auth: envAuth(env, &used)}); err != nil {
				t.Fatal(err)
			}
			if rep, err := Outdated(ctx, root, OutdatedOptions{Auth: envAuth(env, &used)}); err != nil || rep.Failed() {
				t.Fatalf("outdated: %+v %v", rep, err)
			}
			if got := from.seen(); len(got) == 0 || got[0] != basic("x-access-token", token) {
				t.Errorf("the token's host got %q, want the token", got)
			}
			got := target.seen()[before:]
			if len(got) < 3 {
				t.Errorf("the redirect's target got %d requests", len(got))
			}
			for _, a := range got {
				if a != "" {
					t.Errorf("the redirect's target got %q", a)
				}
			}
			if e := lockOf(t, root).Skills[0]; e.Source != from.URL+"/"+name {
				t.Errorf("lock source %q", e.Source)
			}
		})
	}
}

// TestTokenHiddenFromErrors: a host whose answers quote the token it got,
// when it refuses it, fails, or ends the protocol with an error line,
// while listing or while fetching: no error text holds the token.
func TestTokenHiddenFromErrors(t *testing.T) {
	const token = "tok-private-0123456789abcdef"
	encoded := base64.StdEncoding.EncodeToString([]byte("x-access-token:" + token))
	quote := func(r *http.Request) string {
		_, pass, _ := r.BasicAuth()
		return "you sent " + r.Header.Get("Authorization") + " = " + pass
	}
	for _, c := range []struct {
		what  string
		post  bool // answers the fetch (POST), not the listing
		code  int  // the status answered; 200 with an error line
		ctype string
	}{
		{what: "401", code: http.StatusUnauthorized},
		{what: "403", code: http.StatusForbidden},
		{what: "404", code: http.StatusNotFound},
		{what: "500 listing", code: http.StatusInternalServerError},
		{what: "500 fetching", post: true, code: http.StatusInternalServerError},
		{what: "an error line listing", code: http.StatusOK, ctype: "application/x-git-upload-pack-advertisement"},
		{what: "an error line fetching", post: true, code: http.StatusOK, ctype: "application/x-git-upload-pack-result"},
	} {
		answer := func(w http.ResponseWriter, r *http.Request) bool {
			if c.post != (r.Method == http.MethodPost) {
				return false
			}
			if c.code != http.StatusOK {
				http.Error(w, quote(r), c.code)
				return true
			}
			// An error line ends the protocol, in git's pkt-line format.
			w.Header().Set("Content-Type", c.ctype)
			msg := "ERR " + quote(r) + "\n"
			fmt.Fprintf(w, "%04x%s", len(msg)+4, msg)
			return true
		}
		t.Run(c.what, func(t *testing.T) {
			_, host, source := servedUpstream(t)
			host.answer = answer
			env := map[string]string{host.variable(t): token}
			var used []string
			_, err := Add(context.Background(), newRoot(t), AddOptions{Source: source, Path: "skills/pdf", Auth: envAuth(env, &used)})
			if err == nil {
				t.Fatal("no error")
			}
			t.Logf("%v", err)
			for _, secret := range []string{token, encoded} {
				if leak := redacttest.Leak(err.Error(), secret); leak != "" {
					t.Errorf("the error holds %s: %v", leak, err)
				}
			}
			if seen := host.seen(); len(seen) == 0 || seen[0] != basic("x-access-token", token) {
				t.Errorf("the token was not sent: %q", seen)
			}
		})
	}
}

// TestCITokens: in CI, GitHub's GITHUB_TOKEN and GitLab's CI_JOB_TOKEN
// reach the forge the job runs on, here served on loopback, with the user
// names those forges want; a refused job token says what else to set.
func TestCITokens(t *testing.T) {
	const token = "tok-ci-0123456789abcdef"
	for _, c := range []struct {
		name, user string
		env        func(server string) map[string]string
		err        string // "" for success
	}{
		{"GitHub Enterprise", "x-access-token", func(s string) map[string]string {
			return map[string]string{"GITHUB_SERVER_URL": s, "GITHUB_TOKEN": token, "CI_JOB_TOKEN": "other-0123456789abcdef"}
		}, ""},
		{"GitLab self-managed", "gitlab-ci-token", func(s string) map[string]string {
			return map[string]string{"CI_SERVER_URL": s, "CI_JOB_TOKEN": token, "GITHUB_TOKEN": "other-0123456789abcdef"}
		}, ""},
		{"GitLab's job token refused", "gitlab-ci-token", func(s string) map[string]string {
			return map[string]string{"CI_SERVER_URL": s, "CI_JOB_TOKEN": "other-0123456789abcdef"}
		}, "refused the token of CI_JOB_TOKEN (sent with user name gitlab-ci-token) (HTTP 401): CI_JOB_TOKEN reads only the projects whose job token allowlist holds this one; add it there, or set SKILLSYNC_GIT_TOKEN_127_0_0_1_PORT or GITLAB_TOKEN to another token"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, host, source := servedUpstream(t)
			host.user, host.token = c.user, token
			var used []string
			_, err := Add(context.Background(), newRoot(t), AddOptions{Source: source, Path: "skills/pdf", Auth: envAuth(c.env(host.URL), &used)})
			want := strings.ReplaceAll(c.err, "PORT", strings.TrimPrefix(host.variable(t), TokenPrefix+"127_0_0_1_"))
			switch {
			case c.err == "" && err != nil:
				t.Fatal(err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Fatalf("%v, want %q", err, want)
			}
		})
	}
}

// TestNotFoundWithoutToken: forges answer 404 for a private repository
// asked without credentials; the error says a token may be what is
// missing.
func TestNotFoundWithoutToken(t *testing.T) {
	_, host, source := servedUpstream(t)
	host.answer = func(w http.ResponseWriter, r *http.Request) bool {
		http.NotFound(w, r)
		return true
	}
	var used []string
	_, err := Add(context.Background(), newRoot(t), AddOptions{Source: source, Path: "skills/pdf", Auth: envAuth(nil, &used)})
	want := "no git repository at " + source + ", unless it is private: skillsync sent no token; set " + host.variable(t) + " to a token that may read it"
	if err == nil || err.Error() != want {
		t.Errorf("%v, want %q", err, want)
	}
}
