package visible

import (
	"bytes"
	"strings"
	"testing"
)

func TestString(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, é ünïcode ✓ → ©", "plain text, é ünïcode ✓ → ©"},
		{"tab\tand\nnewline\n", "tab\tand\nnewline\n"},
		{"crlf\r\nkept\r\n", "crlf\r\nkept\r\n"},
		{"over\rwrite", `over\rwrite`},
		{"end\r", `end\r`},
		{"\x1b[2K\x1b[1A", `\x1b[2K\x1b[1A`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"\x1b]52;c;ZXZpbA==\x1b\\", `\x1b]52;c;ZXZpbA==\x1b\`},
		{"nul\x00 bs\b ff\f vt\v del\x7f", `nul\x00 bs\x08 ff\x0c vt\x0b del\x7f`},
		{"c1 \u0085 \u009b", `c1 \u0085 \u009b`},
		{"raw 8-bit csi \x9b1A", `raw 8-bit csi \x9b1A`},
		{"latin-1 caf\xe9", "latin-1 caf\xe9"},
		{"a\u202eevil\u202c b\u2066c\u2069", `a\u202eevil\u202c b\u2066c\u2069`},
		{"line sep \u2028 kept", "line sep \u2028 kept"},
		{`back\slash`, `back\slash`},
	} {
		if got := String(tc.in); got != tc.want {
			t.Errorf("String(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestLine(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"one line\twith tab", "one line\twith tab"},
		{"two\nlines", `two\nlines`},
		{"crlf\r\n", `crlf\r\n`},
		{"\x1b[31mred", `\x1b[31mred`},
	} {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestWriterSplitWrites checks that a write cut anywhere, inside a rune or
// between CR and LF, shows what String shows of the whole.
func TestWriterSplitWrites(t *testing.T) {
	in := "crlf\r\nbidi \u202e é \u0085 esc \x1b[2K lone\r cr\r\n✓ end\r"
	want := String(in)
	for cut := 0; cut <= len(in); cut++ {
		for cut2 := cut; cut2 <= len(in); cut2++ {
			var b bytes.Buffer
			w := NewWriter(&b)
			for _, part := range []string{in[:cut], in[cut:cut2], in[cut2:]} {
				if n, err := w.Write([]byte(part)); n != len(part) || err != nil {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if b.String() != want {
				t.Fatalf("writes cut at %d and %d: got %q, want %q", cut, cut2, b.String(), want)
			}
		}
	}
}

func TestWriterPassesCleanTextAsIs(t *testing.T) {
	var b bytes.Buffer
	w := NewWriter(&b)
	in := strings.Repeat("a plain line\twith a tab\n", 100)
	w.Write([]byte(in))
	if b.String() != in {
		t.Errorf("clean text changed:\n%q", b.String())
	}
}

func FuzzString(f *testing.F) {
	f.Add("\x1b[2K\r\n\u202e\u0085\x9b")
	f.Add("é\x85 \xe2\x80\xae ✓ \xc2\x9b")
	f.Fuzz(func(t *testing.T, s string) {
		for _, line := range []bool{false, true} {
			if !needs(s, line) && string(appendEscaped(nil, s, line)) != s {
				t.Fatalf("the quick scan passes %q, which has something to show", s)
			}
		}
		for _, out := range []string{String(s), Line(s)} {
			for i, r := range out {
				if show(r) && !(r == '\r' && i+1 < len(out) && out[i+1] == '\n') {
					t.Fatalf("%q shows as %q, which holds %U", s, out, r)
				}
			}
			if strings.ContainsFunc(out, func(r rune) bool { return r >= 0x80 && r <= 0x9f }) {
				t.Fatalf("%q shows as %q, which holds a C1 control", s, out)
			}
			if strings.ContainsAny(Line(s), "\n\r") {
				t.Fatalf("Line(%q) holds a line end", s)
			}
		}
	})
}
