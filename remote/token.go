// The token never leaves the client but in the Authorization header of a
// request to the base URL's origin: a Client prints it as [REDACTED], New
// refuses a malformed one without echoing it, and an answer
// that holds it is refused. Redirects that would carry it elsewhere are
// refused in redirect.go; error bodies are redacted in errors.go.

package remote

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/skillsync/skillsync/internal/redact"
)

// Format prints the client's base URL for every verb, never its token. It
// has a value receiver so that a dereferenced Client is covered too.
func (c Client) Format(f fmt.State, verb rune) {
	fmt.Fprintf(f, "remote.Client{BaseURL:%q, Token:[REDACTED]}", c.base)
}

// secret is the token as the client keeps it: printed through reflection,
// say inside a caller's struct, it still shows as [REDACTED].
type secret string

func (s secret) Format(f fmt.State, verb rune) { io.WriteString(f, "[REDACTED]") }

func checkToken(tok string) error {
	if tok == "" {
		return errors.New("no token given")
	}
	if strings.HasPrefix(strings.ToLower(tok), "bearer ") {
		return errors.New("token starts with \"Bearer \"; pass the token alone")
	}
	for i := 0; i < len(tok); i++ {
		if c := tok[i]; c <= ' ' || c == 0x7f {
			// Never echo the token, not even in part.
			return errors.New("token contains a space or control character")
		}
	}
	return nil
}

// holdsToken reports whether a successful answer holds the client's token,
// spelt in any way, before or after JSON decoding. A token under 12 bytes
// (a test's) is not looked for: it may well be part of ordinary text.
func (c *Client) holdsToken(data []byte) bool {
	if c.redactor.Holds(string(data)) {
		return true
	}
	if !bytes.Contains(data, []byte{'\\'}) {
		return false // no escape: decoding shows nothing new
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	return anyStringHolds(v, c.redactor)
}

// anyStringHolds reports whether a string of the decoded JSON value v, a
// key included, holds r's secret.
func anyStringHolds(v any, r *redact.Redactor) bool {
	switch v := v.(type) {
	case string:
		return r.Holds(v)
	case []any:
		for _, x := range v {
			if anyStringHolds(x, r) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if r.Holds(k) || anyStringHolds(x, r) {
				return true
			}
		}
	}
	return false
}
