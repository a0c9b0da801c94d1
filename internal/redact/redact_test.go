package redact

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

// slashToken has the characters JSON, URLs, HTML and markdown spell
// otherwise: a slash, a plus, an underscore, a dot, an equals sign.
const slashToken = "Zm9vYmFy/c2VjcmV0+sntl_7Qx-Lk2P.zR="

// testToken is a token as tests of the client use it.
const testToken = "sentinel-TOKEN-7c1f0e9a.b64payload.sig"

// TestRedactForms: the token is redacted in every form of the model, in
// the middle of a JSON body; Holds finds it there and not once redacted.
func TestRedactForms(t *testing.T) {
	for _, tok := range []string{slashToken, testToken, "ghp_16C7e42F292c6912E7710c838347Ae178B4a"} {
		r := New(tok)
		for name, enc := range redacttest.Spellings {
			in := `{"detail":"token ` + enc(tok) + ` rejected"}`
			got := r.Redact(in)
			if want := `{"detail":"token [REDACTED] rejected"}`; got != want {
				t.Errorf("%s: Redact(%s)\n = %s\nwant %s", name, in, got, want)
			}
			if !r.Holds(in) {
				t.Errorf("%s: Holds(%s) = false", name, in)
			}
			if r.Holds(got) {
				t.Errorf("%s: Holds(%s) = true after redaction", name, got)
			}
		}
	}
}

// TestRedactEscapes: each escape of the model, spelt as encoders write
// it, and a secret that holds the characters escapes begin with.
func TestRedactEscapes(t *testing.T) {
	for _, tc := range []struct{ secret, in, want string }{
		{"tok/0123456789", `a tok\/0123456789 b`, "a [REDACTED] b"},
		{"tok/0123456789", `"tok\u002F0123456789"`, `"[REDACTED]"`},
		{"tok/0123456789", `"tok\u002f0123456789"`, `"[REDACTED]"`},
		{"tok_0123456789", `tok\_0123456789`, "[REDACTED]"},
		{"tok/0123456789", "?t=tok%2F0123456789&x=1", "?t=[REDACTED]&x=1"},
		{"tok/0123456789", "?t=tok%2f0123456789", "?t=[REDACTED]"},
		{"tok/0123456789", "<p>tok&#47;0123456789</p>", "<p>[REDACTED]</p>"},
		{"tok/0123456789", "<p>tok&#x2F;0123456789</p>", "<p>[REDACTED]</p>"},
		{"tok/0123456789", "<p>tok&#x2f;0123456789</p>", "<p>[REDACTED]</p>"},
		{"tok/0123456789", "<p>tok&sol;0123456789</p>", "<p>[REDACTED]</p>"},
		{"tok'0123456789", "<p>tok&#39;0123456789</p>", "<p>[REDACTED]</p>"},
		{"tok'0123456789", "<p>tok&#039;0123456789</p>", "<p>[REDACTED]</p>"},
		// A secret with the characters escapes begin with, as it is and
		// escaped by an encoder, which escapes those characters too.
		{`a\b%zz&x0123456`, `x a\b%zz&x0123456 y`, "x [REDACTED] y"},
		{`a\b%zz&x0123456`, `"a\\b%zz\u0026x0123456"`, `"[REDACTED]"`},
		{`a\b%zz&x0123456`, "a%5Cb%25zz%26x0123456", "[REDACTED]"},
		{`a\b%zz&x0123456`, "a\\b%zz&amp;x0123456", "[REDACTED]"},
		// A secret that reads as escapes itself is found as it is.
		{`a%41&amp;\/0123`, `x a%41&amp;\/0123 y`, "x [REDACTED] y"},
		// A character outside ASCII, percent-encoded a byte at a time.
		{"tök-0123456789", "t%C3%B6k-0123456789", "[REDACTED]"},
	} {
		if got := New(tc.secret).Redact(tc.in); got != tc.want {
			t.Errorf("secret %s: Redact(%s) = %s, want %s", tc.secret, tc.in, got, tc.want)
		}
	}
}

// TestRedactLeavesOtherText: escapes that spell something else, and a
// token with a character missing or changed, are left as they are.
func TestRedactLeavesOtherText(t *testing.T) {
	tok := slashToken
	r := New(tok)
	for _, in := range []string{
		`{"a":"\u0041\/b\\c\n","b":"100% sure &amp; 50%25 &#65; &nosuch; &#xZZ; \u12"}`,
		`C:\path\to\file &lt;x&gt; \_ \* %2F %zz %`,
		"a " + tok[1:] + " " + strings.Replace(tok, "zR", "z", 1) + " (no cut)",
		strings.Replace(tok, "sntl", "sntk", 1),
		redacttest.Spellings["percent upper"](tok[:len(tok)-1]) + "%2 rejected",
		redacttest.Spellings["json u lower"](tok[:len(tok)-1]) + `\u003 rejected`,
		redacttest.Spellings["html decimal"](strings.Replace(tok, "c", "d", 1)),
		tok[:7] + "... and ..." + tok[len(tok)-7:],
		"...",
		"…",
		"",
	} {
		if got := r.Redact(in); got != in {
			t.Errorf("Redact(%s)\n = %s, want it unchanged", in, got)
		}
		if r.Holds(in) {
			t.Errorf("Holds(%s) = true", in)
		}
	}
}

// TestRedactShortSecret: a secret under ShortSecret bytes (a test's token)
// is replaced only where no letter or digit touches it, in every form; it
// is never cut nor held.
func TestRedactShortSecret(t *testing.T) {
	for _, tc := range []struct{ in, secret, want string }{
		{"x ab/c y", "ab/c", "x [REDACTED] y"},
		{`"ab\/c"`, "ab/c", `"[REDACTED]"`},
		{"zab/c", "ab/c", "zab/c"},
		{`ab\/cd`, "ab/c", `ab\/cd`},
		{"%61%62%2F%63.", "ab/c", "[REDACTED]."},
		{"check any proxy", "x", "check any proxy"},
		{"token x rejected (x)", "x", "token [REDACTED] rejected ([REDACTED])"},
		{"x", "x", "[REDACTED]"},
		{"abab ab", "ab", "abab [REDACTED]"},
		{"ab-ab", "ab", "[REDACTED]-[REDACTED]"},
		{"aaa", "aa", "aaa"},
		{"short-sec...", "short-sec1", "short-sec..."},
		{"nothing here", "", "nothing here"},
		// A secret that overlaps itself: every occurrence, no panic.
		{"a-a-a", "a-a", "[REDACTED]"},
		{"ab-ab-ab", "ab-ab", "[REDACTED]"},
	} {
		r := New(tc.secret)
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("New(%q).Redact(%q) = %q, want %q", tc.secret, tc.in, got, tc.want)
		}
		if len(tc.secret) < ShortSecret && r.Holds(tc.in) {
			t.Errorf("New(%q).Holds(%q) = true: a test's token is no real token", tc.secret, tc.in)
		}
	}
}

// TestRedactCuts: 8 or more characters of the token that a cut left, its
// start before "..." or "…" or at the end of the text, its end after a
// mark or at the start of the text, are redacted in every form, also when
// the cut split an escape; fewer are left, as ordinary text may hold them.
func TestRedactCuts(t *testing.T) {
	tok := slashToken
	r := New(tok)
	for name, enc := range redacttest.Spellings {
		for k := 1; k < len(tok); k++ {
			head, tail := enc(tok[:k]), enc(tok[len(tok)-k:])
			for _, mark := range []string{"...", "…", ""} {
				for _, tc := range []struct{ in, hidden string }{
					{"see " + head + mark, "see [REDACTED]" + mark},
					{mark + tail + " end", mark + "[REDACTED] end"},
				} {
					want := tc.in
					if k >= 8 {
						want = tc.hidden
					}
					if got := r.Redact(tc.in); got != want {
						t.Errorf("%s, %d characters: Redact(%s) = %s, want %s", name, k, tc.in, got, want)
					}
				}
			}
		}
	}
	// A cut inside an escape leaves no run of 8 characters of the token.
	for _, in := range []string{
		redacttest.Spellings["json u lower"](tok[:10]) + `\u00` + "...",
		redacttest.Spellings["json u lower"](tok[:10]) + `\u00`,
		redacttest.Spellings["html hex"](tok[:10]) + "&#x…",
		"..." + "02f;" + redacttest.Spellings["html hex"](tok[len(tok)-10:]),
		"u002f" + redacttest.Spellings["json u upper"](tok[len(tok)-10:]),
	} {
		if got := r.Redact(in); redacttest.Leak(got, tok) != "" || !strings.Contains(got, "[REDACTED]") {
			t.Errorf("Redact(%s) = %s", in, got)
		}
	}
}

// TestSet: a set redacts every secret it holds, and names those a text
// holds whole by where they came from; a short one is redacted, never
// named.
func TestSet(t *testing.T) {
	const prod, staging, github = "tok_prod_0123456789abcdef", "tok_staging_0123456789ab", "ghs_16C7e42F292c6912E7710c8"
	var s Set
	s.Add("SKILLSYNC_TOKEN_PROD", prod)
	s.Add("SKILLSYNC_TOKEN_STAGING", staging)
	s.Add("GITHUB_TOKEN", github)
	s.Add("SKILLSYNC_TOKEN", prod) // the same value under another name
	s.Add("SKILLSYNC_TOKEN", prod) // once only
	s.Add("TEST_TOKEN", "xyz")
	s.Add("EMPTY", "")
	for _, tc := range []struct {
		in, want string
		names    []string
	}{
		{"nothing", "nothing", nil},
		{"a " + staging + " b", "a [REDACTED] b", []string{"SKILLSYNC_TOKEN_STAGING"}},
		{`{"t":"` + strings.ReplaceAll(github, "_", `\u005f`) + `"}`, `{"t":"[REDACTED]"}`, []string{"GITHUB_TOKEN"}},
		{prod + " " + github + " xyz", "[REDACTED] [REDACTED] [REDACTED]", []string{"SKILLSYNC_TOKEN_PROD", "GITHUB_TOKEN", "SKILLSYNC_TOKEN"}},
		{prod + github, "[REDACTED]", []string{"SKILLSYNC_TOKEN_PROD", "GITHUB_TOKEN", "SKILLSYNC_TOKEN"}},
		{"cut: " + staging[:12] + "...", "cut: [REDACTED]...", nil},
		{"xyzzy xyz", "xyzzy [REDACTED]", nil},
	} {
		if got := s.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := s.Found(tc.in); !slices.Equal(got, tc.names) {
			t.Errorf("Found(%q) = %q, want %q", tc.in, got, tc.names)
		}
	}
	var empty Set
	if got := empty.Redact("a " + prod); got != "a "+prod || empty.Found(prod) != nil {
		t.Errorf("an empty set changed %q to %q", prod, got)
	}
}

// TestSetConcurrent: secrets are added while output is redacted (run with
// -race).
func TestSetConcurrent(t *testing.T) {
	var s Set
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			tok := fmt.Sprintf("tok_%d_0123456789abcdef", i)
			s.Add(fmt.Sprintf("TOKEN_%d", i), tok)
			if got := s.Redact("a " + tok); got != "a [REDACTED]" {
				t.Errorf("Redact = %q", got)
			}
		})
	}
	wg.Wait()
	if got := len(s.Found("tok_3_0123456789abcdef")); got != 1 {
		t.Errorf("Found %d names, want 1", got)
	}
}

// TestFormatHidesTheSecret: a redactor printed with any verb shows no
// secret.
func TestFormatHidesTheSecret(t *testing.T) {
	r := New(slashToken)
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x"} {
		if got := fmt.Sprintf(verb, r); strings.Contains(got, "Zm9v") || strings.Contains(got, "5a6d39") {
			t.Errorf("%s: %s", verb, got)
		}
	}
}

// BenchmarkRedact measures Redact, in MB/s, of ordinary output (a JSON
// plan full of the escapes it must read) and of texts made to be slow:
// runs of the bytes escapes and marks are made of, a secret that overlaps
// itself in a text of its near misses. Each at two sizes: the cost is
// linear when MB/s stays the same.
func BenchmarkRedact(b *testing.B) {
	line := `{"slug":"sql-style","instructions":"# SQL\n\nUse \u003cCTE\u003e \u0026 50% less joins: a/b \\ c; see https://example.com/a%2Fb?x=1\u0026y=2 \u2014 done... etc.\n"},` + "\n"
	overlapping := strings.Repeat("a", 40) + "b"
	texts := []struct{ name, unit, secret string }{
		{"plan", line, slashToken},
		{"plan/jwt", line, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJza2lsbHN5bmMifQ.c2ln"},
		{"prose", "The reviewer reads each change of the plan before it is applied. ", slashToken},
		{"backslashes", `\`, slashToken},
		{"escaped backslashes", `\\\\\\\\u00`, slashToken},
		{"percents", "%25", slashToken},
		{"references", "&#", slashToken},
		{"dots", ".", slashToken},
		{"ellipses", "…", slashToken},
		{"near misses", slashToken[:len(slashToken)-1] + "...", slashToken},
		{"self-overlapping", overlapping[:len(overlapping)-1] + "...", overlapping},
	}
	for _, tc := range texts {
		for _, size := range []int{64 << 10, 1 << 20} {
			text := strings.Repeat(tc.unit, size/len(tc.unit))
			b.Run(fmt.Sprintf("%s/%dKiB", tc.name, size>>10), func(b *testing.B) {
				r := New(tc.secret)
				b.SetBytes(int64(len(text)))
				for b.Loop() {
					r.Redact(text)
				}
			})
		}
	}
}

// FuzzRedact: Redact never panics; a real token never survives it whole
// in any form; and a text with neither the secret nor anything that may
// spell it otherwise (an escape, a cut mark, for a real token 8 of its
// characters in a row) is unchanged.
func FuzzRedact(f *testing.F) {
	for _, c := range [][2]string{{"a-a-a", "a-a"}, {"---", "--"}, {"proxy x", "x"}, {"Bearer sk-0123456789abcdef", "sk-0123456789abcdef"}, {"", "x"},
		{`token sk\/0123456789abcdef...`, "sk/0123456789abcdef"}, {"%73%6b-0123456789abc...", "sk-0123456789abcdef"}, {"sk0123456789ABCde", "sk 0123456789"}, {"%000000000000000000000000", "\x0000000000000"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, secret string) {
		got := New(secret).Redact(s)
		plain := !strings.ContainsAny(s, `\%&`) && !strings.Contains(s, "...") && !strings.Contains(s, "…") && !strings.Contains(s, secret)
		if len(secret) >= ShortSecret {
			for i := 0; plain && i+minCut <= len(secret); i++ {
				plain = !strings.Contains(s, secret[i:i+minCut])
			}
		}
		if secret == "" || plain {
			if got != s {
				t.Fatalf("Redact(%q) of %q = %q, changed a text without the secret", s, secret, got)
			}
			return
		}
		if left, ok := standIn(got, secret); ok && len(secret) >= ShortSecret && New(secret).Holds(left) {
			t.Fatalf("Redact(%q) of %q = %q still holds the secret", s, secret, got)
		}
	})
}

// standIn is s with each "[REDACTED]" made one byte that secret lacks, so
// that no spelling is made of the marks' letters, nor of the byte standing
// in; false when secret holds every byte.
func standIn(s, secret string) (string, bool) {
	for stand := range 256 {
		if strings.IndexByte(secret, byte(stand)) < 0 {
			return strings.ReplaceAll(s, redacted, string([]byte{byte(stand)})), true
		}
	}
	return "", false
}

// FuzzRedactSpelt: a real token that an encoder escapes, some characters
// or all of them, between any texts, never survives Redact. The encoder
// escapes the characters that begin an escape, as JSON, URL and HTML
// encoders do.
func FuzzRedactSpelt(f *testing.F) {
	f.Add("before ", "sk/0123456789abcdef+_.", " after", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add("%", "aaaaaaaaaaaa%%", "&#", []byte{9, 8, 7})
	f.Add(strings.Repeat(`\\`, 30), strings.Repeat(`\\`, 16), `\Z`, []byte{8, 3})
	f.Fuzz(func(t *testing.T, before, secret, after string, choices []byte) {
		if len(secret) < ShortSecret || len(choices) == 0 || decode(secret, false).text != secret {
			return // a secret that reads as escapes itself is found as it is only
		}
		for i := 0; i < len(secret); i++ {
			if secret[i] <= ' ' || secret[i] >= 0x7f {
				return // checkToken refuses these
			}
		}
		forms := [][]func(c byte) string{
			{func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) }},
			{func(c byte) string { return fmt.Sprintf("%%%02X", c) }, func(c byte) string { return fmt.Sprintf("%%%02x", c) }},
			{func(c byte) string { return fmt.Sprintf("&#%d;", c) }, func(c byte) string { return fmt.Sprintf("&#x%x;", c) }},
		}
		form := forms[int(choices[0])%len(forms)]
		var b strings.Builder
		for i := 0; i < len(secret); i++ {
			c, choice := secret[i], int(choices[i%len(choices)])
			switch {
			case choice%3 == 0 && !strings.ContainsRune(`\%&`, rune(c)):
				b.WriteByte(c)
			case c == '/' && choice%3 == 1 && form[0]('/')[0] == '\\':
				b.WriteString(`\/`)
			default:
				b.WriteString(form[choice%2](c))
			}
		}
		// A space ends whatever escape before may begin.
		s := before + " " + b.String() + " " + after
		got := New(secret).Redact(s)
		if !strings.Contains(got, redacted) {
			t.Fatalf("Redact(%q) = %q, found nothing", s, got)
		}
		if left, ok := standIn(got, secret); ok && New(secret).Holds(left) {
			t.Fatalf("Redact(%q) = %q still holds the secret", s, got)
		}
	})
}
