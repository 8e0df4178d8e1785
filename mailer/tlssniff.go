package mailer

import (
	"net"
	"sync"
	"time"
)

// tlsSniffDelay is how long a session that is not TLS waits for the
// server's greeting before it asks the port, on a second connection,
// whether it speaks TLS. A TLS port greets nobody: without the question,
// security = "starttls" (or "plain") on port 993 would show only once the
// greeting's timeout ends, tens of seconds later.
const tlsSniffDelay = 500 * time.Millisecond

// tlsSniffer asks, while a session that is not TLS waits for the greeting,
// whether its port speaks TLS; if so it closes the session's connection at
// once, ending the wait, and explain says which setting fixes it.
type tlsSniffer struct {
	srv     Server
	mu      sync.Mutex
	stopped bool
	found   bool
	t       *time.Timer
}

// sniffTLS starts a sniffer on conn, a fresh connection to srv; the
// handshake it tries takes at most wait. Nothing is asked for a TLS
// session.
func sniffTLS(srv Server, conn net.Conn, wait time.Duration) *tlsSniffer {
	s := &tlsSniffer{srv: srv}
	if srv.Security == "tls" {
		return s
	}
	s.t = time.AfterFunc(tlsSniffDelay, func() {
		tls := speaksTLS(srv.Addr, min(wait, 5*time.Second))
		s.mu.Lock()
		defer s.mu.Unlock()
		if tls && !s.stopped {
			s.found = true
			conn.Close()
		}
	})
	return s
}

// stop ends the sniffing: the greeting came, or the wait ended otherwise.
func (s *tlsSniffer) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	if s.t != nil {
		s.t.Stop()
	}
}

// explain is err, or, when the sniffer found the port speaking TLS, the
// Problem that says so (wrapping err).
func (s *tlsSniffer) explain(err error) error {
	s.mu.Lock()
	found := s.found
	s.mu.Unlock()
	if err == nil || !found {
		return err
	}
	return s.srv.tlsPortProblem(err)
}
