package smtpclient

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-smtp"
)

// rawSMTP is a hand-written SMTP server for tests of the client's protocol:
// one connection at a time, each served by serve, which sees every line the
// client sends (and the text of each DATA, unstuffed).
type rawSMTP struct {
	ln    net.Listener
	serve func(s *rawConn)
	wg    sync.WaitGroup
}

// rawConn is one client connection to a rawSMTP.
type rawConn struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func startRawSMTP(t *testing.T, serve func(s *rawConn)) *rawSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawSMTP{ln: ln, serve: serve}
	s.wg.Go(func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Go(func() {
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(10 * time.Second))
				serve(&rawConn{t: t, conn: conn, r: bufio.NewReader(conn)})
			})
		}
	})
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *rawSMTP) addr() string { return s.ln.Addr().String() }

// line reads one command line, without its CRLF ("" when the client left).
func (c *rawConn) line() string {
	l, err := c.r.ReadString('\n')
	if err != nil {
		return ""
	}
	return strings.TrimRight(l, "\r\n")
}

// say writes replies, each a line of its own.
func (c *rawConn) say(lines ...string) {
	io.WriteString(c.conn, strings.Join(lines, "\r\n")+"\r\n")
}

// text reads a DATA text up to its final dot, unstuffed.
func (c *rawConn) text() string {
	b, err := io.ReadAll(textproto.NewReader(c.r).DotReader())
	if err != nil {
		return ""
	}
	return string(b)
}

// idle reports whether the client sends nothing more within d: a client that
// waits for a reply before its next command.
func (c *rawConn) idle(d time.Duration) bool {
	if c.r.Buffered() > 0 {
		return false
	}
	c.conn.SetReadDeadline(time.Now().Add(d))
	_, err := c.r.Peek(1)
	c.conn.SetDeadline(time.Now().Add(10 * time.Second))
	return err != nil
}

// greet answers the greeting and EHLO, offering these extensions.
func (c *rawConn) greet(ext ...string) {
	c.say("220 raw.test ESMTP")
	if l := c.line(); !strings.HasPrefix(l, "EHLO ") {
		c.t.Errorf("first command %q, want EHLO", l)
		return
	}
	lines := []string{"250-raw.test"}
	for _, e := range ext {
		lines = append(lines, "250-"+e)
	}
	lines = append(lines, "250 8BITMIME")
	c.say(lines...)
}

func rawSender(t *testing.T, addr string) *Sender {
	t.Helper()
	return rawSenderChunking(t, addr, false)
}

// rawSenderChunking is rawSender with Config.Chunking set as given.
func rawSenderChunking(t *testing.T, addr string, chunking bool) *Sender {
	t.Helper()
	s, err := New(Config{Addr: addr, Security: "plain", Timeout: 5 * time.Second, Chunking: chunking})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dialConfig opens a session with cfg, closed when the test ends.
func dialConfig(t *testing.T, cfg Config) *Conn {
	t.Helper()
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := s.Dial()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

func outgoing(n int) []Mail {
	var out []Mail
	for i := range n {
		out = append(out, Mail{From: "games@example.org", To: []string{fmt.Sprintf("p%d@example.org", i)},
			Data: []byte(fmt.Sprintf("Subject: mail %d\r\n\r\nbody %d\r\n", i, i))})
	}
	return out
}

// With PIPELINING (RFC 2920), a mail's MAIL, RCPT and DATA go out as one
// group: this server answers nothing until the whole group has arrived, so
// a client that waited for each answer would wait forever. Then the text,
// and its answer before the next mail's group (each mail's answers are
// read before the next mail is written: at most one mail's acceptance is
// ever owed). Three mails take six round trips, not twelve.
func TestSendAllPipelines(t *testing.T) {
	const n = 3
	var got []string
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet("PIPELINING")
		for {
			var group []string
			for {
				l := c.line()
				if l == "" || l == "QUIT" {
					c.say("221 bye")
					return
				}
				group = append(group, l)
				if l == "DATA" {
					break
				}
			}
			if len(group) != 3 || !strings.HasPrefix(group[0], "MAIL FROM:") || !strings.HasPrefix(group[1], "RCPT TO:") {
				t.Errorf("group %q, want MAIL, RCPT, DATA", group)
			}
			c.say("250 2.1.0 ok", "250 2.1.5 ok", "354 go ahead")
			got = append(got, group[1]+" "+c.text())
			if !c.idle(100 * time.Millisecond) {
				t.Errorf("the client sent more after a text without waiting for its answer")
			}
			c.say("250 2.0.0 queued")
		}
	})
	conn, err := rawSender(t, srv.addr()).Dial()
	if err != nil {
		t.Fatal(err)
	}
	var answers []string
	err = conn.SendAll(outgoing(n), func(i int, err error) error {
		answers = append(answers, fmt.Sprintf("%d %v", i, err))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if want := []string{"0 <nil>", "1 <nil>", "2 <nil>"}; !slicesEqual(answers, want) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if len(got) != n || !strings.Contains(got[2], "RCPT TO:<p2@example.org> Subject: mail 2\n\nbody 2\n") {
		t.Errorf("server got %q", got)
	}
}

func slicesEqual(a, b []string) bool {
	return strings.Join(a, "\x00") == strings.Join(b, "\x00")
}

// With CHUNKING and PIPELINING (RFC 3030, 2920) a mail is one group: MAIL,
// RCPT, "BDAT n LAST" and exactly n bytes of text, CRLF line ends made so
// where the text had bare LFs, and no dot added. This server reads the
// whole group before it answers any of it, so a client that waited for
// MAIL's answer would wait until its timeout; and it checks that the next
// mail's group waits for the answers (one mail owed at a time). (Only with
// Config.Chunking: TestSendAllChunkingIsOptIn.)
func TestSendAllChunked(t *testing.T) {
	texts := []string{"Subject: one\r\n\r\n.a dot\r\n", "Subject: two\n\nbare LFs\n", "Subject: three\r\n\r\nunended"}
	var got []string
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet("PIPELINING", "CHUNKING")
		for {
			var group []string
			for {
				l := c.line()
				if l == "" || l == "QUIT" {
					c.say("221 bye")
					return
				}
				group = append(group, l)
				if strings.HasPrefix(l, "BDAT ") {
					break
				}
			}
			var n int
			if len(group) != 3 || !strings.HasPrefix(group[0], "MAIL FROM:<") || !strings.HasPrefix(group[1], "RCPT TO:<") {
				t.Errorf("group %q, want MAIL, RCPT, BDAT", group)
			}
			if _, err := fmt.Sscanf(group[len(group)-1], "BDAT %d LAST", &n); err != nil {
				t.Errorf("%q: %v", group[len(group)-1], err)
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(c.r, b); err != nil {
				t.Errorf("reading the chunk of %d bytes: %v", n, err)
				return
			}
			got = append(got, string(b))
			if !c.idle(100 * time.Millisecond) {
				t.Errorf("the client sent more after a mail without waiting for its answers")
			}
			c.say("250 2.1.0 ok", "250 2.1.5 ok", "250 2.0.0 queued")
		}
	})
	conn, err := rawSenderChunking(t, srv.addr(), true).Dial()
	if err != nil {
		t.Fatal(err)
	}
	var batch []Mail
	for _, text := range texts {
		batch = append(batch, Mail{From: "games@example.org", To: []string{"p@example.org"}, Data: []byte(text)})
	}
	var answers []string
	if err := conn.SendAll(batch, func(i int, err error) error {
		answers = append(answers, fmt.Sprintf("%d %v", i, err))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if want := []string{"0 <nil>", "1 <nil>", "2 <nil>"}; !slicesEqual(answers, want) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if want := []string{texts[0], "Subject: two\r\n\r\nbare LFs\r\n", texts[2]}; !slicesEqual(got, want) {
		t.Errorf("server got %q, want %q", got, want)
	}
}

// A server offering CHUNKING gets DATA all the same unless
// Config.Chunking allows BDAT (see its comment: go-smtp's server
// delivers a BDAT chunk cut short).
func TestSendAllChunkingIsOptIn(t *testing.T) {
	var cmds []string
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet("PIPELINING", "CHUNKING")
		for {
			l := c.line()
			switch {
			case l == "" || l == "QUIT":
				c.say("221 bye")
				return
			case strings.HasPrefix(l, "BDAT"):
				cmds = append(cmds, l)
				c.say("503 5.5.1 this test wants DATA")
				return
			case l == "DATA":
				cmds = append(cmds, l)
				c.say("250 ok", "250 ok", "354 go on")
				c.text()
				c.say("250 2.0.0 queued")
			default:
				cmds = append(cmds, l[:4])
			}
		}
	})
	conn, err := rawSender(t, srv.addr()).Dial()
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	if err := conn.SendAll(outgoing(1), func(_ int, err error) error { errs = append(errs, err); return nil }); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if len(errs) != 1 || errs[0] != nil {
		t.Errorf("answers %v, want one success", errs)
	}
	if want := []string{"MAIL", "RCPT", "DATA"}; !slicesEqual(cmds, want) {
		t.Errorf("commands %q, want %q", cmds, want)
	}
}

// Without PIPELINING the client sends one command and waits for its answer
// before the next: the server checks, before each answer, that nothing
// more has come.
func TestSendAllWithoutPipelining(t *testing.T) {
	var got []string
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet() // no PIPELINING
		for {
			l := c.line()
			if l == "" || l == "QUIT" {
				c.say("221 bye")
				return
			}
			if !c.idle(100 * time.Millisecond) {
				t.Errorf("the client sent more after %q without waiting for the answer", l)
			}
			switch {
			case l == "DATA":
				c.say("354 go ahead")
				got = append(got, c.text())
				if !c.idle(100 * time.Millisecond) {
					t.Errorf("the client sent more after a text without waiting for the answer")
				}
				c.say("250 queued")
			default:
				c.say("250 ok")
			}
		}
	})
	conn, err := rawSender(t, srv.addr()).Dial()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	if err := conn.SendAll(outgoing(2), func(i int, err error) error {
		if err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
		n++
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if n != 2 || len(got) != 2 {
		t.Errorf("%d answers, %d texts; want 2 and 2", n, len(got))
	}
}

// Refusals in a batch are each mail's own: a refused recipient,
// a refused sender and a refused text do not stop the mails after them,
// the transaction a refused recipient left open is reset (RSET) before
// the next mail, and the answers come in order. Against go-smtp's server,
// which offers PIPELINING and CHUNKING: with BDAT, and with DATA.
func TestSendAllRefusalsAreEachMailsOwn(t *testing.T) {
	for _, tc := range []struct {
		name     string
		chunking bool
	}{{"bdat", true}, {"data", false}} {
		t.Run(tc.name, func(t *testing.T) { testRefusals(t, tc.chunking) })
	}
}

// testRefusals is TestSendAllRefusalsAreEachMailsOwn with CHUNKING used
// (BDAT) or not (DATA).
func testRefusals(t *testing.T, chunking bool) {
	sc := startRefusingSMTP(t)
	conn := dialConfig(t, Config{Addr: sc.addr, Security: "plain", Timeout: 5 * time.Second, Chunking: chunking})
	if _, ok := conn.ext["CHUNKING"]; !ok {
		t.Fatal("go-smtp's server no longer offers CHUNKING: the BDAT path goes untested")
	}
	mail := func(from, to, subject string) Mail {
		return Mail{From: from, To: []string{to}, Data: []byte("Subject: " + subject + "\r\n\r\ne4\r\n")}
	}
	batch := []Mail{
		mail("games@example.org", "a@example.org", "first"),
		mail("games@example.org", "nobody@example.org", "to nobody"),
		mail("games@example.org", "b@example.org", "second"),
		mail("refused@example.org", "c@example.org", "from a refused sender"),
		{From: "games@example.org", To: []string{"d@example.org"}, Data: []byte("Subject: refuse this text\r\n\r\nrefuse this text\r\n")},
		mail("games@example.org", "e@example.org", "third"),
	}
	var answers []string
	if err := conn.SendAll(batch, refusalCodes(t, &answers)); err != nil {
		t.Fatal(err)
	}
	if want := []string{"0:0", "1:550", "2:0", "3:550", "4:451", "5:0"}; !slicesEqual(answers, want) {
		t.Errorf("answers %q, want %q", answers, want)
	}
	if acc := sc.taken(); !slicesEqual(acc, []string{"first", "second", "third"}) {
		t.Errorf("server accepted %q", acc)
	}
	if err := conn.Noop(); err != nil {
		t.Errorf("the session did not survive the refusals: %v", err)
	}
}

// A 421 (the server closes the session) ends SendAll with an error, not a
// refusal of the mail: the session is broken, and the mails not answered
// wait for another.
func TestSendAll421BreaksTheSession(t *testing.T) {
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet("PIPELINING")
		for l := c.line(); l != "DATA"; l = c.line() {
		}
		c.say("421 4.3.2 shutting down", "503 bad sequence", "503 bad sequence")
	})
	conn, err := rawSender(t, srv.addr()).Dial()
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	err = conn.SendAll(outgoing(2), func(int, error) error { calls++; return nil })
	var se *smtp.SMTPError
	if !errors.As(err, &se) || se.Code != 421 || calls != 0 {
		t.Errorf("SendAll = %v after %d answers; want the 421 and none", err, calls)
	}
	if conn.broken == nil {
		t.Error("the session is not marked broken")
	}
	conn.Close()
}

// The session's opening: AUTH only where the server offers it, and the
// answer names what it offers; the greeting of an IMAP server is no SMTP.
func TestSMTPOpening(t *testing.T) {
	for _, tc := range []struct {
		name  string
		serve func(c *rawConn)
		user  string
		want  string
	}{
		{"no auth offered", func(c *rawConn) { c.greet("PIPELINING"); c.line() }, "games", "offers no AUTH PLAIN"},
		{"an imap server", func(c *rawConn) { c.say("* OK [CAPABILITY IMAP4rev1] Dovecot ready."); c.line() }, "", "* OK"},
		{"ehlo refused, helo taken", func(c *rawConn) {
			c.say("220 old.test")
			c.line()
			c.say("502 5.5.2 what?")
			if l := c.line(); !strings.HasPrefix(l, "HELO ") {
				t.Errorf("after a refused EHLO: %q", l)
			}
			c.say("250 old.test")
			c.line()
		}, "", ""},
		{"auth refused", func(c *rawConn) {
			c.greet("AUTH PLAIN LOGIN")
			c.line()
			c.say("535 5.7.8 authentication failed")
			c.line()
		}, "games", "535"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startRawSMTP(t, tc.serve)
			s, err := New(Config{Addr: srv.addr(), Security: "plain", Username: tc.user, Password: "pw", Timeout: 2 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := s.Dial()
			if tc.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				conn.Close()
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Dial = %v; want an error with %q", err, tc.want)
			}
		})
	}
}

// writeText for DATA as a table: the cases of RFC 5321 §4.5.2.
func TestDotStuffed(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "\r\n.\r\n"},
		{"crlf", "a\r\nb\r\n", "a\r\nb\r\n.\r\n"},
		{"bare lf", "a\nb\n", "a\r\nb\r\n.\r\n"},
		{"no final newline", "a\r\nb", "a\r\nb\r\n.\r\n"},
		{"leading dots", ".a\r\n..b\r\n.\r\n", "..a\r\n...b\r\n..\r\n.\r\n"},
		{"dot first", ".", "..\r\n.\r\n"},
		{"dot not at a line's start", "a.b\r\n", "a.b\r\n.\r\n"},
		{"final cr", "a\r", "a\r\n.\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			w := bufio.NewWriter(&b)
			writeText(w, []byte(tc.in), true)
			w.Flush()
			if b.String() != tc.want {
				t.Errorf("%q → %q, want %q", tc.in, b.String(), tc.want)
			}
		})
	}
}

// FuzzDotStuffed holds writeText for DATA to net/textproto's DotWriter (where
// no run of CRs precedes a line feed, where textproto writes one CR more),
// and checks the round trip: textproto's DotReader reads back the text
// with its line ends made LF and a final one added.
func FuzzDotStuffed(f *testing.F) {
	for _, s := range []string{"", ".", "a\r\n.\r\n", "..\n.\n", "x\r", "a\rb\n", "\r\r\n", "From: a\r\n\r\n.hidden\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var mine bytes.Buffer
		w := bufio.NewWriter(&mine)
		writeText(w, data, true)
		w.Flush()
		if !bytes.Contains(data, []byte("\r\r")) {
			var theirs bytes.Buffer
			tw := textproto.NewWriter(bufio.NewWriter(&theirs))
			dw := tw.DotWriter()
			dw.Write(data)
			dw.Close()
			if !bytes.Equal(mine.Bytes(), theirs.Bytes()) {
				t.Fatalf("%q: %q, textproto %q", data, mine.Bytes(), theirs.Bytes())
			}
		}
		back, err := io.ReadAll(textproto.NewReader(bufio.NewReader(&mine)).DotReader())
		if err != nil {
			t.Fatal(err)
		}
		want := normalizeLineEnds(data)
		if !bytes.Equal(back, want) {
			t.Fatalf("%q came back as %q, want %q", data, back, want)
		}
	})
}

// normalizeLineEnds is data with each CRLF or LF made LF and a final LF
// added where the data does not end a line.
func normalizeLineEnds(data []byte) []byte {
	if len(data) == 0 {
		return []byte("\n")
	}
	var out []byte
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		out = append(append(out, line...), '\n')
	}
	return out
}

// txServer is a raw SMTP server that keeps a transaction's state as Postfix
// does: a MAIL inside an open transaction is refused ("nested MAIL"), a
// refused recipient leaves the transaction open, and the text of a
// transaction without recipients is refused; only RSET or a delivered mail
// ends it. It offers PIPELINING and CHUNKING and answers each command as it
// comes. delivered gets each text taken, with the recipients, in LF line
// ends (DATA's text comes unstuffed that way; BDAT's is made so).
func txServer(t *testing.T, delivered *[]string) *rawSMTP {
	return startRawSMTP(t, func(c *rawConn) {
		c.greet("PIPELINING", "CHUNKING")
		inTx := false
		var rcpts []string
		for {
			l := c.line()
			switch {
			case l == "" || l == "QUIT":
				c.say("221 bye")
				return
			case l == "RSET":
				inTx, rcpts = false, nil
				c.say("250 2.0.0 ok")
			case strings.HasPrefix(l, "MAIL"):
				if inTx {
					c.say("503 5.5.1 Error: nested MAIL command")
					continue
				}
				inTx = true
				c.say("250 2.1.0 ok")
			case strings.HasPrefix(l, "RCPT"):
				if strings.Contains(l, "refuse") {
					c.say("550 5.1.1 no such user")
					continue
				}
				rcpts = append(rcpts, strings.TrimPrefix(l, "RCPT TO:"))
				c.say("250 2.1.5 ok")
			case l == "DATA":
				if len(rcpts) == 0 {
					c.say("554 5.5.1 Error: no valid recipients")
					continue
				}
				c.say("354 go on")
				*delivered = append(*delivered, strings.Join(rcpts, ",")+" "+c.text())
				inTx, rcpts = false, nil
				c.say("250 2.0.0 queued")
			case strings.HasPrefix(l, "BDAT "):
				var n int
				fmt.Sscanf(l, "BDAT %d LAST", &n)
				b := make([]byte, n)
				io.ReadFull(c.r, b)
				if len(rcpts) == 0 {
					c.say("554 5.5.1 Error: no valid recipients")
					continue
				}
				*delivered = append(*delivered, strings.Join(rcpts, ",")+" "+strings.ReplaceAll(string(b), "\r\n", "\n"))
				inTx, rcpts = false, nil
				c.say("250 2.0.0 queued")
			default:
				c.say("500 5.5.2 what?")
			}
		}
	})
}

// A mail refused at its recipient leaves a transaction open on the server;
// the session resets it before its next mail, also when that mail comes in
// a later SendAll (the outbox keeps sessions between drains). Without the
// RSET the next MAIL would be refused as nested, and with BDAT its text
// could land in the old transaction.
func TestSendAllResetsARefusedTransactionLater(t *testing.T) {
	onBothPaths(t, func(t *testing.T, conn *Conn, delivered *[]string) {
		send := func(to, text string) error {
			var res error
			if err := conn.SendAll([]Mail{{From: "games@example.org", To: []string{to}, Data: []byte(text)}},
				func(_ int, err error) error { res = err; return nil }); err != nil {
				t.Fatalf("SendAll: %v", err)
			}
			return res
		}
		if err := send("refuse@example.org", "Subject: one\r\n\r\nrefused\r\n"); err == nil {
			t.Fatal("the mail to a refused recipient was accepted")
		}
		if err := send("p@example.org", "Subject: two\r\n\r\ntaken\r\n"); err != nil {
			t.Fatalf("the next mail, in the next SendAll: %v", err)
		}
		if want := []string{"<p@example.org> Subject: two\n\ntaken\n"}; !slicesEqual(*delivered, want) {
			t.Errorf("delivered %q, want %q", *delivered, want)
		}
	})
}

// Within one SendAll too: a refused recipient leaves its transaction open
// on a server that keeps it until RSET (txServer), and the next mail's
// group begins with RSET; a mail that cannot be sent at all is answered in
// its turn. Every other mail is delivered to its own recipient, in order.
func TestSendAllRefusalsAmongManyMails(t *testing.T) {
	onBothPaths(t, func(t *testing.T, conn *Conn, delivered *[]string) {
		var batch []Mail
		var want, wantAnswers []string
		for i := range 19 {
			to := fmt.Sprintf("p%d@example.org", i)
			switch i {
			case 2, 7, 9:
				to = fmt.Sprintf("refuse%d@example.org", i)
			case 12: // cannot be sent: answered by the client, in its turn
				to = "bad\r\nrcpt@example.org"
			}
			text := fmt.Sprintf("Subject: %d\r\n\r\nmail %d\r\n", i, i)
			batch = append(batch, Mail{From: "games@example.org", To: []string{to}, Data: []byte(text)})
			if strings.HasPrefix(to, "bad") {
				wantAnswers = append(wantAnswers, fmt.Sprintf("%d:553", i))
				continue
			}
			if strings.HasPrefix(to, "refuse") {
				wantAnswers = append(wantAnswers, fmt.Sprintf("%d:550", i))
				continue
			}
			wantAnswers = append(wantAnswers, fmt.Sprintf("%d:0", i))
			want = append(want, fmt.Sprintf("<%s> Subject: %d\n\nmail %d\n", to, i, i))
		}
		var answers []string
		if err := conn.SendAll(batch, refusalCodes(t, &answers)); err != nil {
			t.Fatal(err)
		}
		if !slicesEqual(answers, wantAnswers) {
			t.Errorf("answers %q, want %q", answers, wantAnswers)
		}
		if !slicesEqual(*delivered, want) {
			t.Errorf("delivered %q, want %q", *delivered, want)
		}
	})
}

// When done stops SendAll, no answer is owed: the session goes on with
// the next SendAll (the outbox closes it all the same).
func TestSendAllStoppedByDone(t *testing.T) {
	onBothPaths(t, func(t *testing.T, conn *Conn, delivered *[]string) {
		stop := errors.New("stop")
		calls := 0
		if err := conn.SendAll(outgoing(3), func(int, error) error { calls++; return stop }); err != stop || calls != 1 {
			t.Fatalf("SendAll = %v after %d answers; want stop after one", err, calls)
		}
		if err := conn.Send("games@example.org", []string{"q@example.org"}, []byte("Subject: next\r\n\r\nnext\r\n")); err != nil {
			t.Fatalf("the next mail: %v", err)
		}
		if len(*delivered) != 2 {
			t.Errorf("delivered %q, want the first mail and the next", *delivered)
		}
	})
}

// A server that accepts the first mails of a batch and then closes the
// session (421, as for a per-session limit) while the client may still be
// writing the next: the mails it accepted are told accepted, SendAll
// returns the error, and the mails after them are not told (the outbox
// sends them again).
func TestSendAllServerLeavesMidBatch(t *testing.T) {
	for _, size := range []int{1, 200} { // KB a mail: all in the buffers, or a write that fails
		t.Run(fmt.Sprintf("%d KB", size), func(t *testing.T) {
			srv := startRawSMTP(t, func(c *rawConn) {
				c.greet("PIPELINING", "CHUNKING")
				for taken := 0; ; {
					l := c.line()
					switch {
					case l == "" || l == "QUIT":
						return
					case taken == 3:
						c.say("421 4.7.0 too many mails in one session")
						return // closes with the rest unread
					case strings.HasPrefix(l, "BDAT "):
						var n int
						fmt.Sscanf(l, "BDAT %d LAST", &n)
						io.CopyN(io.Discard, c.r, int64(n))
						taken++
						c.say("250 2.0.0 queued")
					default:
						c.say("250 ok")
					}
				}
			})
			conn := dialConfig(t, Config{Addr: srv.addr(), Security: "plain", Timeout: 5 * time.Second, Chunking: true})
			text := append([]byte("Subject: x\r\n\r\n"), bytes.Repeat([]byte(strings.Repeat("x", 98)+"\r\n"), size*1024/100)...)
			var mails []Mail
			for range 8 {
				mails = append(mails, Mail{From: "games@example.org", To: []string{"p@example.org"}, Data: text})
			}
			var told []string
			err := conn.SendAll(mails, func(i int, err error) error {
				told = append(told, fmt.Sprintf("%d:%v", i, err))
				return nil
			})
			if err == nil {
				t.Error("SendAll reported no error; the server left")
			}
			if want := []string{"0:<nil>", "1:<nil>", "2:<nil>"}; !slices.Equal(told, want) {
				t.Errorf("told %q, want %q (err %v)", told, want, err)
			}
		})
	}
}

// sendAllAccepted sends mails in one SendAll; every one must be accepted.
func sendAllAccepted(t *testing.T, conn *Conn, mails []Mail) {
	t.Helper()
	if err := conn.SendAll(mails, func(i int, err error) error {
		if err != nil {
			t.Errorf("mail %d: %v", i, err)
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
}

// refusalCodes is a SendAll callback that notes each mail as "i:code",
// code 0 for an accepted mail, else the code of its refusal; an error that
// is no refusal fails the test.
func refusalCodes(t *testing.T, answers *[]string) func(i int, err error) error {
	return func(i int, err error) error {
		code := 0
		var se *smtp.SMTPError
		if errors.As(err, &se) {
			code = se.Code
		} else if err != nil {
			t.Errorf("mail %d: %v is not a refusal", i, err)
		}
		*answers = append(*answers, fmt.Sprintf("%d:%d", i, code))
		return nil
	}
}

// onBothPaths runs test against a txServer on the DATA path and on the
// BDAT path (Config.Chunking), with a session open to it.
func onBothPaths(t *testing.T, test func(t *testing.T, conn *Conn, delivered *[]string)) {
	for _, chunking := range []bool{false, true} {
		t.Run(map[bool]string{false: "data", true: "bdat"}[chunking], func(t *testing.T) {
			var delivered []string
			srv := txServer(t, &delivered)
			test(t, dialConfig(t, Config{Addr: srv.addr(), Security: "plain", Timeout: 5 * time.Second, Chunking: chunking}), &delivered)
		})
	}
}

// A server that asks for the text (354) of a mail whose MAIL it refused is
// not to be trusted with it: SendAll ends the session with an error and
// sends no text, rather than reporting the mail refused or accepted.
func TestSendAllStopsWhenARefusedMailsTextIsAskedFor(t *testing.T) {
	var sentText atomic.Bool
	ended := make(chan struct{})
	srv := startRawSMTP(t, func(c *rawConn) {
		defer close(ended)
		c.greet("PIPELINING")
		for {
			l := c.line()
			switch {
			case l == "" || l == "QUIT":
				return
			case strings.HasPrefix(l, "MAIL"):
				c.say("550 5.7.1 not you")
			case strings.HasPrefix(l, "RCPT"):
				c.say("250 ok")
			case l == "DATA":
				c.say("354 go on")
			default:
				sentText.Store(true)
			}
		}
	})
	conn, err := rawSender(t, srv.addr()).Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var answers []error
	err = conn.SendAll(outgoing(1), func(_ int, err error) error { answers = append(answers, err); return nil })
	if err == nil || !strings.Contains(err.Error(), "asked for the text of a refused mail") {
		t.Errorf("SendAll = %v; want the session ended", err)
	}
	if len(answers) != 0 {
		t.Errorf("answers %v; want none (the mail's fate is not the server's refusal)", answers)
	}
	conn.conn.Close()
	<-ended
	if sentText.Load() {
		t.Error("the text was sent after the refused MAIL")
	}
}

// Every write has Timeout from its own start: a large text, which the
// buffered writer sends straight through, is not cut by the deadline of a
// flush made before a slow answer. The connection is watched (writeWatch)
// rather than timed: each write must be preceded by a deadline set after
// the previous write ended, so a loaded machine cannot make the test fail
// or pass by chance. The first text's answer comes late (a tenth of a
// second, far within the one-minute Timeout); with DATA the large text
// follows its own envelope's answers, with BDAT it goes with its envelope.
func TestSendAllLargeTextAfterASlowAnswer(t *testing.T) {
	for _, chunking := range []bool{false, true} {
		t.Run(map[bool]string{false: "data", true: "bdat"}[chunking], func(t *testing.T) {
			var sizes []int
			srv := startRawSMTP(t, func(c *rawConn) {
				c.conn.SetDeadline(time.Time{})
				c.greet("PIPELINING", "CHUNKING")
				for {
					l := c.line()
					n := -1
					switch {
					case l == "" || l == "QUIT":
						return
					case l == "DATA":
						c.say("354 go on")
						n = len(c.text())
					case strings.HasPrefix(l, "BDAT "):
						fmt.Sscanf(l, "BDAT %d LAST", &n)
						io.CopyN(io.Discard, c.r, int64(n))
					default:
						c.say("250 ok")
						continue
					}
					sizes = append(sizes, n)
					if len(sizes) == 1 {
						time.Sleep(100 * time.Millisecond)
					}
					c.say("250 queued")
				}
			})
			conn := dialConfig(t, Config{Addr: srv.addr(), Security: "plain", Timeout: time.Minute, Chunking: chunking})
			w := &writeWatch{Conn: conn.conn}
			conn.attach(w)
			big := append([]byte("Subject: big\r\n\r\n"), bytes.Repeat([]byte(strings.Repeat("x", 76)+"\r\n"), 50000)...)
			var mails []Mail
			for _, data := range [][]byte{[]byte("Subject: small\r\n\r\nhi\r\n"), big} {
				mails = append(mails, Mail{From: "games@example.org", To: []string{"p@example.org"}, Data: data})
			}
			sendAllAccepted(t, conn, mails)
			if len(sizes) != 2 || sizes[1] < 3800000 {
				t.Errorf("server got texts of %v bytes; want the small one and the big one", sizes)
			}
			if w.writes < 3 || w.stale != 0 {
				t.Errorf("%d writes, %d of them without a deadline of their own; want several, none", w.writes, w.stale)
			}
		})
	}
}

// writeWatch is a session's connection, counting the writes that were not
// given a write deadline of a full Timeout (a minute) after the previous
// write ended.
type writeWatch struct {
	net.Conn
	deadline time.Time // the last write deadline set
	ended    time.Time // when the last write ended
	writes   int
	stale    int
}

func (w *writeWatch) SetWriteDeadline(d time.Time) error {
	w.deadline = d
	return w.Conn.SetWriteDeadline(d)
}

func (w *writeWatch) Write(p []byte) (int, error) {
	w.writes++
	if w.deadline.Add(-time.Minute).Before(w.ended) {
		w.stale++
	}
	n, err := w.Conn.Write(p)
	w.ended = time.Now()
	return n, err
}

// A mail whose server takes one recipient and refuses another goes to the
// one (accepted: never sent again, which would deliver it twice), on both
// paths; a mail none of whose recipients is taken is refused, its text
// never sent.
func TestSendAllSomeRecipientsRefused(t *testing.T) {
	onBothPaths(t, func(t *testing.T, conn *Conn, delivered *[]string) {
		mails := []Mail{
			{From: "games@example.org", To: []string{"p@example.org", "refuse@example.org"}, Data: []byte("Subject: one\r\n\r\nsome\r\n")},
			{From: "games@example.org", To: []string{"refuse@example.org", "refuse2@example.org"}, Data: []byte("Subject: two\r\n\r\nnone\r\n")},
			{From: "games@example.org", To: []string{"q@example.org"}, Data: []byte("Subject: three\r\n\r\nall\r\n")},
		}
		var answers []string
		if err := conn.SendAll(mails, func(i int, err error) error {
			answers = append(answers, fmt.Sprintf("%d %v", i, err != nil))
			return nil
		}); err != nil {
			t.Fatalf("SendAll: %v", err)
		}
		if want := []string{"0 false", "1 true", "2 false"}; !slicesEqual(answers, want) {
			t.Errorf("answers (mail, refused) %q, want %q", answers, want)
		}
		if want := []string{"<p@example.org> Subject: one\n\nsome\n", "<q@example.org> Subject: three\n\nall\n"}; !slicesEqual(*delivered, want) {
			t.Errorf("delivered %q, want %q", *delivered, want)
		}
	})
}

// With Security "starttls" the session goes on encrypted after STARTTLS:
// EHLO is said again, inside TLS, and the connection is TLS's.
func TestSTARTTLSEncrypts(t *testing.T) {
	certs := httptest.NewTLSServer(nil) // only for its certificate and a client that trusts it
	defer certs.Close()
	var inside []string
	srv := startRawSMTP(t, func(c *rawConn) {
		c.greet("STARTTLS")
		if l := c.line(); l != "STARTTLS" {
			t.Errorf("after EHLO: %q, want STARTTLS", l)
			return
		}
		c.say("220 2.0.0 go ahead")
		tc := tls.Server(c.conn, &tls.Config{Certificates: certs.TLS.Certificates})
		if err := tc.Handshake(); err != nil {
			t.Errorf("handshake: %v", err)
			return
		}
		c.conn, c.r = tc, bufio.NewReader(tc)
		inside = append(inside, c.line())
		c.say("250 raw.test")
		inside = append(inside, c.line())
		c.say("221 bye")
	})
	tlsConfig := certs.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	tlsConfig.ServerName = "example.com"
	conn := dialConfig(t, Config{Addr: srv.addr(), Security: "starttls", TLSConfig: tlsConfig, Timeout: 5 * time.Second})
	if tc, ok := conn.conn.(*tls.Conn); !ok || !tc.ConnectionState().HandshakeComplete {
		t.Errorf("the session is not encrypted")
	}
	conn.Close()
	if len(inside) != 2 || !strings.HasPrefix(inside[0], "EHLO ") || inside[1] != "QUIT" {
		t.Errorf("inside TLS the server got %q, want EHLO and QUIT", inside)
	}
}
