package origin

import (
	"net/url"
	"testing"
)

func TestIsLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"127.0.0.1": true, "127.8.9.10": true, "::1": true, "localhost": true, "LocalHost": true,
		"example.com": false, "10.0.0.1": false, "localhost.example.com": false, "": false, "[::1]": false,
	} {
		if got := IsLoopbackHost(host); got != want {
			t.Errorf("IsLoopbackHost(%q) = %t, want %t", host, got, want)
		}
	}
}

func TestSame(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://api.github.com", "https://API.github.com:443/x", true},
		{"http://127.0.0.1", "http://127.0.0.1:80/y", true},
		{"HTTPS://h", "https://h/", true},
		{"https://h", "http://h", false},
		{"https://h", "https://h:8443", false},
		{"https://h", "https://evil.example", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := Same(a, b); got != tc.want {
			t.Errorf("Same(%s, %s) = %t, want %t", tc.a, tc.b, got, tc.want)
		}
	}
}
