package origin

import (
	"errors"
	"net/http"
	"net/url"
	"testing"
)

// TestGuard: a redirect stays on the API's origin, plain http only on
// loopback, at most ten, and the client's own policy still runs.
func TestGuard(t *testing.T) {
	api, _ := url.Parse("https://api.example.com/v4")
	var callerRan int
	hc := http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { callerRan++; return nil }}
	Guard(&hc, api, "the API", "the token")
	req := func(raw string) *http.Request {
		u, _ := url.Parse(raw)
		return &http.Request{URL: u}
	}
	for _, tc := range []struct {
		to   string
		via  int
		want string // "" when followed
	}{
		{"https://api.example.com/v4/next", 1, ""},
		{"https://api.example.com:443/x", 1, ""},
		{"https://evil.example.com/v4", 1, "refusing to follow a redirect to https://evil.example.com: another origin than the API would receive the token"},
		{"http://api.example.com/v4", 1, "refusing to follow a redirect to http://api.example.com: another origin than the API would receive the token"},
		{"https://api.example.com:8443/v4", 1, "refusing to follow a redirect to https://api.example.com:8443: another origin than the API would receive the token"},
		{"https://api.example.com/v4", 10, "stopped after 10 redirects"},
	} {
		err := hc.CheckRedirect(req(tc.to), make([]*http.Request, tc.via))
		var re *RedirectError
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want followed", tc.to, err)
		case tc.want != "" && (!errors.As(err, &re) || err.Error() != tc.want):
			t.Errorf("%s after %d: %v, want %q", tc.to, tc.via, err, tc.want)
		}
	}
	if callerRan != 2 {
		t.Errorf("the client's own policy ran %d times, want 2 (once per redirect followed)", callerRan)
	}
	// Plain http is fine on loopback, as for the emulator.
	local, _ := url.Parse("http://127.0.0.1:8080")
	lc := http.Client{}
	Guard(&lc, local, "the API", "the token")
	if err := lc.CheckRedirect(req("http://127.0.0.1:8080/api/v1/x"), nil); err != nil {
		t.Errorf("loopback http redirect refused: %v", err)
	}
}
