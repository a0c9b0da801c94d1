package spec

import "testing"

func TestSameTime(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"2026-01-02T03:04:05.678Z", "2026-01-02T03:04:05.678Z", true},
		{"2026-01-02T03:04:05.678Z", "2026-01-02T03:04:05Z", true},
		{"2026-01-02T03:04:05.678Z", "2026-01-02T04:04:05.678+01:00", true},
		{"2026-01-02T03:04:05.678Z", "2026-01-02T03:04:05.679Z", false},
		{"2026-01-02T03:04:05Z", "2026-01-02T03:04:06Z", false},
		{"2026-01-02T03:04:05.999Z", "2026-01-02T03:04:06Z", false},
		{"yesterday", "today", false},
	} {
		if got := SameTime(tc.a, tc.b); got != tc.want {
			t.Errorf("SameTime(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
