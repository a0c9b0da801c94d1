package diff

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/sergi/go-diff/diffmatchpatch"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/plans")

// goldenDir holds the golden outputs of this package's tests.
const goldenDir = "../../testdata/plans"

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
		t.Fatalf("%v (run go test ./reconcile/... -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./reconcile/... -update if the change is intended):\n%s",
			name, Unified("want", "got", string(want), string(got)))
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
			d := Unified("a/SKILL.md", "b/SKILL.md", a, b)
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
		if d := Unified("a", "b", s, s); d != "" {
			t.Errorf("Unified(%q, %q) = %q, want empty", s, s, d)
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
// these tests. Every other diff is made past the cap, its lines replaced.
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
		d := unifiedDiff("a/f", "b/f", a, b, []int{maxDiffWork, 0}[i%2])
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
		d := Unified("a", "b", a, b)
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
	lines := Lines(diff)
	if len(lines) < 3 || !strings.HasPrefix(lines[0], "--- ") || !strings.HasPrefix(lines[1], "+++ ") {
		return "", fmt.Errorf("no ---/+++ header")
	}
	src := Lines(old)
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
	// After " @@" may come a section, as diff -p writes a function's name.
	rest, section, ok := strings.Cut(rest, " @@")
	if !ok || (section != "\n" && !strings.HasPrefix(section, " ")) || !strings.HasSuffix(section, "\n") {
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

// goDiffUnified is Unified with no cap: go-diff on the whole texts, and
// each hunk's line numbers counted from the start. It stands for "unchanged"
// in TestUnifiedDiffIsGoDiff.
func goDiffUnified(oldName, newName, a, b string) string {
	if a == b {
		return ""
	}
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	var ops, ins []lineOp
	for _, d := range dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines) {
		for _, l := range Lines(d.Text) {
			switch d.Type {
			case diffmatchpatch.DiffEqual:
				ops, ins = append(append(ops, ins...), lineOp{' ', l}), ins[:0]
			case diffmatchpatch.DiffDelete:
				ops = append(ops, lineOp{'-', l})
			case diffmatchpatch.DiffInsert:
				ins = append(ins, lineOp{'+', l})
			}
		}
	}
	ops = append(ops, ins...)
	var sb strings.Builder
	fmt.Fprintf(&sb, "--- %s\n+++ %s\n", oldName, newName)
	for _, h := range hunks(ops) {
		count := func(ops []lineOp, not byte) int {
			n := 0
			for _, op := range ops {
				if op.kind != not {
					n++
				}
			}
			return n
		}
		hunkRange := func(start, count int) string {
			switch count {
			case 0:
				return fmt.Sprintf("%d,0", start-1)
			case 1:
				return fmt.Sprintf("%d", start)
			}
			return fmt.Sprintf("%d,%d", start, count)
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n",
			hunkRange(1+count(ops[:h.start], '+'), count(ops[h.start:h.end], '+')),
			hunkRange(1+count(ops[:h.start], '-'), count(ops[h.start:h.end], '-')))
		for _, op := range ops[h.start:h.end] {
			sb.WriteString(string(op.kind) + op.line)
			if !strings.HasSuffix(op.line, "\n") {
				sb.WriteString("\n" + noNewline)
			}
		}
	}
	return sb.String()
}

// TestUnifiedDiffIsGoDiff checks that a diff under the cap is go-diff's,
// byte for byte: random texts, the golden vectors, 50,000 characters of
// prose edited, moved and rewritten, and the other large pairs not replaced.
func TestUnifiedDiffIsGoDiff(t *testing.T) {
	var pairs [][2]string
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		old := randomText(r, r.IntN(60))
		pairs = append(pairs, [2]string{joinMaybeUnterminated(r, old), joinMaybeUnterminated(r, mutate(r, old))})
	}
	olds, _ := filepath.Glob(filepath.Join(goldenDir, "diff", "*.old"))
	for _, p := range olds {
		pairs = append(pairs, [2]string{readFile(t, p), readFile(t, strings.TrimSuffix(p, ".old")+".new")})
	}
	for _, c := range diffCases() {
		if _, replaced := replacedNote(Unified("a", "b", c.a, c.b)); !replaced || strings.HasPrefix(c.name, "prose-") {
			pairs = append(pairs, [2]string{c.a, c.b})
		}
	}
	for i, p := range pairs {
		if got, want := Unified("a", "b", p[0], p[1]), goDiffUnified("a", "b", p[0], p[1]); got != want {
			t.Fatalf("pair %d: diff differs from go-diff's:\n%s", i, Unified("go-diff", "got", want, got))
		}
	}
}

// diffPair makes a pair of texts of one of the kinds that make diffs slow
// or ambiguous, about n lines long.
func diffPair(r *rand.Rand, n int) (kind string, a, b []string) {
	distinct := func(prefix string, n int) []string {
		lines := make([]string, n)
		for i := range lines {
			lines[i] = prefix + strconv.Itoa(i) + "\n"
		}
		return lines
	}
	alphabet := func(k, n int) []string {
		lines := make([]string, n)
		for i := range lines {
			lines[i] = strings.Repeat("x", r.IntN(k)) + "\n"
		}
		return lines
	}
	shuffleBlocks := func(lines []string) []string {
		var blocks [][]string
		for len(lines) > 0 {
			k := min(len(lines), 1+r.IntN(8))
			blocks, lines = append(blocks, lines[:k]), lines[k:]
		}
		r.Shuffle(len(blocks), func(i, j int) { blocks[i], blocks[j] = blocks[j], blocks[i] })
		var out []string
		for _, b := range blocks {
			out = append(out, b...)
		}
		return out
	}
	switch k := r.IntN(8); k {
	case 0:
		a = repeat("- item\n", 7*n)
		return "repeated", a, mutate(r, a)
	case 1:
		a = repeat("\n", n)
		return "blank", a, alphabet(2, n)
	case 2:
		a = repeat("- item\n", 7*n)
		b = append([]string(nil), a...)
		b[r.IntN(len(b))] = "- other\n"
		return "one change in repeats", a, b
	case 3:
		a = distinct("a", n)
		return "shuffled blocks", a, shuffleBlocks(a)
	case 4:
		return "all different", distinct("a", n), distinct("b", r.IntN(n+1))
	case 5:
		return "small alphabet", alphabet(3, n), alphabet(3, r.IntN(n+1))
	case 6:
		a = append(distinct("a", n/2), alphabet(2, n/2)...)
		return "shuffled mixed blocks", a, shuffleBlocks(mutate(r, a))
	default:
		a = randomText(r, n)
		return "random", a, mutate(r, a)
	}
}

// checkDiff checks that d, the diff of a and b, turns a into b
// with right hunk headers, and lists deletions before insertions.
func checkDiff(t *testing.T, what string, a, b, d string) {
	t.Helper()
	if (d == "") != (a == b) {
		t.Fatalf("%s: diff %q for a==b %v", what, d, a == b)
	}
	if d == "" {
		return
	}
	got, err := applyUnified(a, d)
	if err != nil || got != b {
		t.Fatalf("%s: applying the diff gave %q, %v; want %q\ndiff:\n%s", what, got, err, b, d)
	}
	inserted := false // in this run of changed lines
	for _, l := range Lines(d)[2:] {
		switch l[0] {
		case '+':
			inserted = true
		case '-':
			if inserted {
				t.Fatalf("%s: deletion %q after an insertion in\n%s", what, l, d)
			}
		case ' ', '@':
			inserted = false
		}
	}
}

// changedLines counts the deleted and inserted lines of a unified diff.
func changedLines(d string) int {
	n := 0
	if d == "" {
		return 0
	}
	for _, l := range Lines(d)[2:] {
		if l[0] == '-' || l[0] == '+' {
			n++
		}
	}
	return n
}

// editDistance is the number of lines the shortest diff of a and b
// deletes and inserts: len(a)+len(b)-2*LCS, by dynamic programming.
func editDistance(a, b []string) int {
	lcs := make([]int, len(b)+1)
	for i := range a {
		prev := 0 // lcs[i][j] before this row overwrote it
		for j := range b {
			cur := lcs[j+1]
			if a[i] == b[j] {
				lcs[j+1] = prev + 1
			} else {
				lcs[j+1] = max(lcs[j+1], lcs[j])
			}
			prev = cur
		}
	}
	return len(a) + len(b) - 2*lcs[len(b)]
}

// TestUnifiedDiffLarge checks the diffs of the 50,000-character pairs of
// BenchmarkUnifiedDiff: each turns a into b, and a few lines changed in
// 50,000 repeated or blank ones give a diff of those lines, not a rewrite.
func TestUnifiedDiffLarge(t *testing.T) {
	for _, c := range diffCases() {
		d := Unified("a", "b", c.a, c.b)
		checkDiff(t, c.name, c.a, c.b, d)
		if strings.HasSuffix(c.name, "few-changes") {
			// editLines made 5 changes of at most a line each way.
			if n := changedLines(d); n > 10 {
				t.Errorf("%s: %d lines changed, want at most 10", c.name, n)
			}
		}
	}
	for _, line := range []string{"\n", "- item\n"} {
		a := repeat(line, benchDiffSize)
		b := append([]string(nil), a...)
		b[len(b)/3] = "changed\n"
		d := Unified("a", "b", strings.Join(a, ""), strings.Join(b, ""))
		want := fmt.Sprintf("--- a\n+++ b\n@@ -%d,7 +%d,7 @@\n", len(b)/3-2, len(b)/3-2) +
			strings.Repeat(" "+line, 3) + "-" + line + "+changed\n" + strings.Repeat(" "+line, 3)
		if d != want {
			t.Errorf("one line changed in %d of %q: got\n%s\nwant\n%s", len(a), line, d, want)
		}
	}
}

// diffWorkCases are caps that take every way through diffLines: go-diff
// always, never (every change replaced), and caps met early or late.
var diffWorkCases = []int{maxDiffWork, math.MaxInt, 0, 40, 400, 4000}

// TestUnifiedDiffUnderAnyCap checks that under any cap the diff of
// adversarial pairs turns a into b, with right line numbers; that it is
// go-diff's, the shortest, exactly when (n+m)*d is within the cap; and that
// a replacement says how many lines it replaces.
func TestUnifiedDiffUnderAnyCap(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 1000 {
		kind, al, bl := diffPair(r, 1+r.IntN(120))
		a, b := joinMaybeUnterminated(r, al), joinMaybeUnterminated(r, bl)
		la, lb := Lines(a), Lines(b)
		n, m := changedMiddle(la, lb)
		shortest := editDistance(la, lb)
		for _, work := range diffWorkCases {
			what := fmt.Sprintf("case %d (%s, %d and %d lines, %d changed, cap %d)", i, kind, n, m, shortest, work)
			d := unifiedDiff("a", "b", a, b, work)
			checkDiff(t, what, a, b, d)
			note, replaced := replacedNote(d)
			if want := n > 0 && m > 0 && (n+m)*shortest > work; replaced != want {
				t.Fatalf("%s: lines replaced %v, want %v\n%s", what, replaced, want, d)
			}
			if replaced {
				word := "lines"
				if n == 1 {
					word = "line"
				}
				if want := fmt.Sprintf("%d %s replaced by %d", n, word, m); !strings.HasPrefix(note, want) {
					t.Fatalf("%s: the hunk header says %q, want %q", what, note, want)
				}
			} else if got := changedLines(d); got != shortest {
				t.Fatalf("%s: %d lines changed, the shortest diff changes %d\n%s", what, got, shortest, d)
			}
		}
	}
}

// changedMiddle returns how many lines of a and of b lie between the lines
// they share at their start and those they share at their end.
func changedMiddle(a, b []string) (n, m int) {
	pre, suf := CommonEnds(a, b)
	return len(a) - pre - suf, len(b) - pre - suf
}

// replacedNote returns what the first hunk header of d says after "@@",
// and whether it says anything: only a diff that replaces lines does.
func replacedNote(d string) (string, bool) {
	_, header, ok := strings.Cut(d, "\n@@ -")
	if !ok {
		return "", false
	}
	header, _, _ = strings.Cut(header, "\n")
	_, note, _ := strings.Cut(header, " @@")
	return strings.TrimPrefix(note, " "), note != ""
}

// TestUnifiedDiffCostIsCapped checks the work of go-diff against the cap
// on the costliest pairs of 50,000 characters there are: Myers' algorithm
// takes (n+m)*d steps, d lines deleted and inserted among n+m lines, and
// even for the middle snake of a pair with nothing in common (n+m)^2/4. A
// pair costing more has its lines replaced; go-diff never sees it.
func TestUnifiedDiffCostIsCapped(t *testing.T) {
	replaced := 0
	for _, c := range diffCases() {
		d := Unified("a", "b", c.a, c.b)
		n, m := changedMiddle(Lines(c.a), Lines(c.b))
		if _, ok := replacedNote(d); ok {
			replaced++
			continue
		}
		if n == 0 || m == 0 {
			continue // go-diff inserts or deletes them whole
		}
		if work := (n + m) * changedLines(d); work > maxDiffWork {
			t.Errorf("%s: go-diff's diff of %d and %d lines changes %d lines: %d steps of work, over the cap of %d",
				c.name, n, m, changedLines(d), work, maxDiffWork)
		}
	}
	if replaced == 0 {
		t.Errorf("no pair replaced: the cases do not reach the cap")
	}
}

// TestUnifiedDiffReplaced checks a diff past the cap: the lines from the
// first change to the last are replaced, and the hunk header says how many.
func TestUnifiedDiffReplaced(t *testing.T) {
	a := "title\n\none\ntwo\nthree\nfour\n\nend\n"
	b := "title\n\nuno\ndos\n\nend\n"
	want := "--- a\n+++ b\n@@ -1,8 +1,6 @@ 4 lines replaced by 2 (too large to diff line by line)\n" +
		" title\n \n-one\n-two\n-three\n-four\n+uno\n+dos\n \n end\n"
	if got := unifiedDiff("a", "b", a, b, 0); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Past the cap of Unified: 25,000 lines against 25,000 others.
	c := diffCases()
	i := slices.IndexFunc(c, func(c diffCase) bool { return c.name == "letters-vs-others" })
	d := Unified("a", "b", c[i].a, c[i].b)
	const header = "--- a\n+++ b\n@@ -1,25000 +1,25000 @@ 25000 lines replaced by 25000 (too large to diff line by line)\n"
	if !strings.HasPrefix(d, header) {
		t.Errorf("got\n%.300s\nwant it to start with\n%s", d, header)
	}
}

func FuzzUnifiedDiffCap(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", uint32(0))
	f.Add("x\nx\nx\ny\nx\n", "x\ny\nx\nx\nx\nx\n", uint32(100))
	f.Add("1\n2\n3\n4\n", "4\n3\n2\n1\n", uint32(50))
	f.Add("\n\n\n\n", "x\n\nx\n\n", uint32(1<<20))
	f.Fuzz(func(t *testing.T, a, b string, work uint32) {
		checkDiff(t, fmt.Sprintf("cap %d", work), a, b, unifiedDiff("a", "b", a, b, int(work)))
	})
}

// TestShortestEdit checks Myers' greedy search against the lines changed
// by a longest common subsequence, and that it gives up past maxD.
func TestShortestEdit(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 2000 {
		_, al, bl := diffPair(r, 1+r.IntN(40))
		ids := map[string]rune{}
		runes := func(lines []string) []rune {
			rs := make([]rune, len(lines))
			for i, l := range lines {
				if _, ok := ids[l]; !ok {
					ids[l] = rune(len(ids))
				}
				rs[i] = ids[l]
			}
			return rs
		}
		x, y := runes(al), runes(bl)
		want := editDistance(al, bl)
		if got := shortestEdit(x, y, len(x)+len(y)); got != want {
			t.Fatalf("case %d: shortestEdit(%v, %v) = %d, want %d", i, x, y, got, want)
		}
		if want > 0 {
			if got := shortestEdit(x, y, want-1); got != -1 {
				t.Fatalf("case %d: shortestEdit(%v, %v, %d) = %d, want -1", i, x, y, want-1, got)
			}
		}
	}
}

// TestUnifiedDiffManyLines checks the diff of one line changed among as
// many lines as go-diff is given, and among more: go-diff's diff, then the
// line replaced, with the same hunk.
func TestUnifiedDiffManyLines(t *testing.T) {
	for _, n := range []int{maxDiffLines/2 - 1, maxDiffLines / 2} {
		a := make([]string, n)
		for i := range a {
			a[i] = strconv.Itoa(i) + "\n"
		}
		b := slices.Clone(a)
		b[n/2] = "changed\n"
		d := Unified("a", "b", strings.Join(a, ""), strings.Join(b, ""))
		header := fmt.Sprintf("@@ -%d,7 +%d,7 @@", n/2-2, n/2-2)
		// Texts of n lines, all ending in a newline, count as n+1 for go-diff.
		if 2*(n+1) > maxDiffLines {
			header += " 1 line replaced by 1 (too large to diff line by line)"
		}
		want := "--- a\n+++ b\n" + header + "\n" + " " + strings.Join(a[n/2-3:n/2], " ") +
			"-" + a[n/2] + "+changed\n" + " " + strings.Join(a[n/2+1:n/2+4], " ")
		if d != want {
			t.Errorf("%d lines: got\n%s\nwant\n%s", 2*n, d, want)
		}
	}
}

// TestScriptWritesTheDiff: a diff kept as its script is written out as
// Unified gives it.
func TestScriptWritesTheDiff(t *testing.T) {
	cases := diffCases()
	r := rand.New(rand.NewPCG(15, 5))
	for i := range 200 {
		a := randomText(r, r.IntN(40))
		cases = append(cases, diffCase{fmt.Sprintf("random-%d", i), joinMaybeUnterminated(r, a), joinMaybeUnterminated(r, mutate(r, a))})
	}
	for _, c := range cases {
		s, text := NewScript("old", "new", c.a, c.b)
		want := Unified("old", "new", c.a, c.b)
		if text != want || s.Text() != want {
			t.Errorf("%s: the script's diff differs from Unified's", c.name)
		}
	}
}
