package vendored

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"

	"github.com/skillsync/skillsync/internal/redact"
)

// Variables that give a remote source's host a token. HOST is the host
// as [hostVariable] spells it.
const (
	// TokenPrefix + HOST holds the token of HOST.
	TokenPrefix = "SKILLSYNC_GIT_TOKEN_"
	// UserPrefix + HOST holds the user name sent with that token, for a
	// forge that wants another than the one skillsync picks.
	UserPrefix = "SKILLSYNC_GIT_USER_"
)

// User names that forges expect beside a token in HTTP basic auth.
const (
	userGitHub    = "x-access-token"  // GitHub: required for app and Actions tokens, any for others
	userGitLab    = "oauth2"          // GitLab: required for OAuth tokens, any for others
	userJobToken  = "gitlab-ci-token" // GitLab's CI_JOB_TOKEN
	userBitbucket = "x-token-auth"    // Bitbucket Cloud's access tokens
)

// Auth says which token, if any, each remote source's host gets. Its
// zero value sends none. The token of a host is, in this order:
//
//   - SKILLSYNC_GIT_TOKEN_<HOST>, sent with the user name
//     SKILLSYNC_GIT_USER_<HOST>, else the one the host's forge expects;
//   - on GitHub's host (GITHUB_SERVER_URL's, else github.com):
//     GITHUB_TOKEN, then GH_TOKEN, as x-access-token;
//   - on GitLab's host (CI_SERVER_URL's or CI_SERVER_HOST's, else
//     gitlab.com): GITLAB_TOKEN as oauth2, then CI_JOB_TOKEN as
//     gitlab-ci-token.
//
// A token is sent to its source's scheme, host and port only: never
// after a redirect elsewhere.
type Auth struct {
	// Getenv reads a variable; nil reads none.
	Getenv func(string) string
	// Using, if set, is called with a token's variable and the token,
	// then the basic auth credential carrying it, before they are sent,
	// so that no output shows them.
	Using func(variable, token string)
}

// A credential is what one source's host gets.
type credential struct {
	variable    string // where the token came from
	user, token string
}

// access is what Auth gives a source: its credential, if any, and the
// variables that could have held one, in the order they are read.
type access struct {
	origin    origin
	cred      *credential // nil: none
	variables []string
}

// An origin is where a token may go: a scheme, a host name in lower case
// (or an IP address), and a port, the scheme's default spelled out.
type origin struct{ scheme, host, port string }

func originOf(u *url.URL) origin {
	o := origin{scheme: strings.ToLower(u.Scheme), host: strings.ToLower(u.Hostname()), port: u.Port()}
	if p, err := strconv.Atoi(o.port); err == nil {
		o.port = strconv.Itoa(p) // 0443 is 443
	}
	if o.port == "" {
		o.port = map[string]string{"https": "443", "http": "80"}[o.scheme]
	}
	return o
}

// parseOrigin is the origin of a forge's address as CI gives it, a URL
// or (host) a host name; ok is false for "" or what does not parse.
func parseOrigin(raw string, host bool) (origin, bool) {
	if raw == "" {
		return origin{}, false
	}
	if host {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil || u.Hostname() == "" {
		return origin{}, false
	}
	return originOf(u), true
}

// hostVariable is HOST of the variables naming o's host: its name in
// upper case, "." spelled "_" and "-" spelled "__", then "_" and the
// port when it is not the scheme's default. Host names and IPv4
// addresses map to distinct names; ok is false for a host that is
// neither (an IPv6 address, a name with "_" or a trailing dot).
func hostVariable(o origin) (string, bool) {
	if !hostName(o.host) {
		return "", false
	}
	name := strings.ToUpper(strings.NewReplacer(".", "_", "-", "__").Replace(o.host))
	if o.port != map[string]string{"https": "443", "http": "80"}[o.scheme] {
		name += "_" + o.port
	}
	return name, true
}

// hostName reports whether h is an IPv4 address or a DNS host name:
// labels of letters, digits and inner hyphens, the last not all digits.
// Their variables cannot collide: a hyphen doubles, a dot does not, and
// the port is the one label of digits at the end.
func hostName(h string) bool {
	if ip := net.ParseIP(h); ip != nil {
		return ip.To4() != nil && !strings.Contains(h, ":")
	}
	labels := strings.Split(h, ".")
	for _, l := range labels {
		if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			if c := l[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	_, err := strconv.Atoi(labels[len(labels)-1])
	return err != nil
}

func (a Auth) getenv(name string) string {
	if a.Getenv == nil {
		return ""
	}
	return strings.TrimSpace(a.Getenv(name))
}

// forges are the origins of the GitHub and the GitLab CI works with.
func (a Auth) forges() (gh, gl origin) {
	gh, ok := parseOrigin(a.getenv("GITHUB_SERVER_URL"), false)
	if !ok {
		gh = origin{"https", "github.com", "443"}
	}
	gl, ok = parseOrigin(a.getenv("CI_SERVER_URL"), false)
	if !ok {
		gl, ok = parseOrigin(a.getenv("CI_SERVER_HOST"), true)
	}
	if !ok {
		gl = origin{"https", "gitlab.com", "443"}
	}
	return gh, gl
}

// access is what a gives the remote source src.
func (a Auth) access(src Source) access {
	u, err := url.Parse(src.url)
	if err != nil {
		return access{}
	}
	acc := access{origin: originOf(u)}
	gh, gl := a.forges()
	var users []string // of each variable
	if host, ok := hostVariable(acc.origin); ok {
		user := a.getenv(UserPrefix + host)
		if user == "" {
			user = defaultUser(acc.origin, gh, gl)
		}
		acc.variables, users = append(acc.variables, TokenPrefix+host), append(users, user)
	}
	switch acc.origin {
	case gh:
		acc.variables = append(acc.variables, "GITHUB_TOKEN", "GH_TOKEN")
		users = append(users, userGitHub, userGitHub)
	case gl:
		acc.variables = append(acc.variables, "GITLAB_TOKEN", "CI_JOB_TOKEN")
		users = append(users, userGitLab, userJobToken)
	}
	for i, v := range acc.variables {
		if tok := a.getenv(v); tok != "" {
			acc.cred = &credential{variable: v, user: users[i], token: tok}
			break
		}
	}
	if acc.cred != nil && a.Using != nil {
		for _, secret := range acc.cred.secrets() {
			a.Using(acc.cred.variable, secret)
		}
	}
	return acc
}

// secrets are the forms of c a server may echo: the token, and the
// basic auth credential that carries it.
func (c *credential) secrets() []string {
	return []string{c.token, base64.StdEncoding.EncodeToString([]byte(c.user + ":" + c.token))}
}

// defaultUser is the user name sent with a token of SKILLSYNC_GIT_TOKEN_
// to o, given the origins of the GitHub and GitLab of CI.
func defaultUser(o, gh, gl origin) string {
	switch {
	case o == gl || o.host == "gitlab.com":
		return userGitLab
	case o.host == "bitbucket.org":
		return userBitbucket
	}
	return userGitHub
}

// transportAuth is acc's credential for go-git's http transport; for none,
// a nil interface, which go-git takes for no credential.
func (acc access) transportAuth() githttp.AuthMethod {
	if acc.cred == nil {
		return nil
	}
	return &tokenAuth{origin: acc.origin, cred: *acc.cred}
}

// tokenAuth sends a token in HTTP basic auth to its origin, and nowhere
// else: go-git asks it for each request it makes, the one after a
// redirect too.
type tokenAuth struct {
	origin origin
	cred   credential
}

// SetAuth sets r's credentials when r goes to the token's origin.
func (a *tokenAuth) SetAuth(r *http.Request) {
	if r.URL != nil && originOf(r.URL) == a.origin {
		r.SetBasicAuth(a.cred.user, a.cred.token)
	}
}

// Name is go-git's name of the method.
func (a *tokenAuth) Name() string { return "http-basic-auth" }

// String names the token's variable, never its value.
func (a *tokenAuth) String() string { return "the token of " + a.cred.variable }

// An AuthError is a remote source whose host refused it: it asked for
// credentials (HTTP 401), refused those sent (403), or, as forges do for
// a private repository, said there was none (404).
type AuthError struct {
	Source string
	Status int
	// Sent is the variable whose token was sent, "" when none was.
	Sent string
	// User is the user name sent with it.
	User string
	// Variables could hold the host's token, in the order they are
	// read; none when no variable can name the host.
	Variables []string
}

func (e *AuthError) Error() string {
	if e.Sent == "" {
		set := "set " + strings.Join(e.Variables, " or ") + " to a token that may read it"
		if len(e.Variables) == 0 {
			set = "no variable names its host (an IPv6 address, or not a DNS host name): give the URL with its host name, or vendor from a local clone"
		}
		if e.Status == http.StatusNotFound {
			return fmt.Sprintf("no git repository at %s, unless it is private: skillsync sent no token; %s", e.Source, set)
		}
		return fmt.Sprintf("%s asks for credentials (HTTP %d), and skillsync sent no token: %s", e.Source, e.Status, set)
	}
	what := fmt.Sprintf("the token of %s (sent with user name %s)", e.Sent, e.User)
	fix := "check that it is valid and may read the repository"
	switch {
	case e.Sent == "CI_JOB_TOKEN":
		fix = "CI_JOB_TOKEN reads only the projects whose job token allowlist holds this one; add it there, or set " +
			strings.Join(e.Variables[:len(e.Variables)-1], " or ") + " to another token"
	case strings.HasPrefix(e.Sent, TokenPrefix):
		fix += ", and whether the forge wants another user name, in " + UserPrefix + strings.TrimPrefix(e.Sent, TokenPrefix)
	}
	if e.Status == http.StatusNotFound {
		return fmt.Sprintf("no git repository at %s that %s may read: %s", e.Source, what, fix)
	}
	return fmt.Sprintf("%s refused %s (HTTP %d): %s", e.Source, what, e.Status, fix)
}

// hiddenError is an error of a source, its text with the token sent
// there hidden; it unwraps to the error itself.
type hiddenError struct {
	text string
	err  error
}

func (e *hiddenError) Error() string { return e.text }
func (e *hiddenError) Unwrap() error { return e.err }

// hide is err with acc's token hidden from its text, in each form.
func (acc access) hide(err error) error {
	if acc.cred == nil {
		return err
	}
	text := err.Error()
	for _, secret := range acc.cred.secrets() {
		text = redact.New(secret).Redact(text)
	}
	return &hiddenError{text: text, err: err}
}
