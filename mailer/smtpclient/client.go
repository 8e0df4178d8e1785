// Package smtpclient is the service's SMTP submission client (RFC 5321,
// 6409): sessions opened with TLS, STARTTLS or plain on loopback and AUTH
// PLAIN, and mails submitted one after another on a session, each mail's
// commands pipelined (RFC 2920) and, where allowed, its text sent with BDAT
// (RFC 3030). It knows nothing of the outbox that uses it (package mailer)
// nor of the mail format: a mail is an envelope and bytes.
package smtpclient

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"net"
	"net/textproto"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// Config says how to submit outgoing mail.
type Config struct {
	Addr      string // host:port
	Security  string // "tls", "starttls" or "plain" (loopback only)
	Username  string // "" for no AUTH
	Password  string
	HELO      string
	TLSConfig *tls.Config
	Timeout   time.Duration // per command; default one minute
	// Chunking sends each mail with BDAT (RFC 3030) where the server
	// offers CHUNKING and PIPELINING; without it, DATA. Off by default for
	// servers of others: go-smtp's server (v0.25.1, used by maddy among
	// others) takes a connection cut inside a BDAT chunk for the chunk's
	// end and delivers the part it got as a whole mail, where a DATA cut
	// short is dropped by every server. Postfix and the embedded hub
	// (mailer's hubSMTPListener) are safe.
	Chunking bool
}

// Sender opens submission sessions (Conn) to one server.
type Sender struct{ cfg Config }

// New checks cfg and fills in its defaults.
func New(cfg Config) (*Sender, error) {
	switch cfg.Security {
	case "tls", "starttls", "plain":
	default:
		return nil, fmt.Errorf("smtpclient: security %q: want tls, starttls or plain", cfg.Security)
	}
	if cfg.HELO == "" {
		cfg.HELO = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	return &Sender{cfg: cfg}, nil
}

// Config is the Sender's configuration, defaults filled in.
func (s *Sender) Config() Config { return s.cfg }

// Reachable reports whether the server accepts a TCP connection: the
// cheap probe the outbox makes while mail waits for a server that is down
// (nothing is said to the server; the connection is closed at once).
func (s *Sender) Reachable() bool {
	conn, err := net.DialTimeout("tcp", s.cfg.Addr, min(s.cfg.Timeout, 5*time.Second))
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// Conn is an open submission session. It speaks the client side of SMTP
// itself rather than through go-smtp's client, which waits for the answer
// to every command, four round trips a mail (MAIL, RCPT, DATA, the text):
// on a server that offers PIPELINING (RFC 2920) a mail's MAIL, RCPT and
// DATA go out in one write, two round trips a mail; where the server also
// offers CHUNKING (RFC 3030: Postfix, the embedded hub) and
// Config.Chunking allows it, MAIL, RCPT, "BDAT n LAST" and the text go
// out in one write, one round trip a mail, and neither side looks for dots
// in the text. Each mail's answers are read before the next mail is
// written, so a session never owes the answers of more than one mail
// (docs/performance.md says what the windows across mails that this
// replaced gained, and why they went). Replies the server refuses come
// back as go-smtp's *smtp.SMTPError, as go-smtp's client gave them.
//
// A Conn is used by one goroutine at a time.
type Conn struct {
	conn     net.Conn
	r        *textproto.Reader
	w        *bufio.Writer
	timeout  time.Duration
	chunking bool // Config.Chunking
	// rset: a transaction the server may hold open (a mail refused after
	// its MAIL was accepted) must be reset before the next MAIL, in this
	// SendAll or the next one on the session.
	rset bool
	// replies counts the replies read, so that a caller can tell a
	// session that failed before the server said anything (Replies).
	replies int
	ext     map[string]string // EHLO keywords (upper case) → parameters
	broken  error             // set once the session can no longer be trusted
}

// Dial opens a session: connect, greeting, EHLO (HELO where refused), TLS
// as configured, AUTH PLAIN. No step waits for the server longer than
// Timeout.
func (s *Sender) Dial() (*Conn, error) {
	raw, err := net.DialTimeout("tcp", s.cfg.Addr, s.cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("smtpclient: connect to %s: %w", s.cfg.Addr, err)
	}
	c, err := s.open(raw)
	if err != nil {
		raw.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("smtpclient: %s did not answer within %v: %w", s.cfg.Addr, s.cfg.Timeout, err)
		}
		return nil, err
	}
	return c, nil
}

// open runs the session's opening on a fresh connection.
func (s *Sender) open(raw net.Conn) (*Conn, error) {
	tlsConfig := &tls.Config{}
	if s.cfg.TLSConfig != nil {
		tlsConfig = s.cfg.TLSConfig.Clone()
	}
	if tlsConfig.ServerName == "" {
		tlsConfig.ServerName, _, _ = net.SplitHostPort(s.cfg.Addr)
	}
	conn := raw
	if s.cfg.Security == "tls" {
		raw.SetDeadline(time.Now().Add(s.cfg.Timeout))
		tc := tls.Client(raw, tlsConfig)
		if err := tc.Handshake(); err != nil {
			return nil, fmt.Errorf("smtpclient: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
		}
		conn = tc
	}
	c := &Conn{timeout: s.cfg.Timeout, chunking: s.cfg.Chunking}
	c.attach(conn)
	if _, _, err := c.reply(220, s.cfg.Timeout); err != nil {
		return nil, fmt.Errorf("smtpclient: %s with %s: greeting: %w", s.cfg.Security, s.cfg.Addr, err)
	}
	if err := c.hello(s.cfg.HELO); err != nil {
		return nil, fmt.Errorf("smtpclient: hello: %w", err)
	}
	if s.cfg.Security == "starttls" {
		if _, ok := c.ext["STARTTLS"]; !ok {
			return nil, fmt.Errorf("smtpclient: %s does not offer STARTTLS", s.cfg.Addr)
		}
		if _, _, err := c.cmd(220, "STARTTLS"); err != nil {
			return nil, fmt.Errorf("smtpclient: STARTTLS: %w", err)
		}
		c.conn.SetDeadline(time.Now().Add(s.cfg.Timeout))
		tc := tls.Client(c.conn, tlsConfig)
		if err := tc.Handshake(); err != nil {
			return nil, fmt.Errorf("smtpclient: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
		}
		c.attach(tc)
		if err := c.hello(s.cfg.HELO); err != nil {
			return nil, fmt.Errorf("smtpclient: hello after STARTTLS: %w", err)
		}
	}
	if s.cfg.Username != "" {
		if err := c.auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return nil, fmt.Errorf("smtpclient: auth as %s: %w", s.cfg.Username, err)
		}
	}
	c.conn.SetDeadline(time.Time{})
	return c, nil
}

// attach makes conn the session's connection (again, after STARTTLS).
func (c *Conn) attach(conn net.Conn) {
	c.conn = conn
	c.r = textproto.NewReader(bufio.NewReader(conn))
	c.w = bufio.NewWriterSize(deadlineWriter{c}, 64<<10)
}

// hello sends EHLO, and HELO if the server refuses EHLO.
func (c *Conn) hello(name string) error {
	_, msg, err := c.cmd(250, "EHLO %s", name)
	if err != nil {
		var se *smtp.SMTPError
		if !errors.As(err, &se) {
			return err
		}
		c.ext = map[string]string{}
		_, _, err = c.cmd(250, "HELO %s", name)
		return err
	}
	c.ext = map[string]string{}
	lines := strings.Split(msg, "\n")
	for _, line := range lines[1:] {
		k, v, _ := strings.Cut(line, " ")
		c.ext[strings.ToUpper(k)] = v
	}
	return nil
}

// auth runs AUTH with a SASL client; the server must offer the mechanism.
func (c *Conn) auth(a sasl.Client) error {
	mech, resp, err := a.Start()
	if err != nil {
		return err
	}
	if mechs, ok := c.ext["AUTH"]; !ok || !containsFold(strings.Fields(mechs), mech) {
		return fmt.Errorf("the server offers no AUTH %s (it offers %q)", mech, c.ext["AUTH"])
	}
	line := "AUTH " + mech
	if resp != nil {
		line += " " + encodeAuth(resp)
	}
	code, msg, err := c.cmd(0, "%s", line)
	for err == nil && code == 334 {
		challenge, derr := base64.StdEncoding.DecodeString(msg)
		if derr != nil {
			c.cmd(0, "*")
			return fmt.Errorf("a challenge that is not base64: %q", msg)
		}
		if resp, err = a.Next(challenge); err != nil {
			c.cmd(0, "*")
			return err
		}
		code, msg, err = c.cmd(0, "%s", encodeAuth(resp))
	}
	if err != nil {
		return err
	}
	if code != 235 {
		return replyError(code, msg)
	}
	return nil
}

func encodeAuth(b []byte) string {
	if len(b) == 0 {
		return "="
	}
	return base64.StdEncoding.EncodeToString(b)
}

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// cmd sends one command and reads its reply (see reply).
func (c *Conn) cmd(expect int, format string, args ...any) (int, string, error) {
	if c.broken != nil {
		return 0, "", c.broken
	}
	fmt.Fprintf(c.w, format, args...)
	c.w.WriteString("\r\n")
	if err := c.flush(); err != nil {
		return 0, "", err
	}
	return c.reply(expect, c.timeout)
}

// deadlineWriter writes to a Conn's connection within its timeout from
// each write's start: the buffered writer writes straight through when a
// large text fills it, long after the session's last flush.
type deadlineWriter struct{ c *Conn }

func (w deadlineWriter) Write(p []byte) (int, error) {
	w.c.conn.SetWriteDeadline(time.Now().Add(w.c.timeout))
	return w.c.conn.Write(p)
}

// flush writes what is buffered, within the timeout.
func (c *Conn) flush() error {
	if err := c.w.Flush(); err != nil {
		c.broken = err
		return err
	}
	return nil
}

// reply reads one (possibly multi-line) reply within wait. A reply whose
// code is not expect (any code when expect is 0, any 2xx or 3xx when expect
// is 2 or 3) is an *smtp.SMTPError; a connection that fails, or a reply
// that is no SMTP reply, breaks the session.
func (c *Conn) reply(expect int, wait time.Duration) (int, string, error) {
	c.conn.SetReadDeadline(time.Now().Add(wait))
	code, msg, err := c.r.ReadResponse(0)
	if code != 0 && code != 421 { // a 421 is the server hanging up: no answer to anything
		c.replies++
	}
	if err != nil {
		var pe textproto.ProtocolError
		if errors.As(err, &pe) {
			err = fmt.Errorf("not an SMTP reply: %w", err)
		}
		c.broken = err
		return 0, "", err
	}
	if code == 421 { // the server is closing the session: nothing more goes through it
		c.broken = replyError(code, msg)
		return code, msg, c.broken
	}
	if codeMatches(code, expect) {
		return code, msg, nil
	}
	return code, msg, replyError(code, msg)
}

// codeMatches reports whether a reply code is the one expected, as
// net/textproto reads expectations: 0 takes any code, one or two digits
// the codes they begin (2 any success, 25 both 250 and 251), three digits
// that code.
func codeMatches(code, expect int) bool {
	switch {
	case expect <= 0:
		return true
	case expect < 10:
		return code/100 == expect
	case expect < 100:
		return code/10 == expect
	}
	return code == expect
}

// replyError is the server's refusal as go-smtp's error type, with the
// enhanced status code (RFC 3463) split off the text where there is one.
func replyError(code int, msg string) *smtp.SMTPError {
	e := &smtp.SMTPError{Code: code, EnhancedCode: smtp.NoEnhancedCode, Message: msg}
	parts := strings.SplitN(msg, " ", 2)
	if len(parts) == 2 {
		var ec smtp.EnhancedCode
		nums := strings.Split(parts[0], ".")
		ok := len(nums) == 3
		for i := 0; ok && i < 3; i++ {
			n, err := strconv.Atoi(nums[i])
			ok = err == nil && n >= 0
			ec[i] = n
		}
		if ok && ec[0] == code/100 {
			e.EnhancedCode, e.Message = ec, parts[1]
		}
	}
	return e
}

// Replies is how many replies the session has read: a caller can tell a
// session that failed before the server said anything to it.
func (c *Conn) Replies() int { return c.replies }

// Broken reports whether the session can no longer be used (its
// connection failed, or the server said it was closing it).
func (c *Conn) Broken() bool { return c.broken != nil }

// Noop asks the server whether the session is alive, waiting at most 5
// seconds (or Timeout, if shorter) for the answer.
func (c *Conn) Noop() error {
	t := c.timeout
	c.timeout = min(t, 5*time.Second)
	_, _, err := c.cmd(250, "NOOP")
	c.timeout = t
	return err
}

// Close ends the session politely (QUIT) and closes the connection.
func (c *Conn) Close() error {
	var err error
	if c.broken == nil {
		c.timeout = min(c.timeout, 5*time.Second) // a goodbye is not worth a long wait
		_, _, err = c.cmd(221, "QUIT")
	}
	c.conn.Close()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return err
}
