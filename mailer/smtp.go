package mailer

import (
	"bufio"
	"bytes"
	"cmp"
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

// SMTPConfig says how to submit outgoing mail.
type SMTPConfig struct {
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
	// short is dropped by every server. Postfix and the embedded hub (see
	// hubSMTPListener) are safe.
	Chunking bool
}

// Sender opens submission sessions (Conn) to one server.
type Sender struct{ cfg SMTPConfig }

// NewSender checks cfg.
func NewSender(cfg SMTPConfig) (*Sender, error) {
	switch cfg.Security {
	case "tls", "starttls", "plain":
	default:
		return nil, fmt.Errorf("mailer: smtp: security %q: want tls, starttls or plain", cfg.Security)
	}
	if cfg.HELO == "" {
		cfg.HELO = "localhost"
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = time.Minute
	}
	return &Sender{cfg: cfg}, nil
}

// Reachable reports whether the server accepts a TCP connection: the
// cheap probe the Outbox makes while mail waits for a server that is down
// (nothing is said to the server; the connection is closed at once).
func (s *Sender) Reachable() bool {
	conn, err := net.DialTimeout("tcp", s.cfg.Addr, min(s.cfg.Timeout, 5*time.Second))
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// Server is what Explain needs to know of the Sender's server.
func (s *Sender) Server() Server {
	return Server{Section: "smtp", Addr: s.cfg.Addr, Security: s.cfg.Security}
}

// Conn is an open submission session. It speaks the client side of SMTP
// (RFC 5321) itself rather than through go-smtp's client, for one reason
// that measurement showed matters: PIPELINING (RFC 2920). go-smtp's client
// waits for the answer to every command, four round trips a mail (MAIL,
// RCPT, DATA, the text); SendAll sends a mail's text together with the next
// mail's MAIL, RCPT and DATA, one round trip a mail on a server that offers
// PIPELINING, and the text in one write; where the server also offers
// CHUNKING (RFC 3030: Postfix, the embedded hub) and SMTPConfig.Chunking
// allows it, a window of up to chunkWindow mails, each text in a BDAT, is
// one write and one round trip, and neither side looks for dots in the
// text. With
// the Outbox keeping sessions open, this took the daemon's CPU time per
// move against Dovecot from 1.9-2.1 ms to 1.4 ms, and the receiving hub's
// by a quarter (docs/performance.md). Replies the server refuses come back
// as go-smtp's *smtp.SMTPError, as go-smtp's client gave them.
//
// A Conn is used by one goroutine at a time.
type Conn struct {
	conn     net.Conn
	r        *textproto.Reader
	w        *bufio.Writer
	timeout  time.Duration
	chunking bool // SMTPConfig.Chunking
	// rset: a transaction the server may hold open (a mail refused after
	// its MAIL was accepted) must be reset before the next MAIL, in this
	// SendAll or the next one on the session.
	rset bool
	// replies counts the replies read, so that a caller can tell a
	// session that failed before the server said anything.
	replies int
	ext     map[string]string // EHLO keywords (upper case) → parameters
	broken  error             // set once the session can no longer be trusted
	// windowing: a window of pipelined mails is being written
	// (sendChunked), so a write may wait for the server (deadlineWriter).
	windowing bool
}

// Dial opens a session: connect, greeting, EHLO (HELO where refused), TLS
// as configured, AUTH PLAIN. No step waits for the server longer than
// Timeout.
func (s *Sender) Dial() (*Conn, error) {
	raw, err := net.DialTimeout("tcp", s.cfg.Addr, s.cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("mailer: smtp: connect to %s: %w", s.cfg.Addr, err)
	}
	c, err := s.open(raw)
	if err != nil {
		raw.Close()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, fmt.Errorf("mailer: smtp: %s did not answer within %v: %w", s.cfg.Addr, s.cfg.Timeout, err)
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
			return nil, fmt.Errorf("mailer: smtp: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
		}
		conn = tc
	}
	c := &Conn{timeout: s.cfg.Timeout, chunking: s.cfg.Chunking}
	c.attach(conn)
	if _, _, err := c.reply(220, s.cfg.Timeout); err != nil {
		return nil, fmt.Errorf("mailer: smtp: %s with %s: greeting: %w", s.cfg.Security, s.cfg.Addr, err)
	}
	if err := c.hello(s.cfg.HELO); err != nil {
		return nil, fmt.Errorf("mailer: smtp: hello: %w", err)
	}
	if s.cfg.Security == "starttls" {
		if _, ok := c.ext["STARTTLS"]; !ok {
			return nil, fmt.Errorf("mailer: smtp: %s does not offer STARTTLS", s.cfg.Addr)
		}
		if _, _, err := c.cmd(220, "STARTTLS"); err != nil {
			return nil, fmt.Errorf("mailer: smtp: STARTTLS: %w", err)
		}
		c.conn.SetDeadline(time.Now().Add(s.cfg.Timeout))
		tc := tls.Client(c.conn, tlsConfig)
		if err := tc.Handshake(); err != nil {
			return nil, fmt.Errorf("mailer: smtp: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
		}
		c.attach(tc)
		if err := c.hello(s.cfg.HELO); err != nil {
			return nil, fmt.Errorf("mailer: smtp: hello after STARTTLS: %w", err)
		}
	}
	if s.cfg.Username != "" {
		if err := c.auth(sasl.NewPlainClient("", s.cfg.Username, s.cfg.Password)); err != nil {
			return nil, fmt.Errorf("mailer: smtp: auth as %s: %w", s.cfg.Username, err)
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
// large text fills it, long after an earlier flush. While a window of
// pipelined mails is written (Conn.windowing) a write may wait for the
// server to finish checking the mail ahead, which it may take two
// timeouts to answer: such a write has three.
type deadlineWriter struct{ c *Conn }

func (w deadlineWriter) Write(p []byte) (int, error) {
	wait := w.c.timeout
	if w.c.windowing {
		wait *= 3
	}
	w.c.conn.SetWriteDeadline(time.Now().Add(wait))
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

// Outgoing is one mail to submit: the envelope and the text.
type Outgoing struct {
	From string
	To   []string
	Data []byte
}

// Send submits one message; the server accepted it when err is nil. A
// refusal by the server is an *smtp.SMTPError in the chain; any other error
// means the connection is broken.
func (c *Conn) Send(from string, to []string, data []byte) error {
	var res error
	if err := c.SendAll([]Outgoing{{From: from, To: to, Data: data}}, func(_ int, err error) error { res = err; return nil }); err != nil {
		return err
	}
	return res
}

// SendAll submits the mails in order and calls done once for each mail the
// server answered, in order: nil when it accepted the mail, its refusal
// (an *smtp.SMTPError in the chain) when it did not — a mail that cannot be
// sent at all (an address with CR, LF or angle brackets; a non-ASCII one
// without SMTPUTF8) comes as a 553 refusal too, without a word to the
// server. A transaction a refusal left open is reset (RSET) before the next
// mail, in this call or a later one. On a server that offers
// PIPELINING, a mail's text goes out in one write with the next mail's
// envelope (RFC 2920 §3.1); with CHUNKING (SMTPConfig.Chunking) a window
// of mails goes out before their answers are read (sendChunked). When done
// returns an error, SendAll reads the answers still owed for texts already
// sent and tells done of each (so every mail the server accepted is
// reported), then stops and returns the first such error; when the
// connection breaks, it stops and returns that error (after a write that
// failed, once it has read what answers the connection still gives). The
// mails not yet answered were not accepted as far as the session knows
// (mails whose texts were sent but whose answers never came may have been
// — one, or with CHUNKING up to a window —: at least once).
func (c *Conn) SendAll(mails []Outgoing, done func(i int, err error) error) error {
	err := c.sendAll(mails, done)
	if err != nil && c.broken == nil {
		// Stopped by done: replies may still be owed, so the session's
		// state is unknown and it is not used again.
		c.broken = err
	}
	return err
}

func (c *Conn) sendAll(mails []Outgoing, done func(i int, err error) error) error {
	_, pipe := c.ext["PIPELINING"]
	if _, chunking := c.ext["CHUNKING"]; pipe && chunking && c.chunking {
		return c.sendChunked(mails, done)
	}
	owed := -1               // the mail whose text was sent, its answer not yet read
	answer := func() error { // the answer to the text of mail owed
		i := owed
		owed = -1
		if _, _, err := c.reply(250, 2*c.timeout); err != nil {
			var se *smtp.SMTPError
			if !errors.As(err, &se) || c.broken != nil {
				return err
			}
			return done(i, fmt.Errorf("mailer: smtp: send: %w", err))
		}
		return done(i, nil)
	}
	for i, m := range mails {
		if c.broken != nil {
			return c.broken
		}
		mailCmd, err := mailCommand(m, c.ext)
		if err != nil {
			if owed >= 0 {
				if err := c.flushAnswer(answer); err != nil {
					return err
				}
			}
			if err := done(i, err); err != nil {
				return err
			}
			continue
		}
		// The envelope: RSET if needed, MAIL, RCPT each, DATA; sent as one
		// group with PIPELINING, else one command at a time.
		var cmds []string
		if c.rset {
			cmds = append(cmds, "RSET")
		}
		cmds = append(cmds, mailCmd)
		for _, to := range m.To { // RCPT takes 250 and 251 (will forward)
			cmds = append(cmds, "RCPT TO:<"+to+">")
		}
		cmds = append(cmds, "DATA")
		var env envelope
		var dataErr error // DATA refused
		for k, line := range cmds {
			c.w.WriteString(line)
			c.w.WriteString("\r\n")
			if pipe && k < len(cmds)-1 {
				continue // the group is sent at its end
			}
			if err := c.flush(); err != nil {
				return err
			}
			if owed >= 0 { // the previous text's answer comes first
				if err := answer(); err != nil {
					return err
				}
			}
			from := k
			if pipe {
				from = 0
			}
			for j := from; j <= k; j++ {
				expect := 250
				switch {
				case cmds[j] == "DATA":
					expect = 354
				case strings.HasPrefix(cmds[j], "RCPT"):
					expect = 25
				}
				code, _, err := c.reply(expect, c.timeout)
				if c.broken != nil {
					return c.broken
				}
				switch {
				case cmds[j] == "RSET":
					if err != nil {
						c.broken = fmt.Errorf("mailer: smtp: RSET refused: %w", err)
						return c.broken
					}
					c.rset = false
				case cmds[j] == "DATA" && code == 354 && env.refused() != nil:
					// A server that takes the text although the envelope
					// failed: the transaction cannot be ended cleanly.
					c.broken = fmt.Errorf("mailer: smtp: the server asked for the text of a refused mail: %w", env.refused())
					c.conn.Close()
					return c.broken
				case cmds[j] == "DATA":
					dataErr = err
				default:
					env.take(cmds[j], err)
				}
			}
			if !pipe && k+1 < len(cmds) && (env.mailErr != nil || (cmds[k+1] == "DATA" && env.refused() != nil)) {
				break // one command at a time: no DATA for a mail nobody takes
			}
		}
		if refusal := cmp.Or(env.refused(), dataErr); refusal != nil {
			c.rset = env.mailOK // a transaction was opened: reset it before the next mail
			if err := done(i, fmt.Errorf("mailer: smtp: send: %w", refusal)); err != nil {
				return err
			}
			continue
		}
		if err := writeDotStuffed(c.w, m.Data); err != nil {
			return err
		}
		owed = i
		if !pipe || i == len(mails)-1 {
			if err := c.flushAnswer(answer); err != nil {
				return err
			}
		}
	}
	if owed >= 0 {
		return c.flushAnswer(answer)
	}
	return nil
}

// chunkWindow and chunkWindowBytes bound the mails sendChunked sends
// before it reads their answers: their number, and their texts' bytes (a
// mail that would take a window past it starts the next; a larger one
// goes alone). The outbox's bound on mails a crash can send twice grows by
// the window (mailer.Outbox: what the server accepted but the session
// never heard), and so does that of a connection lost with answers owed.
const (
	chunkWindow      = 8
	chunkWindowBytes = 256 << 10
)

// sendChunked is SendAll on a server offering CHUNKING (RFC 3030) and
// PIPELINING: each mail goes out as one group, MAIL, RCPT each and one
// "BDAT n LAST" followed by the text as it is (no dot to add, none to take
// away on either side). BDAT may be pipelined (RFC 3030 §4.2, RFC 2920
// §3.1), so the groups of up to chunkWindow mails are written together
// and their answers read together: one write and one round trip for the
// window, not for each mail. Every group after the first of a window
// begins with RSET, as the previous mail's answers are not read yet: a
// refusal that left its transaction open (a refused recipient, on a
// server that keeps the transaction until RSET; the tests' txServer does)
// must not take the next mail's recipients, or its text, into that
// transaction. The first group begins with RSET when the last
// answers read said so (Conn.rset).
func (c *Conn) sendChunked(mails []Outgoing, done func(i int, err error) error) error {
	type group struct {
		i      int   // the mail
		expect []int // the answers owed, in order
		rset   bool  // expect[0] is RSET's
	}
	// A window's writes may wait for the server (deadlineWriter) until it
	// is flushed; no later write of the session may, however this returns.
	defer func() { c.windowing = false }()
	for i := 0; i < len(mails); {
		if c.broken != nil {
			return c.broken
		}
		var window []group
		written := 0
		c.windowing = true
		for ; i < len(mails) && len(window) < chunkWindow; i++ {
			m := mails[i]
			if len(window) > 0 && written+len(m.Data) > chunkWindowBytes {
				break
			}
			mailCmd, err := mailCommand(m, c.ext)
			if err != nil {
				if len(window) > 0 {
					break // answered in order: after the window's mails
				}
				if err := done(i, err); err != nil {
					return err
				}
				continue
			}
			data := m.Data
			if bytes.Count(data, []byte("\n")) != bytes.Count(data, []byte("\r\n")) {
				data = appendCRLF(nil, data) // SMTP's text has CRLF line ends, BDAT sends it as it is
			}
			g := group{i: i, rset: c.rset || len(window) > 0}
			if g.rset {
				c.w.WriteString("RSET\r\n")
				g.expect = append(g.expect, 250)
			}
			c.w.WriteString(mailCmd + "\r\n")
			g.expect = append(g.expect, 250)
			for _, to := range m.To {
				c.w.WriteString("RCPT TO:<" + to + ">\r\n")
				g.expect = append(g.expect, 25) // 250, or 251 (will forward)
			}
			fmt.Fprintf(c.w, "BDAT %d LAST\r\n", len(data))
			c.w.Write(data)
			g.expect = append(g.expect, 250)
			window = append(window, g)
			written += len(data)
			c.rset = false // said for the window's first group; RSET's answer decides below
		}
		if len(window) == 0 {
			continue
		}
		// A write that fails may have cut the window after mails the
		// server took whole and accepted (it closed the session at the
		// next, say): their answers are read all the same, as far as the
		// connection gives them, before the error is returned.
		werr := c.w.Flush()
		c.windowing = false
		// When done stops the sending, the answers the window still owes
		// are read and told all the same: mails the server accepted are
		// known as such (the outbox marks them sent, or holds them), not
		// left to be sent again.
		var stop error
		for _, g := range window {
			err := c.chunkAnswers(g.i, len(mails[g.i].To), g.expect, g.rset, done)
			if c.broken != nil {
				return cmp.Or(stop, werr, c.broken)
			}
			stop = cmp.Or(stop, err)
		}
		if werr != nil {
			c.broken = werr
			return cmp.Or(stop, werr)
		}
		if stop != nil {
			return stop
		}
	}
	return nil
}

// chunkAnswers reads the answers to one mail's group of sendChunked
// (expect: RSET's if rset, MAIL's, a RCPT's for each of the nrcpt
// recipients, BDAT's) and tells done.
func (c *Conn) chunkAnswers(i, nrcpt int, expect []int, rset bool, done func(i int, err error) error) error {
	var env envelope
	var bdatErr error
	for k, want := range expect {
		wait := c.timeout
		if k == len(expect)-1 {
			wait = 2 * c.timeout // the text's answer: the server may check it at length
		}
		_, _, err := c.reply(want, wait)
		if c.broken != nil {
			return c.broken
		}
		switch {
		case rset && k == 0:
			if err != nil {
				c.broken = fmt.Errorf("mailer: smtp: RSET refused: %w", err)
				return c.broken
			}
		case k == len(expect)-1 && err == nil && env.refused() != nil:
			// The text was taken although the envelope failed: into a
			// transaction this mail did not open. What the server did
			// with it is unknown; the session is not used again.
			c.broken = fmt.Errorf("mailer: smtp: the server took the text of a refused mail: %w", env.refused())
			c.conn.Close()
			return c.broken
		case k == len(expect)-1:
			bdatErr = err
		case k == len(expect)-nrcpt-2:
			env.take("MAIL", err)
		default:
			env.take("RCPT", err)
		}
	}
	refusal := cmp.Or(env.refused(), bdatErr)
	c.rset = refusal != nil && env.mailOK
	if refusal != nil {
		refusal = fmt.Errorf("mailer: smtp: send: %w", refusal)
	}
	return done(i, refusal)
}

// envelope is what the server said of a mail's MAIL and RCPT commands.
// The mail goes to the recipients the server took; those it refused while
// it took others are dropped (the service sends each mail to one
// recipient), so a text the server accepted is never sent again for them.
type envelope struct {
	mailOK  bool
	mailErr error // MAIL refused
	rcptErr error // the first RCPT refused
	rcpts   int   // RCPTs taken
}

// take records the answer to a MAIL or RCPT command.
func (e *envelope) take(cmd string, err error) {
	switch {
	case strings.HasPrefix(cmd, "MAIL") && err != nil:
		e.mailErr = err
	case strings.HasPrefix(cmd, "MAIL"):
		e.mailOK = true
	case err != nil:
		e.rcptErr = cmp.Or(e.rcptErr, err)
	default:
		e.rcpts++
	}
}

// refused is why no text may follow: MAIL refused, or every RCPT.
func (e *envelope) refused() error {
	switch {
	case e.mailErr != nil:
		return e.mailErr
	case e.rcpts == 0:
		return cmp.Or(e.rcptErr, errors.New("no recipient taken"))
	}
	return nil
}

// flushAnswer sends what is buffered and reads the owed answer.
func (c *Conn) flushAnswer(answer func() error) error {
	if err := c.flush(); err != nil {
		return err
	}
	return answer()
}

// mailCommand is the MAIL FROM command for m, with SMTPUTF8 where an
// address needs it (and the server offers it).
func mailCommand(m Outgoing, ext map[string]string) (string, error) {
	for _, a := range append([]string{m.From}, m.To...) {
		if strings.ContainsAny(a, "\r\n<>") {
			return "", &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 1, 3}, Message: fmt.Sprintf("the address %q cannot be sent", a)}
		}
	}
	line := "MAIL FROM:<" + m.From + ">"
	if !isASCII(m.From) || !allASCII(m.To) {
		if _, ok := ext["SMTPUTF8"]; !ok {
			return "", &smtp.SMTPError{Code: 553, EnhancedCode: smtp.EnhancedCode{5, 6, 7}, Message: "the server does not offer SMTPUTF8, needed for a non-ASCII address"}
		}
		line += " SMTPUTF8"
	}
	return line, nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func allASCII(list []string) bool {
	for _, s := range list {
		if !isASCII(s) {
			return false
		}
	}
	return true
}

// writeDotStuffed writes a mail's text as SMTP's DATA wants it (RFC 5321
// §4.5.2): every line ended by CRLF (a bare LF becomes CRLF), a line that
// begins with a dot gets another, and the text ends with the line ".".
// It writes what net/textproto's DotWriter writes, whole lines at a time
// rather than byte by byte (one difference: a CR directly before a line's
// CRLF stays one CR; FuzzDotStuffed checks both and the round trip through
// textproto's DotReader).
func writeDotStuffed(w *bufio.Writer, data []byte) error {
	if len(data) == 0 {
		_, err := w.WriteString("\r\n.\r\n")
		return err
	}
	for len(data) > 0 {
		if data[0] == '.' { // at the beginning of a line
			w.WriteByte('.')
		}
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data) // the last line, unended: ended here
		}
		line := data[:i]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		}
		w.Write(line)
		w.WriteString("\r\n")
		data = data[min(i+1, len(data)):]
	}
	_, err := w.WriteString(".\r\n")
	return err
}

// Reset ends a transaction the server holds open (RSET).
func (c *Conn) Reset() error {
	_, _, err := c.cmd(250, "RSET")
	return err
}

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
