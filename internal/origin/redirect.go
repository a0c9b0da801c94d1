package origin

import (
	"fmt"
	"net/http"
	"net/url"
)

// MaxRedirects matches net/http's own limit, which a CheckRedirect
// replaces.
const MaxRedirects = 10

// A RedirectError refuses a redirect that would carry a token to another
// origin, or one past [MaxRedirects].
type RedirectError struct {
	// Target is the scheme://host of the redirect refused; "" when there
	// were too many.
	Target string
	// N is the number of redirects followed, when there were too many.
	N int
	// Whose names the API and its token in the message: "GitHub's API"
	// and "the GitHub token".
	API, Token string
}

func (e *RedirectError) Error() string {
	if e.Target == "" {
		return fmt.Sprintf("stopped after %d redirects", e.N)
	}
	return fmt.Sprintf("refusing to follow a redirect to %s: another origin than %s would receive %s", e.Target, e.API, e.Token)
}

// Guard makes hc follow a redirect only to the origin of api (scheme, host
// and port), plain http only to loopback, and no more than [MaxRedirects],
// before any policy hc had of its own: net/http keeps some headers that
// carry a token (GitLab's PRIVATE-TOKEN) on a redirect to any host, and a
// client library may set Authorization on every request it sends. The
// errors are *[RedirectError], naming apiName and tokenName.
func Guard(hc *http.Client, api *url.URL, apiName, tokenName string) {
	callerPolicy := hc.CheckRedirect
	hc.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) >= MaxRedirects {
			return &RedirectError{N: len(via), API: apiName, Token: tokenName}
		}
		to := req.URL
		if !Same(api, to) || to.Scheme == "http" && !IsLoopbackHost(to.Hostname()) {
			return &RedirectError{Target: to.Scheme + "://" + to.Host, API: apiName, Token: tokenName}
		}
		if callerPolicy != nil {
			return callerPolicy(req, via)
		}
		return nil
	}
}
