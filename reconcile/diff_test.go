package reconcile

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/plans")

// goldenDir holds the golden outputs of this package's tests.
const goldenDir = "../testdata/plans"

// golden compares got with the golden file name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(goldenDir, name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./reconcile -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./reconcile -update if the change is intended):\n%s",
			name, UnifiedDiff("want", "got", string(want), string(got)))
	}
}

func TestUnifiedDiffGolden(t *testing.T) {
	olds, err := filepath.Glob(filepath.Join(goldenDir, "diff", "*.old"))
	if err != nil || len(olds) == 0 {
		t.Fatalf("no diff vectors: %v", err)
	}
	for _, oldPath := range olds {
		name := strings.TrimSuffix(filepath.Base(oldPath), ".old")
		t.Run(name, func(t *testing.T) {
			a := readFile(t, oldPath)
			b := readFile(t, strings.TrimSuffix(oldPath, ".old")+".new")
			d := UnifiedDiff("a/SKILL.md", "b/SKILL.md", a, b)
			golden(t, filepath.Join("diff", name+".diff"), []byte(d))
			got, err := applyUnified(a, d)
			if err != nil {
				t.Fatalf("applying the diff: %v", err)
			}
			if got != b {
				t.Errorf("applying the diff gave\n%q\nwant\n%q", got, b)
			}
		})
	}
}

func TestUnifiedDiffEqual(t *testing.T) {
	for _, s := range []string{"", "a\n", "a"} {
		if d := UnifiedDiff("a", "b", s, s); d != "" {
			t.Errorf("UnifiedDiff(%q, %q) = %q, want empty", s, s, d)
		}
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// randomText makes a text from few distinct lines, so that diffs must
// choose among many equal alignments, sometimes without a final newline.
func randomText(r *rand.Rand, n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = "line " + strconv.Itoa(r.IntN(6)) + "\n"
	}
	return lines
}

func mutate(r *rand.Rand, lines []string) []string {
	out := append([]string(nil), lines...)
	for k := r.IntN(6); k > 0; k-- {
		switch i := r.IntN(len(out) + 1); r.IntN(3) {
		case 0: // insert
			out = append(out[:i], append([]string{"new " + strconv.Itoa(r.IntN(4)) + "\n"}, out[i:]...)...)
		case 1: // delete
			if i < len(out) {
				out = append(out[:i], out[i+1:]...)
			}
		case 2: // replace
			if i < len(out) {
				out[i] = "changed " + strconv.Itoa(r.IntN(4)) + "\n"
			}
		}
	}
	return out
}

func joinMaybeUnterminated(r *rand.Rand, lines []string) string {
	s := strings.Join(lines, "")
	if s != "" && r.IntN(4) == 0 {
		s = strings.TrimSuffix(s, "\n")
	}
	return s
}

// TestUnifiedDiffPatchRoundTrip checks that patch, applied to the old text,
// gives the new text: GNU patch when installed, else the strict applier of
// these tests.
func TestUnifiedDiffPatchRoundTrip(t *testing.T) {
	patch, err := exec.LookPath("patch")
	if err != nil {
		t.Logf("no patch program (%v); using the Go hunk applier", err)
		patch = ""
	}
	r := rand.New(rand.NewPCG(1, 2))
	dir := t.TempDir()
	for i := 0; i < 200; i++ {
		old := randomText(r, r.IntN(40))
		a := joinMaybeUnterminated(r, old)
		b := joinMaybeUnterminated(r, mutate(r, old))
		d := UnifiedDiff("a/f", "b/f", a, b)
		if (d == "") != (a == b) {
			t.Fatalf("case %d: diff %q for a==b %v", i, d, a == b)
		}
		if d == "" {
			continue
		}
		got, err := applyUnified(a, d)
		if err != nil || got != b {
			t.Fatalf("case %d: Go applier gave %q, %v; want %q\ndiff:\n%s", i, got, err, b, d)
		}
		if patch == "" {
			continue
		}
		oldFile, diffFile, outFile := filepath.Join(dir, "old"), filepath.Join(dir, "diff"), filepath.Join(dir, "out")
		os.WriteFile(oldFile, []byte(a), 0o644)
		os.WriteFile(diffFile, []byte(d), 0o644)
		os.Remove(outFile)
		// -F0: no fuzz; context must match exactly.
		cmd := exec.Command(patch, "-s", "-F0", "-N", "--no-backup-if-mismatch", "-o", outFile, oldFile, diffFile)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("case %d: patch: %v\n%s\nold %q\ndiff:\n%s", i, err, out, a, d)
		}
		if got := readFile(t, outFile); got != b {
			t.Fatalf("case %d: patch gave %q, want %q\ndiff:\n%s", i, got, b, d)
		}
	}
}

func FuzzUnifiedDiff(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n")
	f.Add("", "x")
	f.Add("x", "")
	f.Add("a\nb", "a\nb\n")
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "1\n2\nthree\n4\n5\n6\n7\n8\nnine\n10\n")
	f.Fuzz(func(t *testing.T, a, b string) {
		d := UnifiedDiff("a", "b", a, b)
		if a == b {
			if d != "" {
				t.Fatalf("diff of equal texts: %q", d)
			}
			return
		}
		got, err := applyUnified(a, d)
		if err != nil {
			t.Fatalf("applying: %v\ndiff:\n%s", err, d)
		}
		if got != b {
			t.Fatalf("applying gave %q, want %q\ndiff:\n%s", got, b, d)
		}
	})
}

// applyUnified applies a unified diff of one file to old, strictly: every
// context and deleted line must match, every hunk's counts must add up, and
// hunks must come in order. It is the stand-in for patch(1).
func applyUnified(old, diff string) (string, error) {
	lines := splitLines(diff)
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no ---/+++ header")
	}
	src := splitLines(old)
	var out []string
	pos := 0
	for i := 2; i < len(lines); {
		var a, b, c, d int
		if err := parseHunkHeader(lines[i], &a, &b, &c, &d); err != nil {
			return "", fmt.Errorf("line %d: %w", i+1, err)
		}
		i++
		start := a - 1
		if b == 0 {
			start = a
		}
		if start < pos || start > len(src) {
			return "", fmt.Errorf("hunk at old line %d out of order or range", a)
		}
		out = append(out, src[pos:start]...)
		pos = start
		if wantNew := len(out) + 1; (d > 0 && c != wantNew) || (d == 0 && c != wantNew-1) {
			return "", fmt.Errorf("hunk says new line %d, applier is at %d", c, wantNew)
		}
		oldN, newN := 0, 0
		for i < len(lines) && !strings.HasPrefix(lines[i], "@@") {
			l := lines[i]
			i++
			if !strings.HasSuffix(l, "\n") {
				return "", fmt.Errorf("diff line %q has no newline", l)
			}
			text := l[1:]
			if i < len(lines) && lines[i] == noNewline {
				text = strings.TrimSuffix(text, "\n")
				i++
			}
			switch l[0] {
			case ' ', '-':
				if pos >= len(src) || src[pos] != text {
					return "", fmt.Errorf("line %d of old is not %q", pos+1, text)
				}
				if l[0] == ' ' {
					out = append(out, text)
					newN++
				}
				pos++
				oldN++
			case '+':
				out = append(out, text)
				newN++
			default:
				return "", fmt.Errorf("bad diff line %q", l)
			}
		}
		if oldN != b || newN != d {
			return "", fmt.Errorf("hunk counts -%d +%d, found -%d +%d", b, d, oldN, newN)
		}
	}
	out = append(out, src[pos:]...)
	return strings.Join(out, ""), nil
}

func parseHunkHeader(l string, a, b, c, d *int) error {
	rest, ok := strings.CutPrefix(l, "@@ -")
	if !ok {
		return fmt.Errorf("not a hunk header: %q", l)
	}
	rest, ok = strings.CutSuffix(rest, " @@\n")
	if !ok {
		return fmt.Errorf("not a hunk header: %q", l)
	}
	oldR, newR, ok := strings.Cut(rest, " +")
	if !ok {
		return fmt.Errorf("not a hunk header: %q", l)
	}
	parse := func(r string, start, count *int) error {
		s, n, has := strings.Cut(r, ",")
		var err error
		if *start, err = strconv.Atoi(s); err != nil {
			return err
		}
		*count = 1
		if has {
			if *count, err = strconv.Atoi(n); err != nil {
				return err
			}
			if *count == 1 {
				return fmt.Errorf("count 1 written out in %q", l)
			}
		}
		return nil
	}
	if err := parse(oldR, a, b); err != nil {
		return err
	}
	return parse(newR, c, d)
}
