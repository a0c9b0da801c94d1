package notify

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/redact"
	"github.com/skillsync/skillsync/internal/redact/redacttest"
	"github.com/skillsync/skillsync/internal/visible"
)

// token is a space's token as the process knows it.
const token = "sk-live-Zm9vYmFy/c2VjcmV0+sntl_7Qx"

// TestTokenNeverSent: a token in a skill's name, a target, the summary
// (as an error body echoes it: JSON-escaped, percent-encoded, cut by an
// excerpt) or a link reaches no receiver in any spelling; the rest of
// the event does.
func TestTokenNeverSent(t *testing.T) {
	ev := Event{
		Kind:    ApplyFailed,
		Target:  "prod-" + token,
		Space:   "pr01",
		BaseURL: "https://tenant.example.com",
		Skills:  []string{"sql-style", "leak-" + token, "x" + redacttest.Spellings["percent upper"](token)},
		Summary: `PATCH sql-style: 401 {"error":"bad token ` + redacttest.Spellings["json u lower"](token) + `"}` +
			"\nsent " + token[:20] + "…",
		Links: Links{Run: "https://ci.example.com/run/1?t=" + token, Issue: "https://github.com/acme/skills/issues/7"},
	}
	for _, kind := range []string{Slack, Teams, Webhook} {
		t.Run(kind, func(t *testing.T) {
			secrets := &redact.Set{}
			secrets.Add("SKILLSYNC_TOKEN", token)
			rc := newReceiver(t)
			s := oneDestination(t, kind, rc.hookURL(), nil, secrets, Options{})
			if w := s.Send(t.Context(), ev); len(w) > 0 {
				t.Fatal(w)
			}
			body := string(rc.deliveries()[0].body)
			if leak := redacttest.Leak(body, token); leak != "" {
				t.Errorf("the token reached the receiver as %s:\n%s", leak, body)
			}
			var decoded any
			if err := json.Unmarshal([]byte(body), &decoded); err != nil {
				t.Fatalf("not JSON once redacted: %v", err)
			}
			flat, _ := json.Marshal(decoded)
			if leak := redacttest.Leak(string(flat), token); leak != "" {
				t.Errorf("the decoded body holds the token as %s", leak)
			}
			// Teams escapes punctuation with a backslash, \\ in JSON.
			unescaped := strings.ReplaceAll(body, `\\`, "")
			for _, want := range []string{"sql-style", "pr01", "[REDACTED]", "issues/7"} {
				if !strings.Contains(unescaped, want) {
					t.Errorf("the body lacks %q:\n%s", want, body)
				}
			}
			if strings.Contains(body, "ci.example.com") {
				t.Errorf("a link that held the token was sent:\n%s", body)
			}
		})
	}
}

// TestSecretsKeptOutOfWarnings: a receiver's answer that echoes the
// token, the webhook's URL or its path is shown in the warning redacted;
// the URL and signing secret are added to the set for all other output.
func TestSecretsKeptOutOfWarnings(t *testing.T) {
	secrets := &redact.Set{}
	secrets.Add("SKILLSYNC_TOKEN", token)
	var url string
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		w.Write([]byte("no hook at " + r.URL.Path + " nor " + url + " for " + token))
	})
	url = rc.hookURL()
	s := oneDestination(t, Webhook, url, nil, secrets, Options{})
	w := s.Send(t.Context(), Event{Kind: ApplyFailed})
	if len(w) != 1 {
		t.Fatalf("warnings %v, want 1", w)
	}
	msg := w[0].String()
	for name, secret := range map[string]string{"token": token, "URL's path": hookPath} {
		if leak := redacttest.Leak(msg, secret); leak != "" {
			t.Errorf("the warning shows the %s as %s: %s", name, leak, msg)
		}
	}
	if strings.Contains(msg, url) {
		t.Errorf("the warning shows the URL: %s", msg)
	}
	if !strings.Contains(msg, "answered 400 Bad Request: no hook at [REDACTED]") {
		t.Errorf("warning: %s", msg)
	}
	got := secrets.Found("url " + url + " secret " + testSecret)
	if !slices.Contains(got, "SKILLSYNC_NOTIFY_DEST") || !slices.Contains(got, "SKILLSYNC_NOTIFY_DEST_SECRET") {
		t.Errorf("the set finds %v in a text with the URL and the secret, want both", got)
	}
}

// TestHostileTextEscaped: what the repository or the space wrote can
// neither mention nor link in Slack, nor format in Teams; the links
// skillsync adds still work.
func TestHostileTextEscaped(t *testing.T) {
	ev := readEvent(t, filepath.Join("testdata", "events", "apply-failed-hostile.json"))
	ev = ev.redacted(&redact.Set{})
	slack, err := slackBody(ev)
	if err != nil {
		t.Fatal(err)
	}
	var msg slackMessage
	if err := json.Unmarshal(slack, &msg); err != nil {
		t.Fatal(err)
	}
	texts := []string{msg.Text}
	for _, b := range msg.Blocks {
		objs := append(append([]slackText(nil), b.Fields...), b.Elements...)
		if b.Text != nil {
			objs = append(objs, *b.Text)
		}
		for _, o := range objs {
			switch {
			case b.Type == "context":
				if o.Text != "<https://ci.example.com/run/1|CI run>" {
					t.Errorf("link %q", o.Text)
				}
			case o.Type == "mrkdwn":
				// mrkdwn has no escape for *bold*, _italic_, ~strike~ or
				// `code`: text of the event must not be there.
				t.Errorf("Slack would format %q as mrkdwn", o.Text)
			default:
				texts = append(texts, o.Text)
			}
		}
	}
	for _, s := range texts {
		if strings.ContainsAny(s, "<>") {
			t.Errorf("Slack would parse %q", s)
		}
	}
	if !strings.Contains(string(slack), "*bold* _it_") {
		t.Errorf("the skills are not all shown:\n%s", slack)
	}
	if !strings.Contains(string(slack), "&lt;!channel&gt;") || !strings.Contains(string(slack), "⟦RLO⟧") {
		t.Errorf("Slack body:\n%s", slack)
	}

	teams, err := teamsBody(ev)
	if err != nil {
		t.Fatal(err)
	}
	// Teams reads markdown in a TextBlock (and its clients do not all
	// honour backslash escapes); a TextRun it shows as it is.
	var card struct {
		Attachments []struct {
			Content struct {
				Body []map[string]any `json:"body"`
			} `json:"content"`
		} `json:"attachments"`
	}
	if err := json.Unmarshal(teams, &card); err != nil {
		t.Fatal(err)
	}
	runs := ""
	for _, b := range card.Attachments[0].Content.Body {
		if b["type"] != "RichTextBlock" {
			t.Errorf("Teams would read a %v as markdown: %v", b["type"], b)
			continue
		}
		for _, in := range b["inlines"].([]any) {
			r := in.(map[string]any)
			if r["type"] != "TextRun" {
				t.Errorf("inline %v", r)
			}
			runs += r["text"].(string) + "\n"
		}
	}
	for _, shown := range []string{"*bold* _it_ [click](https://evil.example)", "# heading", "invoice⟦RLO⟧gnp.exe"} {
		if !strings.Contains(runs, shown) {
			t.Errorf("Teams does not show %q as it is:\n%s", shown, runs)
		}
	}
	var actions teamsMessage
	if err := json.Unmarshal(teams, &actions); err != nil {
		t.Fatal(err)
	}
	if a := actions.Attachments[0].Content.Actions; len(a) != 1 || a[0].URL != "https://ci.example.com/run/1" {
		t.Errorf("actions %+v: want only the run (the other links are not plain)", a)
	}
}

// TestLongTextCut: a summary of characters that escape long is cut within
// Slack's limit of a section, without splitting an escape.
func TestLongTextCut(t *testing.T) {
	ev := Event{Kind: PlanError, Summary: strings.Repeat("&<", 2000)}.redacted(&redact.Set{})
	if n := utf8.RuneCountInString(ev.Summary); n != maxSummary {
		t.Errorf("summary of %d characters, want %d", n, maxSummary)
	}
	body, err := slackBody(ev)
	if err != nil {
		t.Fatal(err)
	}
	var msg slackMessage
	if err := json.Unmarshal(body, &msg); err != nil {
		t.Fatal(err)
	}
	text := msg.Blocks[1].Text.Text
	if n := utf8.RuneCountInString(text); n > slackSectionMax || n < slackSectionMax-5 {
		t.Errorf("section text of %d characters, want at most and near %d", n, slackSectionMax)
	}
	if rest := strings.NewReplacer("&amp;", "", "&lt;", "").Replace(strings.TrimSuffix(text, "…")); rest != "" {
		t.Errorf("an escape was split: %q left", rest)
	}
	if got := escapeCut("abc", 3, func(rune) string { return "" }); got != "abc" {
		t.Errorf("escapeCut of a text that fits = %q", got)
	}
	if got := escapeCut("abcd", 3, func(rune) string { return "" }); got != "ab…" {
		t.Errorf("escapeCut of a text one too long = %q", got)
	}
}

// TestWebhookShowsInvisible: the generic webhook's payload writes what no
// one can see as \u escapes, so that a person reading it (or a log of it)
// sees it, and a parser reads the same values.
func TestWebhookShowsInvisible(t *testing.T) {
	hidden := "Say hello.\U000E0041\U000E006C\U000E0073\U000E006F invoice\u202egnp.exe\u200b"
	ev := Event{Kind: DriftFound, Summary: hidden, Skills: []string{hidden}}.redacted(&redact.Set{})
	body, err := webhookBody(ev)
	if err != nil {
		t.Fatal(err)
	}
	if visible.HasInvisible(string(body)) {
		t.Errorf("the payload holds characters no one can see:\n%s", body)
	}
	var got webhookPayload
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Data.Summary != hidden || len(got.Data.Skills) != 1 || got.Data.Skills[0] != hidden {
		t.Errorf("the payload reads back as %+v, want the texts as they were", got.Data)
	}
}
