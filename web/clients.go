package web

import (
	"bytes"
	"net"
	"net/http"
	"sync"
	"time"
)

// One client cannot take the web view down (issue 35.5). A client that
// pipelines requests on a connection and never reads the answers held, in
// each handler, one of the page-drawing turns (Options.Workers) while the
// server wrote into its full socket, until the 30 s write timeout: one
// TCP connection kept every other visitor waiting, then 503. So:
//
//   - a turn is held only while a page is drawn, never while it is
//     written: the handler writes into a buffer (bufferedWriter), gives the
//     turn back, and only then is the answer written to the connection;
//   - one client (an IP address) has at most Options.ClientRequests
//     requests in the server at once, waiting for a turn or being drawn;
//     more are answered 429 at once, so that it cannot fill the queue for
//     a turn either;
//   - and at most LimitListener's perClient connections open at once:
//     each costs a goroutine and buffers however little it asks.
//
// Behind a reverse proxy every visitor is the proxy's address: raise the
// two limits (web.connections_per_client, web.requests_per_client) and let
// the proxy limit its own clients.

// bufferedWriter keeps a handler's answer (its status and body; the
// header map is the real one) until the turn is given back.
type bufferedWriter struct {
	w      http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (b *bufferedWriter) Header() http.Header { return b.w.Header() }

func (b *bufferedWriter) WriteHeader(status int) {
	if b.status == 0 {
		b.status = status
	}
}

func (b *bufferedWriter) Write(p []byte) (int, error) {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	return b.body.Write(p)
}

// flush writes the kept answer to the connection.
func (b *bufferedWriter) flush() {
	if b.status == 0 {
		b.status = http.StatusOK
	}
	b.w.WriteHeader(b.status)
	b.w.Write(b.body.Bytes())
}

// clientOf is the client a request comes from: its IP address.
func clientOf(r *http.Request) string { return hostOf(r.RemoteAddr) }

// hostOf is the host of a remote address (HOST:PORT), the address itself
// when it has no port.
func hostOf(addr string) string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	return host
}

// counts counts something per client, at most limit each.
type counts struct {
	mu    sync.Mutex
	limit int
	n     map[string]int
}

func newCounts(limit int) *counts { return &counts{limit: limit, n: map[string]int{}} }

// take counts one more for client, unless it has limit already.
func (c *counts) take(client string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client] >= c.limit {
		return false
	}
	c.n[client]++
	return true
}

// give counts one less for client.
func (c *counts) give(client string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n[client]--; c.n[client] <= 0 {
		delete(c.n, client)
	}
}

// LimitListener lets at most perClient connections of one client (an IP
// address) be open at once; a client's connection beyond them is answered
// 503 and closed at once. The web view's listener goes through it.
func LimitListener(ln net.Listener, perClient int) net.Listener {
	if perClient < 1 {
		perClient = 1
	}
	return &limitListener{Listener: ln, open: newCounts(perClient)}
}

type limitListener struct {
	net.Listener
	open *counts
}

// tooMany is the whole answer to a connection beyond the client's limit.
var tooMany = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: 58\r\n\r\nToo many connections from your address: close some first.\n")

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		client := hostOf(c.RemoteAddr().String())
		if l.open.take(client) {
			return &limitConn{Conn: c, release: func() { l.open.give(client) }}, nil
		}
		go func() {
			c.SetWriteDeadline(time.Now().Add(time.Second))
			c.Write(tooMany)
			c.Close()
		}()
	}
}

// limitConn gives its client's count back when it is closed (once).
type limitConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *limitConn) Close() error {
	c.once.Do(c.release)
	return c.Conn.Close()
}
