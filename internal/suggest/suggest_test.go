package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"plan", "plan", 0},
		{"plna", "plan", 1}, // a swap is one edit
		{"lst", "list", 1},
		{"spce", "space", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"ca", "abc", 3}, // optimal string alignment: no edit of a swapped pair
		{"allowed_tools", "allowed-tools", 1},
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.b, tc.a, got, tc.want)
		}
	}
	long := string(make([]byte, 65))
	if d := Distance(long, "a"); d <= Reach(len(long)) {
		t.Errorf("Distance of a 65-byte word = %d, within reach", d)
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"validate", "plan", "apply", "restore", "drift", "pull", "agents", "assets", "emulator", "demo", "version", "completion", "help"}
	for _, tc := range []struct {
		word       string
		candidates []string
		want       string
	}{
		{"plna", commands, "plan"},
		{"PLAN", commands, "plan"},
		{"valdiate", commands, "validate"},
		{"aply", commands, "apply"},
		{"drfit", commands, "drift"},
		{"frobnicate", commands, ""},
		{"lst", []string{"list", "publish", "delete"}, "list"},
		{"spce", []string{"dir", "space", "base", "base-url"}, "space"},
		{"bogus", []string{"dir", "debug", "format", "space"}, ""},
		{"pn", []string{"plan"}, ""},           // two edits from a short word: too far
		{"verison", commands, "version"},       // a swap in a long word
		{"emulatr", commands, "emulator"},      // a letter dropped
		{"cat", []string{"bat", "hat"}, "bat"}, // the first of equals
		{"descriptoin", []string{"description"}, "description"},
		{"", []string{"a"}, ""},
		{"abc", nil, ""},
		{"warn", []string{"off", "warning", "error"}, "warning"},       // an abbreviation, too far to be a typo
		{"o", []string{"out", "format"}, "out"},                        // -o for --out
		{"p", []string{"plan", "pull"}, ""},                            // abbreviates two: no guess
		{"unmanage", []string{"unmanaged", "unmanage-x"}, "unmanaged"}, // a typo beats an abbreviation
	} {
		if got := Closest(tc.word, tc.candidates); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.word, got, tc.want)
		}
	}
}
