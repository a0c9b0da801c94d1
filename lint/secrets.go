package lint

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math"
	"strings"

	"github.com/skillsync/skillsync/internal/redact"
)

// A leakRule is one of gitleaks' rules for a token format.
type leakRule struct {
	id, desc    string
	re          *expression
	secretGroup int
	entropy     float64
	keywords    []string
	allow       []allowlist
	// assigned marks a rule that finds a value assigned to a name near
	// its keyword ("linear_secret = x"): no assignment, no match.
	assigned bool
	derived  derivation
}

// leakGlobal holds gitleaks' allowlists that apply to every rule.
type leakGlobal struct {
	allow []allowlist
}

// A leakSpec is a gitleaks rule as tables_gen.go stores it.
type leakSpec struct {
	id, desc, expr string
	secretGroup    int
	entropy        float64
	keywords       []string
	allow          []allowSpec
	assigned       bool
	derived        derivation
}

// An allowSpec is one of gitleaks' allowlists as tables_gen.go stores it:
// its expressions joined in one, as gitleaks joins them.
type allowSpec struct {
	target    string // what regex matches: "" the secret, "match" or "line"
	regex     string
	stopWords []string // in lower case
	and       bool     // every check must allow, not one
	scoped    bool     // it also names paths or commits
}

// An allowlist is an allowSpec whose expression compiles when first used.
type allowlist struct {
	allowSpec
	re *expression // nil when it has no regex
}

func allowlists(specs []allowSpec) []allowlist {
	out := make([]allowlist, len(specs))
	for i, a := range specs {
		out[i].allowSpec = a
		if a.regex != "" {
			out[i].re = mustCompile(a.regex)
		}
	}
	return out
}

// exampleHeavy are gitleaks rules whose matches in skills are mostly
// documentation's examples: JSON Web Tokens expire and are shown to
// explain their format.
func exampleHeavy(id string) bool {
	return id == "jwt" || id == "jwt-base64"
}

// selfIdentifying reports whether the secret carries its format's mark
// (ghp_, xoxb-, AKIA, sk-ant-...): one of the rule's keywords. A rule that
// finds a value by the words around it ("linkedin ... = x") is weaker.
func selfIdentifying(l *leakRule, secret string) bool {
	low := strings.ToLower(secret)
	for _, k := range l.keywords {
		if len(k) >= 3 && strings.Contains(low, k) {
			return true
		}
	}
	return false
}

// loadLeakRules makes the rules of gitleaks' default configuration, the
// maintained rule set it embeds, as tables_gen.go stores them.
func loadLeakRules() ([]leakRule, leakGlobal) {
	out := make([]leakRule, len(leakTable))
	for i, r := range leakTable {
		out[i] = leakRule{
			id: r.id, desc: r.desc, re: mustCompile(r.expr), secretGroup: r.secretGroup,
			entropy: r.entropy, keywords: r.keywords, allow: allowlists(r.allow),
			assigned: r.assigned, derived: r.derived,
		}
	}
	return out, leakGlobal{allow: allowlists(leakAllowTable)}
}

// runLeak matches a secret rule over the raw text that fold[lo:hi] came
// from: gitleaks' expressions are written for text as it is.
func (s *scan) runLeak(l *leakRule, lo, hi int) {
	rlo, rhi := s.t.rawOff(lo), s.t.rawEnd(hi)
	raw := s.t.raw[rlo:rhi]
	s.work += len(raw)
	for _, m := range l.re.FindAllStringSubmatchIndex(raw, -1) {
		match := strings.Trim(raw[m[0]:m[1]], "\n")
		secret := match
		switch {
		case l.secretGroup > 0 && 2*l.secretGroup+1 < len(m) && m[2*l.secretGroup] >= 0:
			secret = raw[m[2*l.secretGroup]:m[2*l.secretGroup+1]]
		case l.secretGroup == 0:
			for k := 1; 2*k+1 < len(m); k++ {
				if m[2*k] >= 0 && m[2*k+1] > m[2*k] {
					secret = raw[m[2*k]:m[2*k+1]]
					break
				}
			}
		}
		if l.entropy > 0 && shannon(secret) <= l.entropy {
			continue
		}
		line := lineAt(raw, m[0])
		if allowed(l.allow, secret, match, line) || allowed(s.j.leakCfg.allow, secret, match, line) || placeholder(secret) {
			continue
		}
		start := rlo + m[0] + strings.Index(raw[m[0]:m[1]], secret)
		if s.seenRaw(RuleHardcodedSecret, start) {
			continue
		}
		sev := SeverityError
		if exampleHeavy(l.id) || !selfIdentifying(l, secret) {
			sev = SeverityWarning
		}
		ln, col := s.t.pos(start)
		s.out = append(s.out, Finding{
			Rule: RuleHardcodedSecret, Severity: sev, Path: s.path, Line: ln, Col: col,
			Message: fmt.Sprintf("holds what looks like a live secret (gitleaks rule %s: %s)", l.id, strings.TrimSuffix(l.desc, ".")),
			Match:   maskSecret(secret), Hash: s.hash,
		})
		s.spans = append(s.spans, span{start: -1, end: -1})
	}
}

// seenRaw reports whether a finding of rule already starts at raw[off]
// (whose line and column it has), or the rule has reported enough.
func (s *scan) seenRaw(rule string, off int) bool {
	line, col := s.t.pos(off)
	count := 0
	for _, f := range s.out {
		if f.Rule == rule {
			if f.Line == line && f.Col == col {
				return true
			}
			if count++; count >= maxPerRule {
				return true
			}
		}
	}
	return false
}

// allowed applies gitleaks' allowlists as gitleaks does: each matches the
// secret, or the whole match or line when its target says so, by regex or
// stop word.
func allowed(lists []allowlist, secret, match, line string) bool {
	for _, a := range lists {
		target := secret
		switch a.target {
		case "match":
			target = match
		case "line":
			target = line
		}
		regexOK := a.re != nil && target != "" && a.re.MatchString(target)
		stopOK := secret != "" && len(a.stopWords) > 0 && containsStopWord(a.stopWords, secret)
		if a.and {
			// Paths and commits do not apply to a skill's text: a list
			// that needs them never allows.
			if a.scoped {
				continue
			}
			if (a.re == nil || regexOK) && (len(a.stopWords) == 0 || stopOK) && (a.re != nil || len(a.stopWords) > 0) {
				return true
			}
			continue
		}
		if regexOK || stopOK {
			return true
		}
	}
	return false
}

// containsStopWord reports whether s in lower case holds one of words.
func containsStopWord(words []string, s string) bool {
	s = strings.ToLower(s)
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

func lineAt(s string, i int) string {
	lo := strings.LastIndexByte(s[:i], '\n') + 1
	hi := strings.IndexByte(s[i:], '\n')
	if hi < 0 {
		return s[lo:]
	}
	return s[lo : i+hi]
}

// placeholder reports whether a secret is an example's stand-in: it says
// so (example, your, xxxx, redacted...), or it repeats one character.
func placeholder(secret string) bool {
	l := strings.ToLower(secret)
	for _, w := range []string{"example", "xxxx", "your", "placeholder", "dummy", "sample", "fake", "redacted", "changeme", "replace", "<", ">", "{", "}", "...", "…", "****", "0000000", "1234567", "abcdef", "abc123", "test"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	run := 1
	for i := 1; i < len(l); i++ {
		if l[i] == l[i-1] {
			if run++; run >= 6 {
				return true
			}
		} else {
			run = 1
		}
	}
	return false
}

// maskSecret shows the first four characters of a secret and its length.
func maskSecret(s string) string {
	r := []rune(s)
	if len(r) <= 8 {
		return strings.Repeat("*", len(r))
	}
	return string(r[:4]) + strings.Repeat("*", min(len(r)-4, 12)) + fmt.Sprintf(" (%d characters)", len(r))
}

// shannon is the Shannon entropy of s in bits per byte, as gitleaks
// measures it.
func shannon(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	h := 0.0
	n := float64(len(s))
	for _, c := range counts {
		if c > 0 {
			p := float64(c) / n
			h -= p * math.Log2(p)
		}
	}
	return h
}

// A knownSecret is a secret of this process, found however text spells
// it (see [redact.Redactor]).
type knownSecret struct {
	name string
	r    *redact.Redactor
	v    string
	// marks are spellings of which any text holding the secret holds one:
	// its longest run of letters and digits in lower case (case and
	// separators may change, not a run), and pieces of its base64.
	marks []string
}

func newKnownSecret(name, v string) knownSecret {
	k := knownSecret{name: name, r: redact.New(v), v: v}
	run, best := "", ""
	for _, c := range strings.ToLower(v) + " " {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			run += string(c)
			continue
		}
		if len(run) > len(best) {
			best = run
		}
		run = ""
	}
	if len(best) >= 4 {
		k.marks = append(k.marks, best)
	}
	// A cut leaves the secret's start.
	var start []rune
	for _, c := range strings.ToLower(v) {
		if 'a' <= c && c <= 'z' || '0' <= c && c <= '9' {
			start = append(start, c)
		}
	}
	if len(start) >= 8 {
		k.marks = append(k.marks, string(start[:8]))
	}
	for off := 0; off < 3 && off < len(v); off++ {
		enc := base64.StdEncoding.EncodeToString([]byte(v[off:]))
		if len(enc) > 12 {
			k.marks = append(k.marks, enc[4:len(enc)-8])
		}
	}
	return k
}

// find reports whether s holds the secret, and where: the offset of its
// plain spelling, or of the first line that holds another spelling. fold
// is s folded to lower case.
func (k knownSecret) find(s string, fold []byte) (int, bool) {
	if i := strings.Index(s, k.v); i >= 0 && len(k.v) >= redact.ShortSecret {
		return i, true
	}
	if !k.maybeIn(s, fold) {
		return 0, false
	}
	if strings.Contains(k.v, "\n") {
		return k.findLines(s)
	}
	// No escape spans a line break, so s holds the secret exactly when one
	// of its lines does; a line with no escape holds it only as it is.
	for off := 0; ; {
		e := strings.IndexAny(s[off:], `\%&`)
		if e < 0 {
			return 0, false
		}
		ls := off + strings.LastIndexByte(s[off:off+e], '\n') + 1
		le := len(s)
		if nl := strings.IndexByte(s[off+e:], '\n'); nl >= 0 {
			le = off + e + nl + 1
		}
		if k.r.Holds(s[ls:le]) {
			return ls, true
		}
		off = le
	}
}

// findLines finds a secret of several lines, which only the whole text
// may hold: the offset of the first line that holds one, or 0.
func (k knownSecret) findLines(s string) (int, bool) {
	if !k.r.Holds(s) {
		return 0, false
	}
	off := 0
	for _, line := range strings.SplitAfter(s, "\n") {
		if k.r.Holds(line) {
			return off, true
		}
		off += len(line)
	}
	return 0, true
}

// maybeIn is a quick test that s may hold the secret: a mark (folded
// text holds the lower-case ones, s the base64 ones), or an escape that
// could spell letters.
func (k knownSecret) maybeIn(s string, fold []byte) bool {
	if len(k.marks) == 0 {
		return true
	}
	// The escapes first: where the automaton woke the secret, it mostly
	// found one of them.
	if bytes.Contains(fold, []byte(`\u00`)) || bytes.Contains(fold, []byte("&#")) || bytes.Contains(fold, []byte("%25")) {
		return true
	}
	for _, m := range k.marks {
		if bytes.Contains(fold, []byte(m)) || strings.Contains(s, m) {
			return true
		}
	}
	return false
}
