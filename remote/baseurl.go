package remote

import (
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// ErrPlainHTTP is the error (wrapped) of a base URL that would send the
// token unencrypted: http:// to a host other than loopback.
var ErrPlainHTTP = errors.New("plain http is allowed only for loopback hosts (127.0.0.1, ::1, localhost); use https")

func checkBaseURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, errors.New("no base URL given")
	}
	if !strings.Contains(raw, "://") && !strings.Contains(raw, "@") {
		lower := strings.ToLower(raw)
		for _, bad := range []string{"https:/", "http:/", "https//", "http//", "https:", "http:"} {
			if rest, ok := strings.CutPrefix(lower, bad); ok {
				scheme, _, _ := strings.Cut(bad, ":")
				scheme = strings.TrimSuffix(scheme, "//")
				return nil, fmt.Errorf("base URL %q: the scheme is misspelt; write %s://%s", raw, scheme, raw[len(raw)-len(rest):])
			}
		}
		return nil, fmt.Errorf("base URL %q has no scheme: write https://%s (http:// only for a loopback host, such as the emulator's)", raw, raw)
	}
	shown := redact.Userinfo(raw)
	// A space pasted at an end is invisible in an error unless quoted.
	if t := strings.TrimSpace(raw); t != raw {
		return nil, fmt.Errorf("base URL %q has white space at its start or end: write %q", shown, redact.Userinfo(t))
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse quotes the whole input; it has no userinfo to leak
		// only if it parsed, so name the problem without it.
		return nil, errors.New("base URL is not a valid URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Errorf("base URL %q: scheme must be https (or http for a loopback host)", shown)
	case u.Host == "" || u.Hostname() == "":
		return nil, fmt.Errorf("base URL %q: no host", shown)
	case u.User != nil:
		return nil, fmt.Errorf("base URL %q: must not hold credentials; pass the token separately", shown)
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "":
		return nil, fmt.Errorf("base URL %q: must not have a query or fragment", shown)
	case u.Scheme == "http" && !origin.IsLoopbackHost(u.Hostname()):
		return nil, fmt.Errorf("base URL %q: %w", shown, ErrPlainHTTP)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawPath = strings.TrimSuffix(u.RawPath, "/")
	for _, suffix := range []string{"/api/v1", "/api"} {
		if strings.HasSuffix(u.Path, suffix) {
			want := *u
			want.Path, want.RawPath = strings.TrimSuffix(u.Path, suffix), ""
			return nil, fmt.Errorf("base URL %q ends in %s, which skillsync adds to every request itself: use %q", shown, suffix, want.Redacted())
		}
	}
	return u, nil
}
