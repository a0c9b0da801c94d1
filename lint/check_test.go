package lint

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/lineartest"
)

// TestAgentSkillsNameProblems: the name rule is skills-ref's. Each want was
// recorded from skills-ref's _validate_name (agentskills/agentskills,
// skills-ref/src/skills_ref/validator.py) on the same name and folder:
// a problem per message it gave, none for none.
func TestAgentSkillsNameProblems(t *testing.T) {
	for _, tc := range []struct {
		name, folder string
		want         []string // phrases of the problems, in order
		matches      bool     // the folder's name is the name
	}{
		{"pdf-processing", "pdf-processing", nil, true},
		{"PDF-Processing", "PDF-Processing", []string{"lowercase"}, true},
		{"-pdf", "-pdf", []string{"begin or end with a hyphen"}, true},
		{"pdf-", "pdf-", []string{"begin or end with a hyphen"}, true},
		{"pdf--processing", "pdf--processing", []string{"two hyphens in a row"}, true},
		{"my_skill", "my_skill", []string{`not '_'`}, true},
		{strings.Repeat("a", 64), strings.Repeat("a", 64), nil, true},
		{strings.Repeat("a", 65), strings.Repeat("a", 65), []string{"65 characters long, over 64"}, true},
		{"技能", "技能", nil, true},
		{"мой-навык", "мой-навык", nil, true},
		{"НАВЫК", "НАВЫК", []string{"lowercase"}, true},
		{"cafe\u0301", "café", nil, true}, // NFKC joins the accent
		{"pdf processing", "pdf processing", []string{`not ' '`}, true},
		{"  padded  ", "padded", nil, true},
		{"ｐｄｆ", "pdf", nil, true},                       // full-width letters are NFKC's pdf
		{"ǅemal", "ǅemal", []string{"lowercase"}, true}, // NFKC: Džemal
		{"Ⅻ-roman", "Ⅻ-roman", []string{"lowercase"}, true},
		{"½-half", "½-half", []string{`not '⁄'`}, true}, // NFKC: 1⁄2, a fraction slash
		{"correct-name", "wrong-name", nil, false},
		{"ß-straße", "ß-straße", nil, true},
		{"İstanbul", "İstanbul", []string{"lowercase"}, true},
		{"Bad--Name_", "x", []string{"lowercase", "two hyphens", `not '_'`}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := AgentSkillsNameProblems(tc.name)
			if len(got) != len(tc.want) {
				t.Fatalf("AgentSkillsNameProblems(%q) = %q, want %d problems (%q)", tc.name, got, len(tc.want), tc.want)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want one saying %q", i, got[i], w)
				}
			}
			if m := AgentSkillsNameMatchesFolder(tc.name, tc.folder); m != tc.matches {
				t.Errorf("AgentSkillsNameMatchesFolder(%q, %q) = %t, want %t", tc.name, tc.folder, m, tc.matches)
			}
		})
	}
}

// TestSaysWhen: the descriptions that say when to use the skill, real
// ones among them, and those that only say what it does.
func TestSaysWhen(t *testing.T) {
	for _, tc := range []struct {
		desc string
		want bool
	}{
		{"Extract text and tables from PDF files. Use when working with PDFs.", true},
		{"Guide for creating effective skills. This skill should be used when users want to create a new skill.", true},
		{"Create beautiful visual art. You should use this skill when the user asks to create a poster.", true},
		{"Comprehensive PDF toolkit. When Claude needs to fill in a PDF form, use it.", true},
		{"Use this skill whenever the user wants to do anything with PDF files.", true},
		{"USE FOR: release notes.", true},
		{"Runs the linter if the repository has a Go module.", true},
		{"Review a pull request. Triggers on requests to review code.", true},
		{"Phylogenetic tree toolkit. For evolutionary analysis, microbial genomics.", true},
		{"Toolkit for styling artifacts with a theme.", false},
		{"Automate Gorgias tasks via Rube MCP (Composio). Always search tools first for current schemas.", false},
		{"Automate broadcast triggers, message analytics and segments.", false}, // a trigger that is a noun
		{"Uses Gemini for image review; reuses cached results.", false},         // uses, reuses: not "use"
		{"Medicinal chemistry filters, for compound prioritization.", false},    // "for" mid-sentence
		{"Wendy's recipes, whence the name.", false},
	} {
		if got := SaysWhen(tc.desc); got != tc.want {
			t.Errorf("SaysWhen(%q) = %t, want %t", tc.desc, got, tc.want)
		}
	}
}

// TestEstimateTokens: a token is 4 characters, rounded up, but a
// character of Chinese, Japanese or Korean is a token of its own.
func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{"abc", 1},
		{"abcd", 1},
		{"abcde", 2},
		{strings.Repeat("x", 20000), 5000},
		{strings.Repeat("x", 20001), 5001},
		{"检查字段", 4},
		{"カタカナ ひらがな 한국어", 4 + 4 + 3 + 1}, // 11 characters of those scripts, and 2 spaces
		{"é", 1},
	} {
		if got := EstimateTokens(tc.text); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// frontmatterKeys is a SKILL.md whose frontmatter holds a name, a
// description and n more keys, written key(i).
func frontmatterKeys(n int, key func(i int) string) []byte {
	lines := []string{"---", "name: hostile", "description: A skill of a hostile repository."}
	for i := range n {
		lines = append(lines, key(i))
	}
	return []byte(strings.Join(append(lines, "---", "", "# Hostile", ""), "\n"))
}

// TestUnknownKeysOnePass: under the agentskills profile each key not of
// the format is an error, which replaces the key's typo warning. The
// warnings were searched once for each key: 8,000 keys (79 KB) took 0.7 s,
// and a SKILL.md of 1 MiB holds 100,000. They are dropped in one pass.
func TestUnknownKeysOnePass(t *testing.T) {
	const n = 2000
	md := frontmatterKeys(n, func(i int) string { return fmt.Sprintf("licence%d: v", i) })
	md = append([]byte("---\nlicence: MIT\n"), md[len("---\n"):]...)
	doc, ds := skillmd.Parse("skills/hostile/SKILL.md", md)
	l := &linter{lc: Config{Profile: ProfileAgentSkills}, path: doc.Path, ds: ds}
	l.keys(doc.Keys)
	codes := map[string]int{}
	for _, d := range l.ds {
		codes[d.Code]++
	}
	if codes[RuleKeyUnknown] != n+1 || codes["frontmatter-key-typo"] != 0 {
		t.Errorf("diagnostics by code: %v; want %d %s and no frontmatter-key-typo", codes, n+1, RuleKeyUnknown)
	}

	type parsedMD struct {
		doc *skillmd.Document
		ds  diag.Diagnostics
	}
	parsed := map[int]parsedMD{}
	for _, n := range []int{1000, 16000} {
		doc, ds := skillmd.Parse("skills/hostile/SKILL.md", frontmatterKeys(n, func(i int) string { return fmt.Sprintf("k%d: v", i) }))
		parsed[n] = parsedMD{doc, ds}
	}
	lineartest.Time(t, 1000, func(n int) {
		p := parsed[n]
		l := &linter{lc: Config{Profile: ProfileAgentSkills}, path: p.doc.Path, ds: slices.Clone(p.ds)}
		l.keys(p.doc.Keys)
	})
}

// TestCheckQuotesVisibly: a name, a frontmatter key or a metadata key or
// value the messages quote shows what no one can see in it as every
// other message does (⟦ZWSP⟧), never as a Go escape (\u200b) nor raw.
func TestCheckQuotesVisibly(t *testing.T) {
	const zw = "\u200b"
	md := "---\nname: Pdf" + zw + "_tools\ndescription: Use for PDFs.\nlicen" + zw + "se: MIT\nmetadata:\n  ver" + zw + "sion: 1.0\n  list" + zw + ": [a, b]\n  empty" + zw + ":\n  map" + zw + ": {a: b}\n---\n\nDo it.\n"
	doc, ds := skillmd.Parse("skills/pdf/SKILL.md", []byte(md))
	ds = Check(Config{Profile: ProfileAgentSkills}, Folder{Dir: "skills/pdf", SkillMD: doc}, ds)
	quoted := 0
	for _, d := range ds {
		for _, s := range []string{d.Message, d.Hint} {
			if strings.Contains(s, zw) || strings.Contains(s, `\u200b`) {
				t.Errorf("%s: %q shows the zero-width space raw or as a Go escape", d.Code, s)
			}
		}
		if strings.Contains(d.Message, `"Pdf⟦ZWSP⟧_tools"`) || strings.Contains(d.Message, `"licen⟦ZWSP⟧se"`) || strings.Contains(d.Message, `sion"`) ||
			strings.Contains(d.Message, `"list⟦ZWSP⟧"`) || strings.Contains(d.Message, `"empty⟦ZWSP⟧"`) || strings.Contains(d.Message, `"map⟦ZWSP⟧"`) {
			quoted++
		}
	}
	if quoted < 7 {
		t.Errorf("%d messages quote a value visibly, want 7 (name twice, key, 4 metadata):\n%v", quoted, ds)
	}
}

// indexedSkill is a skill whose SKILL.md links to n missing files and to
// notes.md, and names n folders, each holding a script, beside Notes.md.
type indexedSkill struct {
	p     *skillmd.Document
	paths []string
}

func newIndexedSkill(n int) indexedSkill {
	var body strings.Builder
	body.WriteString("---\nname: big\ndescription: Names many folders.\n---\n\n")
	paths := []string{skillmd.FileName, "Notes.md"}
	for i := range n {
		fmt.Fprintf(&body, "See [the guide](missing/m%d.md), run d%d/ and d%d/ again.\n", i, i, i)
		paths = append(paths, fmt.Sprintf("d%d/f%d.py", i, i))
	}
	fmt.Fprintf(&body, "Read [the notes](notes.md).\n")
	p, _ := skillmd.Parse("skills/big/SKILL.md", []byte(body.String()))
	return indexedSkill{p, paths}
}

// lint runs link-missing and file-unreferenced on the skill.
func (s indexedSkill) lint() diag.Diagnostics {
	f := newFolderIndex(s.paths)
	l := &linter{lc: Config{Rules: map[string]Level{RuleLinkMissing: LevelWarning, RuleFileUnreferenced: LevelWarning}}, path: s.p.Path}
	l.missingLinks(s.p, "big", f)
	l.unreferenced(s.p, nil, "big", "skills/big", f)
	return l.ds
}

// TestFolderIndexLinear: link-missing and file-unreferenced look paths up
// in the folder's index. Each link to a missing file went through every
// file for one of another case, each folder named and each script went
// through every file for those it brings: 4,000 of each took 0.3 s and
// 0.9 s, growing with their square.
func TestFolderIndexLinear(t *testing.T) {
	const n = 2000
	codes := map[string]int{}
	hint := ""
	for _, d := range newIndexedSkill(n).lint() {
		codes[d.Code]++
		if strings.Contains(d.Message, "notes.md") {
			hint = d.Hint
		}
	}
	if codes[RuleLinkMissing] != n+1 || codes[RuleFileUnreferenced] != 1 || !strings.Contains(hint, "the folder holds Notes.md") {
		t.Errorf("diagnostics by code: %v, the hint of notes.md %q; want %d %s (one of another case) and 1 %s (Notes.md)",
			codes, hint, n+1, RuleLinkMissing, RuleFileUnreferenced)
	}
	skills := map[int]indexedSkill{250: newIndexedSkill(250), 4000: newIndexedSkill(4000)}
	lineartest.Time(t, 250, func(n int) { skills[n].lint() })
}
