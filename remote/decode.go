package remote

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"
)

// decodeBody checks that a 2xx body is JSON before decoding it, so that an
// HTML login page or proxy error served with 200 reads as what it is.
func (c *Client) decodeBody(contentType string, data []byte, decode func([]byte) error) error {
	trimmed := bytes.TrimSpace(data)
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err != nil || !(mt == "application/json" || strings.HasSuffix(mt, "+json")) {
			got := mt
			if err != nil {
				got = shorten(contentType, 60)
			}
			return c.notJSON("expected JSON, got "+got, trimmed)
		}
	}
	if len(trimmed) == 0 {
		return errors.New("empty body, expected JSON")
	}
	if trimmed[0] == '<' {
		return c.notJSON("expected JSON, got HTML or XML", trimmed)
	}
	return decode(data)
}

func (c *Client) notJSON(what string, body []byte) error {
	if len(body) == 0 {
		return errors.New(what + " (empty body)")
	}
	// The whole body is redacted before the cut: whitespace collapses in
	// the excerpt, so any byte of it may end up at the cut.
	return fmt.Errorf("%s: %q", what, excerpt(c.redactor, string(body), 80))
}

// decodeObject returns a decoder of a JSON object into dst, which check, when
// non-nil, then validates.
func decodeObject[T any](dst *T, check func(*T) error) func([]byte) error {
	return func(data []byte) error {
		if err := expectObject(data); err != nil {
			return err
		}
		if err := json.Unmarshal(data, dst); err != nil {
			return describeJSONError(err)
		}
		if check != nil {
			return check(dst)
		}
		return nil
	}
}

func expectObject(data []byte) error {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return nil
	}
	if !json.Valid(trimmed) {
		return describeJSONError(json.Unmarshal(trimmed, new(any)))
	}
	// A valid JSON value that is no object starts with its kind's byte,
	// or is a number.
	kind := cmp.Or(map[byte]string{
		'[': "a JSON array", '"': "a JSON string", 'n': "JSON null", 't': "a JSON boolean", 'f': "a JSON boolean",
	}[trimmed[0]], "a JSON number")
	return fmt.Errorf("got %s, expected a JSON object", kind)
}

func describeJSONError(err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Errorf("malformed JSON at byte %d: %w", syn.Offset, err)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Errorf("field %q is a JSON %s, expected %s: %w", typ.Field, typ.Value, typ.Type, err)
	case errors.As(err, &typ):
		return fmt.Errorf("got a JSON %s, expected %s: %w", typ.Value, typ.Type, err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("truncated JSON: %w", err)
	}
	return err
}

// carriesNoObject reports whether a write's 2xx body says only that it
// was done: empty, or a JSON object with no "id" ({"success":true}).
func carriesNoObject(data []byte) bool {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return true
	}
	var obj map[string]json.RawMessage
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &obj) != nil {
		return false
	}
	_, hasID := obj["id"]
	return !hasID
}
