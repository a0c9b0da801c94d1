package skillmd

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/spec"
)

// LinkedFiles is the paths of [ReferencedFiles].
func LinkedFiles(instructions string) []string {
	refs := ReferencedFiles(instructions, "")
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Path
	}
	return out
}

func TestLinkedFiles(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"none", "# Title\n\nJust prose, json.loads and os.path.\n", nil},
		{"markdown link", "See [the reference](reference.md) and [forms](docs/forms.md).", []string{"docs/forms.md", "reference.md"}},
		{"image", "![diagram](img/flow.png)", []string{"img/flow.png"}},
		{"link without extension", "[license](LICENSE)", []string{"LICENSE"}},
		{"angle brackets and title", `[a](<docs/a.md> "A") [b](docs/b.md 'B')`, []string{"docs/a.md", "docs/b.md"}},
		{"a space in a bare destination is no link", "Open [the cast](tests/with spaces.cast) and [c](c.md (C)).", []string{"c.md"}},
		{"dot slash stripped", "[a](./docs/a.md) `./scripts/run.sh`", []string{"docs/a.md", "scripts/run.sh"}},
		{"fragment dropped", "[a](docs/a.md#usage)", []string{"docs/a.md"}},
		{"reference definition", "[ref]: docs/ref.md\n  [other]: <other.md>\n", []string{"docs/ref.md", "other.md"}},
		{"reference links", "See [the guide][g] and [notes].\n\n[g]: docs/guide.md\n[notes]: docs/notes.md\n", []string{"docs/guide.md", "docs/notes.md"}},
		{"inline code path", "Run `scripts/extract.py` on the file.", []string{"scripts/extract.py"}},
		{"inline code command", "Run `python scripts/extract.py --out=out/result.json input.pdf`.", []string{"out/result.json", "scripts/extract.py"}},
		{"inline code lone text file", "Read `REFERENCE.md` and `forms.json`, not `pd.DataFrame` or `v1.2`.", []string{"REFERENCE.md", "forms.json"}},
		{"double backtick span", "``scripts/a.py``", []string{"scripts/a.py"}},
		{"fenced code", "```bash\npython scripts/fill_form.py input.pdf\ncat notes.txt\n```\n", []string{"notes.txt", "scripts/fill_form.py"}},
		{"tilde fence", "~~~\nsh tools/x.sh\n~~~\n", []string{"tools/x.sh"}},
		// A link inside code is no link, but the path it names is
		// mentioned (see TestReferencedFiles).
		{"link inside code", "`[x](secret.md)`", []string{"secret.md"}},
		{"fenced code, punctuation around paths", "```\nSee `references/b.md`.\n[x](references/c.md)\nopen('assets/data.json')\n" +
			"cat \"notes/d.txt\"; run(scripts/e.py)\n```\n",
			[]string{"assets/data.json", "notes/d.txt", "references/b.md", "references/c.md", "scripts/e.py"}},
		{"footnotes are no links", "Text.[^1]\n\n[^1]: GitHub Blog\n[^note]: docs/x.md\n", []string{"docs/x.md"}},
		{"definition with a title", "[a]: docs/a.md \"A\"\n[b]: docs/b.md 'B'\n[c]: docs/c.md (C)\n[d]: Some words\n", []string{"docs/a.md", "docs/b.md", "docs/c.md"}},
		{"dedupe", "[a](a.md) [a again](./a.md) `a.md`", []string{"a.md"}},
		{"CRLF", "[a](a.md)\r\n`b/c.py`\r\n", []string{"a.md", "b/c.py"}},
		{"urls", "[w](https://example.com/x.md) [m](mailto:a@b.c) [p](//host/x.md) [c](C:/x.md) `https://e.com/a.py`", nil},
		{"anchors", "[top](#top) [q](a.md?raw=1)", nil},
		{"absolute", "[a](/etc/passwd) `/usr/bin/env.py` `~/x.md`", nil},
		{"dotdot", "[a](../other/SKILL.md) [b](docs/../../x.md) `../x.py` `scripts/../../x.py`", nil},
		{"dot segment", "[a](docs/./a.md)", nil},
		{"escaped", "[a](my%20file.md) [b](docs%2Fb.md)", []string{"docs/b.md"}},
		{"encoded dotdot", "[a](%2e%2e/x.md) [b](..%2Fx.md)", nil},
		{"skill md itself", "[self](SKILL.md) [s](./SKILL.md#x)", nil},
		{"backslash", `[a](docs\a.md) ` + "`docs\\b.py`", nil},
		{"non-ascii", "[a](données.md) `scripts/é.py`", nil},
		{"trailing punctuation in code", "`(scripts/a.py),`", []string{"scripts/a.py"}},
		{"flags", "`--config=conf/app.yaml`", []string{"conf/app.yaml"}},
		{"unclosed span", "a ` b [x](x.md)", []string{"x.md"}},
		{"prose paths", "For forms, see REFERENCE.md or read references/workflows.md. Built with Node.js, e.g. by hand.", []string{"REFERENCE.md", "references/workflows.md"}},
		{"prose punctuation", "(See **FORMS.md**), then docs/setup.txt: done!", []string{"FORMS.md", "docs/setup.txt"}},
		{"emphasis in and around paths", "Edit scripts/__init__.py, ***see FORMS.md*** and **_docs/x.md_**.", []string{"FORMS.md", "docs/x.md", "scripts/__init__.py"}},
		{"headings", "# See REFERENCE.md\n\nSetext forms.md\n===\n", []string{"REFERENCE.md", "forms.md"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := LinkedFiles(tc.in)
			if len(got) == 0 && len(tc.want) == 0 {
				return
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("LinkedFiles(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestIsBinaryPath(t *testing.T) {
	for p, want := range map[string]bool{"img/a.PNG": true, "fonts/x.woff2": true, "a.md": false, "LICENSE": false} {
		if got := IsBinaryPath(p); got != want {
			t.Errorf("IsBinaryPath(%q) = %t", p, got)
		}
	}
}

// FuzzLinkedFiles checks that every path found is one the files endpoint
// takes and that a writer accepts: nothing that could leave the folder.
func FuzzLinkedFiles(f *testing.F) {
	for _, s := range []string{"[a](a.md)", "`scripts/x.py`", "```\npython a/b.py\n```", "[x](../y.md)", "``a`b``", "~~~\n`x.md`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := strings.Count(strings.ReplaceAll(s, "\r\n", "\n"), "\n") + 1
		refs := FindReferences(s, "x")
		for _, r := range refs.Files {
			if spec.CheckFilePath(r.Path) != nil || IsBinaryPath(r.Path) || names.InGitDir(r.Path) {
				t.Errorf("FindReferences gave %q", r.Path)
			}
		}
		for _, r := range refs.Skipped {
			if r.Line < 1 || r.Line > lines || r.Reason == "" {
				t.Errorf("skipped %+v in %d lines", r, lines)
			}
		}
		got := LinkedFiles(s)
		for i, p := range got {
			if spec.CheckFilePath(p) != nil || p == FileName {
				t.Errorf("LinkedFiles gave %q", p)
			}
			if i > 0 && got[i-1] >= p {
				t.Errorf("not sorted and unique: %q", got)
			}
		}
	})
}

// TestReferencesAsCommonMark: instructions are read as CommonMark reads
// them, where splitting fences and code spans by hand misread them.
func TestReferencesAsCommonMark(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     []FileRef
	}{
		{"a code span ends with its paragraph", "A stray ` here.\n\nSee [the guide](guide.md).\n\nAnd ` there.\n",
			[]FileRef{{Path: "guide.md", Linked: true, Line: 3}}},
		{"a link text in code, after a stray backtick", "A stray ` here.\n\nSee [`c.md`](c.md) and `d.py`.\n",
			[]FileRef{{Path: "c.md", Linked: true, Line: 3}, {Path: "d.py", Line: 3}}},
		{"a fenced block in a block quote", "> ~~~\n> [x](quoted/code.md)\n> ~~~\n",
			[]FileRef{{Path: "quoted/code.md", Line: 2}}},
		{"an indented code block", "Intro:\n\n    [x](indented/code.md)\n",
			[]FileRef{{Path: "indented/code.md", Line: 3}}},
		{"definitions in a quote, a list, over lines", "> [q]: quoted/def.md\n\n- [l]: listed/def.md\n\n[m]:\n  multi/line.md\n",
			[]FileRef{{Path: "listed/def.md", Linked: true, Line: 3}, {Path: "multi/line.md", Linked: true, Line: 5}, {Path: "quoted/def.md", Linked: true, Line: 1}}},
		{"a definition does not interrupt a paragraph", "Text\n[p]: para/def.md\n",
			[]FileRef{{Path: "para/def.md", Line: 2}}},
		{"escaped brackets are no link", "Escaped \\[x](esc/a.md) and [y\\](z)](esc/b.md)\n",
			[]FileRef{{Path: "esc/b.md", Linked: true, Line: 1}}},
		{"HTML attributes", "<img src=\"img/x.png\" alt=\"x\"> and <a href=\"docs/a.md\">a</a>\n\n<div>\n<a href='docs/block.md'>b</a>\n</div>\n",
			[]FileRef{{Path: "docs/a.md", Line: 1}, {Path: "docs/block.md", Line: 4}, {Path: "img/x.png", Line: 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReferencedFiles(tc.in, ""); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReferencedFiles(%q) =\n%+v, want\n%+v", tc.in, got, tc.want)
			}
		})
	}
	// A placeholder written as a tag stays in its path; an attribute is
	// no part of one.
	in := "Open .autoloop/<slug>/CONTRACT.md and <img src=\"img/x.png\">.\n"
	want := []SkippedRef{
		{".autoloop/<slug>/CONTRACT.md", 1, `a path the files endpoint cannot address: path ".autoloop/<slug>/CONTRACT.md" may contain only letters, digits, '_', '-', '.' and '/' (found '<')`},
		{"img/x.png", 1, "a binary file, which the files endpoint does not serve"},
	}
	if got := FindReferences(in, "").Skipped; !reflect.DeepEqual(got, want) {
		t.Errorf("Skipped:\n%s\nwant:\n%s", fmtSkipped(got), fmtSkipped(want))
	}
}

// TestReferencesPastBounds: past the bounds within which the markdown is
// parsed, references are still found, and links stay links but in a
// line of more than maxLineBytes or past maxMarkdownBytes, where they are
// mentions.
func TestReferencesPastBounds(t *testing.T) {
	var long strings.Builder // one paragraph of many lines
	for i := 0; long.Len() <= 2*maxParagraphBytes; i++ {
		fmt.Fprintf(&long, "Read [part %d](docs/p%d.md) with `scripts/s%d.py`.\n", i, i, i)
	}
	lines := strings.Count(long.String(), "\n")
	got := ReferencedFiles(long.String(), "")
	if len(got) != 2*lines {
		t.Fatalf("%d references in %d lines, want %d", len(got), lines, 2*lines)
	}
	for _, r := range got {
		var n int
		if _, err := fmt.Sscanf(path.Base(r.Path)[1:], "%d", &n); err != nil || r.Line != n+1 || r.Linked != strings.HasPrefix(r.Path, "docs/") {
			t.Fatalf("%+v", r)
		}
	}

	deep := strings.Repeat("> ", 2*maxNesting) + "[x](deep.md)\n"
	longLine := "[l](long/line.md) " + strings.Repeat("word ", maxLineBytes/5) + "\n"
	past := strings.Repeat("Plain prose, with nothing to find in it.\n", maxMarkdownBytes/40)
	past += "[x](past/link.md) and `past/code.py`\n"
	for _, tc := range []struct {
		name, in string
		want     []FileRef
	}{
		{"nesting", deep, []FileRef{{Path: "deep.md", Linked: true, Line: 1}}},
		{"a long line", "Intro.\n" + longLine + "[s](short.md)\n",
			[]FileRef{{Path: "long/line.md", Line: 2}, {Path: "short.md", Linked: true, Line: 3}}},
		{"past maxMarkdownBytes", past,
			[]FileRef{{Path: "past/code.py", Line: maxMarkdownBytes/40 + 1}, {Path: "past/link.md", Line: maxMarkdownBytes/40 + 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ReferencedFiles(tc.in, ""); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ReferencedFiles = %+v, want %+v", got, tc.want)
			}
		})
	}
}

// TestReferencedFiles: links are told from mentions, and paths that may
// name the skill's own folder get the path relative to it as Alt.
func TestReferencedFiles(t *testing.T) {
	in := "Run `python .claude/skills/x-research/scripts/fetch.py` or `x-research/scripts/b.py`; see [the guide](guide.md) and notes.md.\n" +
		"Not a link: `[x](secret.md)`.\n"
	got := ReferencedFiles(in, "x-research")
	want := []FileRef{
		{Path: ".claude/skills/x-research/scripts/fetch.py", Alt: "scripts/fetch.py", Line: 1},
		{Path: "guide.md", Linked: true, Line: 1},
		{Path: "notes.md", Line: 1},
		{Path: "secret.md", Line: 2},
		{Path: "x-research/scripts/b.py", Alt: "scripts/b.py", Line: 1},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReferencedFiles = %+v, want %+v", got, want)
	}
}

// TestReferenceLine: a reference's line is that of its first link, for a
// file that is linked, else that of its first mention, wherever the
// scanner meets them first.
func TestReferenceLine(t *testing.T) {
	in := "Run `scripts/a.py`.\n" + // 1
		"See guide.md.\n" + // 2
		"Read [the guide](guide.md) and [a](scripts/a.py).\n" + // 3
		"[ref]: guide.md\n" + // 4
		"```\nnotes.md\n```\n" + // 5-7
		"Also notes.md, and [later](later.md).\n" + // 8
		"[later]: later.md\n" // 9, before which nothing links later.md
	got := ReferencedFiles(in, "")
	want := []FileRef{
		{Path: "guide.md", Linked: true, Line: 3},
		{Path: "later.md", Linked: true, Line: 8},
		{Path: "notes.md", Line: 6},
		{Path: "scripts/a.py", Linked: true, Line: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReferencedFiles = %+v, want %+v", got, want)
	}
}

// TestFindReferencesSkipped: every reference that is not read is listed,
// where it is written and why; URLs, anchors, footnotes and words that
// only hold a dot are no references.
func TestFindReferencesSkipped(t *testing.T) {
	in := "# Guide\n" + // 1
		"See [the spec](../other/SKILL.md), [raw](a.md?raw=1) and [notes](<my notes.md>).\n" + // 2
		"Logo: ![logo](img/logo.png). Site: [w](https://example.com/x.md), [top](#top).\n" + // 3
		"```bash\n" + // 4
		"python /usr/local/bin/tool.py ~/x.md ../up.py $DIR/run.sh ${SKILL_DIR}/lib/x.py {name}_notes.md tests/*_test.py scripts/é.py\n" + // 5
		"python scripts/ok.py src/app.py:42:8  # json.loads, os.path\n" + // 6
		"```\n" + // 7
		"Then `docs\\win.md` and `.git/hooks/pre-commit.sh`, and /etc/app.yaml.\n" + // 8
		"Again ../up.py.[^1]\n" + // 9
		"\n[^1]: GitHub Blog\n" // 11
	got := FindReferences(in, "")
	wantFiles := []FileRef{{Path: "scripts/ok.py", Line: 6}, {Path: "src/app.py", Line: 6}}
	if !reflect.DeepEqual(got.Files, wantFiles) {
		t.Errorf("Files = %+v, want %+v", got.Files, wantFiles)
	}
	want := []SkippedRef{
		{"../other/SKILL.md", 2, "a path that leaves the skill folder"},
		{"a.md?raw=1", 2, "a link with a query string, which names no file of the folder"},
		{"my notes.md", 2, `a path the files endpoint cannot address: path "my notes.md" may contain only letters, digits, '_', '-', '.' and '/' (found ' ')`},
		{"/usr/local/bin/tool.py", 5, "an absolute path, outside the skill folder"},
		{"~/x.md", 5, "a path in a home folder, outside the skill folder"},
		{"../up.py", 5, "a path that leaves the skill folder"},
		{"$DIR/run.sh", 5, "a path made from a variable, which pull cannot know"},
		{"${SKILL_DIR}/lib/x.py", 5, "a path made from a variable, which pull cannot know"},
		{"{name}_notes.md", 5, "a pattern or a placeholder, not the path of one file"},
		{"tests/*_test.py", 5, "a pattern or a placeholder, not the path of one file"},
		{"scripts/é.py", 5, `a path the files endpoint cannot address: path "scripts/é.py" may contain only letters, digits, '_', '-', '.' and '/' (found 'é')`},
		{`docs\win.md`, 8, "written with backslashes; paths of the skill folder are written with '/'"},
		{".git/hooks/pre-commit.sh", 8, "inside .git, which pull never writes"},
		{"/etc/app.yaml", 8, "an absolute path, outside the skill folder"},
		{"img/logo.png", 3, "a binary file, which the files endpoint does not serve"},
	}
	sort.SliceStable(want, func(i, j int) bool { return want[i].Line < want[j].Line })
	if !reflect.DeepEqual(got.Skipped, want) {
		t.Errorf("Skipped:\n%s\nwant:\n%s", fmtSkipped(got.Skipped), fmtSkipped(want))
	}
}

func fmtSkipped(s []SkippedRef) string {
	var b strings.Builder
	for _, r := range s {
		fmt.Fprintf(&b, "\t%d %q: %s\n", r.Line, r.Text, r.Reason)
	}
	return b.String()
}

// BenchmarkFindReferencesRealSkills finds the references of real skills'
// instructions: those of testdata/skillmd-roundtrip, and with
// SKILLSYNC_SKILLMD_CORPUS set (see the README there) every file under
// that folder whose name ends in SKILL.md.
func BenchmarkFindReferencesRealSkills(b *testing.B) {
	corpora := map[string][]string{}
	for name, data := range roundTripFiles(b) {
		sk, _ := Parse(name, data)
		corpora["testdata"] = append(corpora["testdata"], sk.Instructions)
	}
	if root := os.Getenv("SKILLSYNC_SKILLMD_CORPUS"); root != "" {
		err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, FileName) {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sk, _ := Parse(FileName, data)
			corpora["corpus"] = append(corpora["corpus"], sk.Instructions)
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	for _, name := range []string{"testdata", "corpus"} {
		texts := corpora[name]
		if len(texts) == 0 {
			continue
		}
		size := 0
		for _, s := range texts {
			size += len(s)
		}
		b.Run(fmt.Sprintf("%s/skills=%d", name, len(texts)), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, s := range texts {
					FindReferences(s, "my-skill")
				}
			}
		})
	}
}

// BenchmarkReferencedFiles finds the references of a 5 KB body of prose,
// code and links, as validate (lint) and pull do for every skill.
func BenchmarkReferencedFiles(b *testing.B) {
	var s strings.Builder
	for i := range 20 {
		fmt.Fprintf(&s, "Follow the steps below carefully, as step %d of the guide says. See [the guide](references/guide-%d.md).\n", i, i)
		fmt.Fprintf(&s, "Run `python scripts/step_%d.py --input data.json` and check the output.\n", i)
		if i%5 == 0 {
			s.WriteString("```bash\npython scripts/run.py https://example.com/x.md ../up.py ${DIR}/x.py\n```\n")
		}
	}
	text := s.String()
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		ReferencedFiles(text, "my-skill")
	}
}
