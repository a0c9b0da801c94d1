package vendored

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"

	netorigin "github.com/skillsync/skillsync/internal/origin"
	"github.com/skillsync/skillsync/internal/redact"
)

// A Source is a git repository skills are vendored from: an https URL,
// or a local path, as skillsync.lock records it.
type Source struct {
	// Spec is the source as the lock holds it: the URL, normalised
	// (scheme and host in lower case, no trailing slash), or the path,
	// slash-separated, relative to the repository root unless it was
	// given absolute.
	Spec string
	url  string // for a URL
	dir  string // for a path: absolute
}

// Remote reports whether the source is reached over the network.
func (s Source) Remote() bool { return s.url != "" }

func (s Source) String() string { return s.Spec }

// ParseSource reads a source as given on the command line: a URL, or a
// path, which is relative to cwd when it is not absolute. root is the
// repository's root, against which the lock records a relative path.
func ParseSource(given, root, cwd string) (Source, error) {
	if given == "" {
		return Source{}, errors.New("no source: give an https URL or the path of a git repository")
	}
	if isURL(given) {
		return parseURL(given)
	}
	if scpLike(given) {
		return Source{}, fmt.Errorf("source %q is an ssh address, which skillsync does not read: give the repository's https URL (such as https://github.com/owner/repo) or a local clone's path", given)
	}
	p := filepath.FromSlash(given)
	if filepath.IsAbs(p) {
		p = filepath.Clean(p)
		return Source{Spec: filepath.ToSlash(p), dir: p}, nil
	}
	abs, err := filepath.Abs(filepath.Join(cwd, p))
	if err != nil {
		return Source{}, err
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		return Source{}, err
	}
	rel, err := filepath.Rel(rootAbs, abs)
	if err != nil {
		return Source{Spec: filepath.ToSlash(abs), dir: abs}, nil
	}
	return Source{Spec: filepath.ToSlash(rel), dir: abs}, nil
}

// sourceOf is the Source of a lock entry's source, whose relative path
// counts from the repository root.
func sourceOf(spec, root string) (Source, error) {
	if isURL(spec) {
		return parseURL(spec)
	}
	p := filepath.FromSlash(spec)
	if !filepath.IsAbs(p) {
		abs, err := filepath.Abs(filepath.Join(root, p))
		if err != nil {
			return Source{}, err
		}
		p = abs
	}
	return Source{Spec: spec, dir: p}, nil
}

func isURL(s string) bool {
	i := strings.Index(s, "://")
	return i > 0 && !strings.ContainsAny(s[:i], "/\\")
}

// scpLike reports git's scp-like ssh syntax, user@host:path.
func scpLike(s string) bool {
	colon := strings.IndexByte(s, ':')
	if colon < 0 || (colon == 1 && len(s) > 2 && (s[2] == '\\' || s[2] == '/')) { // C:\ and C:/
		return false
	}
	return !strings.ContainsAny(s[:colon], "/\\")
}

func parseURL(raw string) (Source, error) {
	// Every message shows the URL with its user and password hidden:
	// url.Parse's own error quotes the input whole.
	s := redact.Userinfo(raw)
	u, err := url.Parse(raw)
	if err != nil {
		return Source{}, fmt.Errorf("source %q is not a valid URL", s)
	}
	scheme := strings.ToLower(u.Scheme)
	switch {
	case scheme == "file":
		return Source{}, fmt.Errorf("source %q: give a local repository as its path, not a file:// URL", s)
	case scheme != "https" && scheme != "http":
		return Source{}, fmt.Errorf("source %q: skillsync reads git repositories over https (or from a local path), not %s", s, scheme)
	case u.User != nil:
		err := fmt.Errorf("source %q holds credentials, which would be written to %s: give the URL without them", redactURL(u), "skillsync.lock")
		if host, ok := hostVariable(originOf(u)); ok {
			err = fmt.Errorf("%w, and set %s%s instead", err, TokenPrefix, host)
		}
		return Source{}, err
	case u.Host == "" || u.Hostname() == "":
		return Source{}, fmt.Errorf("source %q has no host", s)
	case u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return Source{}, fmt.Errorf("source %q: a repository URL has no query (?) or fragment (#)", s)
	case scheme == "http" && !netorigin.IsLoopbackHost(u.Hostname()):
		return Source{}, fmt.Errorf("source %q: plain http is only for loopback addresses; use https", s)
	}
	p := strings.TrimRight(path.Clean("/"+u.EscapedPath()), "/")
	if p == "" {
		return Source{}, fmt.Errorf("source %q names no repository (no path after the host)", s)
	}
	norm := scheme + "://" + strings.ToLower(u.Host) + p
	return Source{Spec: norm, url: norm}, nil
}

// redactURL is u with its credentials shown as ***, unescaped: url.User
// would print them as %2A%2A%2A.
func redactURL(u *url.URL) string {
	c := *u
	c.User = nil
	return strings.Replace(c.String(), "://", "://***@", 1)
}

// repoName is the name a source's repository goes by: the last segment
// of its URL or path, without ".git".
func (s Source) repoName() string {
	name := path.Base(strings.TrimSuffix(filepath.ToSlash(s.url+s.dir), "/"))
	return strings.TrimSuffix(name, ".git")
}
