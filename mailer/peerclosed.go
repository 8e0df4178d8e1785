package mailer

import (
	"errors"
	"fmt"
	"io"
	"net"
)

// peerClosedListener hands out connections whose Read reports the client's
// end of the connection as errPeerClosed rather than io.EOF. The embedded
// hub's SMTP server runs on it because go-smtp's server (v0.25.1) copies a
// BDAT chunk (RFC 3030) with io.Copy and takes io.EOF for the chunk's end:
// a client gone in the middle of "BDAT 100 LAST" would have the bytes it
// sent delivered as a whole mail. With errPeerClosed the copy fails, the
// server drops the transaction, and the text is delivered only whole (DATA
// fails either way without its final dot); errPeerClosed wraps
// net.ErrClosed, which go-smtp takes for a session ended quietly.
// TestHubDeliversNoCutText holds it.
type peerClosedListener struct{ net.Listener }

func (l peerClosedListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return peerClosedConn{c}, nil
}

// errPeerClosed is a hub connection's io.EOF (see peerClosedListener).
var errPeerClosed = fmt.Errorf("mailer: hub: the client closed the connection: %w", net.ErrClosed)

type peerClosedConn struct{ net.Conn }

func (c peerClosedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if errors.Is(err, io.EOF) {
		err = errPeerClosed
	}
	return n, err
}
