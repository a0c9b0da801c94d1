package notify

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// verifyDelivery is a receiver's check, written from the Standard
// Webhooks specification rather than from sign; docs/notifications.md
// shows it as it is between the markers.

// docs:verify.go begin

// verifyDelivery checks a delivery of skillsync's generic webhook: one of
// its signatures is the HMAC-SHA256, under secret ("whsec_" and base64),
// of "id.timestamp.body"; and its timestamp is within 5 minutes of now.
func verifyDelivery(secret string, h http.Header, body []byte, now time.Time) error {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		return fmt.Errorf("reading the secret: %w", err)
	}
	id, ts := h.Get("webhook-id"), h.Get("webhook-timestamp")
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return errors.New("webhook-timestamp is not a number")
	}
	if d := now.Sub(time.Unix(sec, 0)); d > 5*time.Minute || d < -5*time.Minute {
		return errors.New("webhook-timestamp is more than 5 minutes from now: a replay?")
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%s.", id, ts)
	mac.Write(body)
	want := mac.Sum(nil)
	for _, sig := range strings.Fields(h.Get("webhook-signature")) {
		version, b64, _ := strings.Cut(sig, ",")
		got, err := base64.StdEncoding.DecodeString(b64)
		if version == "v1" && err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return errors.New("no valid signature")
}

// docs:verify.go end

// TestSignStandardWebhooksVector: sign gives the signature of the example
// that Standard Webhooks' libraries are tested with.
func TestSignStandardWebhooksVector(t *testing.T) {
	key, err := signingKey("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")
	if err != nil {
		t.Fatal(err)
	}
	got := sign(key, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, []byte(`{"test": 2432232314}`))
	if want := "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="; got != want {
		t.Errorf("sign = %s, want %s", got, want)
	}
}

// TestVerifyRefuses: the receiver's check refuses a body changed by a
// byte, a timestamp moved (the signature covers it), a replay after 5
// minutes, and another secret's signature.
func TestVerifyRefuses(t *testing.T) {
	rc := newReceiver(t)
	s := oneDestination(t, Webhook, rc.hookURL(), nil, nil, Options{})
	if w := s.Send(t.Context(), Event{Kind: DriftFound, Target: "prod", Space: "pr01"}); len(w) > 0 {
		t.Fatal(w)
	}
	d := rc.deliveries()[0]
	now := time.Now()
	if err := verifyDelivery(testSecret, d.header, d.body, now); err != nil {
		t.Fatalf("the delivery does not verify: %v", err)
	}
	changed := append([]byte(nil), d.body...)
	changed[len(changed)-2] ^= 1
	moved := d.header.Clone()
	ts, _ := strconv.ParseInt(moved.Get(HeaderTimestamp), 10, 64)
	moved.Set(HeaderTimestamp, strconv.FormatInt(ts+1, 10))
	for name, err := range map[string]error{
		"body changed":   verifyDelivery(testSecret, d.header, changed, now),
		"timestamp":      verifyDelivery(testSecret, moved, d.body, now),
		"replayed":       verifyDelivery(testSecret, d.header, d.body, now.Add(6*time.Minute)),
		"another secret": verifyDelivery("whsec_YW5vdGhlci1zZWNyZXQtb2YtdHdlbnR5LWZvdXItYnl0ZXM=", d.header, d.body, now),
	} {
		if err == nil {
			t.Errorf("%s: verified", name)
		}
	}
}

// docBlock returns the fenced block of docs/notifications.md that follows
// the line "<!-- marker -->".
func docBlock(t *testing.T, marker string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "notifications.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(doc), "<!-- "+marker+" -->\n")
	if !ok {
		t.Fatalf("docs/notifications.md has no <!-- %s --> marker", marker)
	}
	_, block, ok := strings.Cut(after, "\n") // the opening fence
	block, _, ok2 := strings.Cut(block, "```\n")
	if !ok || !ok2 {
		t.Fatalf("no fenced block after <!-- %s -->", marker)
	}
	return block
}

// TestDocsShowTheVerifier: the Go verifier of the docs is the one these
// tests use.
func TestDocsShowTheVerifier(t *testing.T) {
	src, err := os.ReadFile("verify_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, fn, _ := strings.Cut(string(src), "// docs:verify.go begin\n\n")
	fn, _, _ = strings.Cut(fn, "\n// docs:verify.go end")
	if doc := docBlock(t, "verify.go"); !strings.Contains(doc, fn) {
		t.Errorf("docs/notifications.md does not show verifyDelivery as verify_test.go has it:\n%s", fn)
	}
}

// TestDocsShellVerifier: the shell check of the docs accepts a delivery
// and refuses it once its body is changed.
func TestDocsShellVerifier(t *testing.T) {
	for _, tool := range []string{"sh", "openssl", "base64", "od"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s: %v", tool, err)
		}
	}
	script := docBlock(t, "verify.sh")
	rc := newReceiver(t)
	s := oneDestination(t, Webhook, rc.hookURL(), nil, nil, Options{})
	if w := s.Send(t.Context(), Event{Kind: PlanError, Target: "prod", Summary: "a summary with 'quotes', $dollars and `ticks`"}); len(w) > 0 {
		t.Fatal(w)
	}
	d := rc.deliveries()[0]
	run := func(body []byte) error {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "body.json"), body, 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(),
			"WEBHOOK_SECRET="+testSecret,
			"WEBHOOK_ID="+d.header.Get(HeaderID),
			"WEBHOOK_TIMESTAMP="+d.header.Get(HeaderTimestamp),
			"WEBHOOK_SIGNATURE="+d.header.Get(HeaderSignature))
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("%w: %s", err, out)
		}
		return nil
	}
	if err := run(d.body); err != nil {
		t.Errorf("the docs' shell check refuses a delivery: %v", err)
	}
	if err := run(append(d.body[:len(d.body):len(d.body)], ' ')); err == nil {
		t.Errorf("the docs' shell check accepts a body with a byte added")
	}
}
