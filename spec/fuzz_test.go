package spec

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// nameOracle is the name rule of DESIGN.md written another way: a letter or
// digit, then optionally letters, digits, spaces and hyphens ending with a
// letter or digit.
var nameOracle = regexp.MustCompile(`^[\pL\p{Nd}](?:[\pL\p{Nd} -]*[\pL\p{Nd}])?$`)

// FuzzCheckName checks CheckName against the oracle, and that it never
// accepts what the service would refuse: invalid UTF-8, more than 64 UTF-16
// code units, a control character.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Code Review", "a", "A-1", "-a", "a-", " a", "a ", "a_b", "a/b", "日本語", "émoji 😀",
		"😀" + strings.Repeat("a", 62), strings.Repeat("x", 64), strings.Repeat("x", 65), "", "a\x00b", "a\nb", "\xff", "a\u00a0b", "١٢٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := CheckName(name)
		n := UTF16Len(name)
		want := utf8.ValidString(name) && n >= 1 && n <= MaxNameLen && nameOracle.MatchString(name)
		if (err == nil) != want {
			t.Fatalf("CheckName(%q) = %v; the rule says valid=%t", name, err, want)
		}
		if err == nil {
			for _, r := range name {
				if r < ' ' || r == 0x7f {
					t.Fatalf("CheckName(%q) accepted a control character", name)
				}
			}
			return
		}
		if !strings.Contains(err.Error(), "name") {
			t.Fatalf("CheckName(%q) error does not say it is about the name: %v", name, err)
		}
	})
}
