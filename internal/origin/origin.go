// Package origin says where a request that carries a token may go: plain
// http only to a loopback host ([IsLoopbackHost]), and a redirect only to
// the origin the token is for ([Same]), no more than ten of them. [Guard]
// holds an http.Client to that; the clients of the space, GitHub and
// GitLab all use it.
package origin

import (
	"net"
	"net/url"
	"strings"
)

// IsLoopbackHost reports whether host (a name or an IP, no port) is a
// loopback address, the one kind plain http is allowed to.
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Same reports whether a and b have the same scheme, host and port
// (the default port of the scheme when none is written): the origin a
// redirect may go to with the token.
func Same(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) &&
		strings.EqualFold(a.Hostname(), b.Hostname()) &&
		portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}
