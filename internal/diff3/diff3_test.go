package diff3

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

// TestVectors merges the cases of testdata/*.txtar: each has a base, ours
// and theirs, and either the merged text or the conflicts, one a line as
// "base START+COUNT ours START+COUNT theirs START+COUNT".
func TestVectors(t *testing.T) {
	files, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no test vectors: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			parts := map[string][]byte{}
			for _, f := range ar.Files {
				parts[f.Name] = f.Data
			}
			res, err := Merge(parts["base"], parts["ours"], parts["theirs"])
			if err != nil {
				t.Fatal(err)
			}
			if want, ok := parts["merged"]; ok {
				if len(res.Conflicts) > 0 {
					t.Fatalf("conflicts %v, want the merge:\n%s", res.Conflicts, want)
				}
				if !bytes.Equal(res.Text, want) {
					t.Fatalf("merged:\n%s\nwant:\n%s", res.Text, want)
				}
				return
			}
			var got strings.Builder
			for _, c := range res.Conflicts {
				fmt.Fprintf(&got, "base %d+%d ours %d+%d theirs %d+%d\n",
					c.Base.Start, c.Base.Count, c.Ours.Start, c.Ours.Count, c.Theirs.Start, c.Theirs.Count)
			}
			if want := string(parts["conflicts"]); got.String() != want {
				t.Fatalf("conflicts:\n%swant:\n%s", got.String(), want)
			}
			if res.Text != nil {
				t.Fatalf("a conflicted merge has text %q", res.Text)
			}
		})
	}
}

func TestLineEnds(t *testing.T) {
	for _, c := range []struct {
		name               string
		base, ours, theirs string
		want               string
		conflict           bool
	}{
		{name: "final newline added upstream", base: "a\nx\nb", ours: "A\nx\nb", theirs: "a\nx\nb\n", want: "A\nx\nb\n"},
		{name: "final newline removed locally", base: "a\nb\n", ours: "a\nb", theirs: "a\nb\n", want: "a\nb"},
		{name: "crlf upstream, edit here", base: "a\nb\nc\n", ours: "a\nb\nC\n", theirs: "a\r\nb\nc\n", want: "a\r\nb\nC\n"},
		{name: "crlf upstream, same line edited here", base: "a\nb\n", ours: "A\nb\n", theirs: "a\r\nb\n", conflict: true},
		{name: "all empty", base: "", ours: "", theirs: "", want: ""},
		{name: "emptied locally", base: "a\n", ours: "", theirs: "a\n", want: ""},
		{name: "emptied locally, edited upstream", base: "a\n", ours: "", theirs: "b\n", conflict: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, err := Merge([]byte(c.base), []byte(c.ours), []byte(c.theirs))
			if err != nil {
				t.Fatal(err)
			}
			if c.conflict {
				if len(res.Conflicts) == 0 {
					t.Fatalf("merged to %q, want a conflict", res.Text)
				}
				return
			}
			if len(res.Conflicts) > 0 || string(res.Text) != c.want {
				t.Fatalf("got %q (conflicts %v), want %q", res.Text, res.Conflicts, c.want)
			}
		})
	}
}

func TestRangeString(t *testing.T) {
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{4, 1}, "line 4"},
		{Range{4, 4}, "lines 4-7"},
		{Range{4, 0}, "after line 3"},
		{Range{1, 0}, "at the start"},
	} {
		if got := c.r.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

func TestTooLarge(t *testing.T) {
	var base, ours strings.Builder
	for i := range MaxChangedLines {
		fmt.Fprintf(&base, "base %d\n", i)
		fmt.Fprintf(&ours, "ours %d\n", i)
	}
	if _, err := Merge([]byte(base.String()), []byte(ours.String()), []byte(base.String())); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
	// Many lines, few changed: the common start and end cost nothing.
	long := strings.Repeat("same\n", 5*MaxChangedLines)
	res, err := Merge([]byte(long+"a\n"), []byte(long+"b\n"), []byte(long+"a\n"))
	if err != nil || string(res.Text) != long+"b\n" {
		t.Fatalf("err %v, merged %d bytes", err, len(res.Text))
	}
}

// FuzzMerge checks the identities every three-way merge keeps: a side
// that did not change takes the other, two sides that agree are taken,
// and edits to lines far apart (here: the two halves of a text, with an
// unchanged line between) both survive.
func FuzzMerge(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", "x\ny\n", "x\nY\nz\n")
	f.Add("", "a", "b\n", "")
	f.Fuzz(func(t *testing.T, base1, ours1, base2, theirs2 string) {
		check := func(base, ours, theirs, want string) {
			t.Helper()
			res, err := Merge([]byte(base), []byte(ours), []byte(theirs))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Conflicts) > 0 || string(res.Text) != want {
				t.Fatalf("Merge(%q, %q, %q) = %q (conflicts %v), want %q", base, ours, theirs, res.Text, res.Conflicts, want)
			}
		}
		check(base1, ours1, base1, ours1)
		check(base1, base1, ours1, ours1)
		check(base1, ours1, ours1, ours1)

		// Two halves split by a line neither half holds.
		sep := "\x00separator\x00\n"
		if strings.Contains(base1+ours1+base2+theirs2, "\x00separator\x00") {
			return
		}
		end := func(s string) string {
			if s != "" && !strings.HasSuffix(s, "\n") {
				return s + "\n"
			}
			return s
		}
		b1, o1, b2, t2 := end(base1), end(ours1), end(base2), end(theirs2)
		check(b1+sep+b2, o1+sep+b2, b1+sep+t2, o1+sep+t2)
	})
}
