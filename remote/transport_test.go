package remote

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/skillsync/skillsync/spec"
)

func TestHTTPS(t *testing.T) {
	var n atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		writeJSON(w, 200, fullSkill())
	}))
	defer srv.Close()
	t.Run("trusted certificate", func(t *testing.T) {
		c := newClient(t, srv.URL, func(o *Options) { o.HTTPClient = srv.Client() })
		if _, err := c.GetSkill(t.Context(), space, skillID); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("untrusted certificate is not retried", func(t *testing.T) {
		before := n.Load()
		_, err := newClient(t, srv.URL, nil).GetSkill(t.Context(), space, skillID)
		if err == nil || !strings.Contains(err.Error(), "certificate") || strings.Contains(err.Error(), "gave up") {
			t.Errorf("error = %v, want a certificate error on the first attempt", err)
		}
		if n.Load() != before {
			t.Error("the request reached the handler")
		}
	})
}

type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

func TestRetryableNetError(t *testing.T) {
	tests := []struct {
		err  error
		want bool
	}{
		{&net.OpError{Op: "dial", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}, true},
		{&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}, true},
		{fmt.Errorf("reading: %w", io.ErrUnexpectedEOF), true},
		{io.EOF, true},
		{timeoutError{}, true},
		{errors.New("http: server closed idle connection"), true},
		{&net.DNSError{Err: "no such host", Name: "tenant.example.com", IsNotFound: true}, false},
		{&net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", IsNotFound: true}}, false},
		{&net.DNSError{Err: "server misbehaving", IsTemporary: true}, true},
		{x509.UnknownAuthorityError{}, false},
		{x509.HostnameError{Certificate: &x509.Certificate{}, Host: "x"}, false},
		{errors.New("http: server gave HTTP response to HTTPS client"), false},
		{context.Canceled, false},
	}
	for _, tt := range tests {
		t.Run(tt.err.Error(), func(t *testing.T) {
			if got := retryableNetError(tt.err); got != tt.want {
				t.Errorf("retryableNetError(%#v) = %v, want %v", tt.err, got, tt.want)
			}
		})
	}
}

func TestCheckSpaceID(t *testing.T) {
	tests := []struct {
		id string
		ok bool
	}{
		{"ab", true},
		{"ab12", true},
		{"abcdef", true},
		{"V1StGXR8_Z5jdHi6B-myT", true},
		{"a", false},
		{"abcdefg", false},
		{"..", false}, // would leave its path segment
		{"...", false},
		{"a.b", true},
		{"a/b", false},
		{`a\b`, false},
		{"a%2f", false},
		{"a\x00b", false},
		{"a\tb", false},
		{" ab", false},
		{"a b", false}, // escaped in a path: the service may read it either way
		{"a;b", false},
		{"a,b", false},
		{"ab~_", true},
		{"café", false},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			err := spec.CheckSpaceID(tt.id)
			if (err == nil) != tt.ok {
				t.Errorf("spec.CheckSpaceID(%q) = %v, want ok %v", tt.id, err, tt.ok)
			}
			var re *spec.RuleError
			if err != nil && (!errors.As(err, &re) || re.Field != "spaceId") {
				t.Errorf("error %v is not a spaceId spec.RuleError", err)
			}
		})
	}
}
