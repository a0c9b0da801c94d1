package spec

import (
	"strings"
	"testing"
)

func TestCanonical(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"\n\n  \n", ""},
		{"\uFEFF# T\r\nbody\r\n\r\n", "# T\nbody\n"},
		{"\n\n   indented code\n", "   indented code\n"},
		{"no newline", "no newline\n"},
		{"trailing  \t\n\n\n", "trailing\n"},
		{" \t\nx", "x\n"},
		{"\uFEFF\uFEFFdouble bom", "double bom\n"},
		{"\n\uFEFFx", "x\n"},
		{"\uFEFF\n\uFEFF\r\n  x", "  x\n"},
	} {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%q) = %q, want %q", tc.in, got, tc.want)
		}
		if got := Canonical(Canonical(tc.in)); got != Canonical(tc.in) {
			t.Errorf("Canonical not idempotent on %q", tc.in)
		}
	}
}

// TestInstructionsToSend: the final newline of the canonical form is left
// out only when it alone would pass the service's limit, and what is sent
// always compares equal to the text it came from.
func TestInstructionsToSend(t *testing.T) {
	limit := MaxInstructionsLen
	atLimit := "😀" + strings.Repeat("a", limit-2) // "😀" is two UTF-16 code units
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", ""},
		{"short", "x", "x\n"},
		{"one under the limit", atLimit[:len(atLimit)-1], atLimit[:len(atLimit)-1] + "\n"},
		{"at the limit", atLimit, atLimit},
		{"at the limit, with trailing space", atLimit + " \r\n\n", atLimit},
		{"over the limit", atLimit + "b\n", atLimit + "b"},
	} {
		got := InstructionsToSend(tc.in)
		if got != tc.want {
			t.Errorf("%s: InstructionsToSend = %d code units ending %q, want %d ending %q", tc.name,
				UTF16Len(got), got[max(0, len(got)-3):], UTF16Len(tc.want), tc.want[max(0, len(tc.want)-3):])
		}
		if Canonical(got) != Canonical(tc.in) {
			t.Errorf("%s: what is sent does not compare equal to the text", tc.name)
		}
	}
}

// FuzzCanonical: Canonical is idempotent, so that text pulled, written and
// loaded again plans no change.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"", "\uFEFF\uFEFFx", "\n\uFEFFx", "a\r\r\nb", " \t\n\r\n", "x  \n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		once := Canonical(s)
		if twice := Canonical(once); twice != once {
			t.Fatalf("Canonical(%q) = %q, but Canonical of that = %q", s, once, twice)
		}
	})
}

// TestCanonicalCRCRLF: Canonical once replaced "\r\n" in one pass, so
// Canonical("a\r\r\nb") held a "\r\n" and differed from Canonical of
// itself, and pull then plan showed a change for such text.
func TestCanonicalCRCRLF(t *testing.T) {
	for _, in := range []string{"a\r\r\nb", "a\r\r\r\n\r\nb\r", "\r\r\n\r\nx\r\n", "a\rb\r\n"} {
		once := Canonical(in)
		if twice := Canonical(once); twice != once {
			t.Errorf("Canonical(%q) = %q, but Canonical of that = %q", in, once, twice)
		}
	}
	if got := Canonical("a\rb\r\n"); got != "a\rb\n" {
		t.Errorf("a lone CR must stay: got %q", got)
	}
}

// TestCheckInstructions: the limit counts UTF-16 code units, not bytes: a
// text of many bytes but few code units passes, one code unit over fails.
func TestCheckInstructions(t *testing.T) {
	emoji := strings.Repeat("😀", MaxInstructionsLen/2) // 4 bytes and 2 code units each
	for _, tc := range []struct {
		name string
		in   string
		ok   bool
	}{
		{"at the limit in ASCII", strings.Repeat("a", MaxInstructionsLen), true},
		{"one over in ASCII", strings.Repeat("a", MaxInstructionsLen+1), false},
		{"at the limit, twice as many bytes", emoji, true},
		{"one code unit over", emoji + "a", false},
		{"accented, under", strings.Repeat("é", MaxInstructionsLen-1), true},
	} {
		if err := CheckInstructions(tc.in); (err == nil) != tc.ok {
			t.Errorf("%s: CheckInstructions = %v, want ok %t", tc.name, err, tc.ok)
		}
	}
}
