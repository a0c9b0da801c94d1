package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/skillsync/skillsync"
	"github.com/skillsync/skillsync/internal/notify"
	"github.com/skillsync/skillsync/remote/remotetest"
)

// receiver is a local webhook endpoint that records what it is sent and
// answers status.
type receiver struct {
	mu     sync.Mutex
	got    []delivery
	status int
	URL    string
}

type delivery struct {
	header http.Header
	body   []byte
}

func newReceiver(t *testing.T, status int) *receiver {
	t.Helper()
	r := &receiver{status: status}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.got = append(r.got, delivery{req.Header.Clone(), b})
		r.mu.Unlock()
		w.WriteHeader(r.status)
		// An answer that echoes the request's path, which is the
		// webhook's credential.
		io.WriteString(w, "no such hook: "+req.URL.Path)
	}))
	t.Cleanup(srv.Close)
	r.URL = srv.URL + "/hooks/T0SECRETPATH/B0SECRETPATH/xoxsecretsecret"
	return r
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

// webhookPayload is the generic webhook's body, as docs/notifications.md
// gives it.
type webhookPayload struct {
	FormatVersion string `json:"format_version"`
	Type          string `json:"type"`
	Data          struct {
		Target  string        `json:"target"`
		Space   string        `json:"space"`
		Host    string        `json:"host"`
		Summary string        `json:"summary"`
		Counts  notify.Counts `json:"counts"`
		Skills  []string      `json:"skills"`
		Links   notify.Links  `json:"links"`
	} `json:"data"`
}

const testWebhookSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// verified decodes d after checking its signature as a receiver would.
func verified(t *testing.T, d delivery) webhookPayload {
	t.Helper()
	key, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(testWebhookSecret, "whsec_"))
	mac := hmac.New(sha256.New, key)
	io.WriteString(mac, d.header.Get("webhook-id")+"."+d.header.Get("webhook-timestamp")+".")
	mac.Write(d.body)
	if want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil)); d.header.Get("webhook-signature") != want {
		t.Fatalf("signature %q, want %q", d.header.Get("webhook-signature"), want)
	}
	var p webhookPayload
	if err := json.Unmarshal(d.body, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

// notifySetup is [ciSetup] with a notify: section of two destinations: a
// Slack webhook with the default events (failures) and a signed generic
// webhook with all.
func notifySetup(t *testing.T, slackStatus int) (e *remotetest.Emulator, dir string, te testEnv, slack, hook *receiver) {
	t.Helper()
	e, dir, te = ciSetup(t)
	slack, hook = newReceiver(t, slackStatus), newReceiver(t, http.StatusNoContent)
	cfgPath := filepath.Join(dir, "skillsync.yaml")
	cfg, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	cfg = append(cfg, `
notify:
  chat:
    kind: slack
    urlEnv: SKILLSYNC_NOTIFY_SLACK
  audit:
    kind: webhook
    urlEnv: SKILLSYNC_NOTIFY_AUDIT
    secretEnv: SKILLSYNC_NOTIFY_AUDIT_SECRET
    events: [all]
`...)
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	te["SKILLSYNC_NOTIFY_SLACK"] = slack.URL
	te["SKILLSYNC_NOTIFY_AUDIT"] = hook.URL
	te["SKILLSYNC_NOTIFY_AUDIT_SECRET"] = testWebhookSecret
	te["GITHUB_REPOSITORY"] = "acme/skills"
	te["GITHUB_RUN_ID"] = "99"
	return e, dir, te, slack, hook
}

// syncDemo makes the demo repository dir what the demo space can hold
// ([fitDemo]) and applies it, so that the space is in sync.
func syncDemo(t *testing.T, dir string, te testEnv) {
	t.Helper()
	fitDemo(t, dir)
	if code, _, stderr := runCLI(t, te, "apply", "--dir", dir, "--auto-approve", "--journal", filepath.Join(t.TempDir(), "j.jsonl")); code != 0 {
		t.Fatalf("apply: exit %d, stderr:\n%s", code, stderr)
	}
}

// fitDemo makes the demo repository dir what the demo space can hold:
// no brand-voice, which the space lacks, and the space's checklist.md,
// which the API cannot write.
func fitDemo(t *testing.T, dir string) {
	t.Helper()
	if err := os.RemoveAll(filepath.Join(dir, "skills", "brand-voice")); err != nil {
		t.Fatal(err)
	}
	live, err := fs.ReadFile(skillsync.Demo, "testdata/demo/space/demo/skills/code-review/checklist.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "skills", "code-review", "checklist.md"), live, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestNotifyDriftAndApply: drift tells both destinations of the drift
// (a failure), with the target, space, counts and the run's link; apply
// then tells only the destination that asked for all events that it
// succeeded.
func TestNotifyDriftAndApply(t *testing.T) {
	t.Parallel()
	_, dir, te, slack, hook := notifySetup(t, http.StatusOK)

	code, stdout, stderr := runCLI(t, te, "drift", "--dir", dir)
	if code != exitChanges {
		t.Fatalf("drift exit %d, want 2\n%s\n%s", code, stdout, stderr)
	}
	if len(slack.deliveries()) != 1 || len(hook.deliveries()) != 1 {
		t.Fatalf("after drift: %d Slack, %d webhook deliveries, want 1 each\n%s", len(slack.deliveries()), len(hook.deliveries()), stderr)
	}
	p := verified(t, hook.deliveries()[0])
	if p.Type != "drift.found" || p.Data.Space != demoSpace || p.Data.Counts.Drifted == 0 || len(p.Data.Skills) != p.Data.Counts.Drifted ||
		p.Data.Links.Run != "https://github.com/acme/skills/actions/runs/99" || !strings.HasPrefix(p.Data.Host, "127.0.0.1:") {
		t.Errorf("drift's payload: %+v", p)
	}
	var blocks struct{ Text string }
	if err := json.Unmarshal(slack.deliveries()[0].body, &blocks); err != nil || !strings.Contains(blocks.Text, "Drift found") {
		t.Errorf("Slack got %s (%v), want a message saying drift was found", slack.deliveries()[0].body, err)
	}

	code, stdout, stderr = runCLI(t, te, "apply", "--auto-approve", "--dir", dir, "--journal", filepath.Join(t.TempDir(), "j.jsonl"))
	if code != exitOK {
		t.Fatalf("apply exit %d\n%s\n%s", code, stdout, stderr)
	}
	if len(slack.deliveries()) != 1 {
		t.Errorf("Slack, with the default events, was told of a successful apply")
	}
	if len(hook.deliveries()) != 2 {
		t.Fatalf("after apply: %d webhook deliveries, want 2", len(hook.deliveries()))
	}
	p = verified(t, hook.deliveries()[1])
	if c := p.Data.Counts; p.Type != "apply.succeeded" || c.Updated+c.Enabled+c.Disabled == 0 || c.Failed != 0 {
		t.Errorf("apply's payload: %+v", p)
	}
}

// TestNotifyFailedDeliveryWarns: a destination that answers an error is a
// warning, redacted, and the apply still succeeds; the other destination
// gets its event.
func TestNotifyFailedDeliveryWarns(t *testing.T) {
	t.Parallel()
	_, dir, te, slack, hook := notifySetup(t, http.StatusNotFound)
	// brand-voice, missing from the space, is a plan error with
	// missing: error: every destination hears of it.
	cfgPath := filepath.Join(dir, "skillsync.yaml")
	cfg, _ := os.ReadFile(cfgPath)
	if err := os.WriteFile(cfgPath, []byte(strings.Replace(string(cfg), "missing: warn", "missing: error", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, te, "plan", "--dir", dir)
	if code != exitError {
		t.Fatalf("plan exit %d, want 1 for its error\n%s\n%s", code, stdout, stderr)
	}
	if len(slack.deliveries()) != 1 {
		t.Fatalf("Slack got %d deliveries, want the plan error once (no retry after a 404)", len(slack.deliveries()))
	}
	if !strings.Contains(stderr, "skillsync: warning: notification plan.error to chat not sent: 127.0.0.1:") {
		t.Errorf("stderr does not warn of the failed delivery:\n%s", stderr)
	}
	if strings.Contains(stderr, "SECRETPATH") || strings.Contains(stdout, "SECRETPATH") {
		t.Errorf("the webhook's URL, echoed by the receiver, was printed:\n%s", stderr)
	}
	if p := verified(t, hook.deliveries()[0]); p.Type != "plan.error" || !strings.Contains(p.Data.Summary, "brand-voice") {
		t.Errorf("the webhook got %+v, want the plan error naming brand-voice", p)
	}
	if strings.Contains(string(hook.deliveries()[0].body), scriptToken) {
		t.Errorf("the token reached the webhook")
	}

	// A failed delivery never fails an apply.
	if err := os.WriteFile(cfgPath, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	slack.mu.Lock()
	slack.status = http.StatusInternalServerError
	slack.mu.Unlock()
	code, stdout, stderr = runCLI(t, te, "apply", "--auto-approve", "--dir", dir, "--journal", filepath.Join(t.TempDir(), "j.jsonl"))
	if code != exitOK {
		t.Fatalf("apply exit %d with a webhook down, want 0\n%s\n%s", code, stdout, stderr)
	}
}

// TestNotifyDriftResolved: drift --issue links the drift issue in
// drift.found, and tells drift.resolved when it closes it.
func TestNotifyDriftResolved(t *testing.T) {
	t.Parallel()
	e, dir, te, _, hook := notifySetup(t, http.StatusOK)
	newFakeGitHub(t, te)
	syncDemo(t, dir, te)
	n := len(hook.deliveries()) // apply.succeeded

	editInstructions(t, e, "release-notes", "# Release notes\n\nEdited in the app.\n")
	if code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--issue"); code != exitChanges {
		t.Fatalf("drift: exit %d\n%s", code, stderr)
	}
	got := hook.deliveries()[n:]
	if len(got) != 1 {
		t.Fatalf("%d deliveries after drift, want 1", len(got))
	}
	p := verified(t, got[0])
	if p.Type != "drift.found" || !slices.Equal(p.Data.Skills, []string{"release-notes"}) || !strings.Contains(p.Data.Links.Issue, "/issues/") {
		t.Errorf("drift.found: %+v", p)
	}
	if code, _, stderr := runCLI(t, te, "apply", "--dir", dir, "--auto-approve", "--journal", filepath.Join(t.TempDir(), "j.jsonl")); code != 0 {
		t.Fatalf("apply: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI(t, te, "drift", "--dir", dir, "--issue"); code != exitOK {
		t.Fatalf("drift in sync: exit %d\n%s", code, stderr)
	}
	got = hook.deliveries()
	p = verified(t, got[len(got)-1])
	if p.Type != "drift.resolved" || !strings.Contains(p.Data.Links.Issue, "/issues/") {
		t.Errorf("after the issue was closed, the last event is %+v, want drift.resolved linking the issue", p)
	}
}

// TestCILinks: the run and the pull request come from GitHub's
// variables, else GitLab's; malformed ones give no link.
func TestCILinks(t *testing.T) {
	dir := t.TempDir()
	eventPath := filepath.Join(dir, "event.json")
	if err := os.WriteFile(eventPath, []byte(`{"pull_request":{"number":42}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		vars testEnv
		want notify.Links
	}{
		{"local", nil, notify.Links{}},
		{"GitHub push", testEnv{"GITHUB_REPOSITORY": "acme/skills", "GITHUB_RUN_ID": "99"},
			notify.Links{Run: "https://github.com/acme/skills/actions/runs/99"}},
		{"GitHub Enterprise pull request", testEnv{"GITHUB_SERVER_URL": "https://ghe.example.com", "GITHUB_REPOSITORY": "acme/skills", "GITHUB_RUN_ID": "99", "GITHUB_EVENT_PATH": eventPath},
			notify.Links{Run: "https://ghe.example.com/acme/skills/actions/runs/99", PullRequest: "https://ghe.example.com/acme/skills/pull/42"}},
		{"GitHub malformed", testEnv{"GITHUB_REPOSITORY": "acme/skills", "GITHUB_RUN_ID": "99<script>"}, notify.Links{}},
		{"GitLab merge request", testEnv{"CI_JOB_URL": "https://gitlab.example.com/acme/skills/-/jobs/7", "CI_PROJECT_URL": "https://gitlab.example.com/acme/skills", "CI_MERGE_REQUEST_IID": "5"},
			notify.Links{Run: "https://gitlab.example.com/acme/skills/-/jobs/7", PullRequest: "https://gitlab.example.com/acme/skills/-/merge_requests/5"}},
		{"GitLab pipeline", testEnv{"CI_PIPELINE_URL": "https://gitlab.com/acme/skills/-/pipelines/8"},
			notify.Links{Run: "https://gitlab.com/acme/skills/-/pipelines/8"}},
	} {
		if got := ciLinks(func(k string) string { return tc.vars[k] }); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
