package skillmd

import (
	"bytes"
	"iter"
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/spec"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

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

// ReferencedFiles returns the supporting files that instructions refer
// to by a path relative to the skill folder, sorted by path, each once:
// the files that `skillsync pull` reads through the files endpoint, since
// the API cannot list a skill's folder. The instructions are read as
// CommonMark, and a reference is:
//   - the destination of a link or image, [x](path), ![x](path) or
//     [x][ref], or of a link reference definition, [ref]: path (a GFM
//     footnote, [^1]: text, is none). The author marked it as a link, so
//     any path counts, with or without an extension. A #fragment is
//     dropped; a leading "./" too.
//   - a word of a code span, a code block or HTML that looks like a file:
//     it has an extension (a dot and 1 to 10 letters or digits, one at
//     least a letter), and either a '/' (scripts/extract.py) or, alone,
//     an extension of a common text format (reference.md, forms.json):
//     code mentions json.loads and os.path too, which are no files. Code
//     is cut into words at white space and at the quotes and brackets
//     around paths in programs, open('assets/data.json') or
//     [x](references/c.md); a line and column after a path
//     (src/app.py:42:8) are dropped, as are the dots ending a sentence.
//   - a word of the other text that looks like a file: with a '/' and an
//     extension of a text format (references/workflows.md), or bare with
//     the extension of a document (REFERENCE.md, forms.json); "Node.js"
//     is no file.
//
// Never returned: URLs (anything with a scheme: http:, mailto:, C:),
// anchors (#...), absolute paths, paths with a query string, paths with a
// '.' or '..' segment, SKILL.md itself, and any path the files endpoint
// would refuse ([spec.CheckFilePath]). [FindReferences] lists, with why,
// every such path that is not read. When slug is given, a path that may
// name the skill's own folder (".claude/skills/SLUG/x.py", "SLUG/x.py")
// gets the path relative to it as Alt.
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
	text    string           // the instructions, with LF line ends
	lineOf  func(at int) int // the line of an offset of text, from 1
	slug    string
	set     map[string]*FileRef
	files   []FileRef
	lines   map[string]int // the first line of each path of files
	skipped []SkippedRef
	skipSet map[[2]string]bool
	// proseStart and proseStop bound the prose taken and not yet read.
	proseStart, proseStop int
}

func (sc *referenceScan) add(p string, linked bool, line int) {
	r := sc.set[p]
	if r == nil {
		r = &FileRef{Path: p, Line: line}
		sc.set[p] = r
		sc.lines[p] = line
		if sc.slug != "" {
			if i := strings.LastIndex("/"+p, "/"+sc.slug+"/"); i >= 0 && p[i+len(sc.slug)+1:] != FileName {
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
	case p == FileName:
	case names.InGitDir(p):
		sc.skip(text, line, "inside .git, which pull never writes")
	default:
		if reason := pathProblem(p); reason != "" {
			sc.skip(text, line, reason)
			return
		}
		sc.add(p, linked, line)
	}
}

// scanReferences reads instructions as CommonMark (see [ReferencedFiles]).
func scanReferences(instructions, slug string) referenceScan {
	sc := referenceScan{slug: slug, set: map[string]*FileRef{}, lines: map[string]int{}, skipSet: map[[2]string]bool{}}
	sc.text = strings.ReplaceAll(instructions, "\r\n", "\n")
	sc.lineOf = lineIndex(sc.text)
	md := []byte(sc.text)
	if len(md) > maxMarkdownBytes {
		md = md[:bytes.LastIndexByte(md[:maxMarkdownBytes], '\n')+1]
	}
	_ = ast.Walk(markdown().Parse(text.NewReader(md)), sc.visit)
	sc.flushProse()
	sc.code(len(md), len(sc.text))
	sc.files = make([]FileRef, 0, len(sc.set))
	for _, r := range sc.set {
		sc.files = append(sc.files, *r)
	}
	sort.Slice(sc.files, func(i, j int) bool { return sc.files[i].Path < sc.files[j].Path })
	return sc
}

// visit reads a node of the markdown: the destinations of links, images
// and link reference definitions are links; the words of code spans,
// code blocks and HTML are read as code, the rest of the text as prose.
func (sc *referenceScan) visit(n ast.Node, entering bool) (ast.WalkStatus, error) {
	switch n := n.(type) {
	case *ast.Text:
		if entering {
			sc.prose(n.Segment.Start, n.Segment.Stop)
		}
		return ast.WalkContinue, nil
	case *ast.Emphasis:
		return ast.WalkContinue, nil // its markers stay in the words of the prose
	case *ast.RawHTML:
		if sc.bareTag(n.Segments) {
			return ast.WalkContinue, nil // "<slug>" in a path stays in its word
		}
	}
	sc.flushProse()
	if !entering {
		return ast.WalkContinue, nil
	}
	switch n := n.(type) {
	// The destination of [x][ref] is taken where ref is defined.
	case *ast.Link:
		if n.Reference == nil {
			sc.link(string(n.Destination), sc.lineOf(n.Pos()))
		}
	case *ast.Image:
		if n.Reference == nil {
			sc.link(string(n.Destination), sc.lineOf(n.Pos()))
		}
	case *ast.LinkReferenceDefinition:
		if bytes.HasPrefix(n.Label, []byte("^")) {
			// "[^1]: notes.md" is a footnote, no link: its text is prose.
			sc.word(string(n.Destination), n.Pos(), proseKind)
		} else {
			sc.link(string(n.Destination), sc.lineOf(n.Pos()))
		}
	case *ast.AutoLink:
		return ast.WalkSkipChildren, nil // a URL or an email address
	case *ast.CodeSpan:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				sc.code(t.Segment.Start, t.Segment.Stop)
			}
		}
		return ast.WalkSkipChildren, nil
	case *ast.RawHTML:
		sc.codeLines(n.Segments)
	case *ast.CodeBlock, *ast.FencedCodeBlock, *ast.HTMLBlock:
		sc.codeLines(n.Lines())
	}
	return ast.WalkContinue, nil
}

// bareTag reports inline HTML with no white space, such as "<br>" or
// "<slug>": a tag with no attributes, or a placeholder.
func (sc *referenceScan) bareTag(segs *text.Segments) bool {
	if segs.Len() != 1 {
		return false
	}
	seg := segs.At(0)
	return !strings.ContainsFunc(sc.text[seg.Start:seg.Stop], unicode.IsSpace)
}

// prose takes text[start:stop] as prose. Prose is read from the text,
// from the first piece to the last before a node of another kind:
// "scripts/__init__.py" is one word, though "__init__" parses as emphasis.
func (sc *referenceScan) prose(start, stop int) {
	if sc.proseStart == sc.proseStop {
		sc.proseStart = start
	}
	sc.proseStop = max(stop, sc.proseStart)
}

// flushProse reads the words of the prose taken since the last call.
func (sc *referenceScan) flushProse() {
	for w := range proseWords(sc.text[sc.proseStart:sc.proseStop]) {
		sc.word(w.text, sc.proseStart+w.at, proseKind)
	}
	sc.proseStart = sc.proseStop
}

// code takes the words of the code text[start:stop].
func (sc *referenceScan) code(start, stop int) {
	for w := range codeWords(sc.text[start:stop]) {
		sc.word(w.text, start+w.at, codeKind)
	}
}

func (sc *referenceScan) codeLines(lines *text.Segments) {
	for i := range lines.Len() {
		seg := lines.At(i)
		sc.code(seg.Start, seg.Stop)
	}
}

// Bounds on the markdown that goldmark parses, within which its time
// grows with the text, whatever shapes the text takes.
const (
	// maxMarkdownBytes is the most the service's instructions take in
	// UTF-8; text past it is read as code, its links as mentions.
	maxMarkdownBytes = 150_000
	// maxParagraphBytes: a longer paragraph is parsed in pieces of lines.
	maxParagraphBytes = 16 << 10
	// maxLineBytes: a longer line of a paragraph is read as code.
	maxLineBytes = 4 << 10
	// maxNesting is the most block quotes and lists opened one in another.
	maxNesting = 32
)

// markdown is goldmark's CommonMark parser, within the bounds above, less
// headings, whose text is read as a paragraph's would be. It is made once:
// parsing never changes it.
var markdown = sync.OnceValue(func() parser.Parser {
	return parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(shallow{parser.NewListParser()}, 300),
			util.Prioritized(parser.NewListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewFencedCodeBlockParser(), 700),
			util.Prioritized(shallow{parser.NewBlockquoteParser()}, 800),
			util.Prioritized(parser.NewHTMLBlockParser(), 900),
			util.Prioritized(parser.NewParagraphParser(), 1000),
		),
		parser.WithInlineParsers(parser.DefaultInlineParsers()...),
		parser.WithParagraphTransformers(
			util.Prioritized(longParagraphs{}, 0), // before the definitions are read
			util.Prioritized(parser.LinkReferenceParagraphTransformer, 100),
		),
	)
})

// shallow is the parser of a container block, which opens none inside
// maxNesting others: the line is then text of the innermost.
type shallow struct{ parser.BlockParser }

func (s shallow) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	depth := 0
	for n := parent; n != nil; n = n.Parent() {
		if depth++; depth > maxNesting {
			return nil, parser.NoChildren
		}
	}
	return s.BlockParser.Open(parent, reader, pc)
}

// longParagraphs cuts a paragraph over maxParagraphBytes into paragraphs
// of whole lines, and makes a line over maxLineBytes a code block, before
// inlines are parsed. The paragraph given keeps the first lines.
type longParagraphs struct{}

func (longParagraphs) Transform(p *ast.Paragraph, _ text.Reader, _ parser.Context) {
	lines, size, longest := *p.Lines(), 0, 0
	for i := range lines.Len() {
		seg := lines.At(i)
		size, longest = size+seg.Len(), max(longest, seg.Len())
	}
	if size <= maxParagraphBytes && longest <= maxLineBytes {
		return
	}
	p.SetLines(text.NewSegments())
	var last ast.Node = p
	piece, size := p, 0
	for i := range lines.Len() {
		seg := lines.At(i)
		var n ast.Node
		switch {
		case seg.Len() > maxLineBytes:
			code := ast.NewCodeBlock()
			code.Lines().Append(seg)
			n, piece = code, nil
		case piece == nil || size+seg.Len() > maxParagraphBytes:
			piece, size = ast.NewParagraph(), 0
			n = piece
		}
		if n != nil {
			p.Parent().InsertAfter(p.Parent(), last, n)
			last = n
		}
		if piece != nil {
			piece.Lines().Append(seg)
			size += seg.Len()
		}
	}
}

// link takes the destination of a link, its angle brackets taken off.
func (sc *referenceScan) link(dest string, line int) {
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

// word takes a word of code or prose, at offset at of the text, that
// looks like a file (see [ReferencedFiles]) as a path of the folder; a
// word that would, were it a plain relative path, but is refused as one
// is skipped, with why.
func (sc *referenceScan) word(w string, at int, kind wordKind) {
	if !strings.Contains(w, ".") {
		return // no extension: no file, and most words are such
	}
	t := trimWord(w, kind.cut)
	if !strings.Contains(t, ".") {
		return
	}
	line := sc.lineOf(at)
	if p, ok := kind.file(t); ok {
		sc.take(t, p, false, line)
		return
	}
	if t == "" || strings.HasPrefix(t, "-") || isURL(t) {
		return // an option, a URL: no file
	}
	if m := lineSuffix.FindStringIndex(t); m != nil {
		// "src/config.py:42:8" is src/config.py.
		sc.word(t[:m[0]], at, kind)
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
		return "a path the files endpoint cannot address: " + RuleMessage(err)
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

// docExts are the extensions by which a bare word of prose is taken for a
// file: documents, not code (a bare "Node.js" is a name).
var docExts = map[string]bool{"md": true, "markdown": true, "mdx": true, "txt": true, "json": true, "yaml": true, "yml": true, "csv": true}

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
	fileExt = regexp.MustCompile(`^[^./][^/]*\.([A-Za-z0-9]{1,10})$`)
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

// filePath turns a word, trimmed, into a path of the skill folder, if it
// looks like a file: it has an extension, and either a '/' or, alone, an
// extension of a text format.
func filePath(w string) (string, bool) {
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-") || isURL(w) {
		return "", false
	}
	p := w
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	// The files endpoint's rule leaves only plain relative paths.
	if spec.CheckFilePath(p) != nil {
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

// IsTextPath reports whether a file's extension marks it as one of the
// text formats skills ship beside SKILL.md (documents, scripts, data),
// which is read as text whatever bytes it holds.
func IsTextPath(p string) bool {
	return textExts[strings.TrimPrefix(strings.ToLower(path.Ext(p)), ".")]
}

// IsBinaryPath reports whether a file's extension marks it as binary
// (images, archives, fonts, office documents...), a file the files endpoint
// does not serve.
func IsBinaryPath(p string) bool {
	return binaryExts[strings.ToLower(path.Ext(p))]
}

// binaryExts are extensions whose files are binary whatever their first
// bytes hold.
var binaryExts = map[string]bool{
	".png": true, ".jpg": true, ".jpeg": true, ".gif": true, ".webp": true, ".ico": true, ".bmp": true,
	".tif": true, ".tiff": true, ".pdf": true, ".zip": true, ".gz": true, ".tgz": true, ".bz2": true,
	".xz": true, ".7z": true, ".tar": true, ".jar": true, ".woff": true, ".woff2": true, ".ttf": true,
	".otf": true, ".eot": true, ".mp3": true, ".mp4": true, ".wav": true, ".ogg": true, ".mov": true,
	".exe": true, ".dll": true, ".so": true, ".dylib": true, ".wasm": true, ".pyc": true, ".class": true,
	".docx": true, ".xlsx": true, ".pptx": true, ".odt": true, ".sqlite": true, ".db": true, ".bin": true,
}
