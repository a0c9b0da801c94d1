package lint

import (
	"fmt"
	"path"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/fsrepo/skillmd"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/unicode/norm"
)

// A Folder is a skill folder as [Check] reads it.
type Folder struct {
	// Dir is the folder, slash-separated, from the repository root: the
	// diagnostics of its files name them under it, and its base name is
	// the skill's slug.
	Dir string
	// SkillMD is its SKILL.md, parsed.
	SkillMD *skillmd.Document
	// Files are all the files of the folder, SKILL.md included, by path
	// in it. Data is the content of a text file read whole, nil for the
	// others: text in files whose Data is nil is not read.
	Files []File
}

// Check adds to ds the diagnostics of the rules of the Agent Skills format
// and of a skill's quality that c does not turn off, for the skill folder
// f, and returns ds. It may drop diagnostics of ds that a rule it reports
// replaces (the typo warning of a key the format does not know, the slug
// warning of a name that is not the folder's).
func Check(c Config, f Folder, ds diag.Diagnostics) diag.Diagnostics {
	p := f.SkillMD
	l := &linter{lc: c, path: p.Path, ds: ds}
	keys := map[string]skillmd.Key{}
	for _, k := range p.Keys {
		keys[k.Name] = k
	}
	slug := path.Base(f.Dir)
	if k, ok := keys[skillmd.KeyName]; ok && p.Name != "" && (l.on(RuleNameFormat) || l.on(RuleNameFolder)) {
		l.name(p.Name, slug, k)
	}
	if l.on(RuleKeyUnknown) {
		l.keys(p.Keys)
	}
	if k, ok := keys["compatibility"]; ok && l.on(RuleCompatibility) {
		l.compatibility(k)
	}
	if k, ok := keys["metadata"]; ok && l.on(RuleMetadata) {
		l.metadata(k)
	}
	if k, ok := keys[skillmd.KeyDescription]; ok && p.Description != "" && l.on(RuleDescriptionWhen) && !SaysWhen(p.Description) {
		l.report(RuleDescriptionWhen, k.ValueLine, k.ValueCol,
			`say when to use the skill, as in "Use when the user asks to ...": agents pick a skill by its description`,
			"description does not say when to use the skill")
	}
	if n := strings.Count(p.Instructions, "\n"); n > MaxBodyLines {
		// The message and hint predate the rule's code; they are kept as
		// they were (the code is in the JSON and in CI annotations).
		l.add(RuleBodyLong, p.BodyLine, 1, "keep SKILL.md under 500 lines; move reference material into supporting files",
			fmt.Sprintf("body is %d lines long", n))
	}
	if l.on(RuleBodyTokens) {
		if n := EstimateTokens(p.Instructions); n > MaxBodyTokens {
			l.report(RuleBodyTokens, p.BodyLine, 1, "move reference material into supporting files that SKILL.md points to; agents load the whole body when the skill is used",
				"body is about %d tokens (estimated from its characters); the Agent Skills format recommends at most %d", n, MaxBodyTokens)
		}
	}
	if l.on(RuleLinkMissing) || l.on(RuleFileUnreferenced) {
		paths := make([]string, len(f.Files))
		for i, file := range f.Files {
			paths[i] = file.Path
		}
		idx := newFolderIndex(paths)
		if l.on(RuleLinkMissing) {
			l.missingLinks(p, slug, idx)
		}
		if l.on(RuleFileUnreferenced) {
			l.unreferenced(p, f.Files, slug, f.Dir, idx)
		}
	}
	return l.ds
}

type linter struct {
	lc   Config
	path string
	ds   diag.Diagnostics
}

func (l *linter) on(code string) bool { return l.lc.Level(code) != LevelOff }

// add reports a diagnostic of rule code at its level, unless it is off.
func (l *linter) add(code string, line, col int, hint, msg string) {
	l.addAt(l.path, code, line, col, hint, msg)
}

func (l *linter) addAt(p, code string, line, col int, hint, msg string) {
	sev := diag.SeverityWarning
	switch l.lc.Level(code) {
	case LevelOff:
		return
	case LevelError:
		sev = diag.SeverityError
	}
	l.ds = append(l.ds, diag.Diagnostic{Path: p, Line: line, Col: col, Severity: sev, Code: code, Message: msg, Hint: hint})
}

// report is add with a formatted message that ends with the rule's code
// in brackets, so that a reader of the text output knows the code that
// turns the rule off.
func (l *linter) report(code string, line, col int, hint, format string, args ...any) {
	l.add(code, line, col, hint, fmt.Sprintf(format, args...)+" ["+code+"]")
}

// maxAgentSkillsName is the longest name of the Agent Skills format, in
// characters (Unicode code points, as Python's len counts them).
const maxAgentSkillsName = 64

// AgentSkillsNameProblems lists what makes name not a name of the Agent
// Skills format, as its reference validator skills-ref (validator.py,
// _validate_name) checks it: the name, stripped of surrounding white
// space and NFKC-normalised, is at most 64 characters, equal to its lower
// case, begins and ends with no hyphen, holds no "--", and holds only
// letters, digits (of any script, as Python's str.isalnum) and hyphens.
// An empty list means the name is valid.
func AgentSkillsNameProblems(name string) []string {
	n := norm.NFKC.String(strings.TrimSpace(name))
	var out []string
	if c := utf8.RuneCountInString(n); c > maxAgentSkillsName {
		out = append(out, fmt.Sprintf("it is %d characters long, over %d", c, maxAgentSkillsName))
	}
	if n != strings.ToLower(n) {
		out = append(out, "it must be lowercase")
	}
	if strings.HasPrefix(n, "-") || strings.HasSuffix(n, "-") {
		out = append(out, "it must not begin or end with a hyphen")
	}
	if strings.Contains(n, "--") {
		out = append(out, "it must not hold two hyphens in a row")
	}
	if i := strings.IndexFunc(n, func(r rune) bool { return r != '-' && !unicode.IsLetter(r) && !unicode.IsNumber(r) }); i >= 0 {
		r, _ := utf8.DecodeRuneInString(n[i:])
		out = append(out, "it may hold only letters, digits and hyphens, not "+visible.QuoteRune(r))
	}
	return out
}

// AgentSkillsNameMatchesFolder reports whether name is the name of its
// folder, both NFKC-normalised, as skills-ref compares them.
func AgentSkillsNameMatchesFolder(name, folder string) bool {
	return norm.NFKC.String(strings.TrimSpace(name)) == norm.NFKC.String(folder)
}

// agentSkillsName makes a name of the Agent Skills format from name.
func agentSkillsName(name string) string {
	s := names.JoinRuns(strings.ToLower(norm.NFKC.String(name)), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) })
	if r := []rune(s); len(r) > maxAgentSkillsName {
		s = strings.TrimRight(string(r[:maxAgentSkillsName]), "-")
	}
	if s == "" {
		return "my-skill"
	}
	return s
}

func (l *linter) name(name, folder string, k skillmd.Key) {
	// A space's display name ("Code Review") that its slug, the folder,
	// was made from is exempt: the folder is the skill's name in the
	// format, and renaming the skill would change only what the app shows.
	if names.SlugOf(folder, strings.TrimSpace(name)) {
		return
	}
	folderOK := len(AgentSkillsNameProblems(folder)) == 0
	mended := false // a diagnostic already says to name it as its folder
	if probs := AgentSkillsNameProblems(name); len(probs) > 0 {
		hint := fmt.Sprintf("for example: name: %s", agentSkillsName(name))
		if folderOK {
			hint = fmt.Sprintf("name it as its folder is named: name: %s", folder)
			mended = l.on(RuleNameFormat) && l.lc.Level(RuleNameFormat) >= l.lc.Level(RuleNameFolder)
		}
		l.report(RuleNameFormat, k.ValueLine, k.ValueCol, hint,
			"name %s is not an Agent Skills name: %s", visible.Quote(name), strings.Join(probs, "; "))
	}
	if !AgentSkillsNameMatchesFolder(name, folder) && l.on(RuleNameFolder) {
		// The warning that the folder is not the slug of the name asks
		// for the same change, for the service's sake: it goes.
		l.drop("slug-mismatch", map[[2]int]bool{{k.ValueLine, k.ValueCol}: true})
		hint := fmt.Sprintf("set name: %s; the folder is the skill's slug in the space, which never changes", folder)
		if !folderOK {
			hint = fmt.Sprintf("the folder, the skill's slug in the space, which never changes, is no Agent Skills name either; "+
				"set lint.rules.%s: off in skillsync.yaml if the space's slugs cannot follow the format", RuleNameFolder)
		}
		if !mended {
			l.report(RuleNameFolder, k.ValueLine, k.ValueCol, hint,
				"name %s is not the name of its folder, %s, as the Agent Skills format requires", visible.Quote(name), visible.Quote(folder))
		}
	}
}

// AgentSkillsKeys are the frontmatter keys of the Agent Skills format, as
// skills-ref allows them (validator.py, ALLOWED_FIELDS).
var AgentSkillsKeys = []string{"name", "description", "license", "compatibility", "metadata", "allowed-tools"}

// agentSkillsKey reports whether key is a key of the format, or
// skillsync's own enabled.
func agentSkillsKey(key string) bool {
	return key == skillmd.KeyEnabled || slices.Contains(AgentSkillsKeys, key)
}

func (l *linter) keys(keys []skillmd.Key) {
	typos := map[[2]int]bool{} // the positions of the keys reported
	for _, k := range keys {
		if agentSkillsKey(k.Name) {
			continue
		}
		hint := "move it under metadata:, the format's place for other keys, or remove it"
		if known, ok := skillmd.Typo(k.Name); ok && agentSkillsKey(known) {
			hint = "rename it to " + visible.Quote(known)
		}
		typos[[2]int{k.Line, k.Col}] = true
		l.report(RuleKeyUnknown, k.Line, k.Col, hint,
			"key %s is not one of the Agent Skills format's (%s; and skillsync's %s)", visible.Quote(k.Name), strings.Join(AgentSkillsKeys, ", "), skillmd.KeyEnabled)
	}
	// The typo warnings of the same keys say less: they go, in one pass
	// for all (one pass for each key would cost keys times warnings).
	l.drop("frontmatter-key-typo", typos)
}

// drop removes the diagnostics of code at the positions (line and col)
// of at in the linter's file.
func (l *linter) drop(code string, at map[[2]int]bool) {
	if len(at) == 0 {
		return
	}
	out := l.ds[:0]
	for _, d := range l.ds {
		if d.Path != l.path || d.Code != code || !at[[2]int{d.Line, d.Col}] {
			out = append(out, d)
		}
	}
	l.ds = out
}

func (l *linter) compatibility(k skillmd.Key) {
	v := k.Value
	hint := `say in a line what the skill needs to run, as in "compatibility: Requires git and network access", or remove the key`
	switch {
	case v.Kind != yaml.ScalarNode:
		l.report(RuleCompatibility, k.ValueLine, k.ValueCol, hint, "compatibility must be text, not %s", yamlnode.Kind(v))
	case v.Tag == "!!null" || strings.TrimSpace(v.Value) == "":
		l.report(RuleCompatibility, k.ValueLine, k.ValueCol, hint, "compatibility is empty; the Agent Skills format takes 1 to %d characters", maxCompatibilityChars)
	default:
		if n := utf8.RuneCountInString(v.Value); n > maxCompatibilityChars {
			l.report(RuleCompatibility, k.ValueLine, k.ValueCol, "keep it to the products, system packages and network access the skill needs; move details into the body",
				"compatibility is %d characters long; the Agent Skills format takes at most %d", n, maxCompatibilityChars)
		}
	}
}

func (l *linter) metadata(k skillmd.Key) {
	v := k.Value
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return // "metadata:" with nothing under it holds nothing
	}
	if v.Kind != yaml.MappingNode {
		l.report(RuleMetadata, k.ValueLine, k.ValueCol, "write it as keys with text values, one a line, indented under metadata:",
			"metadata must be a mapping of keys to text values, not %s", yamlnode.Kind(v))
		return
	}
	// Lines of the file: v's are those of the block, offset as k's are.
	offset := k.ValueLine - v.Line
	for i := 0; i+1 < len(v.Content); i += 2 {
		mk, mv := v.Content[i], yamlnode.Resolve(v.Content[i+1])
		line, col := mv.Line+offset, mv.Column
		switch {
		case mv.Kind == yaml.SequenceNode && allScalars(mv):
			words := make([]string, len(mv.Content))
			for j, c := range mv.Content {
				words[j] = yamlnode.Resolve(c).Value
			}
			l.report(RuleMetadata, line, col, fmt.Sprintf("write it as one line of text: %s: %s", visible.Line(mk.Value), visible.Line(yamlnode.Quote(strings.Join(words, ", ")))),
				"metadata %s must be text, not a list", visible.Quote(mk.Value))
		case mv.Kind != yaml.ScalarNode:
			l.report(RuleMetadata, line, col, "metadata holds only text values: write it as text, or move it out of metadata",
				"metadata %s must be text, not %s", visible.Quote(mk.Value), yamlnode.Kind(mv))
		case mv.Tag == "!!null":
			l.report(RuleMetadata, line, col, fmt.Sprintf(`write its value, or remove it: %s: "..."`, visible.Line(mk.Value)),
				"metadata %s is empty; its values must be text", visible.Quote(mk.Value))
		case mv.Tag != "!!str":
			l.report(RuleMetadata, line, col, fmt.Sprintf("quote it: %s: %s", visible.Line(mk.Value), visible.Line(yamlnode.Quote(mv.Value))),
				"metadata %s must be text, and YAML reads an unquoted %s as %s", visible.Quote(mk.Value), visible.Line(mv.Value), yamlnode.Kind(mv))
		}
	}
}

// allScalars reports whether every item of the list n is a scalar.
func allScalars(n *yaml.Node) bool {
	for _, c := range n.Content {
		if yamlnode.Resolve(c).Kind != yaml.ScalarNode {
			return false
		}
	}
	return true
}

// whenWords are the words by which a description says when to use its
// skill (see [SaysWhen]).
var whenWords = mustCompile(`(?i)\b(when|whenever|use|used|if)\b|\b(trigger|triggers|triggered|invoke|invoked)\s+(on|when|whenever|for|if|by)\b|(^|[.!?;:]\s+)for\b`)

// SaysWhen reports whether a description says when to use its skill, as
// the Agent Skills specification and Anthropic's skill-creator ask ("Use
// when ...", "Use this skill whenever ..."). It is a heuristic, for
// English: the description holds, as whole words in any case, "when",
// "whenever", "use", "used" or "if"; or "trigger(s/ed)" or "invoke(d)"
// followed by on, when, whenever, for, if or by; or a sentence that begins
// with "For".
func SaysWhen(description string) bool {
	return whenWords.MatchString(description)
}

// EstimateTokens estimates the tokens a model reads for text, as the
// common rule of thumb does: a token is about 4 characters of English or
// code. A character of Chinese, Japanese or Korean script is about a token
// of its own, and counts as one.
func EstimateTokens(text string) int {
	cjk, other := 0, 0
	for _, r := range text {
		if r >= 0x1100 && unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) { // none is below U+1100
			cjk++
		} else {
			other++
		}
	}
	return cjk + (other+3)/4
}

// A folderIndex is the files of a skill folder, and the folders that
// hold them. It lists the files of each folder and the names of all but
// for case, so that no question about one path goes through every file.
type folderIndex struct {
	files   map[string]bool
	folders map[string]bool
	byBase  map[string][]string // files by base name
	under   map[string][]string // files by every folder that holds them
	top     []string            // the files of the skill folder itself, SKILL.md included
	folded  map[string]string   // files and folders by their name folded ([FoldCase]); the least of those it fits
}

func newFolderIndex(paths []string) *folderIndex {
	f := &folderIndex{files: map[string]bool{}, folders: map[string]bool{}, byBase: map[string][]string{},
		under: map[string][]string{}, folded: map[string]string{}}
	fold := func(p string) {
		k := names.FoldCase(p)
		if q, ok := f.folded[k]; !ok || p < q {
			f.folded[k] = p
		}
	}
	for _, p := range paths {
		f.files[p] = true
		f.byBase[path.Base(p)] = append(f.byBase[path.Base(p)], p)
		fold(p)
		i := strings.LastIndexByte(p, '/')
		if i < 0 {
			f.top = append(f.top, p)
		}
		for ; i > 0; i = strings.LastIndexByte(p[:i], '/') {
			d := p[:i]
			if !f.folders[d] {
				f.folders[d] = true
				fold(d)
			}
			f.under[d] = append(f.under[d], p)
		}
	}
	return f
}

// sameButCase is the file or folder of the skill whose name is p but for
// case, or "".
func (f *folderIndex) sameButCase(p string) string {
	return f.folded[names.FoldCase(p)]
}

// has reports whether p is a file or a folder of the skill.
func (f *folderIndex) has(p string) bool { return f.files[p] || f.folders[p] }

func (l *linter) missingLinks(p *skillmd.Document, slug string, f *folderIndex) {
	for _, ref := range skillmd.ReferencedFiles(withoutSkillDir(p.Body), slug) {
		if !ref.Linked || f.has(ref.Path) || (ref.Alt != "" && f.has(ref.Alt)) {
			continue
		}
		hint := fmt.Sprintf("add %s to the skill folder, or fix the link; paths are relative to the folder of SKILL.md", ref.Path)
		if other := f.sameButCase(ref.Path); other != "" {
			hint = fmt.Sprintf("the folder holds %s: names of files are case-sensitive on most systems; rename one", other)
		}
		l.report(RuleLinkMissing, p.BodyLine+ref.Line-1, 1, hint,
			"link to %s, which is not in the skill folder", ref.Path)
	}
}

// unreferenced reports the supporting files that nothing refers to. A
// file is referred to when SKILL.md (its frontmatter or its body), or a
// text file referred to, names it (see [ReferencedFiles]): by its path
// from the skill folder, by its path from the folder of the file that
// names it, by its base name alone, or by naming a folder that holds it
// ("scripts/"). Hidden files (".gitignore") and files in hidden folders
// are never reported, nor are files named LICENSE or README (of any case
// and extension), which are for people, not agents.
func (l *linter) unreferenced(p *skillmd.Document, files []File, slug, dir string, f *folderIndex) {
	content := map[string][]byte{}
	for _, file := range files {
		if file.Data != nil {
			content[file.Path] = file.Data
		}
	}
	reached := map[string]bool{skillmd.FileName: true}
	named := map[string]bool{}     // the folders named, whose files are marked
	scripted := map[string]bool{}  // the folders whose scripts brought their files
	byLower := map[string]string{} // every path named, by its lower case
	queue := []string{}
	mark := func(p string) {
		if !reached[p] {
			reached[p] = true
			queue = append(queue, p)
		}
	}
	// scan marks the files that text, the content of a file in the
	// folder from, names.
	scan := func(from, text string, markdown bool) {
		text = withoutSkillDir(text)
		if !markdown {
			text = "```\n" + text + "\n```" // read as code: its words, not its prose
		}
		names := func(p string) {
			for _, c := range []string{path.Join(from, p), p} {
				if _, ok := byLower[strings.ToLower(c)]; !ok {
					byLower[strings.ToLower(c)] = c
				}
				if f.files[c] {
					mark(c)
				}
				if f.folders[c] && !named[c] {
					named[c] = true
					for _, file := range f.under[c] {
						mark(file)
					}
				}
			}
			if !strings.Contains(p, "/") {
				for _, file := range f.byBase[p] {
					mark(file)
				}
			}
		}
		refs := skillmd.FindReferences(text, slug)
		for _, r := range refs.Files {
			names(r.Path)
			if r.Alt != "" {
				names(r.Alt)
			}
		}
		for _, s := range refs.Skipped {
			// "../scripts/run.py" in references/guide.md, or a binary
			// file, is a file of the folder all the same.
			t := strings.TrimPrefix(s.Text, "./")
			t, _, _ = strings.Cut(t, "#")
			if c := path.Join(from, t); c != ".." && !strings.HasPrefix(c, "../") && !path.IsAbs(t) {
				names(c)
			}
		}
		for _, w := range folderWords(text) {
			names(w)
		}
		// "from templates.shake import x" reads templates/shake.py.
		if !strings.Contains(text, "import") {
			return
		}
		for _, m := range moduleName.FindAllStringSubmatch(text, -1) {
			names(strings.ReplaceAll(m[1], ".", "/") + ".py")
			names(strings.ReplaceAll(m[1], ".", "/"))
		}
	}
	scan(".", p.Block, false)
	scan(".", p.Body, true)
	for _, root := range clientMetadata {
		if f.files[root] {
			mark(root)
		}
	}
	for len(queue) > 0 {
		next := queue[0]
		queue = queue[1:]
		doc := isDocument(next)
		if d := path.Dir(next); !doc && next != clientMetadata[0] && !scripted[d] {
			// A script brings the files beside and below it that are
			// not markdown: its modules, its requirements.txt, its lock
			// file, which it imports or reads by no path. A folder's
			// are brought once, whatever the scripts in it.
			scripted[d] = true
			files := f.under[d]
			if d == "." {
				files = f.top
			}
			for _, file := range files {
				if file != skillmd.FileName && !isMarkdown(file) {
					mark(file)
				}
			}
		}
		data, ok := content[next]
		if !ok || !utf8.Valid(data) {
			continue
		}
		scan(path.Dir(next), string(data), doc)
	}
	var missing []string
	for file := range f.files {
		if !reached[file] && !exemptFromReference(file) {
			missing = append(missing, file)
		}
	}
	sort.Strings(missing)
	for _, m := range missing {
		hint := "refer to it from SKILL.md (as a link, or its path), so that agents know when to read it; or remove it"
		if named, ok := byLower[strings.ToLower(m)]; ok && named != m {
			hint = fmt.Sprintf("SKILL.md or a file it refers to names %s, which differs in case: names of files are case-sensitive on most systems; rename one", named)
		}
		l.addAt(path.Join(dir, m), RuleFileUnreferenced, 0, 0, hint,
			fmt.Sprintf("supporting file %s is not referred to by SKILL.md, nor by any file it refers to [%s]", m, RuleFileUnreferenced))
	}
}

// moduleName is a dotted Python module name after from or import.
var moduleName = mustCompile(`\b(?:from|import)\s+([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)`)

// clientMetadata are files that an agent client reads by itself, by
// their fixed path: referred to, whatever SKILL.md says, and read for the
// files they refer to (an icon).
var clientMetadata = []string{"agents/openai.yaml"}

// isDocument reports a file of prose, which agents read as they are told
// (markdown, text), rather than a script or data that a script reads.
func isDocument(p string) bool {
	return isMarkdown(p) || strings.EqualFold(path.Ext(p), ".txt")
}

// isMarkdown reports a file of marked-up prose.
func isMarkdown(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".rst", ".adoc":
		return true
	}
	return false
}

// skillDirPlaceholders are what SKILL.md files write for the skill's own
// folder, which clients replace before the agent reads them.
var skillDirPlaceholders = strings.NewReplacer("${baseDir}/", "", "{baseDir}/", "",
	"${CLAUDE_SKILL_DIR}/", "", "$CLAUDE_SKILL_DIR/", "", "${SKILL_DIR}/", "", "$SKILL_DIR/", "")

// withoutSkillDir is text with the placeholders of the skill's folder
// taken off.
func withoutSkillDir(text string) string {
	if !strings.Contains(text, "baseDir}/") && !strings.Contains(text, "SKILL_DIR") {
		return text // the replacer copies the text even when it replaces nothing
	}
	return skillDirPlaceholders.Replace(text)
}

// exemptFromReference reports the files that file-unreferenced never
// reports: hidden ones, and licences and read-me files.
func exemptFromReference(p string) bool {
	for _, seg := range strings.Split(p, "/") {
		if strings.HasPrefix(seg, ".") {
			return true
		}
	}
	base := strings.ToUpper(path.Base(p))
	base = strings.TrimSuffix(base, path.Ext(base))
	return base == "LICENSE" || base == "LICENCE" || base == "README" || base == "COPYING" || base == "NOTICE"
}

// folderWords are the words of text that may name a folder: "scripts/",
// "./templates", "assets/icons", "assets/*.png" (the folder before the
// pattern). A bare word ("scripts") is none: it is as often plain English.
func folderWords(text string) []string {
	if !strings.Contains(text, "/") {
		return nil
	}
	var out []string
	for w := range strings.FieldsFuncSeq(text, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("\"'`()[]<>,;|=", r)
	}) {
		t := strings.TrimRight(w, ".:!?")
		if i := strings.IndexAny(t, "*{"); i >= 0 {
			t = t[:i]
		}
		dotted := strings.HasPrefix(t, "./")
		for strings.HasPrefix(t, "./") {
			t = t[2:]
		}
		if (dotted || strings.Contains(t, "/")) && strings.Trim(t, "/") != "" {
			out = append(out, strings.TrimSuffix(t, "/"))
		}
	}
	return out
}

// Bounds of the rules of a skill's quality.
const (
	// MaxBodyTokens is the estimate of tokens (see [EstimateTokens])
	// above which a SKILL.md body draws body-tokens: the Agent Skills
	// specification recommends bodies under 5,000 tokens.
	MaxBodyTokens = 5000
	// maxCompatibilityChars is the longest compatibility the Agent
	// Skills format takes.
	maxCompatibilityChars = 500
)

// MaxBodyLines is the length above which a SKILL.md body draws body-long
// (see [Rules]): the Agent Skills authoring guidance asks for bodies under
// 500 lines, with details moved to supporting files the AI reads when it
// needs them.
const MaxBodyLines = 500
