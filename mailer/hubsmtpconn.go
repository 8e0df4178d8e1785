package mailer

import (
	"bufio"
	"errors"
	"io"
	"net"
	"sync"
)

// hubSMTPListener hands out the embedded hub's SMTP connections, which
// differ from a plain connection in two ways, both for go-smtp's server:
//
//   - Answers wait in a buffer until the connection is next read (or
//     closed): the server answers each command of a pipelined group (RFC
//     2920) with a write of its own, and the group's answers go out in one
//     write instead, read by the client in one go. The server always reads
//     after it has answered, so nothing waits for long.
//   - The client's end of the connection reads as errPeerClosed, not
//     io.EOF: go-smtp's server (v0.25.1) copies a BDAT chunk (RFC 3030) with
//     io.Copy and takes io.EOF for the chunk's end, so a client gone in the
//     middle of "BDAT 100 LAST" would have the bytes it sent delivered as a
//     whole mail. With errPeerClosed the copy fails and the server drops the
//     transaction (DATA fails either way without its final dot);
//     errPeerClosed wraps net.ErrClosed, which go-smtp takes for a session
//     ended quietly. TestHubDeliversNoCutText holds it. After STARTTLS
//     (Hub.TLSConfig) go-smtp reads through a tls.Conn of its own, which
//     passes this error on when the link is cut (TestHubDeliversNoCutTextOverTLS)
//     but reports a clean TLS close (close_notify) as io.EOF: a client
//     that deliberately ends TLS inside a chunk would still have its part
//     delivered, which only a fix in go-smtp can prevent.
type hubSMTPListener struct{ net.Listener }

// SMTPServerListener wraps ln for a go-smtp server as the hub's own SMTP
// listener is wrapped (see hubSMTPListener): a client's end of the
// connection never reads as io.EOF, so a BDAT chunk cut short is not
// delivered, and a pipelined group's answers go out in one write. Any
// go-smtp server the project runs should take its connections through
// it; the daemon's fault tests' gate server does.
func SMTPServerListener(ln net.Listener) net.Listener { return hubSMTPListener{ln} }

func (l hubSMTPListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &hubSMTPConn{Conn: c, w: bufio.NewWriterSize(c, 4<<10)}, nil
}

// errPeerClosed is a hub connection's io.EOF (see hubSMTPListener).
var errPeerClosed = errors.Join(errors.New("mailer: hub: the client closed the connection"), net.ErrClosed)

// hubSMTPConn is a connection of a hubSMTPListener.
type hubSMTPConn struct {
	net.Conn
	mu sync.Mutex // the server's goroutine writes; Server.Close may close from another
	w  *bufio.Writer
}

func (c *hubSMTPConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Write(p)
}

// flush sends the answers that wait.
func (c *hubSMTPConn) flush() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.w.Flush()
}

func (c *hubSMTPConn) Read(p []byte) (int, error) {
	if err := c.flush(); err != nil {
		return 0, err
	}
	n, err := c.Conn.Read(p)
	if errors.Is(err, io.EOF) {
		err = errPeerClosed
	}
	return n, err
}

func (c *hubSMTPConn) Close() error {
	c.flush()
	return c.Conn.Close()
}
