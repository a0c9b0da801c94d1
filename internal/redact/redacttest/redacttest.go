// Package redacttest holds the forms in which a server, a renderer or a URL
// may echo a token, written independently of package redact, for the tests
// of everything that must keep a token out of what it prints.
package redacttest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// spell writes each byte of s with enc.
func spell(s string, enc func(c byte) string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteString(enc(s[i]))
	}
	return b.String()
}

// punct spells the ASCII punctuation of s with enc, other bytes as they are.
func punct(s string, enc func(c byte) string) string {
	return spell(s, func(c byte) string {
		if isAlnum(c) {
			return string(c)
		}
		return enc(c)
	})
}

// Spellings are the forms in which an honest server, renderer or URL may
// echo a token, each written here independently of the code under test.
var Spellings = map[string]func(string) string{
	"raw":              func(s string) string { return s },
	"json slash":       func(s string) string { return strings.ReplaceAll(s, "/", `\/`) },
	"json u lower":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf(`\u%04x`, c) }) },
	"json u upper":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf(`\u%04X`, c) }) },
	"percent upper":    func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("%%%02X", c) }) },
	"percent lower":    func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("%%%02x", c) }) },
	"percent punct":    func(s string) string { return punct(s, func(c byte) string { return fmt.Sprintf("%%%02X", c) }) },
	"html decimal":     func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#%d;", c) }) },
	"html hex":         func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#x%x;", c) }) },
	"html HEX":         func(s string) string { return spell(s, func(c byte) string { return fmt.Sprintf("&#X%02X;", c) }) },
	"markdown escapes": func(s string) string { return punct(s, func(c byte) string { return `\` + string(c) }) },
	"html named": func(s string) string {
		return strings.NewReplacer("/", "&sol;", "+", "&plus;", "_", "&lowbar;", ".", "&period;", "=", "&equals;").Replace(s)
	},
}

// Leak returns a description of the first run of 8 characters of tok that
// out holds, in any of the spellings, or "".
func Leak(out, tok string) string {
	for name, enc := range Spellings {
		for i := 0; i+8 <= len(tok); i++ {
			if run := enc(tok[i : i+8]); strings.Contains(out, run) {
				return fmt.Sprintf("%q (%s, characters %d to %d of the token)", run, name, i, i+8)
			}
		}
	}
	return ""
}

// LeakInFiles returns a description of the first file under root that
// holds a run of one of tokens (see [Leak]), or "".
func LeakInFiles(root string, tokens ...string) (string, error) {
	var found string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, tok := range tokens {
			if l := Leak(string(b), tok); l != "" {
				found = p + " holds " + l
				return fs.SkipAll
			}
		}
		return nil
	})
	return found, err
}

func isAlnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}
