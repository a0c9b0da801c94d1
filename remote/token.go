// The token leaves the client only in the Authorization header of a
// request to the base URL's origin (see package origin). A Client prints
// it as [REDACTED], and an answer that holds it is refused.

package remote

import (
	"errors"
	"fmt"
	"io"
	"strings"
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
	if strings.ContainsFunc(tok, func(r rune) bool { return r <= ' ' || r == 0x7f }) {
		// Never echo the token, not even in part.
		return errors.New("token contains a space or control character")
	}
	return nil
}
