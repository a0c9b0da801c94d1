package skillmd

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/spec"
)

// roundTripFiles are the SKILL.md files of testdata/skillmd-roundtrip:
// real ones from public skill collections (see the README there) and our
// own, one for each way of writing a frontmatter.
func roundTripFiles(t testing.TB) map[string][]byte {
	t.Helper()
	paths, err := filepath.Glob("testdata/skillmd-roundtrip/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, p := range paths {
		if filepath.Base(p) == "README.md" {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(p)] = data
	}
	if len(files) < 12 {
		t.Fatalf("only %d files in testdata/skillmd-roundtrip", len(files))
	}
	return files
}

// rewrittenLayouts are the files whose frontmatter cannot be edited line
// by line: it is written afresh when a field of it changes.
var rewrittenLayouts = map[string]bool{"own-flow-mapping.md": true}

// TestMergeChangesOnlyWhatChanged: pulling a change to one field
// of a skill changes the bytes of that field alone. Every other byte of
// the file stays: a byte-order mark, CRLF, comments, the order of the
// keys, the style of the values that did not change, the blank lines
// after the closing "---"; and the file reads back as the new values.
func TestMergeChangesOnlyWhatChanged(t *testing.T) {
	for name, local := range roundTripFiles(t) {
		have, ds := Parse(FileName, local)
		if ds.HasErrors() {
			t.Fatalf("%s: %v", name, ds)
		}
		for _, c := range []struct {
			change string
			key    string // the entry that changes; "" for the body
			want   *Document
		}{
			{"instructions", "", with(have, func(s *Document) { s.Instructions = "# Changed\n\nNew steps,\nover lines.\n" })},
			{"description", KeyDescription, with(have, func(s *Document) {
				s.Description = "A new description, which says what the skill does and when to use it."
			})},
			{"description needing quotes", KeyDescription, with(have, func(s *Document) { s.Description = "Use when: always #1" })},
			{"description over lines", KeyDescription, with(have, func(s *Document) { s.Description = "Line one.\nLine two, longer." })},
			{"name", KeyName, with(have, func(s *Document) { s.Name = "Renamed Skill 2" })},
			{"enabled", KeyEnabled, with(have, func(s *Document) { s.Enabled = !s.Enabled })},
		} {
			next := Format(c.want.Name, c.want.Description, c.want.Enabled, c.want.Instructions)
			out := Merge(local, next)
			where := name + ", " + c.change
			checkReadsBack(t, where, out, have, c.want)
			checkStyleKept(t, where, local, out)
			if again := Merge(out, next); !bytes.Equal(again, out) {
				t.Errorf("%s: merging again changed\n%s\ninto\n%s", where, out, again)
			}
			if c.key == "" {
				checkOnlyBodyChanged(t, where, local, out)
				continue
			}
			if rewrittenLayouts[name] {
				continue
			}
			checkOnlyEntryChanged(t, where, local, out, c.key)
			if c.change == "description" || c.change == "name" {
				checkSameStyle(t, where, local, out, c.key)
			}
		}

		// All at once: still the file's own bytes where they can be.
		want := with(have, func(s *Document) {
			s.Name, s.Description, s.Enabled, s.Instructions = "Everything Changed", "All new.", !s.Enabled, "All new.\n"
		})
		out := Merge(local, Format(want.Name, want.Description, want.Enabled, want.Instructions))
		checkReadsBack(t, name+", everything", out, have, want)
		if !rewrittenLayouts[name] {
			for _, l := range frontmatterLines(local) {
				if strings.HasPrefix(strings.TrimSpace(l), "#") && !bytes.Contains(out, []byte(l)) {
					t.Errorf("%s, everything: comment %q lost:\n%s", name, l, out)
				}
			}
		}
		checkStyleKept(t, name+", everything", local, out)
	}
}

func with(s *Document, f func(*Document)) *Document {
	c := *s
	f(&c)
	return &c
}

func checkReadsBack(t *testing.T, where string, out []byte, have, want *Document) {
	t.Helper()
	got, ds := Parse(FileName, out)
	if d := spec.Differ(got.Fields(), want.Fields()); len(d) > 0 || ds.HasErrors() || !sameExtra(got.Extra, have.Extra) {
		t.Errorf("%s: merged file reads back differing in %v, extra %v (want %v), diagnostics %v:\n%s",
			where, d, got.Extra, have.Extra, ds, out)
	}
}

// checkStyleKept: a byte-order mark stays, and so do CRLF line endings.
func checkStyleKept(t *testing.T, where string, local, out []byte) {
	t.Helper()
	if bytes.HasPrefix(local, []byte(bom)) != bytes.HasPrefix(out, []byte(bom)) {
		t.Errorf("%s: byte-order mark not kept", where)
	}
	if crlf := bytes.Count(local, []byte("\r\n")); crlf > 0 && crlf == bytes.Count(local, []byte("\n")) &&
		bytes.Count(out, []byte("\r\n")) != bytes.Count(out, []byte("\n")) {
		t.Errorf("%s: a CRLF file has LF lines now:\n%q", where, out)
	}
}

// frontmatterEnd is the length of data up to and with its closing "---"
// line.
func frontmatterEnd(t *testing.T, data []byte) int {
	fm := frontmatter.Parse(normalizeSkillMD(data))
	if fm.State != frontmatter.Found {
		t.Fatalf("no frontmatter in\n%s", data)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	n := 0
	for _, l := range lines[:fm.BodyLine-1] {
		n += len(l)
	}
	return n
}

func frontmatterLines(data []byte) []string {
	var out []string
	for i, l := range strings.SplitAfter(string(data), "\n") {
		if i > 0 && strings.TrimSpace(l) == "---" {
			break
		}
		out = append(out, l)
	}
	return out
}

// checkOnlyBodyChanged: the frontmatter stays byte for byte, and so do
// the blank lines after it and the body's line endings.
func checkOnlyBodyChanged(t *testing.T, where string, local, out []byte) {
	t.Helper()
	end := frontmatterEnd(t, local)
	if !bytes.HasPrefix(out, local[:end]) {
		t.Errorf("%s: the frontmatter changed:\n%q\nbecame\n%q", where, local[:end], out[:min(len(out), end+40)])
		return
	}
	lb, ob := local[end:], out[end:]
	blank := regexp.MustCompile(`^([ \t]*\r?\n)*`)
	if l, o := blank.Find(lb), blank.Find(ob); !bytes.Equal(l, o) {
		t.Errorf("%s: blank lines after the frontmatter %q became %q", where, l, o)
	}
	if crlf := bytes.Count(lb, []byte("\r\n")); crlf > 0 && crlf == bytes.Count(lb, []byte("\n")) &&
		bytes.Count(ob, []byte("\r\n")) != bytes.Count(ob, []byte("\n")) {
		t.Errorf("%s: a CRLF body has LF lines now:\n%q", where, ob)
	}
}

// entryLines is the range of lines [start, end) of the entry of key in
// the frontmatter of lines: its key line and the lines indented under it,
// as a reader would see it; (-1, -1) when there is none.
func entryLines(lines []string, key string) (int, int) {
	for i := 1; i < len(lines) && strings.TrimSpace(lines[i]) != "---"; i++ {
		if !regexp.MustCompile(`^` + regexp.QuoteMeta(key) + `\s*:`).MatchString(lines[i]) {
			continue
		}
		end := i + 1
		for end < len(lines) && (lines[end] == "" || lines[end][0] == ' ' || strings.TrimSpace(lines[end]) == "") &&
			strings.TrimSpace(lines[end]) != "---" {
			end++
		}
		for end-1 > i && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		return i, end
	}
	return -1, -1
}

// checkOnlyEntryChanged: the lines of out and local differ only within
// the entry of key (or, where local has none, by lines added to the
// frontmatter), and the new lines end as the file's lines do.
func checkOnlyEntryChanged(t *testing.T, where string, local, out []byte, key string) {
	t.Helper()
	ll := strings.SplitAfter(string(local), "\n")
	ol := strings.SplitAfter(string(out), "\n")
	p := 0
	for p < len(ll) && p < len(ol) && ll[p] == ol[p] {
		p++
	}
	q := 0
	for q < len(ll)-p && q < len(ol)-p && ll[len(ll)-1-q] == ol[len(ol)-1-q] {
		q++
	}
	changed := ll[p : len(ll)-q]
	added := ol[p : len(ol)-q]
	start, end := entryLines(ll, key)
	switch {
	case len(changed) == 0 && len(added) == 0:
		t.Errorf("%s: nothing changed", where)
	case start < 0 && len(changed) > 0:
		t.Errorf("%s: lines %q changed, where no %s entry was", where, changed, key)
	case start >= 0 && (p < start || len(ll)-q > end):
		t.Errorf("%s: lines %d to %d changed, outside the %s entry (lines %d to %d):\n%q\nbecame\n%q",
			where, p+1, len(ll)-q, key, start+1, end, changed, added)
	}
	eol := "\n"
	if strings.HasSuffix(ll[1], "\r\n") {
		eol = "\r\n"
	}
	for _, l := range added {
		if !strings.HasSuffix(l, eol) || strings.TrimSuffix(l, eol) != strings.TrimRight(l, "\r\n") {
			t.Errorf("%s: new line %q does not end in %q as the file's lines do", where, l, eol)
		}
	}
}

// checkSameStyle: a value the old style can hold keeps that style; a
// "|" block holds only text of several lines, and one line is written as
// FormatSkillMD writes it.
func checkSameStyle(t *testing.T, where string, local, out []byte, key string) {
	t.Helper()
	styleOf := func(data []byte) string {
		lines := strings.SplitAfter(string(data), "\n")
		i, end := entryLines(lines, key)
		if i < 0 {
			return "none"
		}
		v := strings.TrimSpace(lines[i][strings.Index(lines[i], ":")+1:])
		switch {
		case v == "" && end > i+1:
			return "plain, below the key" // the lines below: plain or quoted
		case v == "":
			return "empty"
		case strings.ContainsRune(`"'|>`, rune(v[0])):
			return v[:1]
		}
		return "plain"
	}
	a, b := styleOf(local), styleOf(out)
	if a == "|" {
		a = "plain"
	}
	if a != b {
		t.Errorf("%s: %s was written %s and is written %s now:\n%s", where, key, a, b, out)
	}
}

// FuzzMerge: whatever the SKILL.md there, the merged file says
// what the space says, and says it again when merged again.
func FuzzMerge(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/skillmd-roundtrip/*.md")
	more, _ := filepath.Glob("../../testdata/skillmd/*/skills/*/SKILL.md")
	for i, s := range append(seeds, more...) {
		if data, err := os.ReadFile(s); err == nil && len(data) < 8192 {
			f.Add(data, skillMDCases[i%len(skillMDCases)], skillMDCases[(i+3)%len(skillMDCases)], i%2 == 0,
				instructionCases[i%len(instructionCases)])
		}
	}
	f.Fuzz(func(t *testing.T, local []byte, name, description string, enabled bool, instructions string) {
		next := Format(name, description, enabled, instructions)
		want, _ := Parse(FileName, next)
		out := Merge(local, next)
		got, _ := Parse(FileName, out)
		if !sameSkill(got, want) {
			t.Fatalf("merged\n%q\nwith\n%q\ninto\n%q\nwhich differs in %v", local, next, out, spec.Differ(got.Fields(), want.Fields()))
		}
		if again := Merge(out, next); !bytes.Equal(again, out) {
			if _, ds := Parse(FileName, out); !ds.HasErrors() {
				t.Errorf("merging again changed\n%q\ninto\n%q", out, again)
			}
		}
	})
}

// TestMergeCorpus runs the checks of
// TestMergeChangesOnlyWhatChanged over every file whose name ends
// in SKILL.md under the folder SKILLSYNC_SKILLMD_CORPUS names, such as
// checkouts of public skill collections (see
// testdata/skillmd-roundtrip/README.md); it is skipped when the variable
// is not set. Files with errors are left out.
func TestMergeCorpus(t *testing.T) {
	root := os.Getenv("SKILLSYNC_SKILLMD_CORPUS")
	if root == "" {
		t.Skip("SKILLSYNC_SKILLMD_CORPUS is not set")
	}
	var n, invalid int
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, FileName) {
			return err
		}
		local, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		have, ds := Parse(FileName, local)
		if ds.HasErrors() || frontmatter.Parse(normalizeSkillMD(local)).State != frontmatter.Found {
			invalid++
			return nil
		}
		n++
		for _, c := range []struct {
			key  string
			want *Document
		}{
			{"", with(have, func(s *Document) { s.Instructions += "\nOne more line.\n" })},
			{KeyDescription, with(have, func(s *Document) { s.Description = "A changed description, saying when to use it." })},
			{KeyName, with(have, func(s *Document) { s.Name = "Renamed Skill" })},
			{KeyEnabled, with(have, func(s *Document) { s.Enabled = !s.Enabled })},
		} {
			where := p + ", " + c.key
			out := Merge(local, Format(c.want.Name, c.want.Description, c.want.Enabled, c.want.Instructions))
			checkReadsBack(t, where, out, have, c.want)
			checkStyleKept(t, where, local, out)
			if c.key == "" {
				checkOnlyBodyChanged(t, where, local, out)
			} else {
				checkOnlyEntryChanged(t, where, local, out, c.key)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d SKILL.md files merged with one field changed at a time (%d with errors left out)", n, invalid)
}
