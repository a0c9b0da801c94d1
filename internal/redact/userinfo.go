package redact

import "strings"

// Userinfo is raw with anything before an "@" of its authority (a user
// and password, parsed or not) replaced by "xxxxx", for error messages.
func Userinfo(raw string) string {
	// The authority runs from after "scheme://" (or the start) to the
	// first '/', '?' or '#': an '@' after it belongs to the path.
	start := 0
	if i := strings.Index(raw, "://"); i >= 0 {
		start = i + 3
	}
	end := len(raw)
	if i := strings.IndexAny(raw[start:], "/?#"); i >= 0 {
		end = start + i
	}
	at := strings.LastIndex(raw[start:end], "@")
	if at < 0 {
		if start > 0 || !strings.Contains(raw, "@") {
			return raw
		}
		// No "://": "user:secret@host" parses as scheme "user"; hide all
		// before the last '@' of what may be the authority.
		at = strings.LastIndex(raw, "@")
		if i := strings.Index(raw, ":"); i >= 0 && i < at && !strings.Contains(raw[:i], "/") {
			j := i + 1
			for j < at && raw[j] == '/' {
				j++
			}
			return raw[:j] + "xxxxx" + raw[at:]
		}
		return "xxxxx" + raw[at:]
	}
	return raw[:start] + "xxxxx" + raw[start+at:]
}
