package notify

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/skillsync/skillsync/internal/visible"
)

// FormatVersion is the format_version of the generic webhook's payload. A
// field added keeps it; one removed or changed in meaning changes it.
const FormatVersion = "1"

// webhookPayload is the generic webhook's body, in Standard Webhooks'
// recommended shape: the event's type, when it happened, and its data.
type webhookPayload struct {
	FormatVersion string      `json:"format_version"`
	Type          Kind        `json:"type"`
	Timestamp     string      `json:"timestamp"`
	Data          webhookData `json:"data"`
}

type webhookData struct {
	Target  string `json:"target"`
	Space   string `json:"space"`
	Host    string `json:"host"`
	Summary string `json:"summary"`
	Counts  Counts `json:"counts"`
	// Skills lists at most maxWebhookSkills; SkillsOmitted counts the
	// rest.
	Skills        []string `json:"skills"`
	SkillsOmitted int      `json:"skills_omitted"`
	Links         Links    `json:"links"`
}

// webhookBody renders ev, whose texts are redacted, as the generic
// webhook's payload. Texts are data here, sent as they are; what no one
// can see in them is written as \u escapes, which a parser reads back.
func webhookBody(ev Event) ([]byte, error) {
	skills := ev.Skills[:min(len(ev.Skills), maxWebhookSkills)]
	if skills == nil {
		skills = []string{}
	}
	body, err := marshal(webhookPayload{
		FormatVersion: FormatVersion,
		Type:          ev.Kind,
		Timestamp:     ev.Time.UTC().Format(time.RFC3339),
		Data: webhookData{
			Target:        ev.Target,
			Space:         ev.Space,
			Host:          ev.host,
			Summary:       ev.Summary,
			Counts:        ev.Counts,
			Skills:        skills,
			SkillsOmitted: len(ev.Skills) - len(skills),
			Links:         ev.Links,
		},
	})
	return visible.EscapeJSON(body), err
}

// marshal encodes v as compact JSON, leaving <, > and & as they are: the
// escapes the renderers chose are what the receiver must see.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// The headers of a signed delivery, as Standard Webhooks names them.
const (
	HeaderID        = "webhook-id"
	HeaderTimestamp = "webhook-timestamp"
	HeaderSignature = "webhook-signature"
)

// secretPrefix begins a signing secret as Standard Webhooks serializes it.
const secretPrefix = "whsec_"

// Standard Webhooks' bounds on a signing key, in bytes.
const (
	minKey = 24
	maxKey = 64
)

// errSecret says what a signing secret must be, without saying what it
// held.
var errSecret = errors.New("is not a signing secret: it must be whsec_ followed by 24 to 64 random bytes in base64; make one with: echo \"whsec_$(openssl rand -base64 32)\"")

// signingKey returns the key a secret serializes: base64 after an optional
// "whsec_".
func signingKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(strings.TrimSpace(secret), secretPrefix))
	if err != nil || len(key) < minKey || len(key) > maxKey {
		return nil, errSecret
	}
	return key, nil
}

// sign returns the webhook-signature of body sent as message id at unix
// time ts: "v1," and the base64 HMAC-SHA256 of "id.ts.body" under key.
func sign(key []byte, id string, ts int64, body []byte) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(id + "." + strconv.FormatInt(ts, 10) + "."))
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil))
}
