package spec

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckFilePath(t *testing.T) {
	tests := []struct {
		path string
		want string // part of the error; "" for valid
	}{
		{"scripts/extract.py", ""},
		{"reference.md", ""},
		{".hidden/x.md", ""},
		{"a.b.c", ""},
		{"", "1 to 512"},
		{strings.Repeat("a", 513), "1 to 512"},
		{"../x", `".."`},
		{"a/../b", `".."`},
		{"a..b.md", `".."`}, // the spec: "must not contain `..`", read strictly
		{"notes...md", `".."`},
		{"./a", `"." segments`},
		{"a/./b", `"." segments`},
		{"/etc/passwd", "empty segments"},
		{"a//b", "empty segments"},
		{"a/", "empty segments"},
		{"a b.md", "only letters"},
		{"données.txt", "only letters"},
		{`a\b`, "only letters"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			err := CheckFilePath(tt.path)
			if tt.want == "" {
				if err != nil {
					t.Errorf("CheckFilePath(%q) = %v, want nil", tt.path, err)
				}
				return
			}
			var re *RuleError
			if err == nil || !errors.As(err, &re) || re.Field != "path" || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("CheckFilePath(%q) = %v, want a path RuleError saying %s", tt.path, err, tt.want)
			}
		})
	}
}
