package notify

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/visible"
)

// A slackMessage is the body of a Slack incoming webhook: Block Kit
// blocks, and the text notifications and old clients show instead.
type slackMessage struct {
	Text        string       `json:"text"`
	Blocks      []slackBlock `json:"blocks"`
	UnfurlLinks bool         `json:"unfurl_links"`
	UnfurlMedia bool         `json:"unfurl_media"`
}

type slackBlock struct {
	Type     string      `json:"type"`
	Text     *slackText  `json:"text,omitempty"`
	Fields   []slackText `json:"fields,omitempty"`
	Elements []slackText `json:"elements,omitempty"`
}

// A slackText is a text object. Text from the repository or the space
// goes in plain_text ones: mrkdwn has no escape for *bold*, _italic_,
// ~strike~ or `code`. Each mrkdwn one holds only what skillsync wrote, and
// is verbatim, so that Slack neither links a bare URL nor parses a mention.
type slackText struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	Verbatim bool   `json:"verbatim,omitempty"`
	Emoji    *bool  `json:"emoji,omitempty"`
}

// Slack's limits on a section's text and on one of its fields.
const (
	slackSectionMax = 3000
	slackFieldMax   = 2000
)

func mrkdwn(s string) slackText { return slackText{Type: "mrkdwn", Text: s, Verbatim: true} }

// plainText is a text object Slack shows as it is, :codes: included; its
// &, < and > are escaped still, as in every text object.
func plainText(s string) slackText {
	return slackText{Type: "plain_text", Text: s, Emoji: new(false)}
}

// slackBody renders ev, whose texts are redacted, for Slack. Text from the
// repository or the space is escaped: it can neither link nor mention.
func slackBody(ev Event) ([]byte, error) {
	var blocks []slackBlock
	blocks = append(blocks, slackBlock{Type: "header", Text: &slackText{Type: "plain_text", Text: ev.Kind.title()}})
	if ev.Summary != "" {
		blocks = append(blocks, slackBlock{Type: "section", Text: new(plainText(slackEscape(visible.String(ev.Summary), slackSectionMax)))})
	}
	var fields []slackText
	for _, f := range facts(ev) {
		fields = append(fields, plainText(f.name+"\n"+slackEscape(visible.Line(f.value), slackFieldMax-len(f.name)-1)))
	}
	if len(fields) > 0 {
		blocks = append(blocks, slackBlock{Type: "section", Fields: fields})
	}
	if len(ev.Skills) > 0 {
		text := "Skills\n" + skillList(ev.Skills, func(s string) string { return slackEscape(s, 200) })
		blocks = append(blocks, slackBlock{Type: "section", Text: new(plainText(text))})
	}
	var refs []slackText
	for _, l := range links(ev.Links) {
		// plainLink let through no character a Slack link must escape.
		refs = append(refs, mrkdwn("<"+l.url+"|"+l.label+">"))
	}
	if len(refs) > 0 {
		blocks = append(blocks, slackBlock{Type: "context", Elements: refs})
	}
	return marshal(slackMessage{Text: slackEscape(visible.Line(headline(ev)), 300), Blocks: blocks})
}

// slackEscape escapes Slack's control characters &, < and > in s, and
// cuts the result to max characters with "…", never inside an escape.
func slackEscape(s string, max int) string {
	return escapeCut(s, max, func(r rune) string {
		switch r {
		case '&':
			return "&amp;"
		case '<':
			return "&lt;"
		case '>':
			return "&gt;"
		}
		return ""
	})
}

// escapeCut returns s with each rune that esc gives an escape for
// replaced by it, cut to at most max characters with "…" so that no
// escape is split.
func escapeCut(s string, max int, esc func(rune) string) string {
	var b strings.Builder
	n, cutAt := 0, -1 // b.Len() where the text is cut if it must be
	for _, r := range s {
		e := esc(r)
		if e == "" {
			e = string(r)
		}
		w := utf8.RuneCountInString(e)
		if n+w > max-1 && cutAt < 0 {
			cutAt = b.Len()
		}
		if n+w > max {
			return b.String()[:cutAt] + "…"
		}
		b.WriteString(e)
		n += w
	}
	return b.String()
}

// skillList joins the first maxSkills of skills, each shown on one line
// and escaped by esc, and counts the rest.
func skillList(skills []string, esc func(string) string) string {
	names := make([]string, 0, maxSkills)
	for _, s := range skills[:min(len(skills), maxSkills)] {
		names = append(names, esc(visible.Line(s)))
	}
	text := strings.Join(names, ", ")
	if n := len(skills) - maxSkills; n > 0 {
		text += fmt.Sprintf(" and %d more", n)
	}
	return text
}

// A fact is a named value of an event, shown as a field of a message.
type fact struct{ name, value string }

// facts are ev's target, space and the counts that are not zero.
func facts(ev Event) []fact {
	var fs []fact
	if ev.Target != "" {
		fs = append(fs, fact{"Target", ev.Target})
	}
	if ev.Space != "" {
		fs = append(fs, fact{"Space", ev.Space})
	}
	if ev.host != "" {
		fs = append(fs, fact{"Host", ev.host})
	}
	for _, c := range []struct {
		name string
		n    int
	}{
		{"Updated", ev.Counts.Updated}, {"Enabled", ev.Counts.Enabled}, {"Disabled", ev.Counts.Disabled},
		{"Failed", ev.Counts.Failed}, {"Drifted", ev.Counts.Drifted}, {"Outdated", ev.Counts.Outdated},
	} {
		if c.n != 0 {
			fs = append(fs, fact{c.name, strconv.Itoa(c.n)})
		}
	}
	return fs
}

// A link is a page to open, with the words that name it.
type link struct{ label, url string }

// links are the known links of l, each a plain URL (see [Event.redacted]).
func links(l Links) []link {
	var out []link
	for _, k := range []link{{"CI run", l.Run}, {"Pull request", l.PullRequest}, {"Issue", l.Issue}} {
		if k.url != "" {
			out = append(out, k)
		}
	}
	return out
}

// headline says in one line what happened and where.
func headline(ev Event) string {
	s := "skillsync: " + ev.Kind.title()
	switch {
	case ev.Target != "" && ev.Space != "":
		s += " in " + ev.Target + " (space " + ev.Space + ")"
	case ev.Target != "":
		s += " in " + ev.Target
	case ev.Space != "":
		s += " in space " + ev.Space
	}
	return s
}
