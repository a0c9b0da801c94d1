// Package redact keeps a secret out of text: a [Redactor] finds one
// secret however the text spells it (as it is, through the escapes of
// JSON, URLs, HTML and markdown, folded into a slug or upper case, cut
// short beside a "...", or base64-encoded, as in a Basic header) and
// replaces it with "[REDACTED]". The client of
// the space, the GitHub client and the CLI's output all redact the tokens
// they hold with it.
package redact

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"html"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// ShortSecret is the length under which a [Redactor] replaces a secret only
// where it stands as a word of its own, and under which a secret is taken
// for a test's rather than a real token.
const ShortSecret = 12

// minCutRun is the fewest characters of a token that a cut may leave
// beside its mark ("..." or "…") before they are redacted too: fewer say
// nothing an attacker can use, and ordinary text holds such runs.
const minCutRun = 8

// redacted replaces a secret, or the part of it a cut left.
const redacted = "[REDACTED]"

// String replaces each occurrence of secret in s with "[REDACTED]", however
// s spells it (see [Redactor]). A secret shorter than 12 bytes (a test
// token such as "x") is replaced only where no letter or digit touches it,
// so that it does not mangle words that hold it ("proxy"); a real token is
// replaced wherever it appears.
func String(s, secret string) string {
	return New(secret).Redact(s)
}

// A Redactor finds one secret in text, spelt as it is or with the escapes
// that carry text through JSON, URLs, HTML and markdown, one character at
// a time, mixed, and escaped again:
//
//   - JSON's \uXXXX (any case of hex digits) and a backslash before
//     punctuation (\/, markdown's \_ and \.), with any number of
//     backslashes, as JSON in JSON has; also \xXX, \UXXXXXXXX and \u{X};
//   - percent-encoding %XX, any case, and %25XX, encoded twice;
//   - HTML character references: &#NN; &#xNN; (with or without the
//     semicolon) and named ones (&sol;).
//
// The number of &#NN;, &#xNN; and \u{X} may have any number of leading
// zeros, as browsers and JavaScript read it.
//
// A real token is also found folded: its letters in any case, and each run
// of its other characters as any run of punctuation or spaces, or none, as
// a slug made of it ("tok-9f8e" for "tok_9F8E") or an upper-cased header
// show it.
//
// A server that echoes the token in its own encoding, or a renderer that
// escapes it, must not get it printed; nor may it make the search slow.
// The work is linear in the text: a few steps a byte for a token of the
// characters a bearer token has, and a bounded number for any secret (see
// searchBudget). Build one per secret; it is safe for concurrent use.
type Redactor struct {
	secret string
	long   bool // at least ShortSecret bytes: a real token
	// starts holds the bytes a spelling of the secret's first byte, or a
	// cut mark, may begin with, so that most of a text is skipped at once.
	starts [256]bool
	// words are the runs of letters and digits of a real token, for the
	// folded search; none when they are too short to tell it from text.
	// tail is what follows the last of them ("=" of base64 padding).
	words []string
	tail  string
	// encoded are the secret's base64 forms, in the standard and the URL
	// alphabet, at each of the three places a byte may start a group
	// (only the characters the secret alone makes), and as JSON escapes
	// their '/': a server that puts the token in a Basic header or a JWT
	// and echoes that must not get it printed either. They are found as
	// they are, which costs little: a form is not spelt otherwise.
	encoded []string
	// at lists, for each byte, where the secret holds it, in order: a
	// search for the tail a cut left starts only where the text may
	// spell the secret's next byte, and the text is read only as the
	// bytes the secret holds.
	at [256][]int
	// budget is the most states one search explores: searchBudget.
	budget int
}

// New returns the redactor of secret. An empty secret is never
// found.
func New(secret string) *Redactor {
	r := &Redactor{secret: secret, long: len(secret) >= ShortSecret, budget: searchBudget(secret)}
	for k := range len(secret) {
		r.at[secret[k]] = append(r.at[secret[k]], k)
	}
	if secret != "" {
		for _, c := range []byte{secret[0], '\\', '%', '&'} {
			r.starts[c] = true
		}
		if r.long {
			r.starts['.'] = true
			r.starts["…"[0]] = true
		}
	}
	if r.long {
		words := strings.FieldsFunc(secret, func(c rune) bool { return c >= utf8.RuneSelf || !isAlnum(byte(c)) })
		if len(strings.Join(words, "")) >= ShortSecret {
			r.words = words
			last := words[len(words)-1]
			r.tail = secret[strings.LastIndex(secret, last)+len(last):]
			first := words[0][0]
			r.starts[first] = true
			r.starts[toggleCase(first)] = true
		}
	}
	if r.long {
		seen := map[string]bool{secret: true}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
			for _, form := range base64Forms(enc, secret) {
				for _, f := range []string{form, strings.ReplaceAll(form, "/", `\/`)} {
					if !seen[f] && len(f) >= ShortSecret {
						seen[f] = true
						r.encoded = append(r.encoded, f)
					}
				}
			}
		}
	}
	return r
}

// base64Forms are the runs of characters that enc makes of secret
// wherever it stands in the encoded bytes: at an offset of 0, 1 or 2 bytes
// into a group of three, the characters that hold bits of the secret
// alone.
func base64Forms(enc *base64.Encoding, secret string) []string {
	var forms []string
	for a := range 3 {
		out := enc.EncodeToString(append(make([]byte, a), secret...))
		from := (8*a + 5) / 6           // the first character of the secret's bits only
		to := 8 * (a + len(secret)) / 6 // past the last such character
		if to > from {
			forms = append(forms, out[from:to])
		}
	}
	return forms
}

// folded returns the end of the token, folded, at s[i] (see [Redactor]),
// or -1.
func (m *matcher) folded(r *Redactor, s string, i int) int {
	if r.words == nil {
		return -1
	}
	j := i
	for n, w := range r.words {
		if n > 0 {
			for j < len(s) && (s[j] == ' ' || isPunct(s[j])) {
				j++
				m.steps++
			}
		}
		m.steps++
		if len(s)-j < len(w) || !strings.EqualFold(s[j:j+len(w)], w) {
			return -1
		}
		j += len(w)
	}
	if strings.HasPrefix(s[j:], r.tail) {
		j += len(r.tail)
	}
	return j
}

// toggleCase is c in the other case when it is an ASCII letter.
func toggleCase(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}

// Len is the length of the secret in bytes.
func (r *Redactor) Len() int { return len(r.secret) }

// Holds reports whether s holds the secret, spelt in any way, when it is a
// real token: a secret under [ShortSecret] bytes (a test's few letters)
// is never reported, as ordinary text may well hold it. A text whose
// escapes spell the secret in too many ways to explore (see
// searchBudget) is reported as holding it.
func (r *Redactor) Holds(s string) bool {
	if !r.long {
		return false
	}
	var m matcher
	for i := 0; i < len(s); i++ {
		if !r.starts[s[i]] {
			continue
		}
		if m.full(r, s, i) >= 0 {
			return true
		}
		if s[i] == '\\' {
			i = m.pastRun(r, s, i) - 1
		}
	}
	for _, f := range r.encoded {
		if strings.Contains(s, f) {
			return true
		}
	}
	return false
}

// Redact replaces with "[REDACTED]" each occurrence of the secret in s,
// spelt in any way. Of a real token it also replaces the part of 8 or more
// characters that a cut left before its mark ("..." or "…") or after it,
// so that shortening a text never reveals most of a token, and the rest
// of a token whose first bytes the last escape of a spelling read.
func (r *Redactor) Redact(s string) string {
	var m matcher
	return r.redactWith(&m, s)
}

// redactWith is Redact with m's scratch space, fresh for s.
func (r *Redactor) redactWith(m *matcher, s string) string {
	if r.secret == "" {
		return s
	}
	var found []span
	for i := 0; i < len(s); {
		if !r.starts[s[i]] {
			i++
			continue
		}
		end, cut := m.fullOrCut(r, s, i, r.long)
		if end >= 0 {
			end = m.withTails(r, s, end)
		} else {
			end = cut
		}
		if end >= 0 {
			found = append(found, span{i, end})
			i = end
			continue
		}
		if !r.long {
			i++
			continue
		}
		if s[i] == '\\' {
			i = m.pastRun(r, s, i)
			continue
		}
		if after := cutMarkEnd(s, i); after >= 0 {
			if start, end := m.afterCut(r, s, after); end >= 0 {
				end = m.withTails(r, s, end)
				found = append(found, span{start, end})
				i = end
				continue
			}
			i = after
			continue
		}
		i++
	}
	// The base64 forms are looked for in the text as sent too, not in
	// what is left: a spelling may have read the first character of one.
	for _, f := range r.encoded {
		for from := 0; ; {
			k := strings.Index(s[from:], f)
			if k < 0 {
				break
			}
			found = append(found, span{from + k, from + k + len(f)})
			from += k + len(f)
		}
	}
	return hide(s, found)
}

// hide replaces each of the spans of s with "[REDACTED]", spans that
// overlap with one.
func hide(s string, spans []span) string {
	if len(spans) == 0 {
		return s
	}
	slices.SortStableFunc(spans, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	var b strings.Builder
	b.Grow(len(s))
	from := 0 // s[:from] is written or hidden
	for _, sp := range spans {
		if sp.from < from {
			from = max(from, sp.to) // hidden with the span before
			continue
		}
		b.WriteString(s[from:sp.from])
		b.WriteString(redacted)
		from = sp.to
	}
	b.WriteString(s[from:])
	return b.String()
}

// withTails moves end, where a match of a real token ends, past the
// tails of the token that follow it. The last escape of a spelling may
// read the first bytes of a token right after it ("%6" before "eyJ..."
// reads "%6e"): the rest of that token goes too, as after a cut, and
// the one after it if that rest ends in such an escape too.
func (m *matcher) withTails(r *Redactor, s string, end int) int {
	if !r.long {
		return end
	}
	for {
		_, tail := m.afterCut(r, s, end)
		if tail < 0 {
			return end
		}
		end = tail
	}
}

// pastRun returns where to look for a real token next after a search
// of it from the backslash s[i] failed: past the run of backslashes when
// the token holds none, since from every byte of the run the text reads
// the same, an escape of what follows it; else the next byte.
func (m *matcher) pastRun(r *Redactor, s string, i int) int {
	if r.at['\\'] == nil {
		return m.backslashes.end(s, i, '\\', &m.steps)
	}
	return i + 1
}

// state is a point of a match: k bytes of the secret spelt by s[:end].
type state struct{ k, end int }

// A matcher holds the scratch space of the searches in one text, reused
// from one position to the next: a matcher serves one text only.
type matcher struct {
	cur, next, starts []int
	read              []reading
	// backslashes and zeros are the text's runs of the bytes an escape
	// may repeat any number of times.
	backslashes, zeros runs
	// steps counts the work done, for the tests that bound it.
	steps int
}

// A span is the text s[from:to].
type span struct{ from, to int }

// runs finds where the runs of one byte end in a text. Searches cross the
// same run from each of its bytes and from each other run they read a
// byte in: measuring it every time would cost time quadratic in its
// length. So a short run is measured, and the long ones are all found
// at once, the first time a search meets one.
type runs struct {
	last span   // the run last measured
	long []span // the runs of longRun or more, in order; nil until then
}

// longRun is the length from which a run is looked up in runs.long
// rather than measured.
const longRun = 32

// end returns the end of the run of the byte c at s[j]; it counts its
// work in steps.
func (x *runs) end(s string, j int, c byte, steps *int) int {
	if j < x.last.from || j >= x.last.to {
		x.last = span{j, x.measure(s, j, c, steps)}
	}
	return x.last.to
}

// measure is end without the run last measured.
func (x *runs) measure(s string, j int, c byte, steps *int) int {
	if x.long == nil {
		e := j
		for e < len(s) && s[e] == c && e-j < longRun {
			e++
		}
		*steps += e - j
		if e-j < longRun {
			return e
		}
		x.findLong(s, c, steps)
	}
	// Runs are disjoint and in order: the one that may hold s[j] is the
	// first to end after it.
	*steps++
	k, _ := slices.BinarySearchFunc(x.long, j, func(run span, j int) int { return cmp.Compare(run.to, j+1) })
	if k < len(x.long) && x.long[k].from <= j {
		return x.long[k].to
	}
	e := j // a short run: every long one is known
	for e < len(s) && s[e] == c {
		e++
	}
	*steps += e - j
	return e
}

// findLong sets x.long to the runs of longRun or more bytes c of s.
func (x *runs) findLong(s string, c byte, steps *int) {
	x.long = []span{}
	for from := 0; ; {
		k := strings.IndexByte(s[from:], c)
		if k < 0 {
			return
		}
		run := span{from + k, from + k}
		for run.to < len(s) && s[run.to] == c {
			run.to++
		}
		*steps += run.to - run.from
		if run.to-run.from >= longRun {
			x.long = append(x.long, run)
		}
		from = run.to
	}
}

// skipZeros returns the end of the zeros at s[j], if any: a reference or
// a code point may be padded with any number of them.
func (m *matcher) skipZeros(s string, j int) int {
	if j < len(s) && s[j] == '0' {
		return m.zeros.end(s, j, '0', &m.steps)
	}
	return j
}

// searchBudget is the most states one search of a secret explores. A
// text made of escapes that spell a secret of escape characters in ever
// more ways (a secret of backslashes among thousands of them) would
// otherwise cost time quadratic in its length; such a search gives up
// and its whole reach counts as a match: hiding a stretch of escapes
// costs nothing, printing a token would. A token of the characters a
// bearer token has (RFC 6750) never comes near it: each of its bytes
// reads at most two ways.
func searchBudget(secret string) int { return 8*len(secret) + 256 }

// reach calls each for every state that the spellings of secret[k:to],
// for each k from first to last, starting at s[i], reach: it explores
// every way to read s (an escape may read as one character or as
// several), each state once, a byte of the secret at a time. It returns
// the end of the farthest state reached and whether the search gave up
// (see [searchBudget]).
func (m *matcher) reach(r *Redactor, s string, i, first, last, to int, each func(state)) (far int, gaveUp bool) {
	secret, far, budget := r.secret, i, r.budget
	m.startsAt(r, s, i, first, last)
	m.cur = m.cur[:0]
	join := 0 // m.starts[join:] have yet to join the search
	for k := first; k < to; k++ {
		if join < len(m.starts) && m.starts[join] == k {
			m.cur = append(m.cur, i) // a start, not reached: each is not told
			join++
		}
		if len(m.cur) == 0 {
			if join == len(m.starts) {
				break
			}
			k = m.starts[join] - 1 // on to the next start
			continue
		}
		m.next = m.next[:0]
		for _, e := range m.cur {
			m.next = m.spellingEnds(r, s, e, secret[k], m.next)
		}
		if len(m.next) > 1 {
			slices.Sort(m.next)
			m.next = slices.Compact(m.next)
		}
		for _, e := range m.next {
			each(state{k + 1, e})
			far = max(far, e)
		}
		m.steps += len(m.next)
		if budget -= len(m.next); budget < 0 {
			return far, true
		}
		m.cur, m.next = m.next, m.cur
	}
	return far, false
}

// startsAt sets m.starts to the bytes of the secret, from first to last,
// whose spelling may begin at s[i]: all of them when there is one start,
// else those s[i] spells, as it is or as an escape.
func (m *matcher) startsAt(r *Redactor, s string, i, first, last int) {
	m.starts = m.starts[:0]
	if first == last {
		m.starts = append(m.starts, first)
		return
	}
	m.read = m.readings(r, s, i, m.read[:0])
	for _, rd := range m.read {
		ks := r.at[rd.c]
		from, _ := slices.BinarySearch(ks, first)
		to, _ := slices.BinarySearch(ks, last+1)
		m.starts = append(m.starts, ks[from:to]...)
	}
	if len(m.read) > 1 {
		slices.Sort(m.starts)
		m.starts = slices.Compact(m.starts)
	}
}

// full returns the end of the longest spelling of the whole secret that
// starts at s[i], or -1. A short secret must not touch a letter or digit.
func (m *matcher) full(r *Redactor, s string, i int) int {
	end, _ := m.fullOrCut(r, s, i, false)
	return end
}

// fullOrCut returns full's end and, when cuts is set, the end of a
// spelling of the first 8 or more bytes of the secret that starts at s[i]
// and is followed by a cut mark (allowing for an escape the cut split),
// or -1; the mark is not included. Both come of one search.
func (m *matcher) fullOrCut(r *Redactor, s string, i int, cuts bool) (end, cut int) {
	if !r.long && i > 0 && isAlnum(s[i-1]) {
		return -1, -1
	}
	end, cut = -1, -1
	n := len(r.secret)
	far, gaveUp := m.reach(r, s, i, 0, 0, n, func(st state) {
		if st.k == n && st.end > end && (r.long || st.end == len(s) || !isAlnum(s[st.end])) {
			end = st.end
		}
		if cuts && st.k >= minCutRun {
			cut = max(cut, cutMarkAfter(s, st.end))
		}
	})
	if gaveUp {
		return far, far
	}
	if end < 0 {
		end = m.folded(r, s, i)
	}
	return end, cut
}

// afterCut finds, at s[i] right after a cut mark, the spelling of the last
// 8 or more bytes of the secret that a cut left (allowing for the rest of
// an escape the cut split), and returns where it starts and ends; end is
// -1 when there is none.
func (m *matcher) afterCut(r *Redactor, s string, i int) (start, end int) {
	n := len(r.secret)
	if n-1 < minCutRun {
		return i, -1
	}
	for skip := 0; skip <= maxSplitEscape; skip++ {
		if skip > 0 && (i+skip > len(s) || !isEscapeByte(s[i+skip-1])) {
			break
		}
		// Every tail at once, from the second byte on (all of it is a
		// full match, found before), in one search.
		best := -1
		far, gaveUp := m.reach(r, s, i+skip, 1, n-minCutRun, n, func(st state) {
			if st.k == n && st.end > best {
				best = st.end
			}
		})
		if gaveUp {
			return i, far
		}
		if best >= 0 {
			return i, best
		}
	}
	return i, -1
}

// maxSplitEscape is the most bytes of an escape a cut may leave on one side
// of its mark: "&#x2F" of "&#x2F;", "\u002" of "\u002F".
const maxSplitEscape = 7

// isEscapeByte reports whether c may be part of an escape of a token's
// character.
func isEscapeByte(c byte) bool {
	return c == '\\' || c == '%' || c == '&' || c == '#' || c == ';' || c == '{' || c == '}' || isHexDigit(c) || c == 'u' || c == 'U' || c == 'x' || c == 'X'
}

// cutMarkAfter returns where the cut mark after s[:i] begins, allowing
// before it for the start of an escape that the cut split, or -1.
func cutMarkAfter(s string, i int) int {
	for j := i; j <= min(len(s), i+maxSplitEscape); j++ {
		if cutMarkEnd(s, j) >= 0 {
			return j
		}
		if j < len(s) && !isEscapeByte(s[j]) {
			break
		}
	}
	return -1
}

// cutMarkEnd returns the end of the cut mark ("..." or "…") at s[i], or -1.
func cutMarkEnd(s string, i int) int {
	for _, mark := range []string{"...", "…"} {
		if strings.HasPrefix(s[i:], mark) {
			return i + len(mark)
		}
	}
	return -1
}

// A reading is a byte that the text spells up to end.
type reading struct {
	c   byte
	end int
}

// readings appends to out each byte that s[j] spells, as it is or as
// an escape (see [Redactor]), with where its spelling ends; but only the
// bytes the secret holds, which spares reading a run of backslashes as
// escaped backslashes in every way when it holds none.
func (mt *matcher) readings(r *Redactor, s string, j int, out []reading) []reading {
	if j >= len(s) {
		return out
	}
	mt.steps++
	out = r.appendReading(out, int(s[j]), j+1)
	switch s[j] {
	case '\\':
		m := mt.backslashes.end(s, j, '\\', &mt.steps)
		if r.at['\\'] != nil {
			// An escaped backslash, escaped as many times as it takes.
			for e := j + 2; e <= m; e = j + 2*(e-j) {
				out = r.appendReading(out, '\\', e)
			}
		}
		if m == len(s) {
			return out
		}
		switch d := s[m]; {
		case isPunct(d):
			out = r.appendReading(out, int(d), m+1)
		case d == 'u' && m+1 < len(s) && s[m+1] == '{':
			// Three hex digits after the zeros are past any byte.
			if v, e := hexValue(s, mt.skipZeros(s, m+2), 3); e > m+2 && e < len(s) && s[e] == '}' {
				out = r.appendReading(out, v, e+1)
			}
		case d == 'u' || d == 'U' || d == 'x':
			digits := 2
			switch d {
			case 'u':
				digits = 4
			case 'U':
				digits = 8
			}
			if v, e := hexValue(s, m+1, digits); e == m+1+digits {
				out = r.appendReading(out, v, e)
			}
		}
	case '%':
		// %XX, and %25XX for text percent-encoded twice or more.
		for m := j + 1; ; m += 2 {
			mt.steps++
			if v, e := hexValue(s, m, 2); e == m+2 {
				out = r.appendReading(out, v, e)
			}
			if !strings.HasPrefix(s[m:], "25") {
				break
			}
		}
	case '&':
		if j+1 < len(s) && s[j+1] == '#' {
			m, base := j+2, 10
			if m < len(s) && (s[m] == 'x' || s[m] == 'X') {
				m, base = m+1, 16
			}
			// A browser reads the reference without its ';', and its
			// digits as long as they go on; but the token that may come
			// next, once replaced, would end them sooner ("&#x55eyJ" is
			// not "U...", "&#x55[REDACTED]" is): it ends after any digit
			// past the zeros that pad it, or after them.
			z := mt.skipZeros(s, m)
			if z > m {
				out = r.appendReading(out, 0, z)
				if z < len(s) && s[z] == ';' {
					out = r.appendReading(out, 0, z+1)
				}
			}
			v := 0
			for e := z; e < len(s); e++ {
				d := digitValue(s[e], base)
				if d < 0 {
					break
				}
				if v = v*base + d; v > 0xff {
					break
				}
				out = r.appendReading(out, v, e+1)
				if e+1 < len(s) && s[e+1] == ';' {
					out = r.appendReading(out, v, e+2)
				}
			}
			break
		}
		m := j + 1
		for m < len(s) && m-j <= 32 && isAlnum(s[m]) {
			m++
		}
		if m > j+1 && m < len(s) && s[m] == ';' {
			u := html.UnescapeString(s[j : m+1])
			if c, size := utf8.DecodeRuneInString(u); size == len(u) {
				out = r.appendReading(out, int(c), m+1)
			}
		}
	}
	return out
}

// appendReading appends to out the reading of the byte v up to end, when v
// is a byte the secret holds.
func (r *Redactor) appendReading(out []reading, v, end int) []reading {
	if 0 <= v && v <= 0xff && r.at[v] != nil {
		out = append(out, reading{byte(v), end})
	}
	return out
}

// spellingEnds appends to out the end of each spelling of the byte c that
// starts at s[j].
func (mt *matcher) spellingEnds(r *Redactor, s string, j int, c byte, out []int) []int {
	if j < len(s) && s[j] != '\\' && s[j] != '%' && s[j] != '&' {
		mt.steps++ // no escape: the byte itself, the most common case
		if s[j] == c {
			out = append(out, j+1)
		}
		return out
	}
	mt.read = mt.readings(r, s, j, mt.read[:0])
	for _, rd := range mt.read {
		if rd.c == c {
			out = append(out, rd.end)
		}
	}
	return out
}

// hexValue reads up to most hex digits at s[i]; it returns their value
// (-1 past any byte) and where they end.
func hexValue(s string, i, most int) (v, end int) {
	end = i
	for end < len(s) && end-i < most && isHexDigit(s[end]) {
		d := s[end]
		switch {
		case d <= '9':
			d -= '0'
		case d >= 'a':
			d -= 'a' - 10
		default:
			d -= 'A' - 10
		}
		if v >= 0 {
			v = v*16 + int(d)
			if v > 0xff {
				v = -1
			}
		}
		end++
	}
	return v, end
}

// digitValue is the value of the digit c in base 10 or 16, or -1.
func digitValue(c byte, base int) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case base == 16 && 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case base == 16 && 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// isPunct reports whether c is ASCII punctuation, which JSON, markdown and
// shells may escape with a backslash.
func isPunct(c byte) bool {
	return '!' <= c && c <= '~' && !isAlnum(c)
}

// Format prints the redactor without its secret, for every verb.
func (r *Redactor) Format(f fmt.State, verb rune) { io.WriteString(f, "redact.Redactor{[REDACTED]}") }
