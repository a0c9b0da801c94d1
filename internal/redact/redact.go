// Package redact hides the secrets a process knows in the text it prints.
//
// A [Redactor] finds one secret in the forms an honest echo gives it, as a
// server's error body, a renderer or a log repeats a token it received:
//
//   - as it is;
//   - JSON-escaped: \uXXXX, and a backslash before ASCII punctuation (\/,
//     and markdown's \_ alike);
//   - percent-encoded: %XX;
//   - as HTML character references: &#47;, &#x2F;, &sol;;
//   - cut by an excerpt: 8 or more of its first characters before "..."
//     or "…" or at the end of the text, and 8 or more of its last ones
//     after a mark or at the start of the text, also where the cut split
//     an escape.
//
// Each character may take any of these forms; an escape stands for an
// ASCII character, or a byte for %XX. Disguises are out of the model: a
// secret in another case, folded into a slug, base64-encoded, escaped
// twice, or in references padded with zeros past any encoder's habit.
//
// A [Set] holds every secret of a process under the name of where it came
// from, redacts them all, and tells which of them a text holds.
package redact

import (
	"cmp"
	"fmt"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// ShortSecret is the length under which a secret is taken for a test's
// rather than a real token: it is replaced only where it stands as a word
// of its own, is never cut, and never counts as held.
const ShortSecret = 12

const (
	minCut   = 8  // the fewest characters of a token that a cut leaves hidden
	maxSplit = 7  // the most bytes of an escape a cut leaves beside its mark: `\u002` of `\u002F`
	maxRef   = 34 // the longest HTML character reference read, ";" included
	redacted = "[REDACTED]"
)

// A Redactor finds one secret in text. Its work is linear in the text: the
// text is decoded once, then read forward and backward by automata of the
// secret. It is safe for concurrent use.
type Redactor struct {
	secret   string
	fwd, bwd automaton // of the secret, and of it reversed
}

// New returns the redactor of secret. An empty secret is never found.
func New(secret string) *Redactor {
	rev := []byte(secret)
	slices.Reverse(rev)
	return &Redactor{secret: secret, fwd: newAutomaton(secret), bwd: newAutomaton(string(rev))}
}

// Redact replaces with "[REDACTED]" each spelling of the secret in s, and
// of a real token what a cut left of it.
func (r *Redactor) Redact(s string) string {
	d := decode(s, true)
	return d.hide(r.spans(d, nil))
}

// Holds reports whether s holds the whole secret, in any spelling, when it
// is a real token (see [ShortSecret]).
func (r *Redactor) Holds(s string) bool { return r.holds(decode(s, false)) }

func (r *Redactor) holds(d *decoded) bool {
	return len(r.secret) >= ShortSecret && (strings.Contains(d.text, r.secret) || strings.Contains(d.src, r.secret))
}

// Format prints the redactor without its secret, for every verb.
func (r *Redactor) Format(f fmt.State, verb rune) { io.WriteString(f, "redact.Redactor{[REDACTED]}") }

// spans appends to out the spans of d.src that spell the secret. The text
// is also read with no escape read when it holds the secret as it is, or
// when the secret holds a character that begins an escape.
func (r *Redactor) spans(d *decoded, out []span) []span {
	out = r.scan(d, out)
	if d.at != nil && (strings.ContainsAny(r.secret, `\%&`) || strings.Contains(d.src, r.secret)) {
		out = r.scan(&decoded{src: d.src, text: d.src}, out)
	}
	return out
}

// scan appends to out the spans of d.src whose decoded text is the whole
// secret; and of a real token, the start of it that ends the text before
// a cut mark or at its end, and the end of it that starts the text after a
// mark or at its start.
func (r *Redactor) scan(d *decoded, out []span) []span {
	text, n, m := d.text, len(d.text), len(r.secret)
	if m == 0 {
		return out
	}
	cuts := m >= ShortSecret
	var recent [maxSplit + 1]int // the states at the last positions read
	k := 0                       // text[:p] ends with secret[:k]
	for p := 0; ; p++ {
		// From state 0, a byte that begins neither the secret nor a mark
		// leads to state 0.
		for k == 0 && p < n && text[p] != r.secret[0] && text[p] != '.' && text[p] != "…"[0] {
			recent[p%len(recent)] = 0
			p++
		}
		recent[p%len(recent)] = k
		if k == m {
			from, to := d.pos(p-m), d.pos(p)
			if m >= ShortSecret || (from == 0 || !isAlnum(d.src[from-1])) && (to == len(d.src) || !isAlnum(d.src[to])) {
				out = append(out, span{from, to})
			}
		}
		if cuts && (p == n || strings.HasPrefix(text[p:], "...") || strings.HasPrefix(text[p:], "…")) {
			// The cut may have split an escape: the secret's start may end
			// before the escape's.
			from, split := p, p
			for j := p - 1; j >= max(0, p-maxSplit) && isEscapeByte(text[j]); j-- {
				if isEscapeStart(text[j]) {
					split = j
					break
				}
			}
			for _, j := range [2]int{p, split} {
				if s := recent[j%len(recent)]; s >= minCut {
					from = min(from, j-s)
				}
			}
			if from < p {
				out = append(out, span{d.pos(from), d.pos(p)})
			}
		}
		if p == n {
			break
		}
		k = r.fwd.step(k, text[p])
	}
	if !cuts {
		return out
	}
	k = 0 // text[p:] starts with the last k bytes of the secret
	last, markEnd := r.secret[m-1], "…"[len("…")-1]
	for p := n; p >= 0; p-- {
		for k == 0 && 0 < p && p < n && text[p] != last && text[p-1] != '.' && text[p-1] != markEnd {
			recent[p%len(recent)] = 0
			p--
		}
		if p < n {
			k = r.bwd.step(k, text[p])
		}
		recent[p%len(recent)] = k
		if p == 0 || strings.HasSuffix(text[:p], "...") || strings.HasSuffix(text[:p], "…") {
			// The cut may have split an escape: the secret's end may start
			// after the rest of it.
			to := p
			for j := p; j <= min(n, p+maxSplit) && (j == p || isEscapeByte(text[j-1]) && !isEscapeStart(text[j-1])); j++ {
				if s := recent[j%len(recent)]; s >= minCut {
					to = max(to, j+s)
				}
			}
			if to > p {
				out = append(out, span{d.pos(p), d.pos(to)})
			}
		}
	}
	return out
}

// isEscapeStart reports whether an escape may start with c.
func isEscapeStart(c byte) bool { return c == '\\' || c == '%' || c == '&' }

// isEscapeByte reports whether c may be part of an escape.
func isEscapeByte(c byte) bool { return isEscapeStart(c) || c == '#' || c == ';' || isAlnum(c) }

// An automaton reads a text a byte at a time (Knuth, Morris and Pratt): its
// state k says the text read so far ends with pattern[:k], the longest such
// prefix. A byte costs a constant number of steps, amortized.
type automaton struct {
	pattern string
	border  []int // border[k] is the longest proper prefix of pattern[:k] that also ends it
}

func newAutomaton(pattern string) automaton {
	a := automaton{pattern, make([]int, len(pattern)+1)}
	for k := 1; k < len(pattern); k++ {
		a.border[k+1] = a.step(a.border[k], pattern[k])
	}
	return a
}

// step is the state after the byte c from the state k.
func (a *automaton) step(k int, c byte) int {
	for k > 0 && (k == len(a.pattern) || a.pattern[k] != c) {
		k = a.border[k]
	}
	if a.pattern[k] == c {
		k++
	}
	return k
}

// A span is the text src[from:to].
type span struct{ from, to int }

// decoded is a text with its escapes read: text[i] is spelt by
// src[at[i]:at[i+1]]. at is nil when text is src, or when it was not
// asked for.
type decoded struct {
	src, text string
	at        []int32
}

// decode reads each escape of s as the byte it stands for, and keeps every
// other byte as it is. With spelt, it keeps where each byte of the text
// comes from (d.at), which only redacting needs.
func decode(s string, spelt bool) *decoded {
	if !strings.ContainsAny(s, `\%&`) {
		return &decoded{src: s, text: s}
	}
	b := make([]byte, 0, len(s))
	var at []int32
	if spelt {
		at = make([]int32, 0, len(s)+1)
	}
	for i := 0; i < len(s); {
		if c := s[i]; c == '\\' || c == '%' || c == '&' {
			e, n := unescape(s[i:])
			if n == 0 {
				e, n = c, 1
			}
			if spelt {
				at = append(at, int32(i))
			}
			b, i = append(b, e), i+n
			continue
		}
		j := len(s) // to the next escape, if any
		if k := strings.IndexAny(s[i:], `\%&`); k >= 0 {
			j = i + k
		}
		if spelt {
			for k := i; k < j; k++ {
				at = append(at, int32(k))
			}
		}
		b, i = append(b, s[i:j]...), j
	}
	if spelt {
		at = append(at, int32(len(s)))
	}
	return &decoded{src: s, text: string(b), at: at}
}

// unescape returns the byte that the escape s starts with stands for, and
// the escape's length; a length of 0 when s starts with none.
func unescape(s string) (byte, int) {
	switch {
	case len(s) >= 6 && s[:2] == `\u`:
		if v, err := strconv.ParseUint(s[2:6], 16, 7); err == nil {
			return byte(v), 6
		}
	case len(s) >= 2 && s[0] == '\\' && isPunct(s[1]):
		return s[1], 2
	case len(s) >= 3 && s[0] == '%':
		if v, err := strconv.ParseUint(s[1:3], 16, 8); err == nil {
			return byte(v), 3
		}
	case s[0] == '&':
		// One reference, read as a browser reads it, that stands for one
		// ASCII character.
		if end := strings.IndexByte(s[:min(len(s), maxRef)], ';'); end > 1 {
			if u := html.UnescapeString(s[:end+1]); len(u) == 1 {
				return u[0], end + 1
			}
		}
	}
	return 0, 0
}

// pos is where the spelling of text[i] starts in src, or len(src).
func (d *decoded) pos(i int) int {
	if d.at == nil {
		return i
	}
	return int(d.at[i])
}

// hide replaces each of the spans of d.src with "[REDACTED]", spans that
// overlap or touch with one.
func (d *decoded) hide(spans []span) string {
	if len(spans) == 0 {
		return d.src
	}
	slices.SortFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	var b strings.Builder
	b.Grow(len(d.src))
	done := 0 // src[:done] is written or hidden
	for i := 0; i < len(spans); {
		from, to := spans[i].from, spans[i].to
		for i++; i < len(spans) && spans[i].from <= to; i++ {
			to = max(to, spans[i].to)
		}
		b.WriteString(d.src[done:from])
		b.WriteString(redacted)
		done = to
	}
	b.WriteString(d.src[done:])
	return b.String()
}

// A Set holds the secrets a process knows, each under the name of where it
// came from: an environment variable such as "SKILLSYNC_TOKEN_PROD", or a
// token file. Its zero value is empty; it is safe for concurrent use.
type Set struct {
	mu      sync.RWMutex
	secrets []namedSecret
}

type namedSecret struct {
	name string
	*Redactor
}

// Add adds secret under name, unless it is empty or there already.
func (s *Set) Add(name, secret string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	known := func(n namedSecret) bool { return n.name == name && n.secret == secret }
	if secret != "" && !slices.ContainsFunc(s.secrets, known) {
		s.secrets = append(s.secrets, namedSecret{name, New(secret)})
	}
}

// Redact is text with every secret of s redacted (see [Redactor.Redact]).
func (s *Set) Redact(text string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.secrets) == 0 {
		return text
	}
	d := decode(text, true)
	var found []span
	for _, n := range s.secrets {
		found = n.spans(d, found)
	}
	return d.hide(found)
}

// Found returns the names of the secrets of s that text holds (see
// [Redactor.Holds]), in the order they were added.
func (s *Set) Found(text string) []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var names []string
	d := decode(text, false)
	for _, n := range s.secrets {
		if n.holds(d) {
			names = append(names, n.name)
		}
	}
	return names
}

// Named returns the secrets of s by their names; of two under one name,
// the one added last.
func (s *Set) Named() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make(map[string]string, len(s.secrets))
	for _, n := range s.secrets {
		out[n.name] = n.secret
	}
	return out
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isPunct reports whether c is ASCII punctuation, which JSON and markdown
// may escape with a backslash.
func isPunct(c byte) bool { return '!' <= c && c <= '~' && !isAlnum(c) }
