package notify

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestFailuresOnlyByDefault: a destination that names no events hears of
// apply.failed, drift.found and plan.error, and of nothing else; "all"
// hears of everything and [] of nothing.
func TestFailuresOnlyByDefault(t *testing.T) {
	for _, tc := range []struct {
		events []string
		want   []Kind
	}{
		{nil, []Kind{ApplyFailed, DriftFound, PlanError}},
		{[]string{EventsFailures}, []Kind{ApplyFailed, DriftFound, PlanError}},
		{[]string{EventsAll}, Kinds()},
		{[]string{}, nil},
		{[]string{"drift.resolved", "apply.succeeded"}, []Kind{ApplySucceeded, DriftResolved}},
	} {
		rc := newReceiver(t)
		s := oneDestination(t, Slack, rc.hookURL(), tc.events, nil, Options{})
		var got []Kind
		for _, k := range Kinds() {
			before := len(rc.deliveries())
			if w := s.Send(t.Context(), Event{Kind: k, Target: "prod"}); len(w) > 0 {
				t.Fatal(w)
			}
			if len(rc.deliveries()) > before {
				got = append(got, k)
			}
		}
		if strings.Join(kindStrings(got), " ") != strings.Join(kindStrings(tc.want), " ") {
			t.Errorf("events %q: sent %v, want %v", tc.events, got, tc.want)
		}
	}
}

func kindStrings(ks []Kind) []string {
	var s []string
	for _, k := range ks {
		s = append(s, string(k))
	}
	return s
}

// TestRetry: a 429 or a 5xx gets one retry, after what Retry-After asks
// when that is short, with the same webhook-id and a valid signature; a
// 4xx gets none; a long Retry-After means no retry and says so.
func TestRetry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		answers  []func(http.ResponseWriter, *http.Request)
		requests int
		warning  string // "" when delivered
	}{
		{"503 then 200", []func(http.ResponseWriter, *http.Request){status(503, "busy", "Retry-After", "0"), status(200, "ok")}, 2, ""},
		{"429 then 202", []func(http.ResponseWriter, *http.Request){status(429, "slow down", "Retry-After", "0"), status(202, "")}, 2, ""},
		{"500 with no Retry-After, then 200", []func(http.ResponseWriter, *http.Request){status(500, "oops"), status(200, "ok")}, 2, ""},
		{"500 twice", []func(http.ResponseWriter, *http.Request){status(500, "oops\nmore lines")}, 2, "answered 500 Internal Server Error: oops"},
		{"400", []func(http.ResponseWriter, *http.Request){status(400, "invalid_payload")}, 1, "answered 400 Bad Request: invalid_payload"},
		{"410", []func(http.ResponseWriter, *http.Request){status(410, "channel_is_archived")}, 1, "answered 410 Gone: channel_is_archived"},
		{"429 asking for an hour", []func(http.ResponseWriter, *http.Request){status(429, "", "Retry-After", "3600")}, 1, "asked to retry after 1h0m0s, longer than the 50ms waited"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rc := newReceiver(t, tc.answers...)
			s := oneDestination(t, Webhook, rc.hookURL(), nil, nil, Options{MaxRetryWait: 50 * time.Millisecond})
			w := s.Send(t.Context(), Event{Kind: ApplyFailed, Target: "prod"})
			got := rc.deliveries()
			if len(got) != tc.requests {
				t.Errorf("%d requests, want %d", len(got), tc.requests)
			}
			switch {
			case tc.warning == "" && len(w) > 0:
				t.Errorf("warnings: %v", w)
			case tc.warning != "" && (len(w) != 1 || !strings.Contains(w[0].String(), tc.warning)):
				t.Errorf("warnings %v, want one saying %q", w, tc.warning)
			}
			for i, d := range got {
				if err := verifyDelivery(testSecret, d.header, d.body, time.Now()); err != nil {
					t.Errorf("attempt %d: %v", i+1, err)
				}
				if id := d.header.Get(HeaderID); id != got[0].header.Get(HeaderID) || !strings.HasPrefix(id, "msg_") {
					t.Errorf("attempt %d has webhook-id %q, the first %q", i+1, id, got[0].header.Get(HeaderID))
				}
			}
		})
	}
}

// TestRetryAfterHonoured: the retry waits what Retry-After asks.
func TestRetryAfterHonoured(t *testing.T) {
	rc := newReceiver(t, status(503, "", "Retry-After", "1"), status(200, "ok"))
	s := oneDestination(t, Slack, rc.hookURL(), nil, nil, Options{MaxRetryWait: 2 * time.Second})
	if w := s.Send(t.Context(), Event{Kind: DriftFound}); len(w) > 0 {
		t.Fatal(w)
	}
	got := rc.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d requests, want 2", len(got))
	}
	if gap := got[1].at.Sub(got[0].at); gap < time.Second {
		t.Errorf("retried after %s, before the second Retry-After asked for", gap)
	}
}

// TestTimeout: a receiver that never answers costs a warning after the
// timeout (and its retry, none here: the request may have landed), not a
// blocked command.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	defer close(release)
	s := oneDestination(t, Teams, rc.hookURL(), nil, nil, Options{Timeout: 100 * time.Millisecond})
	done := make(chan []Warning)
	go func() { done <- s.Send(context.Background(), Event{Kind: PlanError, Target: "prod"}) }()
	select {
	case w := <-done:
		if len(w) != 1 || !strings.Contains(w[0].Message, "did not answer within 100ms") {
			t.Errorf("warnings %v, want one saying it did not answer", w)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Send still blocked 10s after a timeout of 100ms")
	}
	if n := len(rc.deliveries()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}

// TestConnectionRefusedRetried: a connection that could not be made is
// retried (nothing was sent), then warned about.
func TestConnectionRefusedRetried(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL + hookPath
	srv.Close()
	s := oneDestination(t, Slack, url, nil, nil, Options{MaxRetryWait: 10 * time.Millisecond})
	w := s.Send(t.Context(), Event{Kind: ApplyFailed})
	if len(w) != 1 || !strings.Contains(w[0].Message, "could not connect to 127.0.0.1:") {
		t.Errorf("warnings %v, want one saying it could not connect", w)
	}
}

// TestRedirectNotFollowed: a redirect is a failure, and the body never
// reaches where it points.
func TestRedirectNotFollowed(t *testing.T) {
	elsewhere := newReceiver(t)
	rc := newReceiver(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, elsewhere.hookURL(), http.StatusTemporaryRedirect)
	})
	s := oneDestination(t, Webhook, rc.hookURL(), nil, nil, Options{})
	w := s.Send(t.Context(), Event{Kind: ApplyFailed})
	if len(w) != 1 || !strings.Contains(w[0].Message, "a redirect, not followed") {
		t.Errorf("warnings %v, want one about the redirect", w)
	}
	if n := len(elsewhere.deliveries()); n != 0 {
		t.Errorf("the redirect's target got %d requests", n)
	}
}

// TestHTTPSOnly: a URL of plain http to a host other than loopback, or not
// a URL, is refused before any request, with a warning that names the
// variable and not what it holds; https is used.
func TestHTTPSOnly(t *testing.T) {
	for _, raw := range []string{"http://hooks.example.com" + hookPath, "ftp://127.0.0.1" + hookPath, "hooks.example.com" + hookPath, "https:" + hookPath} {
		s := oneDestination(t, Slack, raw, nil, nil, Options{})
		w := s.Send(t.Context(), Event{Kind: ApplyFailed})
		if len(w) != 1 || !strings.HasPrefix(w[0].Message, "SKILLSYNC_NOTIFY_DEST does not hold") {
			t.Errorf("%s: warnings %v, want one naming the variable", raw, w)
		}
		if len(w) == 1 && strings.Contains(w[0].String(), "q8Xk2mZr") {
			t.Errorf("%s: the warning shows the URL: %s", raw, w[0])
		}
	}
	tls := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer tls.Close()
	if !strings.HasPrefix(tls.URL, "https://") {
		t.Fatal(tls.URL)
	}
	s := oneDestination(t, Teams, tls.URL+hookPath, nil, nil, Options{Client: tls.Client()})
	if w := s.Send(t.Context(), Event{Kind: ApplyFailed}); len(w) > 0 {
		t.Errorf("https: %v", w)
	}
}

// TestUnsetVariables: a destination whose variables are unset warns only
// when an event would have gone to it, naming the variable; a secret that
// is not one warns too, without quoting it.
func TestUnsetVariables(t *testing.T) {
	c := Config{
		"chat":  {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_CHAT"},
		"audit": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_AUDIT", SecretEnv: "SKILLSYNC_NOTIFY_AUDIT_SECRET", Events: []string{EventsAll}},
		"other": {Kind: Webhook, URLEnv: "SKILLSYNC_NOTIFY_OTHER", SecretEnv: "SKILLSYNC_NOTIFY_OTHER_SECRET"},
	}
	rc := newReceiver(t)
	s, err := New(c, env(map[string]string{
		"SKILLSYNC_NOTIFY_AUDIT":        rc.hookURL(),
		"SKILLSYNC_NOTIFY_OTHER":        rc.hookURL(),
		"SKILLSYNC_NOTIFY_OTHER_SECRET": "whsec_dG9vLXNob3J0",
	}), nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	w := s.Send(t.Context(), Event{Kind: ApplySucceeded})
	if len(w) != 1 || w[0].Destination != "audit" || !strings.HasPrefix(w[0].Message, "SKILLSYNC_NOTIFY_AUDIT_SECRET is not set") {
		t.Errorf("apply.succeeded: warnings %v, want one for audit's secret", w)
	}
	w = s.Send(t.Context(), Event{Kind: ApplyFailed})
	if len(w) != 3 {
		t.Fatalf("apply.failed: warnings %v, want 3", w)
	}
	if !strings.HasPrefix(w[1].Message, "SKILLSYNC_NOTIFY_CHAT is not set") {
		t.Errorf("chat: %s", w[1])
	}
	if !strings.HasPrefix(w[2].Message, "SKILLSYNC_NOTIFY_OTHER_SECRET is not a signing secret") || strings.Contains(w[2].Message, "dG9vLXNob3J0") {
		t.Errorf("other: %s", w[2])
	}
	if n := len(rc.deliveries()); n != 0 {
		t.Errorf("%d requests, want none", n)
	}
}

// TestDestinationsAtOnce: destinations are sent to at once, so that a slow
// one does not hold the others back.
func TestDestinationsAtOnce(t *testing.T) {
	both := make(chan struct{})
	arrived := make(chan struct{}, 2)
	wait := func(w http.ResponseWriter, r *http.Request) {
		arrived <- struct{}{}
		select {
		case <-both:
		case <-r.Context().Done():
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}
	a, b := newReceiver(t, wait), newReceiver(t, wait)
	go func() {
		<-arrived
		<-arrived
		close(both)
	}()
	s, err := New(Config{
		"a": {Kind: Slack, URLEnv: "SKILLSYNC_NOTIFY_A"},
		"b": {Kind: Teams, URLEnv: "SKILLSYNC_NOTIFY_B"},
	}, env(map[string]string{"SKILLSYNC_NOTIFY_A": a.hookURL(), "SKILLSYNC_NOTIFY_B": b.hookURL()}), nil, Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if w := s.Send(t.Context(), Event{Kind: DriftFound}); len(w) > 0 {
		t.Errorf("one receiver waited for the other in vain: %v", w)
	}
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0", 0, true},
		{" 2 ", 2 * time.Second, true},
		{"99999999999999999", time.Hour, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{"", 0, false},
		{"Wed, 04 Mar 2026 05:06:10 GMT", 3 * time.Second, true},
		{"Wed, 04 Mar 2026 05:06:00 GMT", 0, true},
	} {
		got, ok := parseRetryAfter(tc.in, now)
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseRetryAfter(%q) = %s, %v; want %s, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
