package redact

import (
	"encoding/base64"
	"fmt"
	"html"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/redact/redacttest"
)

// slashToken has the characters JSON, URLs, HTML and markdown spell
// otherwise: a slash, a plus, an underscore, a dot, an equals sign.
const slashToken = "Zm9vYmFy/c2VjcmV0+sntl_7Qx-Lk2P.zR="

// testToken is a token as tests of the client use it.
const testToken = "sentinel-TOKEN-7c1f0e9a.b64payload.sig"

// TestRedactEverySpelling: the token is found and redacted however it is
// spelt: JSON escapes, percent-encoding, HTML character references,
// markdown's backslash escapes, or a mix, as it is or escaped twice; or
// folded, in a slug or in upper case.
func TestRedactEverySpelling(t *testing.T) {
	for _, tok := range []string{slashToken, testToken} {
		r := New(tok)
		for name, enc := range redacttest.All() {
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
			if got := String(in, tok); strings.Contains(got, "rejected") && !strings.Contains(got, "token [REDACTED] rejected") {
				t.Errorf("%s: String(s, secret) = %s", name, got)
			}
		}
	}
}

// TestRedactLeavesOtherText: escapes that spell something else, and a
// token with a letter or digit missing or changed, are left as they are.
func TestRedactLeavesOtherText(t *testing.T) {
	tok := slashToken
	r := New(tok)
	for _, in := range []string{
		`{"a":"\u0041\/b\\c\n","b":"100% sure &amp; 50%25 &#65;"}`,
		`C:\path\to\file &lt;x&gt; \_ \* %2F`,
		strings.ReplaceAll(tok, "/", `\\/`)[:len(tok)] + " (cut but no mark)",
		tok[1:] + " " + strings.Replace(tok, "zR", "z", 1) + ".",
		strings.Replace(tok, "sntl", "sntk", 1),
		strings.ToLower(tok[:len(tok)-2]),
		redacttest.Spellings["percent upper"](tok[:len(tok)-1]) + "%2",
		redacttest.Spellings["json u lower"](tok[:len(tok)-1]) + `\u003`,
		redacttest.Spellings["html decimal"](strings.Replace(tok, "c", "d", 1)),
		"...",
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

// TestRedactShortSecret: a secret under ShortSecret bytes is still replaced
// only where no letter or digit touches it, in every spelling.
func TestRedactShortSecret(t *testing.T) {
	r := New("ab/c")
	for _, tc := range []struct{ in, want string }{
		{"x ab/c y", "x [REDACTED] y"},
		{`"ab\/c"`, `"[REDACTED]"`},
		{"zab/c", "zab/c"},
		{`ab\/cd`, `ab\/cd`},
		{"%61%62%2F%63.", "[REDACTED]."},
	} {
		if got := r.Redact(tc.in); got != tc.want {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if r.Holds("x ab/c y") {
		t.Error("Holds reports a short secret: a test's token is no real token")
	}
}

// TestRedactCutToken: a part of 8 or more characters of the token that a
// cut left before "..." (its start) or after it (its end) is redacted, in
// every spelling; a shorter part is left, as ordinary text may hold it.
func TestRedactCutToken(t *testing.T) {
	tok := slashToken
	r := New(tok)
	for name, enc := range redacttest.Spellings {
		for k := 1; k < len(tok); k++ {
			for _, mark := range []string{"...", "…"} {
				head := "see " + enc(tok[:k]) + mark
				tail := mark + enc(tok[len(tok)-k:]) + " end"
				wantHead, wantTail := head, tail
				if k >= 8 {
					wantHead, wantTail = "see [REDACTED]"+mark, mark+"[REDACTED] end"
				}
				if got := r.Redact(head); got != wantHead {
					t.Errorf("%s, %d characters: Redact(%s) = %s, want %s", name, k, head, got, wantHead)
				}
				if got := r.Redact(tail); got != wantTail {
					t.Errorf("%s, %d characters: Redact(%s) = %s, want %s", name, k, tail, got, wantTail)
				}
			}
		}
	}
	// A cut inside an escape still leaves no run of the token.
	in := redacttest.Spellings["json u lower"](tok[:10]) + `\u00` + "..."
	if got := r.Redact(in); redacttest.Leak(got, tok) != "" {
		t.Errorf("Redact(%s) = %s", in, got)
	}
}

// TestRedactTokenAfterSpelling: when the last escape of a spelling of
// the token reads the first byte of a token right after it ("%6" before
// "eyJ..." reads "%6e", an "n"), the rest of that token is hidden too.
func TestRedactTokenAfterSpelling(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJza2lsbHN5bmMifQ.c2lnbn"
	r := New(jwt)
	for _, head := range []string{
		jwt[:len(jwt)-1],
		redacttest.Spellings["json u lower"](jwt[:len(jwt)-1]),
		"…" + jwt[10:len(jwt)-1],                   // what a cut left of the token
		jwt[:len(jwt)-1] + "%6" + jwt[:len(jwt)-1], // twice over
	} {
		for _, split := range []string{"%6", "%256", `\u006`, `\\u006`, `\x6`, "&#x6"} {
			in := "token " + head + split + jwt + " rejected"
			got := r.Redact(in)
			if leak := redacttest.Leak(got, jwt); leak != "" {
				t.Errorf("Redact(%s)\n = %s\nshows %s", in, got, leak)
			}
		}
	}
}

// TestRedactReferenceBeforeToken: a browser reads the digits of a
// character reference without its ';' for as long as they go on, so
// "&#x55eyJ" is not "UeyJ"; but once the token after it is replaced,
// "&#x55[REDACTED]" is "U[REDACTED]". A token spelt up to such a
// reference is hidden too: rendered, the output holds no token.
func TestRedactReferenceBeforeToken(t *testing.T) {
	const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJza2lsbHN5bmMifQ.c2lnbU"
	const ghs = "ghs_16C7e42F292c6912E7710c838347Ae178B4a"
	const uuid = "4d3c2b1a-9f8e-7d6c-5b4a-39281706f5e4"
	for _, tc := range []struct{ tok, in string }{
		{jwt, "token " + jwt[:len(jwt)-1] + "&#x55" + jwt},
		{jwt, "token " + jwt[:len(jwt)-1] + "&#X55" + strings.ToUpper(jwt)},
		{uuid, "token " + uuid[:len(uuid)-1] + "&#52" + uuid},
		// The base64 form of the token from its second byte starts with "d".
		{ghs, "token " + ghs[:len(ghs)-1] + "&#x61" + base64.StdEncoding.EncodeToString([]byte("x" + ghs))[2:]},
	} {
		got := New(tc.tok).Redact(tc.in)
		if rendered := html.UnescapeString(got); strings.Contains(rendered, tc.tok) {
			t.Errorf("Redact(%s)\n = %s\nrenders as %s", tc.in, got, rendered)
		}
	}
}

// BenchmarkRedact measures Redact on a JSON plan of 1 MiB, full of the
// escapes it must look into (\n, \u003c, %, &, ...), holding no token: the
// cost every line of output pays. A token that begins with a common letter
// makes more places to look at.
func BenchmarkRedact(b *testing.B) {
	line := `{"slug":"sql-style","instructions":"# SQL\n\nUse \u003cCTE\u003e \u0026 50% less joins: a/b \\ c; see https://example.com/a%2Fb?x=1\u0026y=2 \u2014 done... etc.\n"},` + "\n"
	text := strings.Repeat(line, (1<<20)/len(line))
	for _, tok := range []string{slashToken, "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJza2lsbHN5bmMifQ.c2ln"} {
		b.Run(tok[:2], func(b *testing.B) {
			r := New(tok)
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if r.Redact(text) != text {
					b.Fatal("changed a text without the token")
				}
			}
		})
	}
}

// hostileTexts are texts a server may send to make the search slow: long
// runs of the bytes an escape or a cut mark is made of, and near misses
// of the token spelt with escapes, each about 64 KiB.
func hostileTexts(tok string) map[string]string {
	const size = 64 << 10
	fill := func(unit string) string { return strings.Repeat(unit, size/len(unit)) }
	spelt := redacttest.Spellings["json in json"](tok[:len(tok)-1])
	// Long runs of backslashes, each ending in an escape of the token's
	// next byte: a search from any byte of the first run crosses them all.
	var runs strings.Builder
	for k := range 3 {
		runs.WriteString(strings.Repeat(`\`, size/3-5) + fmt.Sprintf("u%04x", tok[k]))
	}
	// The same with the next bytes in references padded with long runs
	// of zeros.
	zeros := strings.Repeat("0", size/3)
	padded := strings.Repeat(`\`, size/3) + fmt.Sprintf(`u%04x&#%s%d&#x%s%x`, tok[0], zeros, tok[1], zeros, tok[2])
	return map[string]string{
		"escapes after runs":       runs.String(),
		"escapes after short runs": fill(strings.Repeat(`\`, 27) + fmt.Sprintf("u%04x", tok[0])),
		"padded after a run":       padded,
		"backslashes":              fill(`\`),
		"backslashes and u":        fill(`\\\\\\\\u00`),
		"percent chain":            "%" + fill("25"),
		"percents":                 fill("%25"),
		"references":               fill("&#"),
		"semicolons":               fill("&#59"),
		"dots":                     fill("."),
		"cuts before escapes":      fill(`...\\\\\\\`),
		"ellipses":                 fill("…"),
		"near misses":              fill(tok[:len(tok)-1] + " "),
		"near misses, spelt":       fill(spelt + " "),
		"near misses, cut":         fill(tok[:len(tok)-1] + "..." + tok[1:len(tok)-1] + " "),
		"backslash and token":      fill(`\\` + tok[:len(tok)/2]),
	}
}

// TestRedactCostIsLinear: a hostile server cannot make redaction slow.
// The work done is counted, not timed: for a token of the characters a
// bearer token has, a few steps per byte of text whatever the text; for
// any secret at all, even one of backslashes, the search is cut short
// (see searchBudget), so the work stays within its budget per byte.
// Before the bound, 100 KiB of backslashes took 2.5 s for an ordinary
// token and 7 s for a secret of backslashes.
func TestRedactCostIsLinear(t *testing.T) {
	// A JWT as long as a real one with many claims.
	jwt := "eyJhbGciOiJSUzI1NiJ9." + base64.RawURLEncoding.EncodeToString([]byte(strings.Repeat(`{"sub":"skillsync","scope":"skills:write"}`, 16))) + ".c2ln"
	for _, tok := range []string{slashToken, testToken, jwt, "ghs_0123456789abcdefXYZ"} {
		for name, text := range hostileTexts(tok) {
			var m matcher
			New(tok).redactWith(&m, text)
			if perByte := float64(m.steps) / float64(len(text)); perByte > 8 {
				t.Errorf("token %.6s..., %s: %.1f steps per byte, want at most 8", tok, name, perByte)
			}
		}
	}
	for _, secret := range []string{
		strings.Repeat(`\`, 40),
		strings.Repeat(`\`, 40) + "Z",
		strings.Repeat("%", 40),
		strings.Repeat(";", 40),
		"x" + strings.Repeat(".", 38) + "y",
		`a\%&;.b\%&;.c\%&;.`,
	} {
		texts := hostileTexts(secret)
		texts["backslash runs"] = strings.Repeat(strings.Repeat(`\`, 14)+"Y", 4000)
		for name, text := range texts {
			var m matcher
			got := New(secret).redactWith(&m, text)
			if perByte := m.steps / len(text); perByte > searchBudget(secret) {
				t.Errorf("secret %q, %s: %d steps per byte, want at most %d", secret, name, perByte, searchBudget(secret))
			}
			if New(secret).Holds(strings.ReplaceAll(got, "[REDACTED]", "\x00")) {
				t.Errorf("secret %q, %s: the secret survives", secret, name)
			}
		}
	}
}

// BenchmarkRedactHostile measures Redact of 1 MiB of backslashes, the
// text that cost time quadratic in its length before the search was
// bounded.
func BenchmarkRedactHostile(b *testing.B) {
	text := strings.Repeat(`\`, 1<<20)
	r := New(slashToken)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		r.Redact(text)
	}
}

// TestString: a real token goes wherever it appears; a short test token
// only where it stands alone, so that "x" does not turn "proxy" into
// "pro[REDACTED]y".
func TestString(t *testing.T) {
	long := "sk-0123456789abcdef"
	for _, tc := range []struct{ in, secret, want string }{
		{"Bearer " + long, long, "Bearer [REDACTED]"},
		{"a" + long + "b", long, "a[REDACTED]b"},
		{"check any proxy", "x", "check any proxy"},
		{"token x rejected (x)", "x", "token [REDACTED] rejected ([REDACTED])"},
		{"x", "x", "[REDACTED]"},
		{"abab ab", "ab", "abab [REDACTED]"},
		{"ab-ab", "ab", "[REDACTED]-[REDACTED]"},
		{"aaa", "aa", "aaa"},
		{"nothing here", "", "nothing here"},
		// A secret that overlaps itself: each occurrence once, no panic.
		{"a-a-a", "a-a", "[REDACTED]-a"},
		{"---", "--", "[REDACTED]-"},
		{"ab-ab-ab", "ab-ab", "[REDACTED]-ab"},
		// A real token folded: its separators dropped, its case changed.
		{"sk0123456789ABCde", "sk 0123456789", "[REDACTED]ABCde"},
	} {
		if got := String(tc.in, tc.secret); got != tc.want {
			t.Errorf("String(%q, %q) = %q, want %q", tc.in, tc.secret, got, tc.want)
		}
	}
}

// FuzzRedact: String never panics, a secret of 12 bytes or more never
// survives it in any spelling, and a text with neither the secret nor
// anything that may spell it otherwise (an escape, a cut mark, or for a
// real token its letters and digits in a row, which a folded spelling
// is, or one of its base64 forms) is unchanged.
func FuzzRedact(f *testing.F) {
	for _, c := range [][2]string{{"a-a-a", "a-a"}, {"---", "--"}, {"proxy x", "x"}, {"Bearer sk-0123456789abcdef", "sk-0123456789abcdef"}, {"", "x"},
		{`token sk\/0123456789abcdef...`, "sk/0123456789abcdef"}, {"%73%6b-0123456789abc...", "sk-0123456789abcdef"}, {"sk0123456789ABCde", "sk 0123456789"}, {"%000000000000000000000000", "\x0000000000000"}} {
		f.Add(c[0], c[1])
	}
	f.Fuzz(func(t *testing.T, s, secret string) {
		got := String(s, secret)
		plain := !strings.ContainsAny(s, `\%&`) && !strings.Contains(s, "...") && !strings.Contains(s, "…") &&
			!(len(secret) >= ShortSecret && strings.Contains(alnumLower(s), alnumLower(secret))) &&
			!slices.ContainsFunc(New(secret).encoded, func(f string) bool { return strings.Contains(s, f) })
		if secret == "" || plain && !strings.Contains(s, secret) {
			if got != s {
				t.Fatalf("String(%q, %q) = %q, changed a text without the secret", s, secret, got)
			}
			return
		}
		// Each mark becomes one byte the secret lacks, so that no spelling
		// is made of the marks' letters, nor of the byte standing in.
		stand := byte(0)
		for strings.IndexByte(secret, stand) >= 0 {
			stand++
		}
		left := strings.ReplaceAll(got, "[REDACTED]", string(rune(stand)))
		if len(secret) >= ShortSecret && (strings.Contains(left, secret) || New(secret).Holds(left)) {
			t.Fatalf("String(%q, %q) = %q still holds the secret", s, secret, got)
		}
	})
}

// alnumLower is s as the folded search reads it: its ASCII letters and
// digits only, in lower case.
func alnumLower(s string) string {
	return strings.Map(func(c rune) rune {
		if c < utf8.RuneSelf && isAlnum(byte(c)) {
			return unicode.ToLower(c)
		}
		return -1
	}, s)
}

// FuzzRedactSpelt: a real token spelt with any mix of escapes, between any
// texts, never survives String.
func FuzzRedactSpelt(f *testing.F) {
	f.Add("before ", "sk/0123456789abcdef+_.", " after", []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add("%", "aaaaaaaaaaaa%%", "&#", []byte{9, 8, 7})
	// A secret of backslashes spelt with escaped backslashes: the search
	// must give up rather than explore every reading.
	f.Add(strings.Repeat(`\\`, 30), strings.Repeat(`\\`, 16), `\Z`, []byte{8, 3})
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
		got := New(secret).Redact(s)
		if !strings.Contains(got, "[REDACTED]") {
			t.Fatalf("Redact(%q) = %q, found nothing", s, got)
		}
		if left := strings.ReplaceAll(got, "[REDACTED]", "\x00"); New(secret).Holds(left) {
			t.Fatalf("Redact(%q) = %q still holds the secret", s, got)
		}
	})
}

// TestRedactBase64: a token a server put in a Basic header or a JWT, and
// echoes encoded, is redacted too, wherever it stands among the encoded
// bytes, in either alphabet and with JSON's escaped '/'.
func TestRedactBase64(t *testing.T) {
	const tok = "ghs_0123456789abcdefXYZ/+?~"
	r := New(tok)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		for _, before := range []string{"", "u", "us", "user:", "x-access-token:"} {
			encoded := enc.EncodeToString([]byte(before + tok + "@rest"))
			for _, text := range []string{
				"Authorization: Basic " + encoded,
				`{"detail":"bad credentials ` + strings.ReplaceAll(encoded, "/", `\/`) + `"}`,
			} {
				got := r.Redact(text)
				if !strings.Contains(got, "[REDACTED]") {
					t.Errorf("%q: not redacted: %q", text, got)
				}
				// What is left decodes to no more than a few bytes of the
				// token: the characters at the form's edges.
				if r.Holds(got) {
					t.Errorf("%q: still holds the token: %q", text, got)
				}
			}
		}
	}
	// A text without the token is left alone, and a test token's base64
	// (under 12 bytes) is no real token's.
	plain := "Basic " + base64.StdEncoding.EncodeToString([]byte("someone:else-entirely-123"))
	if got := r.Redact(plain); got != plain {
		t.Errorf("Redact(%q) = %q", plain, got)
	}
	if got := String("eA==", "x"); got != "eA==" {
		t.Errorf("a short secret's base64 was redacted: %q", got)
	}
}

// TestRedactBase64AfterSpelling: a spelling of the token whose last
// escape reads the first character of a base64 form right after it
// ("%6" before "doc1..." reads "%6d", an "m") does not leave the rest of
// the form: forms are found in the text as sent.
func TestRedactBase64AfterSpelling(t *testing.T) {
	const tok = "ghs_16C7e42F292c6912E7710c838347Ae178B4m"
	r := New(tok)
	// From its third character on, the token's bits alone.
	form := base64.StdEncoding.EncodeToString([]byte("x" + tok + "@rest"))[2:]
	if form[0] != 'd' {
		t.Fatalf("the form %s starts with %q, not the \"d\" of %%6d", form, form[0])
	}
	for _, split := range []string{"%6", `\u006`, "&#x6"} {
		in := "token " + tok[:len(tok)-1] + split + form
		got := r.Redact(in)
		for k := 0; k+8 <= 48; k++ { // 48 characters of the token's bits
			if run := form[k : k+8]; strings.Contains(got, run) {
				t.Errorf("Redact(%s)\n = %s: %s of the form is left", in, got, run)
				break
			}
		}
	}
}
