package vendored

import (
	"encoding/base64"
	"net/http"
	"slices"
	"testing"
)

func TestHostVariable(t *testing.T) {
	for _, c := range []struct{ source, want string }{
		{"https://github.com/a/b", "GITHUB_COM"},
		{"https://GitHub.COM:443/a/b", "GITHUB_COM"},
		{"https://github.example.com:8443/a/b", "GITHUB_EXAMPLE_COM_8443"},
		{"https://github.example.com:08443/a/b", "GITHUB_EXAMPLE_COM_8443"},
		{"http://127.0.0.1:8080/a", "127_0_0_1_8080"},
		{"http://localhost/a", "LOCALHOST"},
		{"http://localhost:443/a", "LOCALHOST_443"},
		{"https://10.1.2.3/a", "10_1_2_3"},
		// Names that differ by their punctuation alone differ.
		{"https://my-git.corp.example/a", "MY__GIT_CORP_EXAMPLE"},
		{"https://my.git.corp.example/a", "MY_GIT_CORP_EXAMPLE"},
		{"https://xn--bcher-kva.example/a", "XN____BCHER__KVA_EXAMPLE"},
		// No variable: what is not a host name or an IPv4 address.
		{"https://[::1]:8443/a", ""},
		{"https://[::ffff:127.0.0.1]/a", ""},
		{"https://my_git.corp.example/a", ""},
		{"https://-git.corp.example/a", ""},
		{"https://corp.8443/a", ""},
		{"https://git.corp.example./a", ""},
	} {
		src, err := ParseSource(c.source, "/", "/")
		if err != nil {
			t.Fatalf("%s: %v", c.source, err)
		}
		acc := Auth{}.access(src)
		got, ok := hostVariable(acc.origin)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("%s: %q %v, want %q", c.source, got, ok, c.want)
		}
		if want := TokenPrefix + c.want; c.want != "" && (len(acc.variables) == 0 || acc.variables[0] != want) {
			t.Errorf("%s: variables %q, want %s first", c.source, acc.variables, want)
		}
	}
}

func TestAuthChoosesTheToken(t *testing.T) {
	const tok = "token-0123456789abcdef"
	for _, c := range []struct {
		name, source string
		env          map[string]string
		variable     string // the token's, "" for none
		user         string
		variables    []string // that could hold one
	}{
		{"GITHUB_TOKEN on github.com", "https://github.com/a/b", map[string]string{"GITHUB_TOKEN": tok},
			"GITHUB_TOKEN", "x-access-token", []string{"SKILLSYNC_GIT_TOKEN_GITHUB_COM", "GITHUB_TOKEN", "GH_TOKEN"}},
		{"the host's own variable first", "https://github.com/a/b", map[string]string{"GITHUB_TOKEN": "other", "SKILLSYNC_GIT_TOKEN_GITHUB_COM": tok},
			"SKILLSYNC_GIT_TOKEN_GITHUB_COM", "x-access-token", []string{"SKILLSYNC_GIT_TOKEN_GITHUB_COM", "GITHUB_TOKEN", "GH_TOKEN"}},
		{"GH_TOKEN", "https://github.com/a/b", map[string]string{"GH_TOKEN": tok}, "GH_TOKEN", "x-access-token", nil},
		{"GitHub Enterprise's GITHUB_TOKEN is not github.com's", "https://github.com/a/b",
			map[string]string{"GITHUB_SERVER_URL": "https://ghe.corp.example", "GITHUB_TOKEN": tok},
			"", "", []string{"SKILLSYNC_GIT_TOKEN_GITHUB_COM"}},
		{"GitHub Enterprise", "https://ghe.corp.example/a/b",
			map[string]string{"GITHUB_SERVER_URL": "https://ghe.corp.example", "GITHUB_TOKEN": tok},
			"GITHUB_TOKEN", "x-access-token", []string{"SKILLSYNC_GIT_TOKEN_GHE_CORP_EXAMPLE", "GITHUB_TOKEN", "GH_TOKEN"}},
		{"GITHUB_TOKEN outside Actions is github.com's", "https://ghe.corp.example/a/b", map[string]string{"GITHUB_TOKEN": tok},
			"", "", []string{"SKILLSYNC_GIT_TOKEN_GHE_CORP_EXAMPLE"}},
		{"GITLAB_TOKEN on gitlab.com", "https://gitlab.com/a/b", map[string]string{"GITLAB_TOKEN": tok, "CI_JOB_TOKEN": "job"},
			"GITLAB_TOKEN", "oauth2", []string{"SKILLSYNC_GIT_TOKEN_GITLAB_COM", "GITLAB_TOKEN", "CI_JOB_TOKEN"}},
		{"CI_JOB_TOKEN", "https://gitlab.corp.example:8443/a/b",
			map[string]string{"CI_SERVER_URL": "https://gitlab.corp.example:8443", "CI_JOB_TOKEN": tok},
			"CI_JOB_TOKEN", "gitlab-ci-token", []string{"SKILLSYNC_GIT_TOKEN_GITLAB_CORP_EXAMPLE_8443", "GITLAB_TOKEN", "CI_JOB_TOKEN"}},
		{"GitLab self-managed by CI_SERVER_HOST", "https://gitlab.corp.example/a/b",
			map[string]string{"CI_SERVER_HOST": "gitlab.corp.example", "GITLAB_TOKEN": tok},
			"GITLAB_TOKEN", "oauth2", nil},
		{"GitLab's port is its own", "https://gitlab.corp.example/a/b",
			map[string]string{"CI_SERVER_URL": "https://gitlab.corp.example:8443", "GITLAB_TOKEN": tok, "CI_JOB_TOKEN": tok},
			"", "", []string{"SKILLSYNC_GIT_TOKEN_GITLAB_CORP_EXAMPLE"}},
		{"a GitLab host's own variable is sent as oauth2", "https://gitlab.corp.example/a/b",
			map[string]string{"CI_SERVER_URL": "https://gitlab.corp.example", "SKILLSYNC_GIT_TOKEN_GITLAB_CORP_EXAMPLE": tok, "CI_JOB_TOKEN": "job"},
			"SKILLSYNC_GIT_TOKEN_GITLAB_CORP_EXAMPLE", "oauth2", nil},
		{"a user name of one's own", "https://git.corp.example/a/b",
			map[string]string{"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE": tok, "SKILLSYNC_GIT_USER_GIT_CORP_EXAMPLE": "bob"},
			"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE", "bob", []string{"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE"}},
		{"Bitbucket", "https://bitbucket.org/a/b", map[string]string{"SKILLSYNC_GIT_TOKEN_BITBUCKET_ORG": tok},
			"SKILLSYNC_GIT_TOKEN_BITBUCKET_ORG", "x-token-auth", nil},
		{"another host gets no CI token", "https://git.corp.example/a/b",
			map[string]string{"GITHUB_TOKEN": tok, "GH_TOKEN": tok, "GITLAB_TOKEN": tok, "CI_JOB_TOKEN": tok, "SKILLSYNC_GIT_TOKEN_GITHUB_COM": tok},
			"", "", []string{"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE"}},
		{"a lookalike host gets no token", "https://git-corp.example/a/b", map[string]string{"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE": tok},
			"", "", []string{"SKILLSYNC_GIT_TOKEN_GIT__CORP_EXAMPLE"}},
		{"a blank token is none", "https://github.com/a/b", map[string]string{"GITHUB_TOKEN": " \n"}, "", "", nil},
		{"a GitHub on loopback", "http://127.0.0.1:8080/a/b", map[string]string{"GITHUB_SERVER_URL": "http://127.0.0.1:8080", "GITHUB_TOKEN": tok},
			"GITHUB_TOKEN", "x-access-token", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := ParseSource(c.source, "/", "/")
			if err != nil {
				t.Fatal(err)
			}
			var used [][2]string
			auth := Auth{Getenv: func(k string) string { return c.env[k] }, Using: func(v, tok string) { used = append(used, [2]string{v, tok}) }}
			acc := auth.access(src)
			switch {
			case c.variable == "" && acc.cred != nil:
				t.Errorf("sends the token of %s", acc.cred.variable)
			case c.variable != "" && acc.cred == nil:
				t.Errorf("sends no token, want %s's", c.variable)
			case c.variable != "" && (acc.cred.variable != c.variable || acc.cred.user != c.user || acc.cred.token != c.env[c.variable]):
				t.Errorf("sends %s as %s, want %s as %s", acc.cred.variable, acc.cred.user, c.variable, c.user)
			}
			if c.variables != nil && !slices.Equal(acc.variables, c.variables) {
				t.Errorf("variables %q, want %q", acc.variables, c.variables)
			}
			var want [][2]string
			if c.variable != "" {
				basic := base64.StdEncoding.EncodeToString([]byte(c.user + ":" + c.env[c.variable]))
				want = [][2]string{{c.variable, c.env[c.variable]}, {c.variable, basic}}
			}
			if !slices.Equal(used, want) {
				t.Errorf("registered %q, want %q", used, want)
			}
		})
	}
}

// TestTokenAuthStaysWithItsOrigin: whatever request go-git asks it to
// authorize, the token goes to its source's scheme, host and port only.
func TestTokenAuthStaysWithItsOrigin(t *testing.T) {
	src, err := ParseSource("https://git.corp.example/team/skills", "/", "/")
	if err != nil {
		t.Fatal(err)
	}
	auth := Auth{Getenv: func(k string) string { return map[string]string{"SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE": "tok"}[k] }}
	a := auth.access(src).transportAuth()
	for _, c := range []struct {
		url  string
		sent bool
	}{
		{"https://git.corp.example/team/skills/info/refs?service=git-upload-pack", true},
		{"https://GIT.corp.example:443/team/skills/git-upload-pack", true},
		{"https://git.corp.example/elsewhere", true},
		{"http://git.corp.example/team/skills/info/refs", false},
		{"http://git.corp.example:443/team/skills/info/refs", false},
		{"https://git.corp.example:8443/team/skills/info/refs", false},
		{"https://git.corp.example.evil.example/team/skills/info/refs", false},
		{"https://evil.example/git.corp.example/team/skills", false},
		{"https://sub.git.corp.example/team/skills", false},
	} {
		r, err := http.NewRequest(http.MethodGet, c.url, nil)
		if err != nil {
			t.Fatal(err)
		}
		a.SetAuth(r)
		user, pass, ok := r.BasicAuth()
		if ok != c.sent || ok && (user != "x-access-token" || pass != "tok") {
			t.Errorf("%s: sent %v (%q, %q), want %v", c.url, ok, user, pass, c.sent)
		}
	}
	if s := a.String(); s != "the token of SKILLSYNC_GIT_TOKEN_GIT_CORP_EXAMPLE" {
		t.Errorf("String() = %q", s)
	}
}
