package notify

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Config
		want []string // the errors, in order; none when empty
	}{
		{"good", Config{
			"chat":  {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT"},
			"cards": {Kind: Teams, URLEnv: "SKILLSYNC_NOTIFY_CARDS", Events: []string{"all"}},
			"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT_SECRET", Events: []string{"failures", "apply.succeeded"}},
		}, nil},
		{"no kind, no URL", Config{"chat": {}}, []string{
			"notify.chat.kind: missing: set it to slack, teams or webhook",
			"notify.chat.urlEnv: missing: name the environment variable that holds the webhook's URL, such as SKILLSYNC_NOTIFY_CHAT (the URL is a secret and never goes in this file)",
		}},
		{"unknown kind", Config{"x": {Kind: "discord", URLEnv: "SKILLSYNC_NOTIFY_X"}}, []string{`notify.x.kind: "discord" is not slack, teams or webhook`}},
		{"a token's variable", Config{"team-chat": {Kind: Slack, URLEnv: "SKILLSYNC_TOKEN"}}, []string{
			`notify.team-chat.urlEnv: "SKILLSYNC_TOKEN" does not begin with SKILLSYNC_NOTIFY_: name a variable of its own, such as SKILLSYNC_NOTIFY_TEAM_CHAT`,
		}},
		{"webhook unsigned", Config{"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT"}}, []string{
			"notify.audit.secretEnv: missing: a generic webhook is signed; name the environment variable that holds its secret, such as SKILLSYNC_NOTIFY_AUDIT_SECRET",
		}},
		{"slack signed", Config{"chat": {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT", SecretEnv: "SKILLSYNC_NOTIFY_CHAT_SECRET"}}, []string{
			"notify.chat.secretEnv: slack webhooks are not signed: remove secretEnv",
		}},
		{"secret is the URL", Config{"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT"}}, []string{
			"notify.audit.secretEnv: the same variable as urlEnv: the secret and the URL are two variables",
		}},
		{"secret elsewhere", Config{"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "GITHUB_TOKEN"}}, []string{
			`notify.audit.secretEnv: "GITHUB_TOKEN" does not begin with SKILLSYNC_NOTIFY_: name a variable of its own, such as SKILLSYNC_NOTIFY_AUDIT_SECRET`,
		}},
		{"unknown event", Config{"chat": {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT", Events: []string{"drift_found"}}}, []string{
			`notify.chat.events: "drift_found" is not an event: use apply.failed, apply.succeeded, drift.found, drift.resolved, vendor.outdated, plan.error, or failures or all`,
		}},
		{"bad name", Config{"-chat": {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT"}}, []string{
			"notify.-chat: a destination's name is 1 to 64 letters, digits, '.', '_' or '-', beginning with a letter or digit",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.c.Validate()
			var got []string
			if err != nil {
				for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
					var fe *FieldError
					if !errors.As(e, &fe) {
						t.Errorf("%v is not a *FieldError", e)
					}
					got = append(got, e.Error())
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Validate:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if _, err := New(tc.c, env(nil), nil, Options{}); (err != nil) != (len(tc.want) > 0) {
				t.Errorf("New: %v", err)
			}
		})
	}
}

// TestForTarget: a target's section overrides the fields it sets of the
// destinations it names, adds those only it has, and keeps the others.
func TestForTarget(t *testing.T) {
	top := Config{
		"chat":  {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT"},
		"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT_SECRET", Events: []string{"all"}},
	}
	got := top.ForTarget(Config{
		"chat":   {Events: []string{}},
		"audit":  {URLEnv: "SKILLSYNC_NOTIFY_AUDIT_PROD"},
		"oncall": {Kind: Teams, URLEnv: "SKILLSYNC_NOTIFY_ONCALL"},
	})
	want := Config{
		"chat":   {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT", Events: []string{}},
		"audit":  {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT_PROD", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT_SECRET", Events: []string{"all"}},
		"oncall": {Kind: Teams, URLEnv: "SKILLSYNC_NOTIFY_ONCALL"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ForTarget:\n%#v\nwant\n%#v", got, want)
	}
	if len(got["chat"].events()) != 0 {
		t.Errorf("events: [] sends %v", got["chat"].events())
	}
	if top["audit"].URLEnv != "SKILLSYNC_NOTIFY_AUDIT" {
		t.Errorf("ForTarget changed the top-level section")
	}
	if got := Config(nil).ForTarget(nil); len(got) != 0 {
		t.Errorf("no sections: %v", got)
	}
}

// TestTooManyDestinations: a section over MaxDestinations is refused.
func TestTooManyDestinations(t *testing.T) {
	c := Config{}
	for i := range MaxDestinations + 1 {
		c[fmt.Sprintf("chat%d", i)] = Destination{Kind: Slack, URLEnv: fmt.Sprintf("SKILLSYNC_NOTIFY_CHAT%d", i)}
	}
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "33 destinations, more than the 32") {
		t.Errorf("Validate: %v", err)
	}
	delete(c, "chat0")
	if err := c.Validate(); err != nil {
		t.Errorf("Validate of %d: %v", len(c), err)
	}
}
