package remote

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"
)

// A NetFailure is the kind of a failure to get any answer from the
// service, as [NetFailureOf] tells it.
type NetFailure int

// The kinds of NetFailure.
const (
	NetOther       NetFailure = iota // none of the below, or not a network failure
	NetUnknownHost                   // the host name does not resolve
	NetCertificate                   // the service's certificate is not trusted
	NetPlainHTTP                     // an https request answered in plain HTTP
	NetRefused                       // nothing accepts connections at the address
	NetTimeout                       // no answer in time ([ErrNoResponse] included)
	NetBroken                        // the connection broke: reset, closed, unreachable
)

// NetFailureOf tells what kind of network failure err is, or wraps.
func NetFailureOf(err error) NetFailure {
	var (
		dnsErr   *net.DNSError
		certErr  *tls.CertificateVerificationError
		authErr  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		invalErr x509.CertificateInvalidError
		recErr   tls.RecordHeaderError
		netErr   net.Error
	)
	switch {
	case err == nil:
		return NetOther
	case errors.As(err, &dnsErr):
		return NetUnknownHost
	case errors.As(err, &certErr), errors.As(err, &authErr), errors.As(err, &hostErr), errors.As(err, &invalErr):
		return NetCertificate
	case errors.As(err, &recErr), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"): // net/http's words, not a type
		return NetPlainHTTP
	case errors.Is(err, syscall.ECONNREFUSED):
		return NetRefused
	case errors.Is(err, ErrNoResponse), errors.Is(err, syscall.ETIMEDOUT), errors.As(err, &netErr) && netErr.Timeout():
		return NetTimeout
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.ECONNABORTED), errors.Is(err, syscall.EPIPE),
		errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return NetBroken
	}
	return NetOther
}

// retryableNetError tells network trouble that may pass (refused, reset,
// closed, timed out) from errors that will not (bad certificate, unknown
// host).
func retryableNetError(err error) bool {
	switch NetFailureOf(err) {
	case NetUnknownHost:
		var dnsErr *net.DNSError
		return errors.As(err, &dnsErr) && (dnsErr.IsTemporary || dnsErr.IsTimeout)
	case NetCertificate, NetPlainHTTP:
		return false
	case NetRefused, NetTimeout, NetBroken:
		return true
	}
	// A connection closed mid-answer reads as EOF: of a file that is no
	// network failure, so NetFailureOf does not count it, but here the
	// error is the transport's.
	var opErr *net.OpError
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.As(err, &opErr) && (opErr.Op == "dial" || opErr.Op == "read" || opErr.Op == "write") {
		return true
	}
	msg := err.Error()
	return strings.Contains(msg, "server closed idle connection") ||
		strings.Contains(msg, "GOAWAY") ||
		strings.Contains(msg, "connection reset")
}
