package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/github"
)

// The renderers stream, so a write may end in the middle of a token: stdout
// must still never show it, however the writes cut it.
func TestStdoutRedactsATokenSplitAcrossWrites(t *testing.T) {
	const token = "tok_9f8e7d6c5b4a39281706"
	doc := "before\nthe token " + token + " and an escaped one " + strings.ReplaceAll(token, "_", `\u005f`) + "\nafter, with no final newline"
	for cut := 1; cut < len(doc); cut++ {
		var out bytes.Buffer
		ui := newUI(&out, &bytes.Buffer{}, github.Env{})
		ui.secrets.Add("SKILLSYNC_TOKEN", token)
		ui.stdout.Write([]byte(doc[:cut]))
		ui.stdout.Write([]byte(doc[cut:]))
		ui.flush()
		got := out.String()
		if strings.Contains(got, token) || strings.Contains(got, token[:12]) || strings.Contains(got, token[12:]) {
			t.Fatalf("cut at %d: stdout shows the token: %q", cut, got)
		}
		if !strings.HasPrefix(got, "before\n") || !strings.HasSuffix(got, "after, with no final newline") {
			t.Fatalf("cut at %d: stdout lost text: %q", cut, got)
		}
	}
}
