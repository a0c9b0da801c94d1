package forge

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// An API is a code host's REST API as its client names it in errors.
type API struct {
	Host     string // "GitHub"
	Env      string // the variable that sets its root: "GITHUB_API_URL"
	TokenEnv string // the variable of the token: "GITHUB_TOKEN"
	Example  string // the roots it may have: "https://api.github.com, or ..."
	Root     string // the root in use
}

// Check parses a.Root: an http(s) URL with no credentials, query or
// fragment, and https unless its host is loopback, so the token never
// travels in clear.
func (a API) Check() (*url.URL, error) {
	fail := func(msg, hint string) error {
		return &Error{Host: a.Host, Op: "connecting to " + a.Host, Message: msg, Hint: hint}
	}
	shown := redact.Userinfo(a.Root)
	u, err := url.Parse(a.Root)
	switch {
	case err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "":
		return nil, fail(fmt.Sprintf("%s API URL %q is not an http(s) URL", a.Host, shown),
			fmt.Sprintf("set %s to the REST API's root, such as %s", a.Env, a.Example))
	case u.User != nil:
		return nil, fail(fmt.Sprintf("%s API URL %q holds credentials", a.Host, shown),
			fmt.Sprintf("set %s to the REST API's root without a user or password, such as %s; the token goes in %s", a.Env, a.Example, a.TokenEnv))
	case u.Scheme == "http" && !origin.IsLoopbackHost(u.Hostname()):
		return nil, fail(fmt.Sprintf("%s API URL %q is plain http to a host that is not loopback", a.Host, u.Redacted()),
			"use https:// (plain http is allowed only for 127.0.0.1, ::1 or localhost, as in tests)")
	}
	return u, nil
}

// Misdirected fills e's message and hint when err says the answer did not
// come from the API (a redirect elsewhere, a web page, no JSON, too much
// of it), and reports whether it did.
func (a API) Misdirected(e *Error, err error) bool {
	var (
		redir *origin.RedirectError
		big   *ResponseTooLargeError
		pages *TooManyPagesError
		page  *WebPageError
		syn   *json.SyntaxError
		typ   *json.UnmarshalTypeError
	)
	switch {
	case errors.As(err, &redir):
		e.Message = redir.Error()
	case errors.As(err, &big):
		e.Message = big.Error()
	case errors.As(err, &pages):
		e.Message = pages.Error()
	case errors.As(err, &page):
		e.Message = page.Error()
	case errors.As(err, &syn) || errors.As(err, &typ):
		e.Message = a.Host + "'s answer is not the JSON of its API: " + err.Error()
	default:
		return false
	}
	e.Hint = fmt.Sprintf("check %s (%s): it must be the REST API's root, such as %s, and any proxy between this machine and %s must pass its answers through",
		a.Env, a.Root, a.Example, a.Host)
	return true
}
