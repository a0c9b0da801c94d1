// Package visible shows what a person cannot see in text that a space, a
// repository or a service controls, so that a reviewer reads what a model
// will read, and printing the text cannot drive the terminal or the page
// that shows it.
//
// What no one sees: control characters (an escape sequence could erase or
// move lines of a plan, set the window title or write the clipboard, a
// bare carriage return overwrite a line), bidirectional controls that
// reorder what a reviewer reads ("Trojan Source"), and invisible
// characters that a model reads as text: Unicode tag characters that spell
// ASCII, zero-width characters, variation selectors outside emoji, soft
// hyphens, line and paragraph separators, a byte order mark inside text
// ([KindOf], [Runs]); and stacks of combining marks deeper than any
// script writes ("Zalgo"), which smear the letters under them. Valid
// emoji sequences and the marks of scripts, which use some of them, are
// left alone.
//
// [String] and [Line] show each run of them as one marker between ⟦ and
// ⟧: ⟦ZWSP⟧, ⟦ESC⟧[2J, ⟦RLO⟧, ⟦tags: "Also email…"⟧, decoded when it
// spells something; ⟦174 stacked combining marks on "ignore…"⟧. They are for text a person reads: plans, comments,
// messages. A [Writer], which sits under every output, JSON included,
// shows control characters only, as escapes that keep JSON's values
// (\x1b, \u0085); [EscapeJSON] writes the invisible characters of JSON
// as \u escapes.
package visible

import (
	"fmt"
	"io"
	"sync"
	"unicode/utf8"
)

// needs reports whether s may hold something to show: a quick scan of
// its bytes that decodes no rune.
func needs(s string, line bool) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\t':
		case c == '\n':
			if line {
				return true
			}
		case c < 0x20, c == 0x7f:
			return true
		case c == 0xc2:
			// U+0080 to U+009F are c2 80 to c2 9f.
			if i+1 < len(s) && s[i+1] <= 0x9f {
				return true
			}
		case c == 0xe2:
			// The bidi controls are e2 80 aa to e2 80 ae and e2 81 a6 to
			// e2 81 a9.
			if i+2 < len(s) && (s[i+1] == 0x80 && s[i+2] >= 0xaa && s[i+2] <= 0xae ||
				s[i+1] == 0x81 && s[i+2] >= 0xa6 && s[i+2] <= 0xa9) {
				return true
			}
		case c >= 0x80 && c <= 0x9f:
			// A continuation byte: of a rune, or an 8-bit C1 control.
			// Runes are told from stray bytes by decoding.
			if i == 0 || !utf8.RuneStart(c) && !inRune(s, i) {
				return true
			}
		}
	}
	return false
}

// inRune reports whether the continuation byte s[i] belongs to a valid
// rune that starts before it.
func inRune(s string, i int) bool {
	for j := i - 1; j >= 0 && j >= i-utf8.UTFMax+1; j-- {
		if utf8.RuneStart(s[j]) {
			r, n := utf8.DecodeRuneInString(s[j:])
			return !(r == utf8.RuneError && n == 1) && j+n > i
		}
	}
	return false
}

// escaped reports whether r, a whole rune, is shown as an escape.
func escaped(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f:
		return r != '\t' && r != '\n'
	case r >= 0x80 && r <= 0x9f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

func appendEscaped(b []byte, s string, line bool) []byte {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			// An invalid byte: 0x80 to 0x9f are the 8-bit C1 controls.
			if c := s[i]; c <= 0x9f {
				b = fmt.Appendf(b, `\x%02x`, c)
			} else {
				b = append(b, c)
			}
		case r == '\n' && line:
			b = append(b, `\n`...)
		case r == '\r' && !line && i+1 < len(s) && s[i+1] == '\n':
			b = append(b, '\r') // a CRLF line end
		case !escaped(r):
			b = append(b, s[i:i+n]...)
		default:
			b = appendRune(b, r)
		}
		i += n
	}
	return b
}

// appendRune appends the escape of r: `\n` and `\r` by name, as %q writes
// them, other C0 controls in hex (`\x1b`, which reads better than %q's
// rarer `\a` or `\v`; JSON encoders escape these themselves), the rest,
// which JSON strings may hold raw, as `\u0085`, which JSON reads back.
func appendRune(b []byte, r rune) []byte {
	switch {
	case r == '\n':
		return append(b, `\n`...)
	case r == '\r':
		return append(b, `\r`...)
	case r < 0x7f:
		return fmt.Appendf(b, `\x%02x`, r)
	}
	return fmt.Appendf(b, `\u%04x`, r)
}

// A Writer writes to w what is written to it with its control characters
// shown as escapes: C0 controls as \x1b, a bare carriage return as \r,
// DEL, C1 controls and bidirectional controls as \u0085. It is
// the last guard of streams that may carry JSON, whose strings read those
// escapes back as the characters; text for people is shown with [String]
// before it gets there. A write may end inside a rune or between
// the CR and LF of a line end: that tail waits for the next write, or for
// [Writer.Flush]. A Writer is safe for concurrent use.
type Writer struct {
	mu   sync.Mutex
	w    io.Writer
	held []byte
	out  []byte
}

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

func (v *Writer) Write(p []byte) (int, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	data := p
	if len(v.held) > 0 {
		data = append(v.held, p...)
		v.held = nil
	}
	cut := len(data) - heldTail(data)
	if cut < len(data) {
		v.held = append([]byte(nil), data[cut:]...)
	}
	if err := v.write(data[:cut]); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes the tail held back from the last write, shown as it is: a
// lone carriage return, or the bytes of a rune cut short.
func (v *Writer) Flush() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	held := v.held
	v.held = nil
	return v.write(held)
}

func (v *Writer) write(p []byte) error {
	if len(p) == 0 {
		return nil
	}
	s := string(p)
	if !needs(s, false) {
		_, err := v.w.Write(p)
		return err
	}
	v.out = appendEscaped(v.out[:0], s, false)
	_, err := v.w.Write(v.out)
	return err
}

// heldTail is how many bytes at the end of p must wait for the next write
// to be read right: a carriage return, whose newline may follow, or the
// start of a rune cut short.
func heldTail(p []byte) int {
	if len(p) == 0 {
		return 0
	}
	if p[len(p)-1] == '\r' {
		return 1
	}
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if p[i] >= 0x80 && !utf8.FullRune(p[i:]) {
				return len(p) - i
			}
			return 0
		}
	}
	return 0
}
