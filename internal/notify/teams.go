package notify

import (
	"strings"

	"github.com/skillsync/skillsync/internal/visible"
)

// A teamsMessage is the body that a Teams incoming webhook made with the
// Workflows app takes: one Adaptive Card, as a message's attachment. (The
// Office 365 connectors it replaces took MessageCard, which Workflows
// refuses.)
type teamsMessage struct {
	Type        string            `json:"type"`
	Attachments []teamsAttachment `json:"attachments"`
}

type teamsAttachment struct {
	ContentType string       `json:"contentType"`
	ContentURL  *string      `json:"contentUrl"` // null, as Workflows expects it
	Content     adaptiveCard `json:"content"`
}

// adaptiveCardVersion is the newest schema every Teams client renders,
// mobile ones included.
const adaptiveCardVersion = "1.4"

type adaptiveCard struct {
	Schema  string       `json:"$schema"`
	Type    string       `json:"type"`
	Version string       `json:"version"`
	Body    []textBlock  `json:"body"`
	Actions []cardAction `json:"actions,omitempty"`
	MSTeams cardTeams    `json:"msteams"`
}

type cardTeams struct {
	Width string `json:"width"`
}

// A textBlock is read as markdown by Teams: whatever it holds from the
// repository or the space is escaped by teamsEscape.
type textBlock struct {
	Type    string `json:"type"`
	Text    string `json:"text"`
	Wrap    bool   `json:"wrap"`
	Weight  string `json:"weight,omitempty"`
	Size    string `json:"size,omitempty"`
	Color   string `json:"color,omitempty"`
	Spacing string `json:"spacing,omitempty"`
}

type cardAction struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// teamsTextMax bounds each text block, well under the 28 KB a Teams
// message may carry.
const teamsTextMax = 3000

// teamsBody renders ev, whose texts are redacted, for Teams.
func teamsBody(ev Event) ([]byte, error) {
	color := "Good"
	if ev.Kind.failure() {
		color = "Attention"
	} else if ev.Kind == VendorOutdated {
		color = "Warning"
	}
	body := []textBlock{{Type: "TextBlock", Text: teamsEscape(visible.Line(headline(ev)), 300), Wrap: true, Weight: "Bolder", Size: "Medium", Color: color}}
	if ev.Summary != "" {
		// Markdown needs a blank line to break one.
		summary := strings.ReplaceAll(visible.String(ev.Summary), "\n", "\n\n")
		body = append(body, textBlock{Type: "TextBlock", Text: teamsEscape(summary, teamsTextMax), Wrap: true})
	}
	for i, f := range facts(ev) {
		b := textBlock{Type: "TextBlock", Text: "**" + f.name + ":** " + teamsEscape(visible.Line(f.value), 300), Wrap: true}
		if i > 0 {
			b.Spacing = "None"
		}
		body = append(body, b)
	}
	if len(ev.Skills) > 0 {
		text := "**Skills:** " + skillList(ev.Skills, func(s string) string { return teamsEscape(s, 200) })
		body = append(body, textBlock{Type: "TextBlock", Text: text, Wrap: true})
	}
	var actions []cardAction
	for _, l := range links(ev.Links) {
		actions = append(actions, cardAction{Type: "Action.OpenUrl", Title: l.label, URL: l.url})
	}
	return marshal(teamsMessage{
		Type: "message",
		Attachments: []teamsAttachment{{
			ContentType: "application/vnd.microsoft.card.adaptive",
			Content: adaptiveCard{
				Schema:  "http://adaptivecards.io/schemas/adaptive-card.json",
				Type:    "AdaptiveCard",
				Version: adaptiveCardVersion,
				Body:    body,
				Actions: actions,
				MSTeams: cardTeams{Width: "Full"},
			},
		}},
	})
}

// teamsEscape puts a backslash before each ASCII punctuation character of
// s, as CommonMark allows for any of them, so that it can start no
// emphasis, list, link or autolink; and cuts it to max characters.
func teamsEscape(s string, max int) string {
	return escapeCut(s, max, func(r rune) string {
		if r < 0x80 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r) {
			return `\` + string(r)
		}
		return ""
	})
}
