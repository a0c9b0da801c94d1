package remotetest

import (
	"cmp"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/skillsync/skillsync/internal/origin"
)

// Server is an emulator served over HTTP on a loopback address.
type Server struct {
	// URL is the base URL of the service, like http://127.0.0.1:PORT.
	URL string
	srv *http.Server
	ln  net.Listener
}

// Start serves the emulator on addr, which must be a loopback address
// ("127.0.0.1:8080", "[::1]:0", "localhost:0"); "" means "127.0.0.1:0", a
// free port. Any other address is refused: the emulator accepts any token
// it was given and must not be reachable from another machine.
func (e *Emulator) Start(addr string) (*Server, error) {
	return serve(addr, e)
}

// serve serves h on the loopback address addr, as [Emulator.Start] says.
func serve(addr string, h http.Handler) (*Server, error) {
	addr = cmp.Or(addr, "127.0.0.1:0")
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("emulator address %q: %w", addr, err)
	}
	if !origin.IsLoopbackHost(host) {
		return nil, fmt.Errorf("emulator address %q: refusing a non-loopback address; use 127.0.0.1, ::1 or localhost", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("starting emulator: %w", err)
	}
	s := &Server{
		URL: "http://" + ln.Addr().String(),
		srv: &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second},
		ln:  ln,
	}
	go s.srv.Serve(ln)
	return s, nil
}

// Close stops the server at once, closing open connections.
func (s *Server) Close() error {
	if err := s.srv.Close(); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
