package notify

import "github.com/skillsync/skillsync/internal/visible"

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
	Schema  string          `json:"$schema"`
	Type    string          `json:"type"`
	Version string          `json:"version"`
	Body    []richTextBlock `json:"body"`
	Actions []cardAction    `json:"actions,omitempty"`
	MSTeams cardTeams       `json:"msteams"`
}

type cardTeams struct {
	Width string `json:"width"`
}

// A richTextBlock holds text runs, which Teams shows as they are: a
// TextBlock reads markdown, whose backslash escapes Teams' clients do not
// all honour, so text from the repository or the space never goes in one.
type richTextBlock struct {
	Type    string    `json:"type"`
	Inlines []textRun `json:"inlines"`
	Spacing string    `json:"spacing,omitempty"`
}

type textRun struct {
	Type   string `json:"type"`
	Text   string `json:"text"`
	Weight string `json:"weight,omitempty"`
	Size   string `json:"size,omitempty"`
	Color  string `json:"color,omitempty"`
}

func run(text string) textRun { return textRun{Type: "TextRun", Text: text} }

func bold(text string) textRun { return textRun{Type: "TextRun", Text: text, Weight: "Bolder"} }

func paragraph(runs ...textRun) richTextBlock {
	return richTextBlock{Type: "RichTextBlock", Inlines: runs}
}

type cardAction struct {
	Type  string `json:"type"`
	Title string `json:"title"`
	URL   string `json:"url"`
}

// teamsTextMax bounds each text run, well under the 28 KB a Teams
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
	head := bold(cut(visible.Line(headline(ev)), 300))
	head.Size, head.Color = "Medium", color
	body := []richTextBlock{paragraph(head)}
	if ev.Summary != "" {
		body = append(body, paragraph(run(cut(visible.String(ev.Summary), teamsTextMax))))
	}
	for i, f := range facts(ev) {
		b := paragraph(bold(f.name+": "), run(cut(visible.Line(f.value), 300)))
		if i > 0 {
			b.Spacing = "None"
		}
		body = append(body, b)
	}
	if len(ev.Skills) > 0 {
		body = append(body, paragraph(bold("Skills: "), run(skillList(ev.Skills, func(s string) string { return cut(s, 200) }))))
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
