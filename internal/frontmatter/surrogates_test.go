package frontmatter

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/lineartest"
	"go.yaml.in/yaml/v3"
)

func TestJoinSurrogates(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"pair", `a: "\uD83D\uDD2D telescope"`, `a: "\U0001F52D telescope"`},
		{"lower case", `a: "\ud83d\udd2d"`, `a: "\U0001F52D"`},
		{"two pairs and others", `a: "\u00e9\uD83D\uDE00\n\uD83C\uDF89"`, `a: "\u00e9\U0001F600\n\U0001F389"`},
		{"key", `"\uD83D\uDD2D": x`, `"\U0001F52D": x`},
		{"flow", "m: {a: \"\\uD83D\\uDE00\", b: [&x \"\\uD83D\\uDE00\", !!str \"\\uD83D\\uDE00\"]}",
			"m: {a: \"\\U0001F600\", b: [&x \"\\U0001F600\", !!str \"\\U0001F600\"]}"},
		{"after non-ASCII", `é: {"é": "\uD83D\uDE00"}`, `é: {"é": "\U0001F600"}`},
		{"multi-line", "a: \"first\n  \\uD83D\\uDE00 second\"\nb: c", "a: \"first\n  \\U0001F600 second\"\nb: c"},
		{"plain", `a: \uD83D\uDD2D and \uD83D`, `a: \uD83D\uDD2D and \uD83D`},
		{"single-quoted", `a: '\uD83D\uDD2D and \uD83D'`, `a: '\uD83D\uDD2D and \uD83D'`},
		{"comment", `a: b # "\uD83D"`, `a: b # "\uD83D"`},
		{"block", "a: |\n  \"\\uD83D\"\nb: \"\\uD83D\\uDE00\"", "a: |\n  \"\\uD83D\"\nb: \"\\U0001F600\""},
		{"escaped backslash", `a: "\\uD83D\\uDD2D"`, `a: "\\uD83D\\uDD2D"`},
		{"not YAML: left to the parser", "a: \"\\uD83D\\uDE00\"\nb: [", "a: \"\\uD83D\\uDE00\"\nb: ["},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := JoinSurrogates([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("JoinSurrogates(%q) =\n%q\nwant\n%q", tc.in, got, tc.want)
			}
			if bytes.Count(got, []byte("\n")) != bytes.Count([]byte(tc.in), []byte("\n")) {
				t.Errorf("lines moved")
			}
		})
	}
}

// TestJoinSurrogatesReads: what yaml.v3 refused, it reads as the
// characters meant.
func TestJoinSurrogatesReads(t *testing.T) {
	in := []byte("description: \"Look \\uD83D\\uDD2D\"\nmetadata: {icon: \"\\uD83C\\uDF89\"}\n")
	var v map[string]any
	if err := yaml.Unmarshal(in, &v); err == nil {
		t.Fatal("yaml.v3 reads surrogate pairs now: JoinSurrogates may go")
	}
	out, err := JoinSurrogates(in)
	if err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal(out, &v); err != nil {
		t.Fatal(err)
	}
	if v["description"] != "Look 🔭" || v["metadata"].(map[string]any)["icon"] != "🎉" {
		t.Errorf("read %v", v)
	}
}

func TestJoinSurrogatesLone(t *testing.T) {
	for _, tc := range []struct {
		in        string
		line, col int
		escape    string
	}{
		{`a: "\uD83D x"`, 1, 5, `\uD83D`},
		{"a: b\nc: \"é \\uDD2D\"", 2, 7, `\uDD2D`},
		{`a: "\uD83D\u0041"`, 1, 5, `\uD83D`},
		{`a: "\U0000D83D\uDE00"`, 1, 5, `\U0000D83D`},
		{"a: [\"ok \\uD83D\\uDE00\",\n  \"\\uDE00\"]", 2, 4, `\uDE00`},
	} {
		_, err := JoinSurrogates([]byte(tc.in))
		var se *SurrogateError
		if !errors.As(err, &se) || se.Line != tc.line || se.Col != tc.col || se.Escape != tc.escape {
			t.Errorf("JoinSurrogates(%q): %v (%+v), want %s at %d:%d", tc.in, err, se, tc.escape, tc.line, tc.col)
		}
	}
}

// FuzzJoinSurrogates: lines never move; text yaml.v3 reads already is
// left as it is (no surrogate escape of a double-quoted scalar is in it);
// and joining twice is joining once.
func FuzzJoinSurrogates(f *testing.F) {
	for _, s := range []string{`a: "\uD83D\uDD2D"`, `a: '\uD83D'`, "a: |\n  \\uD83D\n", `{"\ud83d\ude00": ["\uD83D\uDE00", x]}`,
		`a: "\\uD83D\uDE00"`, "a: \"x\n  \\uD83D\\uDE00\"", `a: "\uD83D"`, `a: \uD83D\uDD2D # "\uD83D"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := JoinSurrogates(in)
		if err != nil {
			return
		}
		if len(lineStarts(out)) != len(lineStarts(in)) {
			t.Fatalf("lines moved: %q became %q", in, out)
		}
		var v any
		if yaml.Unmarshal(in, &v) == nil && !bytes.Equal(out, in) {
			t.Fatalf("%q, which yaml.v3 reads, became %q", in, out)
		}
		if again, err := JoinSurrogates(out); err != nil || !bytes.Equal(again, out) {
			t.Fatalf("joined again: %q became %q (%v)", out, again, err)
		}
	})
}

// TestPositionsWalkALineOnce: the double-quoted strings of one long line
// (a flow list) are found by walking the line once, not once each from
// its start, which made a 40 KB list take 190 ms and one of 1 MiB
// minutes. Positions asked out of order are found all the same.
func TestPositionsWalkALineOnce(t *testing.T) {
	lineartest.Time(t, 500, func(n int) {
		JoinSurrogates([]byte(`emoji: "\uD83D\uDE00"` + "\nlist: [" + strings.Repeat(`"é", `, n) + "\"é\"]\n"))
	})

	line := "list: [" + strings.Repeat(`"é", `, 2000) + `"é"]`
	block := []byte("a: 1\n" + line + "\nb: 2\n")
	p := &positions{b: block, starts: lineStarts(block)}
	col := 0
	for i, r := range line {
		col++
		if r != '"' {
			continue
		}
		at, ok := p.offset(2, col)
		if !ok || at != len("a: 1\n")+i {
			t.Fatalf("offset(2, %d) = %d, %t; want %d", col, at, ok, len("a: 1\n")+i)
		}
	}
	for _, c := range []struct{ line, col, at int }{{2, 1, 5}, {3, 2, len(block) - 4}, {1, 3, 2}, {2, 8, 12}} {
		if at, ok := p.offset(c.line, c.col); !ok || at != c.at {
			t.Errorf("offset(%d, %d) = %d, %t; want %d", c.line, c.col, at, ok, c.at)
		}
	}
	if _, ok := p.offset(5, 1); ok {
		t.Errorf("offset(5, 1) found in a block of 3 lines and the empty one after them")
	}
}
