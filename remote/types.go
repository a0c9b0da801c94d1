package remote

import (
	"bytes"
	"encoding/json"
	"errors"
)

// Skill is a skill of a space as the service returns it. List items carry no
// instructions; single-skill responses (get, update, enable, disable) do, and
// Instructions is nil there only when the service could not read the SKILL.md.
type Skill struct {
	ID           string  `json:"id"`
	SpaceID      string  `json:"spaceId"`
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	Slug         string  `json:"slug"`
	Source       string  `json:"source"`
	SourceURL    *string `json:"sourceUrl"`
	Enabled      bool    `json:"enabled"`
	CreatedAt    string  `json:"createdAt"`
	UpdatedAt    string  `json:"updatedAt"`
	Instructions *string `json:"instructions,omitempty"`
}

// Skill sources, the values of [Skill.Source].
const (
	SourceManual      = "manual"
	SourceUpload      = "upload"
	SourceGitHub      = "github"
	SourceAIGenerated = "ai_generated"
)

// SkillUpdate is the body of an update (PATCH). Nil fields are omitted from the
// request and keep their value on the service.
type SkillUpdate struct {
	Name         *string `json:"name,omitempty"`
	Description  *string `json:"description,omitempty"`
	Instructions *string `json:"instructions,omitempty"`
}

// SkillFile is a text file of a skill's folder, read through the files endpoint.
type SkillFile struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Agent is the draft view of an agent, the only view the interface gives.
//
// Decoded from the service, only what skillsync acts on must have its
// type: id, name, skillIds, published, hasUnpublishedChanges, embedEnabled,
// embedId and embedOptions.domainWhitelist. Any other field of another
// type than the spec's table says is left zero, and Raw keeps the object
// as the service sent it, which is what encoding an Agent decoded so
// writes back.
type Agent struct {
	// Raw is the agent as the service sent it; nil for an Agent built in
	// code.
	Raw json.RawMessage `json:"-"`
	// UnpublishedUnknown is set when the service did not say
	// hasUnpublishedChanges; HasUnpublishedChanges is then true, as a
	// publish is what finds out (it is idempotent).
	UnpublishedUnknown bool `json:"-"`

	ID                     string                `json:"id"`
	SpaceID                string                `json:"spaceId"`
	Name                   string                `json:"name"`
	Description            string                `json:"description"`
	SystemInstruction      string                `json:"systemInstruction"`
	ConversationStarters   []ConversationStarter `json:"conversationStarters"`
	WelcomeMessage         json.RawMessage       `json:"welcomeMessage,omitempty"`
	Model                  string                `json:"model"`
	Temperature            float64               `json:"temperature"`
	AttachmentIDs          []string              `json:"attachmentIds"`
	FolderIDs              []string              `json:"folderIds"`
	ContentIDs             []string              `json:"contentIds"`
	AllowUploads           bool                  `json:"allowUploads"`
	AllowURLs              bool                  `json:"allowUrls"`
	EnableFollowUpMessages bool                  `json:"enableFollowUpMessages"`
	CategoryID             int64                 `json:"categoryId"`
	VoiceID                string                `json:"voiceId"`
	AppEnabled             bool                  `json:"appEnabled"`
	EmbedEnabled           bool                  `json:"embedEnabled"`
	EmbedID                string                `json:"embedId"`
	EmbedOptions           EmbedOptions          `json:"embedOptions"`
	Actions                []Action              `json:"actions"`
	SkillIDs               []string              `json:"skillIds"`
	Published              bool                  `json:"published"`
	HasUnpublishedChanges  bool                  `json:"hasUnpublishedChanges"`
	CreatedAt              string                `json:"createdAt"`
	UpdatedAt              string                `json:"updatedAt"`
}

// ConversationStarter is a suggested first message of an agent.
type ConversationStarter struct {
	Text  string `json:"text"`
	ID    string `json:"id"`
	Label string `json:"label"`
	Type  string `json:"type"`
}

// EmbedOptions configure an agent's embeddable chat widget (draft state).
type EmbedOptions struct {
	DomainWhitelist []string `json:"domainWhitelist"`
	ShowSources     bool     `json:"showSources"`
	AllowVoiceInput bool     `json:"allowVoiceInput"`
	AllowFileUpload bool     `json:"allowFileUpload"`
	ThemeMode       string   `json:"themeMode"`
	LightTheme      Theme    `json:"lightTheme"`
	DarkTheme       Theme    `json:"darkTheme"`
}

// Theme is the colour pair of one widget theme.
type Theme struct {
	BackgroundColor Color `json:"backgroundColor"`
	PrimaryColor    Color `json:"primaryColor"`
}

// Color is an HSV colour with alpha, as the service stores it.
type Color struct {
	H float64 `json:"h"`
	S float64 `json:"s"`
	V float64 `json:"v"`
	A float64 `json:"a"`
}

// Action is an action (tool) configured on an agent.
type Action struct {
	ID                   string         `json:"id"`
	Integration          string         `json:"integration"`
	Key                  string         `json:"key"`
	RequiresConfirmation bool           `json:"requiresConfirmation"`
	DefaultValues        map[string]any `json:"defaultValues"`
	IntegrationID        string         `json:"integrationId"`
	MCPClientID          string         `json:"mcpClientId"`
}

// Page is the paginated list envelope of the list endpoints.
type Page[T any] struct {
	Data    []T  `json:"data"`
	Total   int  `json:"total"`
	Limit   int  `json:"limit"`
	Offset  int  `json:"offset"`
	HasMore bool `json:"hasMore"`
	// Sent says which of total, limit and hasMore the service sent: a
	// field it left out is unknown, not zero or false.
	Sent PageFields `json:"-"`
}

// PageFields say which fields of a list envelope a service sent.
type PageFields struct {
	Total, Limit, HasMore bool
}

// UnmarshalJSON decodes an envelope and notes which fields it held.
func (p *Page[T]) UnmarshalJSON(data []byte) error {
	type plain Page[T] // without this method
	if err := json.Unmarshal(data, (*plain)(p)); err != nil {
		return err
	}
	var sent struct {
		Total   json.RawMessage `json:"total"`
		Limit   json.RawMessage `json:"limit"`
		HasMore json.RawMessage `json:"hasMore"`
	}
	if err := json.Unmarshal(data, &sent); err != nil {
		return err
	}
	isSent := func(r json.RawMessage) bool { return len(r) > 0 && string(r) != "null" }
	p.Sent = PageFields{Total: isSent(sent.Total), Limit: isSent(sent.Limit), HasMore: isSent(sent.HasMore)}
	return nil
}

// Asset is a knowledge-base asset record. The spec names only the kinds of
// its content, so Raw keeps the record whole as the service sent it and the
// other fields are the parts decoded on a best-effort basis.
type Asset struct {
	Raw             json.RawMessage `json:"-"`
	ID              string          `json:"id"`
	Name            string          `json:"name"`
	MIMEType        string          `json:"mimeType"`
	ProcessingState string          `json:"processingState"`
	Connector       json.RawMessage `json:"connector,omitempty"`
	Metadata        json.RawMessage `json:"metadata,omitempty"`
}

// agentNeeds is what skillsync acts on in an agent, decoded strictly.
type agentNeeds struct {
	ID                    string   `json:"id"`
	Name                  string   `json:"name"`
	SkillIDs              []string `json:"skillIds"`
	Published             bool     `json:"published"`
	HasUnpublishedChanges *bool    `json:"hasUnpublishedChanges"`
	EmbedEnabled          bool     `json:"embedEnabled"`
	EmbedID               string   `json:"embedId"`
	EmbedOptions          *struct {
		DomainWhitelist []string `json:"domainWhitelist"`
	} `json:"embedOptions"`
}

// UnmarshalJSON decodes an agent as [Agent] says: strictly what skillsync
// acts on, the rest as well as it goes.
func (a *Agent) UnmarshalJSON(data []byte) error {
	var need agentNeeds
	if err := json.Unmarshal(data, &need); err != nil {
		return err
	}
	type plain Agent // without these methods
	var p plain
	var typeErr *json.UnmarshalTypeError
	if err := json.Unmarshal(data, &p); err != nil && !errors.As(err, &typeErr) {
		return err
	}
	*a = Agent(p)
	a.ID, a.Name, a.SkillIDs, a.Published = need.ID, need.Name, need.SkillIDs, need.Published
	a.EmbedEnabled, a.EmbedID = need.EmbedEnabled, need.EmbedID
	a.EmbedOptions.DomainWhitelist = nil
	if need.EmbedOptions != nil {
		a.EmbedOptions.DomainWhitelist = need.EmbedOptions.DomainWhitelist
	}
	a.UnpublishedUnknown = need.HasUnpublishedChanges == nil
	a.HasUnpublishedChanges = a.UnpublishedUnknown || *need.HasUnpublishedChanges
	a.Raw = bytes.Clone(data)
	return nil
}

// MarshalJSON writes Raw when the agent was decoded from the service:
// what it sent, no field invented or dropped.
func (a Agent) MarshalJSON() ([]byte, error) {
	if len(a.Raw) > 0 {
		return a.Raw, nil
	}
	type plain Agent
	return json.Marshal(plain(a))
}
