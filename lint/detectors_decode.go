package lint

import (
	"slices"
	"strconv"
	"strings"
)

// decodeDetectors undo the encodings that hide a command or an order
// beyond base64, hex and character codes: strings cut and joined again,
// text written backwards, rot13 and octal escapes. What they decode to is
// judged again, and reported only when another rule finds something.
func decodeDetectors() []detector {
	return []detector{{
		rule: RuleObfuscatedPayload, window: true,
		anchors: []string{"' + '", "'+'", `" + "`, `"+"`, "' +'", "'+ '", `" +"`, `"+ "`},
		re:      mustCompile(`['"][^'"\n]{0,120}['"](?:\s*\+\s*['"][^'"\n]{0,120}['"])+`),
		refine:  decodedBy("strings cut apart", joinQuoted),
		before:  130, after: 400,
	}, {
		rule: RuleObfuscatedPayload, window: true,
		anchors: []string{".split('')", `.split("")`, "[::-1]"},
		re:      mustCompile(`['"][^'"\n]{8,400}['"]\s*(?:\.split\(\s*(?:''|"")\s*\)\s*\.reverse\(\)|\[\s*::\s*-1\s*\])`),
		refine:  decodedBy("text written backwards", func(m string) string { return reverse(firstQuoted(m)) }),
		before:  420, after: 20,
	}, {
		rule: RuleObfuscatedPayload, window: true, prose: true,
		anchors: []string{"backwards", "in reverse", "reversed", "reverse order", "right to left"},
		re:      ph(`\b(?:backwards|in_reverse|reversed|reverse_order|right_to_left)\b[^\n]{0,120}\n\s*([^\n]{8,400})`),
		refine:  decodedBy("text written backwards", func(m string) string { return reverse(lastLine(m)) }),
		before:  10, after: 560,
	}, {
		rule: RuleObfuscatedPayload, window: true,
		anchors: []string{"rot13", "rot-13", "rot 13", "rot_13"},
		re:      mustCompile(`['"][^'"\n]{8,400}['"]\s*,\s*['"]rot[_-]?13['"]|\brot[\s_-]?13\b[^\n]{0,160}(?:\n\s*)*[^\n]{8,400}`),
		refine:  decodedBy("rot13 text", rot13Payload),
		before:  420, after: 600,
	}, {
		rule: RuleObfuscatedPayload, anchors: []string{`\0`, `\1`, `\2`, `\3`},
		re:     mustCompile(`(?:\\[0-3][0-7]{2}){8,}`),
		refine: decodedBy("octal escapes", parseOctal),
		after:  4000,
	}, {
		// A disguised word is never lowered: no documentation writes one.
		rule: RuleObfuscatedPayload, window: true, noDoc: true, anchors: splitAnchors(),
		re: mustCompile(`(?:^|[\s;&|(\x60])([a-z0-9]*(?:(?:""|''|\\)[a-z0-9]+)+)\b[^\n]{0,400}`),
		refine: func(s *scan, m []int) verdict {
			if !slices.Contains(splitCommands, unsplit(s.group(m, 1))) {
				return verdict{}
			}
			return decodedDisguise("command names split by quotes or backslashes that the shell drops", unsplit)(s, m)
		},
		before: 20, after: 440,
	}, {
		rule: RuleObfuscatedPayload, noDoc: true, anchors: []string{"$(printf", "$( printf", "`printf"},
		re:     mustCompile(`(?:\$\(\s*|\x60)printf\s+['"](?:\\[0-7]{3}|\\x[0-9a-f]{2}){2,}['"]\s*[)\x60][^\n]{0,400}`),
		refine: decodedDisguise("a command spelt in printf escapes", printfCommand),
	}}
}

// decodedDisguise is [decodedBy] for a disguise no honest text uses: what the
// decoded text holds is an error whatever its own severity.
func decodedDisguise(how string, parse func(string) string) func(s *scan, m []int) verdict {
	decode := decodedBy(how, parse)
	return func(s *scan, m []int) verdict {
		v := decode(s, m)
		if v.sev > 0 {
			v.sev = SeverityError
		}
		return v
	}
}

// printfCommand is s, a line that starts with a printf of escapes in a
// command substitution, with the substitution replaced by what it prints.
func printfCommand(s string) string {
	// The escapes end at the next quote of either kind, as the pattern
	// read them: a closing quote may differ from the opening one.
	open := strings.IndexAny(s, `'"`)
	q := open + 1 + strings.IndexAny(s[open+1:], `'"`)
	close := q + strings.IndexAny(s[q:], ")`")
	codes := s[open+1 : q]
	var text string
	if strings.HasPrefix(codes, `\x`) {
		text = parseEscapes(codes)
	} else {
		text = parseOctal(codes)
	}
	for _, c := range []byte(text) {
		if c < '!' || c > '~' {
			return "" // a control or a space prints no command's name
		}
	}
	return text + s[close+1:]
}

// splitCommands are the commands a line may hide by splitting their
// names with quotes or backslashes that the shell drops: cu""rl, c\url.
var splitCommands = []string{"curl", "wget", "bash", "sh", "zsh", "nc", "ncat", "netcat", "socat", "base64", "eval",
	"python", "python3", "perl", "ruby", "node", "iex", "iwr", "irm", "powershell", "pwsh"}

// splitAnchors are the letter pairs of splitCommands with an empty pair
// of quotes or a backslash between them: one is in every split name.
func splitAnchors() []string {
	var out []string
	for _, c := range splitCommands {
		for i := 1; i < len(c); i++ {
			for _, sep := range []string{`""`, `''`, `\`} {
				if a := c[i-1:i] + sep + c[i:i+1]; !slices.Contains(out, a) {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// unsplit is s without the empty pairs of quotes and the backslashes
// that stand between two letters or digits of a word, as the shell reads
// it.
func unsplit(s string) string {
	alnum := func(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case i > 0 && alnum(s[i-1]) && i+2 < len(s) && (s[i:i+2] == `""` || s[i:i+2] == `''`) && alnum(s[i+2]):
			i++
		case i > 0 && alnum(s[i-1]) && s[i] == '\\' && i+1 < len(s) && alnum(s[i+1]):
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

var quotedPiece = mustCompile(`['"]([^'"\n]*)['"]`)

// joinQuoted joins the quoted pieces of s.
func joinQuoted(s string) string {
	var b strings.Builder
	for _, m := range quotedPiece.FindAllStringSubmatch(s, -1) {
		b.WriteString(m[1])
	}
	return b.String()
}

func firstQuoted(s string) string {
	if m := quotedPiece.FindStringSubmatch(s); m != nil {
		return m[1]
	}
	return ""
}

func lastLine(s string) string {
	return strings.TrimSpace(s[strings.LastIndexByte(s, '\n')+1:])
}

func reverse(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

// rot13Payload is the text a rot13 match names, rotated: the quoted
// string of a call, or the text after the line that names the encoding
// (or after its colon).
func rot13Payload(s string) string {
	var text string
	switch {
	case strings.HasPrefix(s, "'") || strings.HasPrefix(s, `"`):
		text = firstQuoted(s)
	case strings.Contains(s, "\n"):
		text = strings.TrimSpace(s[strings.IndexByte(s, '\n')+1:])
	default:
		text = s[strings.LastIndexByte(s, ':')+1:]
	}
	return strings.Map(func(r rune) rune {
		switch {
		case 'a' <= r && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case 'A' <= r && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, text)
}

// parseOctal reads \NNN escapes as bytes.
func parseOctal(s string) string {
	var b []byte
	for _, part := range strings.Split(s, `\`)[1:] {
		if v, err := strconv.ParseUint(part, 8, 8); err == nil {
			b = append(b, byte(v))
		}
	}
	return string(b)
}
