package notify

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/skillsync/skillsync/internal/redact"
)

var update = flag.Bool("update", false, "rewrite the golden payloads under testdata/golden")

// hookPath is the secret part of the receivers' URLs, as a chat webhook's
// path is.
const hookPath = "/services/T0AAAAAAA/B0BBBBBBB/q8Xk2mZr7VtL0sWn4pYc"

// testSecret is a signing secret of 35 bytes.
const testSecret = "whsec_c2tpbGxzeW5jLXRlc3Qtc2lnbmluZy1rZXktMzJieXRlcyE="

// A delivery is one request a receiver got.
type delivery struct {
	header http.Header
	body   []byte
	at     time.Time
}

// A receiver is a local webhook: it records what it gets and answers with
// the next of its answers (the last one again when they run out).
type receiver struct {
	*httptest.Server
	mu      sync.Mutex
	got     []delivery
	answers []func(w http.ResponseWriter, r *http.Request)
}

func newReceiver(t *testing.T, answers ...func(w http.ResponseWriter, r *http.Request)) *receiver {
	t.Helper()
	rc := &receiver{answers: answers}
	rc.Server = httptest.NewServer(http.HandlerFunc(rc.serve))
	t.Cleanup(rc.Close)
	return rc
}

func (rc *receiver) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	n := len(rc.got)
	rc.got = append(rc.got, delivery{header: r.Header.Clone(), body: body, at: time.Now()})
	rc.mu.Unlock()
	if r.URL.Path != hookPath {
		http.NotFound(w, r)
		return
	}
	if len(rc.answers) == 0 {
		w.WriteHeader(http.StatusOK)
		return
	}
	rc.answers[min(n, len(rc.answers)-1)](w, r)
}

func (rc *receiver) deliveries() []delivery {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]delivery(nil), rc.got...)
}

// hookURL is the URL of rc's webhook.
func (rc *receiver) hookURL() string { return rc.URL + hookPath }

// status answers code with body.
func status(code int, body string, header ...string) func(w http.ResponseWriter, r *http.Request) {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(header); i += 2 {
			w.Header().Set(header[i], header[i+1])
		}
		w.WriteHeader(code)
		io.WriteString(w, body)
	}
}

// env is a getenv of the map m.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// oneDestination returns a sender with one destination of kind, named
// "dest", that wants events, posting to url.
func oneDestination(t *testing.T, kind, url string, events []string, secrets *redact.Set, opts Options) *Sender {
	t.Helper()
	d := Destination{Kind: kind, URLEnv: "SKILLSYNC_NOTIFY_DEST", Events: events}
	vars := map[string]string{"SKILLSYNC_NOTIFY_DEST": url}
	if kind == Webhook {
		d.SecretEnv = "SKILLSYNC_NOTIFY_DEST_SECRET"
		vars["SKILLSYNC_NOTIFY_DEST_SECRET"] = testSecret
	}
	s, err := New(Config{"dest": d}, env(vars), secrets, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func readEvent(t *testing.T, path string) Event {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ev Event
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ev); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return ev
}

// golden compares got with the golden file name, or rewrites it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./internal/notify -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test ./internal/notify -update if the change is intended):\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

// TestPayloadGolden: each event of testdata/events, sent to a receiver of
// each kind, arrives as one POST of JSON whose shape is the golden file's
// (indented there for reading), signed when it is the generic webhook's.
func TestPayloadGolden(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join("testdata", "events", "*.json"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no events: %v", err)
	}
	for _, path := range paths {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		for _, kind := range []string{Slack, Teams, Webhook} {
			t.Run(name+"/"+kind, func(t *testing.T) {
				ev := readEvent(t, path)
				rc := newReceiver(t)
				s := oneDestination(t, kind, rc.hookURL(), []string{EventsAll}, nil, Options{})
				if w := s.Send(context.Background(), ev); len(w) > 0 {
					t.Fatalf("warnings: %v", w)
				}
				got := rc.deliveries()
				if len(got) != 1 {
					t.Fatalf("%d deliveries, want 1", len(got))
				}
				d := got[0]
				if ct := d.header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("Content-Type %q", ct)
				}
				var indented bytes.Buffer
				if err := json.Indent(&indented, d.body, "", "  "); err != nil {
					t.Fatalf("body is not JSON: %v\n%s", err, d.body)
				}
				indented.WriteByte('\n')
				golden(t, name+"."+kind+".json", indented.Bytes())
				if bytes.Contains(d.body, []byte("hunter2")) || bytes.Contains(d.body, []byte("/api")) {
					t.Errorf("more of the base URL than its host was sent")
				}
				if kind == Webhook {
					if err := verifyDelivery(testSecret, d.header, d.body, time.Now()); err != nil {
						t.Errorf("the signature does not verify: %v", err)
					}
				} else if d.header.Get(HeaderSignature) != "" {
					t.Errorf("a %s delivery is signed", kind)
				}
			})
		}
	}
}
