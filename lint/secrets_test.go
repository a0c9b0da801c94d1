package lint

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/redact"
)

// TestKnownSecretFindByLines checks that find, which decodes only the
// lines holding an escape, finds a secret where decoding the whole text
// does, and at the same offset: on random text that spells secrets with
// escapes of every kind, and on the fixtures.
func TestKnownSecretFindByLines(t *testing.T) {
	secrets := []string{"sk-sync-7Hq2mX9vL4pR8wZ1cT6y", "p&ss%w0rd\\with/escapes;1", "ghp_Zk3vQ8mX2pL9rT4wN7yB1cF6hJ5dS0aE3gK8"}
	// whole is find as it reads the whole text.
	whole := func(k knownSecret, s string) (int, bool) {
		if i := strings.Index(s, k.v); i >= 0 && len(k.v) >= redact.ShortSecret {
			return i, true
		}
		if !k.maybeIn(s, newText(s, &textBuf{}).fold) {
			return 0, false
		}
		return k.findLines(s)
	}
	check := func(k knownSecret, s string) bool {
		t.Helper()
		off, ok := k.find(s, newText(s, &textBuf{}).fold)
		wantOff, wantOK := whole(k, s)
		if off != wantOff || ok != wantOK {
			t.Fatalf("find(%q) = %d, %v; the whole text gives %d, %v", s, off, ok, wantOff, wantOK)
		}
		return ok
	}
	r := rand.New(rand.NewPCG(1, 2))
	for _, v := range secrets {
		k := newKnownSecret("TOKEN", v)
		found := 0
		for range 3000 {
			if check(k, randomSpelling(r, v)) {
				found++
			}
		}
		// Most texts spell the secret whole; some cut it or break a line
		// inside it.
		if found < 1000 || found == 3000 {
			t.Errorf("secret %q found in %d of 3000 texts: the texts do not test both ways", v, found)
		}
		for _, f := range loadFixtures(t) {
			for _, file := range f.files {
				check(k, string(file.Data))
			}
		}
	}
}

// randomSpelling is text of a few lines, with escapes and pieces of
// secret, and mostly secret spelt whole with each of its characters
// as it is or escaped (JSON, percent, HTML references, a backslash).
func randomSpelling(r *rand.Rand, secret string) string {
	noise := []string{"text ", "&", "%", `\`, "&#", `\u00`, "%25", "&amp;", ";", "\n", "\r\n", "50% ", "a & b ", `\n`, "%4", "&#x", secret[:8], secret[len(secret)-8:]}
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteString(noise[r.IntN(len(noise))])
	}
	if r.IntN(5) > 0 {
		cut := len(secret)
		if r.IntN(6) == 0 {
			cut = r.IntN(len(secret))
		}
		// Half the spellings use one kind of escape only.
		one, only := r.IntN(2) == 0, r.IntN(5)
		for i := 0; i < len(secret); i++ {
			if i == cut {
				b.WriteString(noise[r.IntN(len(noise))])
			}
			c := secret[i]
			switch k := r.IntN(8); {
			case one && k < 5 && k != only:
				b.WriteByte(c)
			case k == 0:
				fmt.Fprintf(&b, `\u%04x`, c)
			case k == 1:
				fmt.Fprintf(&b, "%%%02X", c)
			case k == 2:
				fmt.Fprintf(&b, "&#%d;", c)
			case k == 3:
				fmt.Fprintf(&b, "&#x%x;", c)
			case k == 4:
				if c < '0' || c > 'z' || c > '9' && c < 'A' {
					b.WriteString(`\`)
				}
				b.WriteByte(c)
			default:
				b.WriteByte(c)
			}
		}
	}
	for range r.IntN(6) {
		b.WriteString(noise[r.IntN(len(noise))])
	}
	return b.String()
}
