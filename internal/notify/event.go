package notify

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skillsync/skillsync/internal/redact"
)

// A Kind is what happened. skillsync.yaml names kinds in a destination's
// events, and the generic webhook's payload carries one as its type.
type Kind string

// The kinds of event, in the order the docs list them.
const (
	ApplyFailed    Kind = "apply.failed"
	ApplySucceeded Kind = "apply.succeeded"
	DriftFound     Kind = "drift.found"
	DriftResolved  Kind = "drift.resolved"
	VendorOutdated Kind = "vendor.outdated"
	PlanError      Kind = "plan.error"
)

// Kinds returns every kind, in the order the docs list them.
func Kinds() []Kind {
	return []Kind{ApplyFailed, ApplySucceeded, DriftFound, DriftResolved, VendorOutdated, PlanError}
}

// Failures returns the kinds a destination gets when it names no events:
// what someone must act on.
func Failures() []Kind { return []Kind{ApplyFailed, DriftFound, PlanError} }

// title is the heading of a message about an event of kind k.
func (k Kind) title() string {
	return cmp.Or(map[Kind]string{
		ApplyFailed:    "Apply failed",
		ApplySucceeded: "Apply succeeded",
		DriftFound:     "Drift found",
		DriftResolved:  "Drift resolved",
		VendorOutdated: "Vendored skills outdated",
		PlanError:      "Plan error",
	}[k], "skillsync event")
}

// failure reports whether an event of kind k asks someone to act.
func (k Kind) failure() bool { return slices.Contains(Failures(), k) }

// An Event is what a command tells the destinations of its target. Every
// text in it may come from the repository or the space: [Sender.Send]
// redacts it, and each destination's renderer escapes it for where it goes.
type Event struct {
	Kind Kind `json:"kind"`
	// Target is the target's name in skillsync.yaml; "" for a
	// configuration of one space, or an event of the whole repository
	// (vendor.outdated).
	Target string `json:"target"`
	// Space is the space's id; "" for an event of the whole repository.
	Space string `json:"space"`
	// BaseURL is the service's address. Only its host and port are sent.
	BaseURL string `json:"baseURL"`
	Counts  Counts `json:"counts"`
	// Skills are the slugs the event is about: the skills that drifted,
	// failed to apply, or whose upstream moved.
	Skills []string `json:"skills"`
	// Summary says in a sentence or a few lines what happened; an error's
	// message for a failure.
	Summary string `json:"summary"`
	Links   Links  `json:"links"`
	// Time is when it happened; the time of [Sender.Send] when zero.
	Time time.Time `json:"time"`

	host string // of BaseURL, set by redacted
}

// Counts are the numbers of skills an event is about; zero when they do
// not apply to it.
type Counts struct {
	Updated  int `json:"updated"`
	Enabled  int `json:"enabled"`
	Disabled int `json:"disabled"`
	Failed   int `json:"failed"`
	Drifted  int `json:"drifted"`
	Outdated int `json:"outdated"`
}

// Links are the pages a reader may open to learn more, each "" when
// unknown. A link that is not a plain http(s) URL is left out.
type Links struct {
	Run         string `json:"run"`          // the CI run or job
	PullRequest string `json:"pull_request"` // or GitLab's merge request
	Issue       string `json:"issue"`        // the drift issue
}

// maxSkills is the most skill names a chat message lists; the rest are
// counted.
const maxSkills = 10

// maxWebhookSkills is the most skill names the generic webhook's payload
// holds, which keeps it well under the 20 kB Standard Webhooks suggests.
const maxWebhookSkills = 100

// maxSummary is the most characters of a summary sent; a longer one is cut
// with "…".
const maxSummary = 1500

// redacted returns e with its host in place of its base URL, every secret
// of secrets redacted from its texts, its summary cut to maxSummary, and
// each link that is not plain or that held a secret left out.
func (e Event) redacted(secrets *redact.Set) Event {
	e.Target = secrets.Redact(e.Target)
	e.Space = secrets.Redact(e.Space)
	e.host = secrets.Redact(hostOf(e.BaseURL))
	e.BaseURL = ""
	e.Summary = cut(secrets.Redact(e.Summary), maxSummary)
	skills := make([]string, len(e.Skills))
	for i, s := range e.Skills {
		skills[i] = secrets.Redact(s)
	}
	e.Skills = skills
	for _, l := range []*string{&e.Links.Run, &e.Links.PullRequest, &e.Links.Issue} {
		if secrets.Redact(*l) != *l || !plainLink(*l) {
			*l = ""
		}
	}
	return e
}

// hostOf returns the host (and port) of baseURL, never its user
// information, path or query; "" when it is not an absolute URL.
func hostOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Scheme == "" {
		return ""
	}
	return u.Host
}

// plainLink reports whether raw is an absolute http(s) URL with no user
// information whose characters need no escaping in a Slack link
// (<url|label>), a JSON string or a card's URL.
func plainLink(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.User != nil || len(raw) > 2048 {
		return false
	}
	// A byte that is not ASCII reads as a rune of U+0080 or more.
	return !strings.ContainsFunc(raw, func(r rune) bool {
		return r <= ' ' || r >= 0x7f || strings.ContainsRune("<>|&\"'`\\{}^", r)
	})
}

// cut returns s cut to at most max characters, the last of them "…".
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	return string([]rune(s)[:max-1]) + "…"
}
