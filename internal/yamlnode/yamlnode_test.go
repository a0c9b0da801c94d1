package yamlnode

import (
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestProblems: each error is at the line to fix, with what to do.
func TestProblems(t *testing.T) {
	for _, tc := range []struct {
		text string
		want Problem
	}{
		{"a: 1\nb: x: y\n", Problem{2, "mapping values are not allowed in this context", `quote the value, which holds characters YAML reads as syntax: b: "x: y"`}},
		{"\ta: 1\n", Problem{1, "found character that cannot start any token", "YAML does not allow tabs for indentation; indent with spaces"}},
		{"a: 1\na: 2\n", Problem{2, `mapping key "a" already defined at line 1`, "remove one of them"}},
	} {
		var v map[string]any
		err := yaml.Unmarshal([]byte(tc.text), &v)
		if err == nil {
			t.Fatalf("%q reads as YAML", tc.text)
		}
		got := Problems(err, strings.Split(tc.text, "\n"))
		if len(got) != 1 || got[0] != tc.want {
			t.Errorf("Problems of %q = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}
