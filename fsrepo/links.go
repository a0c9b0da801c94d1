package fsrepo

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"

	"github.com/skillsync/skillsync/spec"
)

// LinkedFiles returns the supporting files that instructions refer to by a
// path relative to the skill folder, sorted and without duplicates: the
// files that `skillsync pull` reads through the files endpoint, since the
// API cannot list a skill's folder.
//
// A reference is:
//   - the destination of a markdown link or image, [x](path) or ![x](path),
//     or of a reference definition, [x]: path. The author marked it as a
//     link, so any path counts, with or without an extension. A #fragment
//     is dropped; a leading "./" too.
//   - a word of an inline code span or of a fenced code block that looks
//     like a file: it has an extension (a dot and 1 to 10 letters or
//     digits, one at least a letter), and either a '/' (scripts/extract.py)
//     or, alone, an extension of a common text format (reference.md,
//     forms.json): code mentions json.loads and os.path too, which are no
//     files.
//
// Never returned: URLs (anything with a scheme: http:, mailto:, C:),
// anchors (#...), absolute paths, paths with a query string, paths with a
// '.' or '..' segment, SKILL.md itself, and any path the files endpoint
// would refuse ([spec.CheckFilePath]).
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
}

// ReferencedFiles is [LinkedFiles] with each reference's kind, sorted by
// path. Besides links and code it reads prose words that look like files
// of the skill: with a '/' and an extension of a text format
// (references/workflows.md), or bare with the extension of a document
// (REFERENCE.md, forms.json); "Node.js" is no file. When slug is given, a
// path that may name the skill's own folder (".claude/skills/SLUG/x.py",
// "SLUG/x.py") gets the path relative to it as Alt.
func ReferencedFiles(instructions, slug string) []FileRef {
	set := map[string]*FileRef{}
	add := func(p string, linked bool) {
		if p == SkillFile || spec.CheckFilePath(p) != nil || InGitDir(p) {
			return
		}
		r := set[p]
		if r == nil {
			r = &FileRef{Path: p}
			set[p] = r
			if slug != "" {
				if i := strings.LastIndex("/"+p, "/"+slug+"/"); i >= 0 && p[i+len(slug)+1:] != SkillFile {
					r.Alt = p[i+len(slug)+1:]
				}
			}
		}
		r.Linked = r.Linked || linked
	}
	prose, code := splitFences(strings.ReplaceAll(instructions, "\r\n", "\n"))
	prose, spans := cutCodeSpans(prose)
	code = append(code, spans...)

	for _, m := range inlineLink.FindAllStringSubmatch(prose, -1) {
		if p, ok := linkPath(m[1]); ok {
			add(p, true)
		}
	}
	for _, m := range refDefinition.FindAllStringSubmatch(prose, -1) {
		if p, ok := linkPath(m[1]); ok {
			add(p, true)
		}
	}
	for _, c := range code {
		for _, w := range strings.FieldsFunc(c, func(r rune) bool {
			return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '=' || r == ','
		}) {
			if p, ok := codePath(w); ok {
				add(p, false)
			}
		}
	}
	// Prose, links cut out: "see REFERENCE.md", "read references/forms.md".
	for _, w := range strings.Fields(inlineLink.ReplaceAllString(prose, "]")) {
		if p, ok := prosePath(w); ok {
			add(p, false)
		}
	}
	out := make([]FileRef, 0, len(set))
	for _, r := range set {
		out = append(out, *r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// docExts are the extensions by which a bare word of prose is taken for a
// file: documents, not code (a bare "Node.js" is a name).
var docExts = map[string]bool{"md": true, "markdown": true, "mdx": true, "txt": true, "json": true, "yaml": true, "yml": true, "csv": true}

// prosePath turns a word of prose into a path of the skill folder, if it
// looks like one (see [ReferencedFiles]).
func prosePath(w string) (string, bool) {
	w = strings.Trim(w, "\"'*_()[]{}<>;:!?,")
	w = strings.TrimRight(w, ".")
	p, ok := codePath(w)
	if !ok {
		return "", false
	}
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(p), "."))
	if strings.Contains(p, "/") || docExts[ext] {
		return p, true
	}
	return "", false
}

var (
	// inlineLink matches the destination of [text](dest "title") and
	// ![alt](dest), written bare or in angle brackets.
	inlineLink = regexp.MustCompile(`\]\(\s*(<[^<>\n]*>|[^\s()<>]+)`)
	// refDefinition matches "[label]: dest" at the start of a line.
	refDefinition = regexp.MustCompile(`(?m)^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^<>\n]*>|\S+)`)
	scheme        = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	fileExt       = regexp.MustCompile(`^[^./][^/]*\.([A-Za-z0-9]{1,10})$`)
)

// linkPath turns a link destination into a path of the skill folder.
func linkPath(dest string) (string, bool) {
	dest = strings.TrimSuffix(strings.TrimPrefix(dest, "<"), ">")
	if dest == "" || strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "/") || scheme.MatchString(dest) ||
		strings.Contains(dest, "?") {
		return "", false
	}
	dest, _, _ = strings.Cut(dest, "#")
	if u, err := url.PathUnescape(dest); err == nil {
		dest = u
	}
	return cleanRelative(dest)
}

// codePath turns a word of code into a path of the skill folder, if it
// looks like a file.
func codePath(w string) (string, bool) {
	w = strings.Trim(w, "\"'`()[]{}<>;:!")
	w = strings.TrimRight(w, ".")
	if w == "" || strings.HasPrefix(w, "/") || strings.HasPrefix(w, "-") || scheme.MatchString(w) {
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

// splitFences separates the fenced code blocks (``` or ~~~) of markdown
// from the prose around them; an unclosed fence runs to the end.
func splitFences(s string) (prose string, code []string) {
	var pb, cb strings.Builder
	var fence string
	for _, line := range strings.SplitAfter(s, "\n") {
		t := strings.TrimLeft(line, " ")
		indent := len(line) - len(t)
		if fence == "" {
			if f := fenceOf(t); f != "" && indent <= 3 && !(f[0] == '`' && strings.Contains(t[len(f):], "`")) {
				fence = f
				continue
			}
			pb.WriteString(line)
			continue
		}
		if f := fenceOf(t); indent <= 3 && f != "" && f[0] == fence[0] && len(f) >= len(fence) &&
			strings.TrimSpace(t[len(f):]) == "" {
			code = append(code, cb.String())
			cb.Reset()
			fence = ""
			pb.WriteString("\n")
			continue
		}
		cb.WriteString(line)
	}
	if fence != "" {
		code = append(code, cb.String())
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
// that a link inside code is not a link) and the contents of the spans.
func cutCodeSpans(s string) (string, []string) {
	var out strings.Builder
	var spans []string
	for i := 0; i < len(s); {
		if s[i] != '`' {
			out.WriteByte(s[i])
			i++
			continue
		}
		n := 0
		for i+n < len(s) && s[i+n] == '`' {
			n++
		}
		// Find the closing run of exactly n backticks.
		j := i + n
		closed := -1
		for j < len(s) {
			if s[j] != '`' {
				j++
				continue
			}
			m := 0
			for j+m < len(s) && s[j+m] == '`' {
				m++
			}
			if m == n {
				closed = j
				break
			}
			j += m
		}
		if closed < 0 {
			out.WriteString(s[i : i+n])
			i += n
			continue
		}
		spans = append(spans, s[i+n:closed])
		out.WriteString(strings.Repeat(" ", closed+n-i))
		i = closed + n
	}
	return out.String(), spans
}
