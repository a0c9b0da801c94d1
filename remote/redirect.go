package remote

import (
	"fmt"
	"net/http"

	"github.com/skillsync/skillsync/internal/origin"
)

// maxRedirects matches net/http's own limit.
const maxRedirects = 10

// A redirectError refuses a redirect that would carry the token elsewhere.
type redirectError struct {
	target string // scheme://host of the redirect
	n      int
}

func (e *redirectError) Error() string {
	if e.n > 0 {
		return fmt.Sprintf("stopped after %d redirects", e.n)
	}
	return fmt.Sprintf("refusing to follow a redirect to %s: another host would receive the token", e.target)
}

func (c *Client) checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= maxRedirects {
		return &redirectError{n: len(via)}
	}
	if !origin.Same(c.baseURL, req.URL) {
		return &redirectError{target: req.URL.Scheme + "://" + req.URL.Host}
	}
	return nil
}
