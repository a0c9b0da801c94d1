package skillmd

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/spec"
)

// skillMDCases are texts that YAML and frontmatter make hard to round-trip.
var skillMDCases = []string{
	"PDF Processing", "a", "Café crème 日本語 🎉", "true", "no", "null", "~", "123", "0x1F", "1e3", ".inf",
	"2024-01-01", "- item", "# heading", "a: b", "a #b", "a:b", "key: value # c", "'single'", `"double"`,
	`back\slash`, "|", "> folded", "@at", "`tick`", "%percent", "!tag", "*alias", "&anchor", "{a: 1}", "[a, b]",
	"?", "-", "---", "...", "--- x", " leading", "trailing ", "  ", "\ttab", "a\tb",
	"line one\nline two", "two\n\nparagraphs", "ends with newline\n", "\nstarts with newline", "  indented\nblock",
	"has\n---\ndelimiter", "has\n  ---  \ndelimiter", "crlf\r\nline", "lone\rcr", "nel\u0085x", "sep\u2028x", "bom\uFEFFx",
	"nul\x00x", "del\x7fx", "bell\ax", "esc\x1bx", "private\uE000x", "\uFFFD", "invalid \xff utf8", "surrogate-ish \xed\xa0\x80",
	strings.Repeat("long words wrap at eighty columns ", 30) + "---",
	strings.Repeat("x", 1024),
}

var instructionCases = []string{
	"", "# Title\n\nBody.\n", "no final newline", "---\nname: fake\n---\nbody after a fake frontmatter\n",
	"text\n---\nmore\n---\n", "\n\n\nleading blank lines\n", "   indented code first\n", "trailing spaces   \n\n\n",
	"crlf\r\nlines\r\n", "\uFEFFbom first\n", "non-ASCII é 日本語 🎉\n", "lone\rcr\n", "invalid \xff\n", "nul \x00 byte\n",
}

func TestFormatRoundTrip(t *testing.T) {
	for i, text := range skillMDCases {
		instr := instructionCases[i%len(instructionCases)]
		for _, enabled := range []bool{true, false} {
			checkRoundTrip(t, text, "desc: "+text, enabled, instr)
			checkRoundTrip(t, "Name", text, enabled, instr)
		}
	}
	for _, instr := range instructionCases {
		checkRoundTrip(t, "Name", "Description.", true, instr)
	}
}

func checkRoundTrip(t *testing.T, name, description string, enabled bool, instructions string) {
	t.Helper()
	out := Format(name, description, enabled, instructions)
	sk, ds := Parse("skills/x/SKILL.md", out)
	wantName, wantDesc := strings.ToValidUTF8(name, "\uFFFD"), strings.ToValidUTF8(description, "\uFFFD")
	wantInstr := spec.Canonical(strings.ToValidUTF8(instructions, "\uFFFD"))
	// Final newlines of a description are dropped on purpose (see
	// SameDescription).
	if sk.Name != wantName || !spec.SameDescription(sk.Description, wantDesc) || sk.Enabled != enabled || sk.Instructions != wantInstr {
		t.Errorf("round trip of (%q, %q, %t, %q):\n%s\ngave (%q, %q, %t, %q)",
			name, description, enabled, instructions, out, sk.Name, sk.Description, sk.Enabled, sk.Instructions)
	}
	for _, d := range ds {
		if strings.HasPrefix(d.Code, "frontmatter") || d.Code == "text-not-utf8" {
			t.Errorf("round trip of (%q, %q): %v\n%s", name, description, d, out)
		}
	}
	if len(sk.Extra) > 0 {
		t.Errorf("extra keys %v in\n%s", sk.Extra, out)
	}
}

// TestFormatReadable pins the styles: plain where possible, a block
// for multi-line text, double quotes only when needed.
func TestFormatReadable(t *testing.T) {
	for _, tc := range []struct {
		name, desc string
		enabled    bool
		instr      string
		want       string
	}{
		{"PDF Processing", "Extract text from PDFs. Use when handling PDF files.", true, "# PDF\r\n\r\nSteps.\r\n",
			"---\nname: PDF Processing\ndescription: Extract text from PDFs. Use when handling PDF files.\n---\n# PDF\n\nSteps.\n"},
		{"Café", "Line one.\n\nLine two.", false, "",
			"---\nname: Café\ndescription: |-\n  Line one.\n\n  Line two.\nenabled: false\n---\n"},
		{"yes", "Use when: always", true, "x",
			"---\nname: \"yes\"\ndescription: \"Use when: always\"\n---\nx\n"},
		{"A", "one\n---\ntwo\n", true, "x",
			"---\nname: A\ndescription: \"one\\n---\\ntwo\"\n---\nx\n"},
		// A final newline (from a "description: |" block) is dropped, so a
		// multi-line description stays a readable block.
		{"A", "Line one.\nLine two.\n", true, "x",
			"---\nname: A\ndescription: |-\n  Line one.\n  Line two.\n---\nx\n"},
	} {
		if got := string(Format(tc.name, tc.desc, tc.enabled, tc.instr)); got != tc.want {
			t.Errorf("Format(%q, %q) =\n%s\nwant\n%s", tc.name, tc.desc, got, tc.want)
		}
	}
}

func FuzzFormat(f *testing.F) {
	for i, s := range skillMDCases {
		f.Add(s, skillMDCases[(i+7)%len(skillMDCases)], i%2 == 0, instructionCases[i%len(instructionCases)])
	}
	f.Fuzz(func(t *testing.T, name, description string, enabled bool, instructions string) {
		checkRoundTrip(t, name, description, enabled, instructions)
	})
}

func TestMerge(t *testing.T) {
	for _, tc := range []struct {
		name, local, want string
		next              []byte
	}{
		{
			name:  "says the same: untouched",
			local: "\uFEFF---\r\ndescription: Extract text.\r\nname: PDF Processing\r\nenabled: true\r\nlicense: MIT\r\n---\r\n\r\n# PDF  \r\n\r\n",
			next:  Format("PDF Processing", "Extract text.", true, "# PDF\n"),
			want:  "\uFEFF---\r\ndescription: Extract text.\r\nname: PDF Processing\r\nenabled: true\r\nlicense: MIT\r\n---\r\n\r\n# PDF  \r\n\r\n",
		},
		{
			// Only the description's line and the body change: a plain
			// line cannot hold two lines, so the description becomes a
			// block, where it was.
			name: "keys stay in their order with their text and comments",
			local: "---\n# written by hand\nname: PDF Processing\nlicense: MIT\ndescription: Old.\n" +
				"# tools the skill may run\nallowed-tools: Bash Read\nmetadata:\n  author: me\n  version: \"1.0\"   # quoted\n---\nOld.\n",
			next: Format("PDF Processing", "New.\nTwo lines.", true, "New.\n"),
			want: "---\n# written by hand\nname: PDF Processing\nlicense: MIT\ndescription: |-\n  New.\n  Two lines.\n" +
				"# tools the skill may run\nallowed-tools: Bash Read\nmetadata:\n  author: me\n  version: \"1.0\"   # quoted\n---\nNew.\n",
		},
		{
			name:  "explicit enabled: true kept",
			local: "---\nname: a\nenabled: true\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  Format("A", "b", true, "body\n"),
			want:  "---\nname: A\nenabled: true\ndescription: b\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "disabled",
			local: "---\nname: a\nenabled: true\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  Format("a", "b", false, "body\n"),
			want:  "---\nname: a\nenabled: false\ndescription: b\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "flow mapping: values written afresh",
			local: "---\n{name: a, description: b, license: MIT, tags: [x, y]}\n---\nbody\n",
			next:  Format("a", "c", true, "body\n"),
			want:  "---\nname: a\ndescription: c\nlicense: MIT\ntags:\n  - x\n  - \"y\"\n---\nbody\n",
		},
		{
			name:  "alias of a replaced value: written afresh",
			local: "---\nname: &n a\ndescription: b\nalias: *n\n---\nbody\n",
			next:  Format("z", "b", true, "body\n"),
			want:  "---\nname: z\ndescription: b\nalias: a\n---\nbody\n",
		},
		{
			name:  "duplicate key: the first kept, as loaded",
			local: "---\nname: a\ndescription: b\nlicense: MIT\nlicense: GPL\n---\nbody\n",
			next:  Format("a", "b", true, "body\n"),
			want:  "---\nname: a\ndescription: b\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "no extra key",
			local: "---\nname: a\ndescription: b\n---\nbody\n",
			next:  Format("a", "c", true, "body\n"),
			want:  "---\nname: a\ndescription: c\n---\nbody\n",
		},
		{
			name:  "invalid frontmatter: replaced",
			local: "---\nname: [a\nlicense: MIT\n---\nbody\n",
			next:  Format("a", "b", true, "body\n"),
			want:  "---\nname: a\ndescription: b\n---\nbody\n",
		},
		{
			name:  "missing description: added after the name",
			local: "---\nname: a\nlicense: MIT\n---\nbody\n",
			next:  Format("a", "b", true, "body\n"),
			want:  "---\nname: a\ndescription: b\nlicense: MIT\n---\nbody\n",
		},
		{
			name:  "duplicate name: the first entry edited, the second dropped",
			local: "---\nname: a # first\ndescription: b\nname: c\n---\nbody\n",
			next:  Format("z", "b", true, "body\n"),
			want:  "---\nname: z # first\ndescription: b\n---\nbody\n",
		},
		{
			name:  "quoted enabled, an error: rewritten",
			local: "---\nname: a\ndescription: b\nenabled: \"no\"\n---\nbody\n",
			next:  Format("a", "b", false, "body\n"),
			want:  "---\nname: a\ndescription: b\nenabled: false\n---\nbody\n",
		},
		{
			name:  "no final newline: none added",
			local: "---\nname: a\ndescription: b\n---\n\nold",
			next:  Format("a", "b", true, "new\n"),
			want:  "---\nname: a\ndescription: b\n---\n\nnew",
		},
		{
			name:  "empty body: the instructions with a newline",
			local: "---\nname: a\ndescription: b\n---",
			next:  Format("a", "b", true, "new\n"),
			want:  "---\nname: a\ndescription: b\n---\nnew\n",
		},
		{
			name:  "instructions emptied: the blank lines stay",
			local: "---\r\nname: a\r\ndescription: b\r\n---\r\n\r\nold\r\n",
			next:  Format("a", "b", true, ""),
			want:  "---\r\nname: a\r\ndescription: b\r\n---\r\n\r\n\r\n",
		},
		{
			name:  "flow mapping, BOM and CRLF: written afresh in the file's style",
			local: "\uFEFF---\r\n{name: a, description: b, license: MIT}\r\n---\r\nbody\r\n",
			next:  Format("a", "c", true, "body\n"),
			want:  "\uFEFF---\r\nname: a\r\ndescription: c\r\nlicense: MIT\r\n---\r\nbody\r\n",
		},
		{
			name:  "next without frontmatter",
			local: "---\nname: a\ndescription: b\nlicense: MIT\n---\nbody\n",
			next:  []byte("remote"),
			want:  "remote",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Merge([]byte(tc.local), tc.next)); got != tc.want {
				t.Errorf("Merge =\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

// TestMergeRoundTrip: whatever the values, the merged file reads
// back as the space's values plus the local extra keys, and merging again
// changes nothing.
func TestMergeRoundTrip(t *testing.T) {
	local := []byte("---\nname: old\n# why\nlicense: MIT\ndescription: old\nallowed-tools: Bash\nmetadata: {a: 1, b: [x]}\n---\nold\n")
	extra := map[string]any{"license": "MIT", "allowed-tools": "Bash", "metadata": map[string]any{"a": 1, "b": []any{"x"}}}
	for i, s := range skillMDCases {
		enabled := i%2 == 0
		instr := instructionCases[i%len(instructionCases)]
		next := Format(s, s, enabled, instr)
		want, _ := Parse(FileName, next)
		out := Merge(local, next)
		got, _ := Parse(FileName, out)
		if !sameSkill(got, want) || !reflect.DeepEqual(got.Extra, extra) {
			t.Errorf("%q: merged\n%s\nreads %+v", s, out, got)
		}
		if again := Merge(out, next); string(again) != string(out) {
			t.Errorf("%q: merging again changed\n%s\ninto\n%s", s, out, again)
		}
	}
}
