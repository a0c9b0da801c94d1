package visible

import "testing"

// TestQuote: a quoted value shows what no one can see as the markers of
// every other output, escapes what would end the quotes, and leaves
// visible text and valid emoji as they are.
func TestQuote(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"Greet", `"Greet"`},
		{"Gre\u200bet", `"Gre⟦ZWSP⟧et"`},
		{"say \"hi\" \\ bye", `"say \"hi\" \\ bye"`},
		{"a\nb\x1b[2J", `"a⟦LF⟧b⟦ESC⟧[2J"`},
		{"Grüße 👩‍💻", `"Grüße 👩‍💻"`},
		{"ok\U000E0041\U000E006C\U000E0073\U000E006F", `"ok⟦tags: "Also"⟧"`},
	} {
		if got := Quote(c.in); got != c.want {
			t.Errorf("Quote(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestQuoteRune: one character in single quotes, shown as Quote shows it.
func TestQuoteRune(t *testing.T) {
	for _, c := range []struct {
		in   rune
		want string
	}{
		{'_', `'_'`}, {'\u200b', `'⟦ZWSP⟧'`}, {'\'', `'\''`}, {'\\', `'\\'`}, {'\n', `'⟦LF⟧'`}, {'⁄', `'⁄'`},
	} {
		if got := QuoteRune(c.in); got != c.want {
			t.Errorf("QuoteRune(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}
