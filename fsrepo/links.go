package fsrepo

import (
	"iter"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/spec"
)

// LinkedFiles returns the supporting files that instructions refer to by a
// path relative to the skill folder, sorted and without duplicates: the
// files that `skillsync pull` reads through the files endpoint, since the
// API cannot list a skill's folder.
//
// A reference is:
//   - the destination of a markdown link or image, [x](path) or ![x](path),
//     or of a reference definition, [x]: path (with a title or nothing
//     after it; a GFM footnote, [^1]: text, is none). The author marked it
//     as a link, so any path counts, with or without an extension. A
//     #fragment is dropped; a leading "./" too.
//   - a word of an inline code span or of a fenced code block that looks
//     like a file: it has an extension (a dot and 1 to 10 letters or
//     digits, one at least a letter), and either a '/' (scripts/extract.py)
//     or, alone, an extension of a common text format (reference.md,
//     forms.json): code mentions json.loads and os.path too, which are no
//     files. Code is cut into words at white space and at the quotes and
//     brackets around paths in programs, open('assets/data.json') or
//     [x](references/c.md); a line and column after a path
//     (src/app.py:42:8) are dropped, as are the dots ending a sentence.
//
// Never returned: URLs (anything with a scheme: http:, mailto:, C:),
// anchors (#...), absolute paths, paths with a query string, paths with a
// '.' or '..' segment, SKILL.md itself, and any path the files endpoint
// would refuse ([spec.CheckFilePath]). [FindReferences] lists, with why,
// every such path that is not read.
func LinkedFiles(instructions string) []string {
	refs := ReferencedFiles(instructions, "")
	out := make([]string, len(refs))
	for i, r := range refs {
		out[i] = r.Path
	}
	return out
}

// A FileRef is a supporting file that instructions refer to.
type FileRef struct {
	Path string
	// Linked: the author made it a markdown link, so its absence is worth
	// a warning. Otherwise the path was only mentioned, in code or prose,
	// and may well be an example ("path/to/file.py").
	Linked bool
	// Alt, when set, is Path with the skill's own folder taken off
	// (".claude/skills/SLUG/x.py" -> "x.py"): where to look when Path is
	// not in the skill. Path is tried first, as "SLUG" may as well be a
	// folder of the skill.
	Alt string
	// Line is the line of the instructions, from 1, of the first link to
	// Path when it is Linked, else of the first mention of it.
	Line int
}

// A SkippedRef is something instructions write as a file of the skill
// folder that is not read through the files endpoint, and why.
type SkippedRef struct {
	// Text is the reference as written: a link's destination (without
	// its angle brackets), or a word of code or prose.
	Text string
	// Line is the line of the instructions it is on, from 1 (of the first
	// place it is written, when it is written several times).
	Line int
	// Reason says why it is not read, such as "an absolute path, outside
	// the skill folder".
	Reason string
}

// References are the files of the skill folder that instructions refer
// to: those to read, and those that are not read.
type References struct {
	// Files are the supporting files to read, sorted by path: what
	// [ReferencedFiles] returns, less binary files.
	Files []FileRef
	// Skipped are the references that are not read, each with why, in
	// the order of the instructions, each text and reason once: paths
	// outside the folder (absolute, "~/...", leaving it with ".."), paths
	// the files endpoint cannot address (a space, a character outside
	// a-z, A-Z, 0-9, '_', '-', '.', '/', a "." segment), links with a
	// query string, paths inside .git, and binary files, which the files
	// endpoint does not serve. URLs, anchors, footnotes, SKILL.md itself
	// and words that merely hold a dot (json.loads, Node.js) are no
	// references, and are not listed.
	Skipped []SkippedRef
}

// ReferencedFiles is [LinkedFiles] with each reference's kind, sorted by
// path. Besides links and code it reads prose words that look like files
// of the skill: with a '/' and an extension of a text format
// (references/workflows.md), or bare with the extension of a document
// (REFERENCE.md, forms.json); "Node.js" is no file. When slug is given, a
// path that may name the skill's own folder (".claude/skills/SLUG/x.py",
// "SLUG/x.py") gets the path relative to it as Alt.
func ReferencedFiles(instructions, slug string) []FileRef {
	return scanReferences(instructions, slug).files
}

// FindReferences is [ReferencedFiles] with binary files moved to the
// references skipped, and with every reference that is not read, each
// with why: what `skillsync pull` reports of the files it does not fetch.
func FindReferences(instructions, slug string) References {
	sc := scanReferences(instructions, slug)
	var refs References
	for _, f := range sc.files {
		if IsBinaryPath(f.Path) {
			sc.skip(f.Path, sc.lines[f.Path], "a binary file, which the files endpoint does not serve")
			continue
		}
		refs.Files = append(refs.Files, f)
	}
	refs.Skipped = sc.skipped
	sort.SliceStable(refs.Skipped, func(i, j int) bool { return refs.Skipped[i].Line < refs.Skipped[j].Line })
	return refs
}

// referenceScan is what scanReferences finds.
type referenceScan struct {
	slug    string
	set     map[string]*FileRef
	files   []FileRef
	lines   map[string]int // the first line of each path of files
	skipped []SkippedRef
	skipSet map[[2]string]bool
}

func (sc *referenceScan) add(p string, linked bool, line int) {
	r := sc.set[p]
	if r == nil {
		r = &FileRef{Path: p, Line: line}
		sc.set[p] = r
		sc.lines[p] = line
		if sc.slug != "" {
			if i := strings.LastIndex("/"+p, "/"+sc.slug+"/"); i >= 0 && p[i+len(sc.slug)+1:] != SkillFile {
				r.Alt = p[i+len(sc.slug)+1:]
			}
		}
	}
	if (linked && !r.Linked) || (linked == r.Linked && line < r.Line) {
		r.Line = line
	}
	r.Linked = r.Linked || linked
}

func (sc *referenceScan) skip(text string, line int, reason string) {
	k := [2]string{text, reason}
	if sc.skipSet[k] {
		return
	}
	sc.skipSet[k] = true
	sc.skipped = append(sc.skipped, SkippedRef{Text: text, Line: line, Reason: reason})
}

// take adds the path p found as text, or skips it with why.
func (sc *referenceScan) take(text, p string, linked bool, line int) {
	switch {
	case p == SkillFile:
	case InGitDir(p):
		sc.skip(text, line, "inside .git, which pull never writes")
	default:
		if reason := pathProblem(p); reason != "" {
			sc.skip(text, line, reason)
			return
		}
		sc.add(p, linked, line)
	}
}

func scanReferences(instructions, slug string) referenceScan {
	sc := referenceScan{slug: slug, set: map[string]*FileRef{}, lines: map[string]int{}, skipSet: map[[2]string]bool{}}
	text := strings.ReplaceAll(instructions, "\r\n", "\n")
	prose, code := splitFences(text)
	prose, spans := cutCodeSpans(prose)
	code = append(code, spans...)
	proseLine := lineIndex(prose)

	// Links: the author marked a path as one, with or without an
	// extension. Their text is blanked for the prose words that follow.
	words := []byte(prose)
	for _, m := range inlineLink.FindAllStringSubmatchIndex(prose, -1) {
		sc.link(prose[m[2]:m[3]], proseLine(m[2]))
		for i := m[2]; i < m[3]; i++ {
			words[i] = ' '
		}
	}
	var defs [][]int
	if strings.Contains(prose, "]:") { // the regexp, with no literal to look for, is slow to find none
		defs = refDefinition.FindAllStringSubmatchIndex(prose, -1)
	}
	for _, m := range defs {
		label, title := prose[m[2]:m[3]], ""
		if m[6] >= 0 {
			title = prose[m[6]:m[7]]
		}
		// "[^1]: GitHub Blog" is a footnote, and "[x]: a b" no
		// definition: after the destination comes a title or nothing.
		if strings.HasPrefix(label, "^") || (strings.TrimSpace(title) != "" && !isLinkTitle(strings.TrimSpace(title))) {
			continue
		}
		sc.link(prose[m[4]:m[5]], proseLine(m[4]))
		for i := m[4]; i < m[5]; i++ {
			words[i] = ' '
		}
	}
	for _, c := range code {
		lines := lineCounter{text: c.text, first: c.line}
		for w := range codeWords(c.text) {
			sc.word(w.text, lines.lineOf(w.at), codeKind)
		}
	}
	// Prose: "see REFERENCE.md", "read references/forms.md".
	for w := range proseWords(string(words)) {
		sc.word(w.text, proseLine(w.at), proseKind)
	}
	sc.files = make([]FileRef, 0, len(sc.set))
	for _, r := range sc.set {
		sc.files = append(sc.files, *r)
	}
	sort.Slice(sc.files, func(i, j int) bool { return sc.files[i].Path < sc.files[j].Path })
	return sc
}

// link takes the destination of a markdown link.
func (sc *referenceScan) link(dest string, line int) {
	dest = strings.TrimSuffix(strings.TrimPrefix(dest, "<"), ">")
	if dest == "" || strings.HasPrefix(dest, "#") || isURL(dest) {
		return
	}
	if strings.Contains(dest, "?") {
		sc.skip(dest, line, "a link with a query string, which names no file of the folder")
		return
	}
	p, _, _ := strings.Cut(dest, "#")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	sc.take(dest, p, true, line)
}

// word takes a word of code or prose that looks like a file (see
// [ReferencedFiles]) as a path of the folder; a word that would, were it
// a plain relative path, but is refused as one is skipped, with why.
func (sc *referenceScan) word(w string, line int, kind wordKind) {
	t := trimWord(w, kind.cut)
	if !strings.Contains(t, ".") {
		return // no extension: no file, and most words are such
	}
	if p, ok := kind.file(t); ok {
		sc.take(t, p, false, line)
		return
	}
	if t == "" || strings.HasPrefix(t, "-") || isURL(t) {
		return // an option, a URL: no file
	}
	if m := lineSuffix.FindStringIndex(t); m != nil {
		// "src/config.py:42:8" is src/config.py.
		sc.word(t[:m[0]], line, kind)
		return
	}
	plain := strings.TrimLeft(t, "/~.")
	plain = plainPath.Replace(plain)
	plain = strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && (r == '_' || r == '-' || r == '.' || r == '/' || isASCIIAlnum(r)) {
			return r
		}
		return 'x'
	}, plain)
	if _, ok := kind.file(plain); !ok {
		return
	}
	p := t
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	switch {
	case strings.Contains(p, "$"):
		sc.skip(t, line, "a path made from a variable, which pull cannot know")
	case strings.ContainsAny(p, "*?{}"):
		sc.skip(t, line, "a pattern or a placeholder, not the path of one file")
	default:
		if reason := pathProblem(p); reason != "" {
			sc.skip(t, line, reason)
		}
	}
}

func isASCIIAlnum(r rune) bool {
	return ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
}

// pathProblem says why p, a relative path with no leading "./", is not a
// file of the folder that the files endpoint reads, or "".
func pathProblem(p string) string {
	switch {
	case strings.HasPrefix(p, "/"):
		return "an absolute path, outside the skill folder"
	case strings.HasPrefix(p, "~"):
		return "a path in a home folder, outside the skill folder"
	case strings.Contains(p, "\\"):
		return "written with backslashes; paths of the skill folder are written with '/'"
	case p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") || strings.HasSuffix(p, "/.."):
		return "a path that leaves the skill folder"
	}
	if err := spec.CheckFilePath(p); err != nil {
		return "a path the files endpoint cannot address: " + ruleMessage(err)
	}
	return ""
}

// isURL reports a destination with a scheme (http:, mailto:, C:) or a
// network path (//host/...).
func isURL(s string) bool {
	return hasScheme(s) || strings.HasPrefix(s, "//")
}

// hasScheme reports whether s begins with a URL scheme and its colon: a
// letter, then letters, digits, '+', '.' or '-' (RFC 3986), by hand, as it
// runs on every word of a skill's instructions.
func hasScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '.' || c == '-'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}

// plainPath takes off what leaves a folder, and writes '\' as '/'.
var plainPath = strings.NewReplacer("../", "", "\\", "/", "/./", "/")

// isLinkTitle reports a link title: "...", '...' or (...).
func isLinkTitle(s string) bool {
	if len(s) < 2 {
		return false
	}
	switch s[0] {
	case '"', '\'':
		return s[len(s)-1] == s[0]
	case '(':
		return s[len(s)-1] == ')'
	}
	return false
}

// A textWord is a word and its offset in the text it is a word of.
type textWord struct {
	text string
	at   int
}

// codeWords cuts code into words at white space and at the characters
// that delimit a path in a command line or a program (quotes, parentheses,
// square and angle brackets, '=', ',', ';', '|', '&', '!'): "open('assets/data.json')" holds
// assets/data.json, "[x](references/c.md)" references/c.md.
func codeWords(s string) iter.Seq[textWord] {
	return cutWords(s, func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune("=,\"'`()[]<>;|&!", r)
	})
}

// proseWords cuts prose into words at white space.
func proseWords(s string) iter.Seq[textWord] {
	return cutWords(s, unicode.IsSpace)
}

func cutWords(s string, sep func(rune) bool) iter.Seq[textWord] {
	return func(yield func(textWord) bool) {
		start := -1
		for i, r := range s {
			if sep(r) {
				if start >= 0 {
					if !yield(textWord{s[start:i], start}) {
						return
					}
					start = -1
				}
				continue
			}
			if start < 0 {
				start = i
			}
		}
		if start >= 0 {
			yield(textWord{s[start:], start})
		}
	}
}

// lineIndex returns the line (from 1) of an offset of s.
func lineIndex(s string) func(at int) int {
	var starts []int
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return func(at int) int {
		return 1 + sort.SearchInts(starts, at+1)
	}
}

// A lineCounter tells the lines of offsets of a text asked for in
// increasing order, counting the line breaks from one to the next: each
// byte is counted once, however many words the text holds, where counting
// from the top for each word of a code block cost the square of its size.
type lineCounter struct {
	text    string
	first   int // the line of the text's first byte
	at      int // the offset counted to
	line    int // its line, less first
	counted int // bytes counted, all told
}

// lineOf is the line of offset at. An offset before the one asked last
// is counted from the top.
func (c *lineCounter) lineOf(at int) int {
	if at < c.at {
		c.at, c.line = 0, 0
	}
	c.line += strings.Count(c.text[c.at:at], "\n")
	c.counted += at - c.at
	c.at = at
	return c.first + c.line
}

// docExts are the extensions by which a bare word of prose is taken for a
// file: documents, not code (a bare "Node.js" is a name).
var docExts = map[string]bool{"md": true, "markdown": true, "mdx": true, "txt": true, "json": true, "yaml": true, "yml": true, "csv": true}

// prosePath turns a word of prose into a path of the skill folder, if it
// looks like one (see [ReferencedFiles]).
func prosePath(w string) (string, bool) {
	return proseFile(trimWord(w, proseCut))
}

func proseFile(w string) (string, bool) {
	p, ok := filePath(w)
	if !ok {
		return "", false
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	if strings.Contains(p, "/") || docExts[ext] {
		return p, true
	}
	return "", false
}

// A wordKind is how words of code, or of prose, are read.
type wordKind struct {
	cut  string                      // the punctuation trimmed off
	file func(string) (string, bool) // the path of a trimmed word that looks like a file
}

var (
	codeKind  = wordKind{codeCut, filePath}
	proseKind = wordKind{proseCut, proseFile}
)

var (
	// inlineLink matches the destination of [text](dest "title") and
	// ![alt](dest), written bare or in angle brackets, followed by ")"
	// or a title as CommonMark has it: [x](a b.md) is no link, and
	// names no file "a".
	inlineLink = regexp.MustCompile(`\]\(\s*(<[^<>\n]*>|[^\s()<>]+)(?:\s*\)|\s+["'(])`)
	// refDefinition matches "[label]: dest" at the start of a line, and
	// what follows dest on its line.
	refDefinition = regexp.MustCompile(`(?m)^ {0,3}\[([^\]\n]+)\]:[ \t]*(<[^<>\n]*>|\S+)(.*)$`)
	fileExt       = regexp.MustCompile(`^[^./][^/]*\.([A-Za-z0-9]{1,10})$`)
	// lineSuffix is the line and column a compiler or linter puts after
	// a path: "src/config.py:42:8".
	lineSuffix = regexp.MustCompile(`(:[0-9]+){1,2}$`)
)

// Punctuation around a word of code, and of prose (where '*' and '_'
// are emphasis, '?' and ',' end clauses), that is no part of a path.
// Braces are not trimmed: "{name}.md" is a placeholder.
const (
	codeCut  = "\"'`()[]<>;:!"
	proseCut = "\"'*_()[]<>;:!?,"
)

// trimWord takes off the characters of cut around w, and the dots that
// end a sentence.
func trimWord(w, cut string) string {
	for {
		t := strings.TrimRight(strings.Trim(w, cut), ".")
		if t == w {
			return t
		}
		w = t
	}
}

// codePath turns a word of code into a path of the skill folder, if it
// looks like a file.
func codePath(w string) (string, bool) {
	return filePath(trimWord(w, codeCut))
}

// filePath turns a word, trimmed, into a path of the skill folder, if it
// looks like a file: it has an extension, and either a '/' or, alone, an
// extension of a text format.
func filePath(w string) (string, bool) {
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-") || isURL(w) {
		return "", false
	}
	p, ok := cleanRelative(w)
	if !ok {
		return "", false
	}
	m := fileExt.FindStringSubmatch(path.Base(p))
	if m == nil || strings.Trim(m[1], "0123456789") == "" {
		return "", false
	}
	if !strings.Contains(p, "/") && !textExts[strings.ToLower(m[1])] {
		return "", false
	}
	return p, true
}

// cleanRelative drops leading "./" and refuses what is not a plain
// relative path of the folder.
func cleanRelative(p string) (string, bool) {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	if p == "" || path.IsAbs(p) || strings.Contains(p, `\`) || spec.CheckFilePath(p) != nil {
		return "", false
	}
	return p, true
}

// textExts are the extensions of text formats that skills commonly ship
// beside SKILL.md.
var textExts = map[string]bool{
	"md": true, "markdown": true, "mdx": true, "txt": true, "rst": true, "adoc": true,
	"py": true, "sh": true, "bash": true, "zsh": true, "ps1": true, "bat": true, "cmd": true,
	"js": true, "mjs": true, "cjs": true, "ts": true, "tsx": true, "jsx": true,
	"json": true, "jsonl": true, "yaml": true, "yml": true, "toml": true, "ini": true, "cfg": true, "conf": true,
	"csv": true, "tsv": true, "xml": true, "xsd": true, "html": true, "htm": true, "css": true, "scss": true,
	"sql": true, "rb": true, "go": true, "rs": true, "java": true, "kt": true, "swift": true,
	"c": true, "h": true, "cpp": true, "hpp": true, "cs": true, "php": true, "pl": true, "r": true, "lua": true,
	"tex": true, "bib": true, "svg": true, "graphql": true, "proto": true,
	"tmpl": true, "tpl": true, "j2": true, "jinja": true, "template": true, "ipynb": true,
}

// IsBinaryPath reports whether a file's extension marks it as binary
// (images, archives, fonts, office documents...), a file the files endpoint
// does not serve.
func IsBinaryPath(p string) bool {
	return binaryExts[strings.ToLower(path.Ext(p))]
}

// A codeText is the text of a code block or span, and the line of the
// instructions it begins on.
type codeText struct {
	text string
	line int
}

// splitFences separates the fenced code blocks (``` or ~~~) of markdown
// from the prose around them; an unclosed fence runs to the end. The
// prose keeps a blank line for each line of a block, fences included, so
// that its lines are those of s.
func splitFences(s string) (prose string, code []codeText) {
	var pb, cb strings.Builder
	pb.Grow(len(s))
	var fence string
	start := 0 // the line of the block's first line
	for i, line := range strings.SplitAfter(s, "\n") {
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		blank := ""
		if strings.HasSuffix(line, "\n") {
			blank = "\n"
		}
		if fence == "" {
			if f := fenceOf(t); f != "" && indent <= 3 && !(f[0] == '`' && strings.Contains(t[len(f):], "`")) {
				fence, start = f, i+2
				pb.WriteString(blank)
				continue
			}
			pb.WriteString(line)
			continue
		}
		pb.WriteString(blank)
		if f := fenceOf(t); indent <= 3 && f != "" && f[0] == fence[0] && len(f) >= len(fence) &&
			strings.TrimSpace(t[len(f):]) == "" {
			code = append(code, codeText{cb.String(), start})
			cb.Reset()
			fence = ""
			continue
		}
		cb.WriteString(line)
	}
	if fence != "" {
		code = append(code, codeText{cb.String(), start})
	}
	return pb.String(), code
}

// fenceOf returns the run of three or more backticks or tildes that opens
// line, or "".
func fenceOf(line string) string {
	if line == "" || (line[0] != '`' && line[0] != '~') {
		return ""
	}
	n := 0
	for n < len(line) && line[n] == line[0] {
		n++
	}
	if n < 3 {
		return ""
	}
	return line[:n]
}

// cutCodeSpans returns text with its inline code spans blanked out (so
// that a link inside code is not a link), every offset kept, and the
// contents of the spans.
func cutCodeSpans(s string) (string, []codeText) {
	var c spanCutter
	return c.cut(s)
}

// A spanCutter cuts the code spans of a text (see [cutCodeSpans]): a run
// of backticks opens a span up to the next run of the same length, and
// is text when none follows. The runs are found in one pass, and each is
// given the next of its length in another, so that the text is read once
// however many runs nothing closes; a search to the end of the text for
// each cost the square of its size.
type spanCutter struct {
	examined int // bytes read to find the spans, all told
}

// A backtickRun is a run of n backticks at offset at of a text.
type backtickRun struct{ at, n int }

func (c *spanCutter) cut(s string) (string, []codeText) {
	var runs []backtickRun
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && s[j] == '`' {
			j++
		}
		if j > i {
			runs = append(runs, backtickRun{i, j - i})
		} else {
			j++
		}
		c.examined += j - i
		i = j
	}
	if len(runs) == 0 {
		return s, nil
	}
	// closing[r] is the next run of the length of run r, or -1.
	closing := make([]int, len(runs))
	nextOf := map[int]int{}
	for r := len(runs) - 1; r >= 0; r-- {
		next, ok := nextOf[runs[r].n]
		if !ok {
			next = -1
		}
		closing[r] = next
		nextOf[runs[r].n] = r
	}
	var out strings.Builder
	out.Grow(len(s))
	var spans []codeText
	line := 1
	done := 0 // the offset of s written up to
	for r := 0; r < len(runs); r++ {
		cr := closing[r]
		if cr < 0 {
			continue // text, written with what follows
		}
		open, end := runs[r], runs[cr].at+runs[cr].n
		out.WriteString(s[done:open.at])
		line += strings.Count(s[done:open.at], "\n")
		spans = append(spans, codeText{s[open.at+open.n : runs[cr].at], line})
		// Blanked, but for its line breaks.
		for k := open.at; k < end; k++ {
			if s[k] == '\n' {
				out.WriteByte('\n')
				line++
			} else {
				out.WriteByte(' ')
			}
		}
		done, r = end, cr
	}
	out.WriteString(s[done:])
	return out.String(), spans
}
