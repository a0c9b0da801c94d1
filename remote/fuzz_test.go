package remote

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/spec"
)

// nameOracle is the name rule of DESIGN.md written another way: a letter or
// digit, then optionally letters, digits, spaces and hyphens ending with a
// letter or digit.
var nameOracle = regexp.MustCompile(`^[\pL\p{Nd}](?:[\pL\p{Nd} -]*[\pL\p{Nd}])?$`)

// FuzzCheckName checks spec.CheckName against the oracle, and that it never
// accepts what the service would refuse: invalid UTF-8, more than 64 UTF-16
// code units, a control character.
func FuzzCheckName(f *testing.F) {
	for _, s := range []string{"Code Review", "a", "A-1", "-a", "a-", " a", "a ", "a_b", "a/b", "日本語", "émoji 😀",
		"😀" + strings.Repeat("a", 62), strings.Repeat("x", 64), strings.Repeat("x", 65), "", "a\x00b", "a\nb", "\xff", "a\u00a0b", "١٢٣"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		err := spec.CheckName(name)
		n := spec.UTF16Len(name)
		want := utf8.ValidString(name) && n >= 1 && n <= spec.MaxNameLen && nameOracle.MatchString(name)
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

// FuzzRedact: Redact never panics, a secret of 12 bytes or more never
// survives it in any spelling, and a text with neither the secret nor
// anything that may spell it otherwise (an escape or a cut mark) is
// unchanged.
func FuzzRedact(f *testing.F) {
	for _, c := range [][2]string{{"a-a-a", "a-a"}, {"---", "--"}, {"proxy x", "x"}, {"Bearer sk-0123456789abcdef", "sk-0123456789abcdef"}, {"", "x"},
		{`token sk\/0123456789abcdef...`, "sk/0123456789abcdef"}, {"%73%6b-0123456789abc...", "sk-0123456789abcdef"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, secret string) {
		got := Redact(s, secret)
		plain := !strings.ContainsAny(s, `\%&`) && !strings.Contains(s, "...") && !strings.Contains(s, "…")
		if secret == "" || plain && !strings.Contains(s, secret) {
			if got != s {
				t.Fatalf("Redact(%q, %q) = %q, changed a text without the secret", s, secret, got)
			}
			return
		}
		left := strings.ReplaceAll(got, "[REDACTED]", "\x00")
		if len(secret) >= ShortSecret && (strings.Contains(left, secret) || NewRedactor(secret).Holds(left)) {
			t.Fatalf("Redact(%q, %q) = %q still holds the secret", s, secret, got)
		}
	})
}

// FuzzRedactSpelt: a real token spelt with any mix of escapes, between any
// texts, never survives Redact.
func FuzzRedactSpelt(f *testing.F) {
	f.Add("before ", "sk/0123456789abcdef+_.", " after", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add("%", "aaaaaaaaaaaa%%", "&#", []byte{9, 8, 7})
	f.Fuzz(func(t *testing.T, before, secret, after string, choices []byte) {
		if len(secret) < ShortSecret || len(choices) == 0 {
			return
		}
		for i := 0; i < len(secret); i++ {
			if secret[i] <= ' ' || secret[i] >= 0x7f {
				return // checkToken refuses these
			}
		}
		encs := []func(c byte) string{
			func(c byte) string { return string(c) },
			func(c byte) string { return fmt.Sprintf(`\u%04x`, c) },
			func(c byte) string { return fmt.Sprintf(`\u%04X`, c) },
			func(c byte) string { return fmt.Sprintf(`\\u%04x`, c) },
			func(c byte) string { return fmt.Sprintf("%%%02X", c) },
			func(c byte) string { return fmt.Sprintf("%%25%02x", c) },
			func(c byte) string { return fmt.Sprintf("&#%d;", c) },
			func(c byte) string { return fmt.Sprintf("&#x%x;", c) },
			func(c byte) string {
				if isAlnum(c) {
					return string(c)
				}
				return `\` + string(c)
			},
			func(c byte) string { return fmt.Sprintf(`\x%02x`, c) },
		}
		var b strings.Builder
		for i := 0; i < len(secret); i++ {
			b.WriteString(encs[int(choices[i%len(choices)])%len(encs)](secret[i]))
		}
		s := before + b.String() + after
		got := NewRedactor(secret).Redact(s)
		if !strings.Contains(got, "[REDACTED]") {
			t.Fatalf("Redact(%q) = %q, found nothing", s, got)
		}
		if left := strings.ReplaceAll(got, "[REDACTED]", "\x00"); NewRedactor(secret).Holds(left) {
			t.Fatalf("Redact(%q) = %q still holds the secret", s, got)
		}
	})
}
