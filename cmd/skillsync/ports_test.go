package main

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"testing"
)

// refusingAddr returns a loopback address that refuses connections until
// the test ends; see [holdRefusing].
func refusingAddr(t *testing.T) string {
	t.Helper()
	addr, release, err := holdRefusing()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return addr
}

// holdRefusing returns a loopback address that refuses connections until
// release is called. A connected socket holds its port: nothing listens
// there, and no other listener can bind it, whatever runs alongside.
func holdRefusing() (addr string, release func(), err error) {
	peer, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	// An explicit bind (LocalAddr) keeps the port from other dials too.
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}}
	c, err := d.Dial("tcp", peer.Addr().String())
	if err != nil {
		peer.Close()
		return "", nil, err
	}
	return c.LocalAddr().String(), func() { c.Close(); peer.Close() }, nil
}

// freeAddr returns a loopback address free now, for a process that must
// be told where to listen. Its port lies below the kernel's ephemeral
// range, which listeners on port 0 and outgoing connections draw from,
// so no other test is given it before the caller listens.
func freeAddr() (string, error) {
	const lowest = 10000
	top := ephemeralLow()
	for range 200 {
		port := lowest + rand.IntN(top-lowest)
		l, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue // a service of the machine holds it
		}
		addr := l.Addr().String()
		if err := l.Close(); err != nil {
			return "", err
		}
		return addr, nil
	}
	return "", errors.New("no free loopback port below the ephemeral range")
}

// ephemeralLow is the first port of the kernel's ephemeral range: Linux's
// setting, else 32768, below the range of every other system.
func ephemeralLow() int {
	const fallback = 32768
	data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range")
	if err != nil {
		return fallback
	}
	var lo, hi int
	if _, err := fmt.Sscan(string(data), &lo, &hi); err != nil || lo <= 12000 {
		return fallback
	}
	return lo
}

// freeAddrT is freeAddr for a test.
func freeAddrT(t *testing.T) string {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

// TestRefusingAddr: the address refuses a connection, and no listener can
// take its port while the test holds it.
func TestRefusingAddr(t *testing.T) {
	addr := refusingAddr(t)
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Fatalf("a connection to %s was accepted", addr)
	}
	if l, err := net.Listen("tcp", addr); err == nil {
		l.Close()
		t.Fatalf("a listener took the port of %s", addr)
	}
}

// TestFreeAddrBelowEphemeral: the port given is free and outside the range
// the kernel hands to listeners on port 0.
func TestFreeAddrBelowEphemeral(t *testing.T) {
	addr := freeAddrT(t)
	_, port, _ := net.SplitHostPort(addr)
	var p int
	fmt.Sscan(port, &p)
	if p >= ephemeralLow() {
		t.Errorf("port %d is in the ephemeral range (from %d)", p, ephemeralLow())
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
}
