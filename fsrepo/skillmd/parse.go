package skillmd

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/skillsync/skillsync/fsrepo/diag"
	"github.com/skillsync/skillsync/internal/frontmatter"
	"github.com/skillsync/skillsync/internal/names"
	"github.com/skillsync/skillsync/internal/suggest"
	"github.com/skillsync/skillsync/internal/visible"
	"github.com/skillsync/skillsync/internal/yamlnode"
	"github.com/skillsync/skillsync/spec"
	"go.yaml.in/yaml/v3"
)

// FileName is the name of the file of a skill folder that holds its
// frontmatter and instructions.
const FileName = "SKILL.md"

// Frontmatter keys with a meaning to skillsync; all others are kept in
// [Document.Extra] and ignored.
const (
	KeyName        = "name"
	KeyDescription = "description"
	KeyEnabled     = "enabled"
)

// knownKeys are the frontmatter keys that real SKILL.md files use (the Agent
// Skills specification, Claude Code, common generators). A key that is none
// of these but close to one draws a typo warning.
var knownKeys = []string{
	KeyName, KeyDescription, KeyEnabled,
	"license", "allowed-tools", "metadata", "compatibility", "version",
	"argument-hint", "model", "disable-model-invocation", "user-invocable",
	"when_to_use", "context", "agent", "hooks", "author", "tags",
}

const bom = "\uFEFF"

func isAlnum(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// A Document is one SKILL.md as read: what its frontmatter and body say,
// and where and how they say it, for the rules that judge more than the
// values (package lint).
type Document struct {
	Path         string         // as given to [Parse], which the diagnostics name
	Name         string         // frontmatter name
	Description  string         // frontmatter description
	Enabled      bool           // frontmatter enabled; true when absent
	Instructions string         // the body, in canonical form (see [spec.Canonical])
	Extra        map[string]any // other frontmatter keys, kept and ignored

	// NameOK is set when the name is a string the service accepts;
	// NameLine and NameCol are where its value is written.
	NameOK            bool
	NameLine, NameCol int
	// Keys are the frontmatter's keys, in order, each once (the first
	// entry of a key written twice).
	Keys []Key
	// Block is the frontmatter's text, between the "---" lines.
	Block string
	// Body is the text after the frontmatter as written, from line
	// BodyLine of the file, with LF line endings.
	Body     string
	BodyLine int
}

// A Key is a key of the frontmatter with its value, at lines of the file.
type Key struct {
	Name                string
	Line, Col           int // the key's
	Value               *yaml.Node
	ValueLine, ValueCol int // the value's
}

// Fields are the fields of d that [spec.Differ] compares.
func (d *Document) Fields() spec.Fields {
	text := d.Instructions
	return spec.Fields{Name: d.Name, Description: d.Description, Instructions: &text, Enabled: d.Enabled}
}

// Parse parses one SKILL.md: its YAML frontmatter (name, description,
// enabled, and any other keys, kept in Extra) and its body, the instructions,
// returned in [spec.Canonical] form. path is used in the diagnostics (and stored
// in the Document). Every rule that can be checked from the file alone is
// checked, and every problem reported. The returned Document holds whatever
// could be parsed, even when there are errors.
func Parse(path string, data []byte) (*Document, diag.Diagnostics) {
	p := &skillParser{path: path}
	doc := p.parse(data)
	return doc, p.ds
}

type skillParser struct {
	path string
	ds   diag.Diagnostics
	doc  *Document
	// blockLines are the lines of the block, cut once for the diagnostics
	// of every key whose value does not decode.
	blockLines []string
}

func (p *skillParser) add(line, col int, sev diag.Severity, code, msg, hint string) {
	p.ds = append(p.ds, diag.Diagnostic{Path: p.path, Line: line, Col: col, Severity: sev, Code: code, Message: msg, Hint: hint})
}

func (p *skillParser) errorf(line, col int, code, hint, format string, args ...any) {
	p.add(line, col, diag.SeverityError, code, fmt.Sprintf(format, args...), hint)
}

func (p *skillParser) warnf(line, col int, code, hint, format string, args ...any) {
	p.add(line, col, diag.SeverityWarning, code, fmt.Sprintf(format, args...), hint)
}

const exampleFrontmatter = `begin SKILL.md with "---", then "name: ..." and "description: ..." lines, then "---"`

func (p *skillParser) parse(data []byte) *Document {
	sk := &Document{Path: p.path, Enabled: true}
	p.doc = sk
	if !utf8.Valid(data) {
		line, col, b := diag.InvalidUTF8(data)
		p.errorf(line, col, "text-not-utf8", "save the file as UTF-8",
			"SKILL.md is not UTF-8 text (byte 0x%02x)", b)
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
	}
	// Neither a BOM nor CRLF moves a line, so positions found in the
	// normalised text are positions in the file.
	data = bytes.TrimPrefix(data, []byte(bom))
	if bytes.Contains(data, []byte("\r\n")) {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}

	fm := frontmatter.Parse(data)
	switch fm.State {
	case frontmatter.None:
		p.errorf(1, 1, "frontmatter-missing", exampleFrontmatter,
			"no frontmatter: the skill needs a name and a description")
	case frontmatter.Unclosed:
		p.errorf(fm.OpenLine, 1, "frontmatter-unclosed",
			`end the frontmatter with a line holding only "---"`,
			`frontmatter is not closed: no "---" line after line %d`, fm.OpenLine)
	case frontmatter.Found:
		p.frontmatter(sk, fm)
	}

	body := string(fm.Body)
	sk.Body, sk.BodyLine = body, fm.BodyLine
	sk.Instructions = spec.Canonical(body)
	if send := spec.InstructionsToSend(sk.Instructions); spec.CheckInstructions(send) != nil {
		without := ""
		if send != sk.Instructions {
			without = " without the final newline"
		}
		p.errorf(fm.BodyLine, 1, "instructions-too-long",
			"move details into supporting files in the skill folder and refer to them from SKILL.md",
			"instructions are %d characters (UTF-16 code units) long%s; the service accepts at most %d",
			spec.UTF16Len(send), without, spec.MaxInstructionsLen)
	}
	return sk
}

// yamlLineRef is a line that yaml.v3 names inside a message, such as the
// first of two equal keys: "mapping key "a" already defined at line 4".
var yamlLineRef = regexp.MustCompile(`\bat line (\d+)\b`)

// fileLines rewrites the lines yaml.v3 names inside msg, lines of the
// block, as lines of the file.
func fileLines(msg string, fm frontmatter.Split) string {
	return yamlLineRef.ReplaceAllStringFunc(msg, func(m string) string {
		n, err := strconv.Atoi(yamlLineRef.FindStringSubmatch(m)[1])
		if err != nil {
			return m
		}
		return "at line " + strconv.Itoa(fm.Line(n))
	})
}

// frontmatter decodes the YAML block into sk, reporting positions as lines
// of the file (see [frontmatter.Split.Line]).
func (p *skillParser) frontmatter(sk *Document, fm frontmatter.Split) {
	sk.Block = string(fm.Block)
	doc, err := parseBlock(fm.Block)
	var se *frontmatter.SurrogateError
	if errors.As(err, &se) {
		p.errorf(fm.Line(se.Line), se.Col, "frontmatter-yaml",
			`write the character itself, or escape it whole with 8 hex digits, as "\U0001F600" for 😀`,
			"frontmatter is not valid YAML: %s", se.Problem())
		return
	}
	if err != nil {
		p.yamlError(err, fm)
		return
	}
	var root *yaml.Node
	if doc.Kind == yaml.DocumentNode && len(doc.Content) > 0 {
		root = doc.Content[0]
	}
	if root == nil || (root.Kind == yaml.ScalarNode && root.Tag == "!!null") {
		p.errorf(fm.OpenLine, 1, "frontmatter-empty", `add "name: ..." and "description: ..." lines between the "---" lines`,
			"frontmatter is empty: the skill needs a name and a description")
		return
	}
	if root.Kind != yaml.MappingNode {
		p.errorf(fm.Line(root.Line), root.Column, "frontmatter-not-mapping", `write the frontmatter as "key: value" lines`,
			"frontmatter must be a mapping of keys to values, not %s", yamlnode.Kind(root))
		return
	}

	seen := map[string]*yaml.Node{}
	var hasName, hasDescription bool
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		key := k.Value
		kl, kc := fm.Line(k.Line), k.Column
		if first, dup := seen[key]; dup {
			p.errorf(kl, kc, "frontmatter-duplicate-key", "remove one of them",
				"duplicate key %s (first at line %d)", visible.Quote(key), fm.Line(first.Line))
			continue
		}
		seen[key] = k
		v = yamlnode.Resolve(v)
		vl, vc := fm.Line(v.Line), v.Column
		sk.Keys = append(sk.Keys, Key{Name: key, Line: kl, Col: kc, Value: v, ValueLine: vl, ValueCol: vc})
		if (key == KeyName || key == KeyDescription) && v.Kind == yaml.ScalarNode && v.Style == 0 &&
			len(v.LineComment) > 1 && v.LineComment[0] == '#' && v.LineComment[1] != ' ' && v.LineComment[1] != '#' {
			// "description: Tag it #release" reads as "Tag it" and a
			// comment: a "#word" is a tag the author meant to keep, where
			// "# note" is a comment.
			p.warnf(vl, vc, key+"-comment", fmt.Sprintf("quote the %s to keep it whole: %s: %s", key, key, yamlnode.Quote(v.Value+" "+v.LineComment)),
				"%s ends at %s: the rest of the line, %s, is a YAML comment and is dropped", key, visible.Quote(v.Value), visible.Quote(v.LineComment))
		}
		switch key {
		case KeyName:
			hasName = true
			sk.NameLine, sk.NameCol = vl, vc
			var ok bool
			sk.Name, ok = p.stringValue(key, v, vl, vc)
			if err := spec.CheckName(sk.Name); err != nil && sk.Name != "" {
				p.errorf(vl, vc, "name-invalid", nameHint(sk.Name), "%s", RuleMessage(err))
			} else {
				sk.NameOK = ok
				if i := strings.IndexFunc(sk.Name, func(r rune) bool { return r >= utf8.RuneSelf }); i >= 0 {
					r, _ := utf8.DecodeRuneInString(sk.Name[i:])
					p.warnf(vl, vc, "name-non-ascii", "use ASCII letters and digits if the service refuses the name",
						"name holds %q: the service's rule says letters and digits, and it may accept only ASCII ones", r)
				}
			}
		case KeyDescription:
			hasDescription = true
			sk.Description, _ = p.stringValue(key, v, vl, vc)
			if err := spec.CheckDescription(sk.Description); err != nil && sk.Description != "" {
				p.errorf(vl, vc, "description-invalid", "shorten the description; say what the skill does and when to use it",
					"%s", RuleMessage(err))
			}
		case KeyEnabled:
			sk.Enabled = p.boolValue(key, v, vl, vc)
		default:
			var x any
			if err := v.Decode(&x); err != nil {
				p.yamlError(err, fm)
				continue
			}
			if sk.Extra == nil {
				sk.Extra = map[string]any{}
			}
			sk.Extra[key] = x
			if known, ok := Typo(key); ok {
				p.warnf(kl, kc, "frontmatter-key-typo", fmt.Sprintf("rename it to %q", known),
					"unknown frontmatter key %s looks like a typo of %q", visible.Quote(key), known)
			}
		}
	}
	if !hasName {
		p.errorf(fm.OpenLine, 1, "name-missing", `add a "name: ..." line to the frontmatter`,
			"frontmatter has no name")
	}
	if !hasDescription {
		p.errorf(fm.OpenLine, 1, "description-missing",
			`add a "description: ..." line to the frontmatter, saying what the skill does and when to use it`,
			"frontmatter has no description")
	}
}

// parseBlock reads a frontmatter block as YAML, with JSON-style surrogate
// pair escapes, which yaml.v3 refuses, joined first (see
// [frontmatter.JoinSurrogates]); positions are those of block.
func parseBlock(block []byte) (yaml.Node, error) {
	var doc yaml.Node
	joined, err := frontmatter.JoinSurrogates(block)
	if err != nil {
		return doc, err
	}
	err = yaml.Unmarshal(joined, &doc)
	return doc, err
}

// stringValue reads a string scalar. The final line break a literal or
// folded block scalar ("|" or ">") keeps is an artifact of the YAML syntax,
// not part of the value, and is dropped.
func (p *skillParser) stringValue(key string, v *yaml.Node, line, col int) (string, bool) {
	if v.Kind != yaml.ScalarNode {
		p.errorf(line, col, key+"-type", "", "%s must be a string, not %s", key, yamlnode.Kind(v))
		return "", false
	}
	s := v.Value
	switch {
	case v.Tag == "!!null":
		s = "" // "~" or "null" spell no value
	case v.Tag != "!!str":
		p.errorf(line, col, key+"-type", fmt.Sprintf("quote it: %s: %q", key, v.Value),
			"%s must be a string, not %s %s", key, yamlnode.Kind(v), v.Value)
		return v.Value, false
	case v.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		s = strings.TrimRight(s, "\n")
	}
	if s == "" {
		p.errorf(line, col, key+"-empty", fmt.Sprintf(`write the %s after "%s: "`, key, key), "%s is empty", key)
		return "", false
	}
	return s, true
}

// boolValue reads enabled. Unquoted yes/no/on/off are the booleans of YAML
// 1.1, which yaml.v3 still decodes into a bool; they are accepted. A quoted
// "no" is a string, and an error: it would read as true in some tools.
func (p *skillParser) boolValue(key string, v *yaml.Node, line, col int) bool {
	if v.Kind == yaml.ScalarNode {
		switch {
		case v.Tag == "!!bool":
			var b bool
			if err := v.Decode(&b); err == nil {
				return b
			}
		case v.Tag == "!!str" && v.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle) == 0:
			switch strings.ToLower(v.Value) {
			case "yes", "on":
				return true
			case "no", "off":
				return false
			}
		}
	}
	desc := yamlnode.Kind(v)
	if v.Kind == yaml.ScalarNode {
		desc += " " + strconv.Quote(v.Value)
	}
	p.errorf(line, col, key+"-type", fmt.Sprintf("write %s: true or %s: false, without quotes", key, key),
		"%s must be true or false, not %s", key, desc)
	return true
}

// yamlError turns a yaml.v3 error into diagnostics at the lines of the file,
// with a hint for the mistakes real SKILL.md files make.
func (p *skillParser) yamlError(err error, fm frontmatter.Split) {
	if p.blockLines == nil {
		p.blockLines = strings.Split(p.doc.Block, "\n")
	}
	for _, pr := range yamlnode.Problems(err, p.blockLines) {
		// yaml.v3 gives no line for some errors, such as a tab that
		// indents the first key: Problems points at the first
		// tab-indented line, or at none.
		line := fm.OpenLine
		if pr.Line > 0 {
			line = fm.Line(pr.Line)
		}
		p.errorf(line, 1, "frontmatter-yaml", pr.Hint, "frontmatter is not valid YAML: %s", fileLines(pr.Msg, fm))
	}
}

func nameHint(name string) string {
	if name == "" {
		return ""
	}
	return fmt.Sprintf("for example: name: %s", suggestName(name))
}

// suggestName makes a name the service accepts from one it does not.
func suggestName(name string) string {
	s := names.JoinRuns(name, func(r rune) bool { return isAlnum(r) || r == ' ' })
	// A character replaced next to a space needs no hyphen: "Development
	// (TDD)" becomes "Development TDD", not "Development -TDD".
	for _, pair := range [][2]string{{" -", " "}, {"- ", " "}} {
		for strings.Contains(s, pair[0]) {
			s = strings.ReplaceAll(s, pair[0], pair[1])
		}
	}
	s = strings.Join(strings.Fields(s), " ")
	s = strings.TrimFunc(s, func(r rune) bool { return !isAlnum(r) })
	if spec.UTF16Len(s) > spec.MaxNameLen {
		// The longest prefix that fits, found in one pass over the name.
		n, end := 0, 0
		for i, r := range s {
			if n += utf16.RuneLen(r); n > spec.MaxNameLen {
				break
			}
			end = i + utf8.RuneLen(r)
		}
		s = strings.TrimFunc(s[:end], func(r rune) bool { return !isAlnum(r) })
	}
	if s == "" {
		return "my-skill"
	}
	return s
}

// Typo reports the known key that key is a likely misspelling of. A
// plural or singular of a known key ("agents", "tag") is no misspelling:
// one letter apart as they are, it is a word of its own, written on
// purpose.
func Typo(key string) (string, bool) {
	lk := strings.ToLower(key)
	for _, k := range knownKeys {
		if k == key || key == k+"s" || key+"s" == k {
			return "", false
		}
	}
	for _, k := range knownKeys {
		if lk == k || strings.ReplaceAll(lk, "_", "-") == k {
			return k, true
		}
	}
	best := suggest.Closest(lk, knownKeys)
	return best, best != ""
}
