package lint

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// A hidden range is markup a reader of the rendered page does not see.
type hidden struct {
	start, end int // in raw
	what       string
	// element is set for text hidden by style or attribute, which no
	// author writes but to hide it.
	element bool
}

// hiddenMarkdown finds what a rendered page leaves out: HTML comments,
// link reference definitions used as comments, and elements hidden by an
// attribute or a style. What another rule found inside is an error, as no
// reviewer reads it; instructions inside with no other finding are a
// warning.
func (s *scan) hiddenMarkdown() {
	hs := s.hiddenRanges()
	if len(hs) == 0 {
		return
	}
	n := len(s.out)
	for _, h := range hs {
		fs, fe := s.foldSpan(h.start, h.end)
		inside := false
		for i := 0; i < n; i++ {
			sp := &s.spans[i]
			if sp.start >= fs && sp.start < fe || s.out[i].Rule == RuleHiddenUnicode && s.rawStart(i) >= h.start && s.rawStart(i) < h.end {
				inside = true
				sp.hidden = true
				s.out[i].Severity = SeverityError
			}
		}
		switch {
		case inside:
			s.addRaw(RuleHiddenMarkdown, SeverityError, h.start, h.end, "", fmt.Sprintf("%s holds text that another rule finds, which no reader of the page sees", h.what))
		case instructionLike(s.fold[fs:fe]):
			sev := SeverityWarning
			if agentDirected.Match(s.fold[fs:fe]) && sendsAway.Match(s.fold[fs:fe]) || h.element && markdownPath(s.path) || modelAddressed.Match(s.fold[fs:fe]) {
				sev = SeverityError // orders for the model where no reviewer reads them
			}
			s.work += fe - fs
			s.addRaw(RuleHiddenMarkdown, sev, h.start, h.end, "", fmt.Sprintf("%s holds instructions that no reader of the page sees", h.what))
		}
	}
}

// rawStart is the offset in raw where finding i starts.
func (s *scan) rawStart(i int) int {
	if sp := s.spans[i]; sp.start >= 0 {
		return s.t.rawOff(sp.start)
	}
	f := s.out[i]
	if s.t.lines == nil {
		s.t.pos(0)
	}
	if f.Line-1 < len(s.t.lines) {
		off := s.t.lines[f.Line-1]
		for c := 1; c < f.Col && off < len(s.t.raw); c++ {
			_, n := utf8.DecodeRuneInString(s.t.raw[off:])
			off += n
		}
		return off
	}
	return len(s.t.raw)
}

// instructionLike reports whether b holds orders: a model or "you" told
// what it must do, or a sentence opening on a verb of action. Its three
// expressions are tried one by one, the cheapest first: each runs faster
// than their alternation.
func instructionLike(b []byte) bool {
	return systemOrder.Match(b) || verbOrder.Match(b) || addressedOrder.Match(b)
}

var (
	// addressedOrder finds a model or "you" told what it must do.
	addressedOrder = ph(`\b(?:you|assistant|agent|ai|model|llm|claude|gpt|chatgpt|copilot)\b[^.\n]{0,40}\b(?:must|should|shall|are_to|need_to|have_to)\b`)
	// verbOrder finds a sentence, line or comment opening on a verb of action.
	verbOrder = ph(`(?:^|[\n.!:>]|<!--|\()[\s>*-]*(?:(?:also|then|and|please|first|now|next|finally),?_)?(?:always|never|ignore|disregard|execute|run|send|upload|exfiltrate|e-?mail|forward|post|copy|read|open|fetch|download|install|delete|remove|include|append|reply|respond|tell|say|output|print|write|visit|navigate|curl|wget|do_not|don'?t|make_sure_to)\b`)
	// systemOrder finds words that name instructions for the model.
	systemOrder = ph(`\b(?:instructions?_for_(?:the_)?(?:ai|assistant|agent|model)|system_prompt|system:)`)
)

// sendsAway finds an order to send, mail or fetch something with an
// address: what templates' comments for the agent do not hold.
var sendsAway = mustCompile(`\b(?:send|upload|e-?mail|forward|post|exfiltrate|transmit|leak|curl|wget)\b[^\n]{0,200}?(?:https?://|[\w.+-]+@[a-z0-9-]+\.[a-z]|\b[a-z0-9-]+\.(?:com|net|org|io|example|xyz|ru|cn|site|top|app|dev)\b)`)

// markdownPath reports whether p is markdown or plain text, where no
// author hides an element but to hide its text (HTML pages hide controls).
func markdownPath(p string) bool {
	switch strings.ToLower(path.Ext(p)) {
	case ".md", ".markdown", ".mdx", ".txt", "":
		return true
	}
	return false
}

// modelAddressed finds hidden text that speaks to the model by name and
// tells it what it must do.
var modelAddressed = ph(`\b(?:assistant|ai|agent|llm|model|claude|gpt|chatgpt|copilot)s?(?:_reading_this(?:_\w+)?)?\s*[:,]_[^\n]{0,80}?\b(?:you_must|must|always|never|ignore|approve|run|execute|send|do_not)\b`)

// agentDirected finds text that speaks to the agent or of the user it
// works for: an order hidden there is meant for the model, not for a
// maintainer.
var agentDirected = ph(`\b(?:you|your|assistant|agent|ai|model|llm|claude|gpt|chatgpt|copilot|users?(?:'s)?|the_user(?:'s)?)\b`)

var (
	refComment    = mustCompile(`(?m)^ {0,3}\[(?://|#|comment|_|\s*)\]:\s*(?:#|<>|\S*)\s*(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\))[ \t]*$`)
	hiddenOpen    = mustCompile(`(?i)<([a-z][a-z0-9]*)\b[^>]{0,400}?(?:\shidden\b|style\s*=\s*["'][^"']*(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0(?:px|em|rem|pt)?\s*[;"']|opacity\s*:\s*0(?:\.0*)?\s*[;"']|color\s*:\s*(?:white|#fff(?:fff)?|transparent)\b|height\s*:\s*0(?:px)?\s*;[^"']*overflow\s*:\s*hidden|(?:left|top|text-indent)\s*:\s*-\d{4,})|\scolor\s*=\s*["']?(?:white|#fff(?:fff)?|transparent)\b)[^>]{0,400}>`)
	maxHiddenBody = 8192
)

// fencedBlocks lists the fenced code blocks of markdown, as offsets: from
// the start of a line that opens with "```" or "~~~" after spaces, to the
// end of the line that so opens with the same marker, or of the text.
func fencedBlocks(raw string) [][2]int {
	var out [][2]int
	open, marker := -1, ""
	markers := [...]string{"```", "~~~"}
	next := [...]int{-2, -2} // where each marker next occurs; -1 never, -2 not searched yet
	for off := 0; off < len(raw); {
		// off starts a line: the first marker from there is the only one
		// of its line that may open it.
		p := -1
		for k, m := range markers {
			if next[k] != -1 && next[k] < off {
				next[k] = strings.Index(raw[off:], m)
				if next[k] >= 0 {
					next[k] += off
				}
			}
			if next[k] >= 0 && (p < 0 || next[k] < p) {
				p = next[k]
			}
		}
		if p < 0 {
			break
		}
		ls := off + strings.LastIndexByte(raw[off:p], '\n') + 1
		end := strings.IndexByte(raw[p:], '\n')
		if end < 0 {
			end = len(raw)
		} else {
			end += p
		}
		if m := raw[p : p+3]; strings.TrimLeft(raw[ls:p], " ") == "" {
			switch {
			case open < 0:
				open, marker = ls, m
			case m == marker:
				out = append(out, [2]int{open, end})
				open = -1
			}
		}
		off = end + 1
	}
	if open >= 0 {
		out = append(out, [2]int{open, len(raw)})
	}
	return out
}

// A codeIndex tells whether offsets of raw, asked in increasing order,
// lie in code: a fenced block, or a code span of their line. It walks the
// text once, however many offsets are asked.
type codeIndex struct {
	raw    string
	fences [][2]int // listed when first needed
	listed bool
	fi     int // the first fence that may still hold an offset
	pos    int // the last offset, up to which ticks counts
	ticks  int // backticks from the start of pos's line to pos
	work   *int
}

func (c *codeIndex) in(i int) bool {
	if !c.listed {
		c.fences, c.listed = fencedBlocks(c.raw), true
	}
	if i < c.pos {
		c.fi, c.pos, c.ticks = 0, 0, 0 // asked out of order: start again
	}
	for c.fi < len(c.fences) && c.fences[c.fi][1] <= i {
		c.fi++
	}
	if c.fi < len(c.fences) && c.fences[c.fi][0] <= i {
		return true
	}
	*c.work += i - c.pos
	if nl := strings.LastIndexByte(c.raw[c.pos:i], '\n'); nl >= 0 {
		c.pos, c.ticks = c.pos+nl+1, 0
	}
	c.ticks += strings.Count(c.raw[c.pos:i], "`")
	c.pos = i
	return c.ticks%2 == 1
}

// hidingWord reports whether an opening tag holds a word by which an
// element is hidden.
func hidingWord(tag string) bool {
	t := strings.ToLower(tag)
	for _, w := range []string{"hidden", "display", "visibility", "font-size", "opacity", "color", "height", "left", "text-indent"} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// hiddenRanges lists the hidden ranges of the file, in order.
func (s *scan) hiddenRanges() []hidden {
	raw := s.t.raw
	var hs []hidden
	code := &codeIndex{raw: raw, work: &s.work}
	for i := 0; ; {
		k := strings.Index(raw[i:], "<!--")
		if k < 0 {
			break
		}
		start := i + k
		if code.in(start) {
			i = start + 4
			continue // shown as code, hiding nothing
		}
		end := strings.Index(raw[start+4:], "-->")
		if end < 0 {
			end = len(raw)
		} else {
			end = start + 4 + end + 3
		}
		hs = append(hs, hidden{start: start, end: end, what: "an HTML comment"})
		i = end
	}
	// A link reference definition holds "]:" on its line: only such lines
	// are matched.
	for i := 0; ; {
		k := strings.Index(raw[i:], "]:")
		if k < 0 {
			break
		}
		ls := strings.LastIndexByte(raw[:i+k], '\n') + 1
		le := strings.IndexByte(raw[i+k:], '\n')
		if le < 0 {
			le = len(raw)
		} else {
			le += i + k
		}
		if m := refComment.FindStringIndex(raw[ls:le]); m != nil {
			hs = append(hs, hidden{start: ls + m[0], end: ls + m[1], what: "a link reference definition used as a comment"})
		}
		i = le
		if i >= len(raw) {
			break
		}
	}
	// Each opening tag is read once, and matched only when it names a
	// way of hiding.
	for i := 0; ; {
		k := strings.IndexByte(raw[i:], '<')
		if k < 0 {
			break
		}
		start := i + k
		i = start + 1
		if i >= len(raw) || !('a' <= raw[i]|0x20 && raw[i]|0x20 <= 'z') {
			continue
		}
		gt := strings.IndexByte(raw[i:min(i+800, len(raw))], '>')
		if gt < 0 {
			continue
		}
		tag := raw[start : i+gt+1]
		if !hidingWord(tag) || strings.HasSuffix(tag, "/>") || code.in(start) {
			continue // no body, or shown as code
		}
		m := hiddenOpen.FindStringSubmatchIndex(tag)
		if m == nil {
			continue
		}
		name := strings.ToLower(tag[m[2]:m[3]])
		bodyStart := start + len(tag)
		limit := min(bodyStart+maxHiddenBody, len(raw))
		end := limit
		if c := strings.Index(strings.ToLower(raw[bodyStart:limit]), "</"+name); c >= 0 {
			end = bodyStart + c
		}
		hs = append(hs, hidden{start, end, "an element hidden by its attributes", true})
		s.work += end - bodyStart
		i = max(i, end) // hidden bodies do not overlap, so each byte is read once
	}
	return hs
}

// documentation lowers the findings that read as documentation about
// attacks (a security skill listing payloads to detect): near words such
// as "detect", "malicious" or "red team", under a heading that says so, or
// in a file whose path does. Hidden text is never documentation.
func (s *scan) documentation() {
	lowerable := func(sp span) bool { return sp.doc && !sp.hidden && sp.start >= 0 }
	if !slices.ContainsFunc(s.spans, lowerable) {
		return // most texts have no finding that documentation may lower
	}
	pathDoc := docPath.MatchString(strings.ToLower(s.path))
	code := !isMarkup(s.path)
	for i := range s.out {
		sp := s.spans[i]
		if !lowerable(sp) {
			continue
		}
		note := ""
		switch {
		case sp.prose && (code || s.quoted(sp.start, sp.end)):
			note = docQuoted
		case s.aboutAttacks || pathDoc || docWordsIn(s.fold[max(sp.start-400, 0):sp.start]) || docWordsIn(s.fold[sp.end:min(sp.end+400, len(s.fold))]) || docWordsIn(s.heading(sp.start)):
			note = docNote
		default:
			continue
		}
		s.out[i].Severity = s.out[i].Severity.lower()
		s.out[i].Message += note
	}
}

// quoted reports whether fold[start:end] stands in quotation marks (or
// parentheses of a list of examples): words mentioned, not said.
func (s *scan) quoted(start, end int) bool {
	before := bytes.TrimRight(s.fold[max(start-3, 0):start], " *_")
	if len(before) == 0 || !bytes.ContainsAny(before[len(before)-1:], "\"'(\x60") {
		return false
	}
	return bytes.ContainsAny(s.fold[end:min(end+120, len(s.fold))], "\"')\x60")
}

// docWords are the stems of words that mark text as documentation about
// attacks: what to detect, what is malicious, what never to run.
func docWords() []string {
	return []string{"detect", "red team", "red-team", "redteam", "pentest", "penetration test", "attack", "malicious", "malware",
		"threat", "indicators of compromise", "ioc", "exploit", "vulnerab", "injection", "adversar", "suspicious", "phishing",
		"dangerous", "blocklist", "denylist", "deny list", "block list", "honeypot", "yara", "scanner", "never run", "never execute",
		"never paste", "do not run", "do not execute", "do not paste", "do not follow", "do not obey", "don't run", "don't execute",
		"don't paste", "don't follow", "don't obey", "security review", "security research", "security test", "security scan",
		"security check", "security guide", "security rule", "security audit", "jailbreak attempt", "jailbreak example",
		"jailbreak technique", "jailbreak prompt", "jailbreak pattern", "red flag", "warning sign", "avoid"}
}

// docWordsIn reports whether b holds one of docWords at the start of a
// word.
func docWordsIn(b []byte) bool {
	for _, w := range docWords() {
		for off := 0; ; {
			k := bytes.Index(b[off:], []byte(w))
			if k < 0 {
				break
			}
			if wordStart(b, off+k) {
				return true
			}
			off += k + 1
		}
	}
	return false
}

const (
	docNote   = " (lowered: the text reads as documentation about attacks)"
	docQuoted = " (lowered: the words are quoted or in code, not said to the agent)"
)

// heading is the text of the markdown heading nearest before fold[i],
// within 16 KiB.
func (s *scan) heading(i int) []byte {
	from := max(i-16384, 0)
	k := bytes.LastIndex(s.fold[from:i], []byte("\n#"))
	if k < 0 {
		if from == 0 && bytes.HasPrefix(s.fold, []byte("#")) {
			return s.lineOf(0)
		}
		return nil
	}
	return s.lineOf(from + k + 1)
}

var (
	docPath = mustCompile(`(?:^|[/_.-])(?:tests?|fixtures?|samples?|iocs?|threats?|attacks?|detect\w*|patterns?|signatures?|yara|malicious|payloads?|injections?|security|audit\w*|scan\w*|red-?team\w*|blocklist|denylist|rules?|definitions?)(?:$|[/_.-])`)
)
