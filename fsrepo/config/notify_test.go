package config

import (
	"reflect"
	"strings"
	"testing"

	"github.com/skillsync/skillsync/internal/notify"
)

// TestReadConfigNotify: notify: is read at the top and in a target, and a
// target's destinations are merged into the top-level ones by name.
func TestReadConfigNotify(t *testing.T) {
	cfg, err := readConfigText(t, `baseURL: https://a.example.com
notify:
  team-chat:
    kind: slack
    urlEnv: SKILLSYNC_NOTIFY_SLACK
  audit:
    kind: webhook
    urlEnv: SKILLSYNC_NOTIFY_AUDIT
    secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET
    events: [all]
targets:
  staging:
    space: st01
    notify:
      team-chat: {events: []}
  prod:
    space: pr01
    notify:
      team-chat: {events: [failures, drift.resolved]}
      oncall: {kind: teams, urlEnv: SKILLSYNC_NOTIFY_TEAMS}
`)
	if err != nil {
		t.Fatal(err)
	}
	audit := notify.Destination{Kind: "webhook", URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT_SECRET", Events: []string{"all"}}
	for _, tc := range []struct {
		target string
		want   notify.Config
	}{
		{"staging", notify.Config{"audit": audit, "team-chat": {Kind: "slack", URLEnv: "SKILLSYNC_NOTIFY_SLACK", Events: []string{}}}},
		{"prod", notify.Config{"audit": audit,
			"team-chat": {Kind: "slack", URLEnv: "SKILLSYNC_NOTIFY_SLACK", Events: []string{"failures", "drift.resolved"}},
			"oncall":    {Kind: "teams", URLEnv: "SKILLSYNC_NOTIFY_TEAMS"}}},
	} {
		tc2, _ := cfg.ForTarget(tc.target)
		if !reflect.DeepEqual(tc2.Notify, tc.want) {
			t.Errorf("%s: notify = %+v, want %+v", tc.target, tc2.Notify, tc.want)
		}
	}
	// An empty list sends nothing; a missing one, the failures.
	tc2, _ := cfg.ForTarget("staging")
	if tc2.Notify["team-chat"].Events == nil {
		t.Error("events: [] read as left out: staging would get the failures")
	}
}

// TestReadConfigNotifyErrors: each problem of a destination is told at
// the line of the field that holds it, in the target that wrote it.
func TestReadConfigNotifyErrors(t *testing.T) {
	for _, tc := range []struct {
		name, yaml string
		want       []string
	}{
		{"URL of another variable", "space: ab12\nnotify:\n  chat:\n    kind: slack\n    urlEnv: GITHUB_TOKEN\n",
			[]string{`skillsync.yaml:5: notify.chat.urlEnv: "GITHUB_TOKEN" does not begin with SKILLSYNC_NOTIFY_`}},
		{"secret missing", "space: ab12\nnotify:\n  audit: {kind: webhook, urlEnv: SKILLSYNC_NOTIFY_AUDIT}\n",
			[]string{`skillsync.yaml:3: notify.audit.secretEnv: missing`}},
		{"unknown event in a target", "notify:\n  chat: {kind: slack, urlEnv: SKILLSYNC_NOTIFY_SLACK}\ntargets:\n  prod:\n    space: pr01\n    notify:\n      chat:\n        events: [drift.fixed]\n",
			[]string{`skillsync.yaml:8: notify.chat.events: "drift.fixed" is not an event`}},
		{"new destination of a target without kind", "targets:\n  prod:\n    space: pr01\n    notify:\n      chat: {urlEnv: SKILLSYNC_NOTIFY_SLACK}\n",
			[]string{`skillsync.yaml:5: notify.chat.kind: missing`}},
		{"top-level problem told once for two targets", "notify:\n  chat: {kind: irc, urlEnv: SKILLSYNC_NOTIFY_IRC}\ntargets:\n  a: {space: aa01, notify: {chat: {events: [all]}}}\n  b: {space: bb01, notify: {chat: {events: [all]}}}\n",
			[]string{`skillsync.yaml:2: notify.chat.kind: "irc" is not slack, teams or webhook`}},
		{"unknown key", "space: ab12\nnotify:\n  chat: {kind: slack, url: x}\n",
			[]string{`skillsync.yaml:3: unknown key "notify.chat.url" (did you mean "urlEnv"?)`}},
		{"not a mapping", "space: ab12\nnotify:\n  chat: SKILLSYNC_NOTIFY_SLACK\n",
			[]string{`skillsync.yaml:3: notify.chat must be a mapping, not`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.yaml))
			if err == nil {
				t.Fatal("read without error")
			}
			got := strings.Split(err.Error(), "\n")
			if len(got) != len(tc.want) {
				t.Fatalf("%d errors, want %d:\n%v", len(got), len(tc.want), err)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("error %q, want it to begin %q", got[i], w)
				}
			}
		})
	}
}
