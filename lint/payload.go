package lint

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minBlob is the shortest run of base64 or hex that is decoded: shorter
// ones are identifiers, hashes and keys, too short for a command.
const minBlob = 40

// maxDecoded bounds what one blob may decompress to.
const maxDecoded = 1 << 20

// payloads decodes the long base64 and hex blobs of the text and judges
// what they decode to; a blob whose text another rule finds is reported.
func (s *scan) payloads() {
	blobRuns(s.t.raw, func(lo, hi int) {
		if !dataURI(s.t.raw, lo) {
			s.blob(lo, hi)
		}
	})
}

// blobRuns calls f with each run of minBlob characters of base64 or more
// of raw, in order: raw[lo:hi], as long as it goes.
func blobRuns(raw string, f func(lo, hi int)) {
	// No run goes on past raw[i-1], and raw[i:k] is base64. A run from i
	// holds raw[i:i+minBlob], read backwards down to k: a character that
	// is not base64 there ends every run through it.
	for i, k := 0, 0; i+minBlob <= len(raw); {
		j := i + minBlob - 1
		for j >= k && isB64(raw[j]) {
			j--
		}
		if j >= k {
			i, k = j+1, i+minBlob
			continue
		}
		hi := i + minBlob
		for hi < len(raw) && isB64(raw[hi]) {
			hi++
		}
		f(i, hi)
		i, k = hi+1, hi+1
	}
}

// isB64 reports whether c is a letter, a digit or one of "+/=-_": a
// character of base64, URL-safe or not. The two masks hold a bit for
// each such character below 64 and from 64 to 127.
func isB64(c byte) bool {
	const low, high = 0x23ffa80000000000, 0x7fffffe87fffffe
	if c < 64 {
		return low>>c&1 != 0
	}
	return c < 128 && high>>(c-64)&1 != 0
}

// dataURI reports whether the blob at raw[i:] is the data of an image or
// font data URI, which decodes to no text.
func dataURI(raw string, i int) bool {
	head := strings.ToLower(raw[max(i-48, 0):i])
	return strings.Contains(head, "data:image/") || strings.Contains(head, "data:font/") || strings.Contains(head, "data:application/font")
}

// blob decodes raw[i:j] as hex or base64 and judges the text.
func (s *scan) blob(i, j int) {
	b := strings.TrimRight(s.t.raw[i:j], "=")
	if strings.Count(b, "/") > len(b)/8 || !mixed(b) && !isHex(b) {
		return // a path, a word or a URL, not a blob
	}
	var decoded []byte
	if isHex(b) && len(b)%2 == 0 {
		decoded, _ = hex.DecodeString(b)
	} else {
		if len(b)%4 == 1 {
			b = b[:len(b)-1] // a stray character: no base64 ends so
		}
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if d, err := enc.DecodeString(b); err == nil {
				decoded = d
				break
			}
		}
	}
	if len(decoded) == 0 {
		return
	}
	if len(decoded) > 2 && decoded[0] == 0x1f && decoded[1] == 0x8b {
		if zr, err := gzip.NewReader(bytes.NewReader(decoded)); err == nil {
			decoded, _ = io.ReadAll(io.LimitReader(zr, maxDecoded))
		}
	}
	if !textLike(decoded) {
		return
	}
	s.judgePayload(i, j, string(decoded), "encoded")
}

// mixed reports whether b mixes upper and lower case letters and digits,
// as base64 of text does and words, names and paths do not.
func mixed(b string) bool {
	var up, low, digit bool
	for i := 0; i < len(b); i++ {
		c := b[i]
		up = up || 'A' <= c && c <= 'Z'
		low = low || 'a' <= c && c <= 'z'
		digit = digit || '0' <= c && c <= '9'
	}
	return up && low && digit
}

func isHex(b string) bool {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// textLike reports whether b is printable UTF-8 text with some letters:
// what encoded instructions and commands decode to.
func textLike(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	good, letters, all := 0, 0, 0
	for _, r := range string(b) {
		all++
		if r == '\n' || r == '\t' || r == '\r' || unicode.IsPrint(r) {
			good++
		}
		if unicode.IsLetter(r) {
			letters++
		}
	}
	return all >= 8 && good*20 >= all*19 && letters*3 >= all
}

// judgePayload judges text decoded from raw[i:j] and reports it when
// another rule finds something in it.
func (s *scan) judgePayload(i, j int, decoded, how string) {
	if s.depth >= maxDepth {
		return
	}
	inner := s.j.scan(s.path, decoded, s.hash, s.depth+1, s.aboutAttacks)
	s.work += inner.work
	var best *Finding
	secret := false
	for k := range inner.out {
		f := &inner.out[k]
		if best == nil || f.Severity > best.Severity {
			best = f
		}
		secret = secret || f.Rule == RuleKnownSecret || f.Rule == RuleObfuscatedPayload && f.Match == encodedSecret
	}
	if best == nil || best.Severity < SeverityWarning {
		return
	}
	msg := fmt.Sprintf("%s text that decodes to what %s finds: %s", how, best.Rule, best.Message)
	fs, fe := s.foldSpan(i, j)
	s.add(RuleObfuscatedPayload, best.Severity, fs, fe, decoded, msg, span{doc: true})
	if secret {
		// The blob spells the secret in a form redaction does not know.
		s.out[len(s.out)-1].Match = encodedSecret
	}
}

// encodedSecret is what a finding shows of encoded text that holds a
// secret of the process.
const encodedSecret = "[REDACTED: encodes a secret]"

// foldSpan is the span of fold that raw[i:j] became.
func (s *scan) foldSpan(i, j int) (int, int) {
	lo, hi := s.t.foldOff(i), s.t.foldOff(j)
	return lo, max(hi, lo)
}

// charCodeDetectors decode text spelt as character codes or escapes:
// String.fromCharCode(104, 116, ...), chr(104)+chr(116), "\x68\x74".
func charCodeDetectors() []detector {
	return []detector{{
		rule: RuleObfuscatedPayload, anchors: []string{"fromcharcode", "chr(", "char(", "bytes([", "[char[]]", "[byte[]]", "bytearray(["},
		re:     mustCompile(`(?:fromcharcode\s*\(|bytes\(\s*\[|bytearray\(\s*\[|\[char\[\]\]\s*\(?|\[byte\[\]\]\s*\(?)\s*(?:\d{1,3}\s*,\s*){7,}\d{1,3}|(?:\b(?:chr|char)\(\s*\d{1,3}\s*\)\s*[+.,&]\s*){7,}\b(?:chr|char)\(\s*\d{1,3}\s*\)`),
		refine: decodedBy("character codes", parseCodes),
		after:  4000,
	}, {
		rule: RuleObfuscatedPayload, anchors: []string{`\x`, `\u00`},
		re:     mustCompile(`(?:\\x[0-9a-f]{2}){8,}|(?:\\u00[0-9a-f]{2}){8,}`),
		refine: decodedBy("escapes", parseEscapes),
		after:  4000,
	}}
}

// decodedBy judges the text that parse decodes from a match, and reports
// the match when another rule finds something in it; how names the
// encoding ("character codes").
func decodedBy(how string, parse func(string) string) func(s *scan, m []int) verdict {
	return func(s *scan, m []int) verdict {
		text := parse(s.group(m, 0))
		if !textLike([]byte(text)) {
			return verdict{}
		}
		inner := s.j.scan(s.path, text, s.hash, s.depth+1, s.aboutAttacks)
		s.work += inner.work
		best := Severity(0)
		msg := ""
		for _, f := range inner.out {
			if f.Severity > best {
				best, msg = f.Severity, fmt.Sprintf("%s that decode to what %s finds: %s", how, f.Rule, f.Message)
			}
		}
		if best < SeverityWarning || s.depth >= maxDepth {
			return verdict{}
		}
		return verdict{best, msg, text}
	}
}

// parseCodes reads the decimal numbers of s as characters.
func parseCodes(s string) string {
	var b strings.Builder
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r < '0' || r > '9' }) {
		if n, err := strconv.Atoi(f); err == nil && n < 0x110000 {
			b.WriteRune(rune(n))
		}
	}
	return b.String()
}

// parseEscapes reads \xNN and \u00NN escapes as bytes.
func parseEscapes(s string) string {
	var b []byte
	for _, part := range strings.Split(s, `\`)[1:] {
		h := strings.TrimPrefix(strings.TrimPrefix(part, "x"), "u00")
		if v, err := strconv.ParseUint(h, 16, 8); err == nil {
			b = append(b, byte(v))
		}
	}
	return string(b)
}
