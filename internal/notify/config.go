package notify

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// Config is a notify: section of skillsync.yaml, at the top or in a
// target: the destinations, each under a name of the team's choosing.
type Config map[string]Destination

// A Destination says where events go and which of them. It never holds a
// URL or a secret: those are read from the environment variables it
// names, as a webhook's URL is a credential.
type Destination struct {
	// Kind is slack, teams or webhook.
	Kind string `yaml:"kind,omitempty" json:"kind,omitempty"`
	// URLEnv names the variable holding the webhook's URL.
	URLEnv string `yaml:"urlEnv,omitempty" json:"urlEnv,omitempty"`
	// SecretEnv names the variable holding the signing secret of a
	// generic webhook (whsec_ and base64, as Standard Webhooks has it).
	SecretEnv string `yaml:"secretEnv,omitempty" json:"secretEnv,omitempty"`
	// Events are kinds (drift.found), "failures" or "all". Nil means
	// failures; an empty list, none.
	Events []string `yaml:"events,omitempty" json:"events,omitempty"`
}

// The kinds of destination.
const (
	Slack   = "slack"
	Teams   = "teams"
	Webhook = "webhook"
)

// The words events may hold besides kinds.
const (
	EventsFailures = "failures" // the kinds of [Failures]
	EventsAll      = "all"      // every kind
)

// MaxDestinations is the most destinations a target may have.
const MaxDestinations = 32

// The patterns of a destination's name and of the variables it names, as
// the JSON Schema of skillsync.yaml repeats them.
const (
	DestinationNamePattern = `^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`
	EnvPattern             = `^SKILLSYNC_NOTIFY_[A-Za-z0-9_]+$`
)

var (
	destinationName = regexp.MustCompile(DestinationNamePattern)
	// envName keeps a destination to variables meant for it: a
	// skillsync.yaml edited in a pull request cannot point urlEnv or
	// secretEnv at a token.
	envName = regexp.MustCompile(EnvPattern)
)

// ForTarget returns the destinations of a target whose own notify:
// section is target. A destination of the same name takes the fields
// target sets (events too when it lists them, even none); the others are
// kept as they are, or added.
func (c Config) ForTarget(target Config) Config {
	out := maps.Clone(c)
	if out == nil && target != nil {
		out = Config{}
	}
	for name, t := range target {
		d := out[name]
		d.Kind = cmp.Or(t.Kind, d.Kind)
		d.URLEnv = cmp.Or(t.URLEnv, d.URLEnv)
		d.SecretEnv = cmp.Or(t.SecretEnv, d.SecretEnv)
		if t.Events != nil {
			d.Events = t.Events
		}
		out[name] = d
	}
	return out
}

// A FieldError is a destination's field that cannot be used. The parser
// of skillsync.yaml finds its line from Destination and Field.
type FieldError struct {
	Destination string // the name under notify:
	Field       string // kind, urlEnv, secretEnv, events; "" for the name itself
	Message     string // what is wrong and what to do
}

func (e *FieldError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("notify.%s: %s", e.Destination, e.Message)
	}
	return fmt.Sprintf("notify.%s.%s: %s", e.Destination, e.Field, e.Message)
}

// Validate returns every *[FieldError] of c (and an error when it has
// more than [MaxDestinations]), joined, in the order of the names; nil
// when each destination can be used. Its variables may still be unset:
// that is told when an event would go there.
func (c Config) Validate() error {
	var errs []error
	bad := func(name, field, format string, args ...any) {
		errs = append(errs, &FieldError{Destination: name, Field: field, Message: fmt.Sprintf(format, args...)})
	}
	if len(c) > MaxDestinations {
		errs = append(errs, fmt.Errorf("notify: %d destinations, more than the %d a target may have", len(c), MaxDestinations))
	}
	for _, name := range slices.Sorted(maps.Keys(c)) {
		d := c[name]
		if !destinationName.MatchString(name) {
			bad(name, "", "a destination's name is 1 to 64 letters, digits, '.', '_' or '-', beginning with a letter or digit")
		}
		switch d.Kind {
		case Slack, Teams, Webhook:
		case "":
			bad(name, "kind", "missing: set it to slack, teams or webhook")
		default:
			bad(name, "kind", "%q is not slack, teams or webhook", d.Kind)
		}
		switch {
		case d.URLEnv == "":
			bad(name, "urlEnv", "missing: name the environment variable that holds the webhook's URL, such as SKILLSYNC_NOTIFY_%s (the URL is a secret and never goes in this file)", envSuffix(name))
		case !envName.MatchString(d.URLEnv):
			bad(name, "urlEnv", "%q does not begin with SKILLSYNC_NOTIFY_: name a variable of its own, such as SKILLSYNC_NOTIFY_%s", d.URLEnv, envSuffix(name))
		}
		switch {
		case d.Kind == Webhook && d.SecretEnv == "":
			bad(name, "secretEnv", "missing: a generic webhook is signed; name the environment variable that holds its secret, such as SKILLSYNC_NOTIFY_%s_SECRET", envSuffix(name))
		case d.Kind != Webhook && d.Kind != "" && d.SecretEnv != "":
			bad(name, "secretEnv", "%s webhooks are not signed: remove secretEnv", d.Kind)
		case d.SecretEnv != "" && !envName.MatchString(d.SecretEnv):
			bad(name, "secretEnv", "%q does not begin with SKILLSYNC_NOTIFY_: name a variable of its own, such as SKILLSYNC_NOTIFY_%s_SECRET", d.SecretEnv, envSuffix(name))
		case d.SecretEnv != "" && d.SecretEnv == d.URLEnv:
			bad(name, "secretEnv", "the same variable as urlEnv: the secret and the URL are two variables")
		}
		for _, ev := range d.Events {
			if ev != EventsFailures && ev != EventsAll && !slices.Contains(Kinds(), Kind(ev)) {
				bad(name, "events", "%q is not an event: use %s, or %s or %s", ev, kindList(), EventsFailures, EventsAll)
			}
		}
	}
	return errors.Join(errs...)
}

// events returns the kinds d's events name.
func (d Destination) events() map[Kind]bool {
	names := d.Events
	if names == nil {
		names = []string{EventsFailures}
	}
	set := map[Kind]bool{}
	for _, n := range names {
		switch n {
		case EventsAll:
			for _, k := range Kinds() {
				set[k] = true
			}
		case EventsFailures:
			for _, k := range Failures() {
				set[k] = true
			}
		default:
			set[Kind(n)] = true
		}
	}
	return set
}

// envSuffix is name as the end of a variable's name: upper case, '_' for
// what a variable's name cannot hold.
func envSuffix(name string) string {
	b := []byte(name)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}

func kindList() string {
	var names []string
	for _, k := range Kinds() {
		names = append(names, string(k))
	}
	return strings.Join(names, ", ")
}
