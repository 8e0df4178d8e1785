package mailer

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// rawIMAP is a bare IMAP client on a real connection: it sends lines as
// given and reads the server's answers as they come.
type rawIMAP struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
}

func dialRawIMAP(t *testing.T, addr string) *rawIMAP {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &rawIMAP{t: t, conn: conn, r: bufio.NewReader(conn)}
	if greeting := c.line(); !strings.HasPrefix(greeting, "* OK") {
		t.Fatalf("greeting %q", greeting)
	}
	return c
}

func (c *rawIMAP) line() string {
	c.t.Helper()
	c.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	l, err := c.r.ReadString('\n')
	if err != nil {
		c.t.Fatalf("reading: %v (so far %q)", err, l)
	}
	return l
}

func (c *rawIMAP) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.conn, s); err != nil {
		c.t.Fatal(err)
	}
}

// do sends one command line (tag first) and returns the untagged answers,
// literals included, and the tagged one.
func (c *rawIMAP) do(tag, line string) (untagged, tagged string) {
	c.t.Helper()
	c.send(line + "\r\n")
	return c.answer(tag)
}

func (c *rawIMAP) answer(tag string) (untagged, tagged string) {
	c.t.Helper()
	var sb strings.Builder
	for {
		l := c.line()
		if strings.HasPrefix(l, tag+" ") {
			return sb.String(), l
		}
		sb.WriteString(l)
		if n, ok := lineLiteral([]byte(l)); ok {
			b := make([]byte, n)
			if _, err := io.ReadFull(c.r, b); err != nil {
				c.t.Fatal(err)
			}
			sb.Write(b)
		}
	}
}

// appendMsg appends msg to INBOX with a literal of the given form ("" for
// a synchronizing one, "+" for a non-synchronizing one).
func (c *rawIMAP) appendMsg(tag string, msg []byte, form string) string {
	c.t.Helper()
	c.send(fmt.Sprintf("%s APPEND INBOX (\\Seen) {%d%s}\r\n", tag, len(msg), form))
	if form == "" {
		if l := c.line(); !strings.HasPrefix(l, "+") {
			c.t.Fatalf("APPEND: %q, want a continuation", l)
		}
	}
	c.send(string(msg) + "\r\n")
	_, tagged := c.answer(tag)
	return tagged
}

// hubMalformedCommands are commands whose arguments go-imap
// v2.0.0-beta.8 refuses with a plain error (SERVERBUG without the hub's
// check), sent in the Selected state.
var hubMalformedCommands = []struct{ name, cmd string }{
	{"FETCH range to a letter", "FETCH 1:x (FLAGS)"},
	{"FETCH zero", "FETCH 0 (FLAGS)"},
	{"FETCH list with a bad member", "FETCH 1,2:y,3 (FLAGS)"},
	{"FETCH leading zero", "FETCH 01 (FLAGS)"},
	{"FETCH beyond 32 bits", "FETCH 4294967296 (FLAGS)"},
	{"UID FETCH range to a letter", "UID FETCH 1:x (FLAGS)"},
	{"uid fetch in lower case", "uid fetch x (FLAGS)"},
	{"COPY range to a letter", "COPY 1:x INBOX"},
	{"UID COPY empty member", "UID COPY 1,,2 INBOX"},
	{"COPY to a bad UTF-7 name", "COPY 1 &Jjo"},
	{"MOVE range to a letter", "MOVE 1:x X"},
	{"UID MOVE to a null shift", "UID MOVE 1 &Jjo-&Jjo-"},
	{"STORE range to a letter", "STORE 1:x +FLAGS (\\Seen)"},
	{"UID STORE zero", "UID STORE 0 +FLAGS (\\Seen)"},
	{"UID EXPUNGE range to a letter", "UID EXPUNGE 1:x"},
	{"SELECT unfinished UTF-7", "SELECT &Jjo"},
	{"SELECT quoted unfinished UTF-7", "SELECT \"&Jjo\""},
	{"EXAMINE UTF-7 of ASCII", "EXAMINE &AGE-"},
	{"SELECT one base64 character", "SELECT &0-"},
	{"CREATE unfinished UTF-7", "CREATE &Jjo"},
	{"DELETE unfinished UTF-7", "DELETE &Jjo"},
	{"RENAME from unfinished UTF-7", "RENAME &Jjo X"},
	{"RENAME to unfinished UTF-7", "RENAME X &Jjo"},
	{"SUBSCRIBE unfinished UTF-7", "SUBSCRIBE &Jjo"},
	{"STATUS unfinished UTF-7", "STATUS &Jjo (MESSAGES)"},
	{"LIST reference unfinished UTF-7", "LIST &Jjo *"},
	{"SEARCH unknown key", "SEARCH FOO"},
	{"UID SEARCH unknown key", "UID SEARCH FOO"},
	{"SEARCH unknown key after a good one", "SEARCH SEEN FOO"},
	{"SEARCH unknown key in NOT", "SEARCH NOT FOO"},
	{"SEARCH unknown key in OR", "SEARCH OR SEEN FOO"},
	{"SEARCH unknown key in parentheses", "SEARCH (SEEN (UNSEEN FOO))"},
	{"SEARCH bad date", "SEARCH SINCE 99-Foo-2020"},
	{"SEARCH bad quoted date", "SEARCH BEFORE \"1-Jan-20\""},
	{"SEARCH bad date in OR", "SEARCH OR SEEN SENTON 32-Jan-2020"},
	{"SEARCH UID key with a bad set", "SEARCH UID 1:x"},
	{"SEARCH after RETURN", "SEARCH RETURN (COUNT) FOO"},
	{"SEARCH after CHARSET", "SEARCH CHARSET UTF-8 FOO"},
	{"SEARCH after a quoted string", "SEARCH SUBJECT \"a FOO b\" FOO"},
	{"SEARCH lists nested too deep", "SEARCH " + strings.Repeat("(", 1000) + "SEEN" + strings.Repeat(")", 1000)},
}

// TestHubIMAPSyntaxErrors: every malformed command gets a tagged BAD,
// never NO [SERVERBUG], and the connection goes on (a NOOP after it is
// OK); valid commands, APPEND's message text included, behave as before.
func TestHubIMAPSyntaxErrors(t *testing.T) {
	h := NewHub("example.org", testPass, 1<<20, nil)
	if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c := dialRawIMAP(t, h.IMAPAddr())
	if _, tagged := c.do("l", "l LOGIN games "+testPass); !strings.HasPrefix(tagged, "l OK") {
		t.Fatalf("LOGIN: %q", tagged)
	}
	// Before SELECT, a malformed mailbox name is checked too.
	if _, tagged := c.do("p1", "p1 SELECT &Jjo"); !strings.HasPrefix(tagged, "p1 BAD") {
		t.Errorf("SELECT &Jjo before selecting: %q", tagged)
	}
	// APPEND's mailbox comes before its literal: a malformed one is
	// answered BAD before the client sends the message (a synchronizing
	// literal waits for the server's go-ahead).
	if _, tagged := c.do("p2", "p2 APPEND &Jjo (\\Seen) {5}"); !strings.HasPrefix(tagged, "p2 BAD") || strings.Contains(tagged, "SERVERBUG") {
		t.Errorf("APPEND &Jjo: %q, want a tagged BAD", tagged)
	}
	if _, tagged := c.do("p3", "p3 NOOP"); !strings.HasPrefix(tagged, "p3 OK") {
		t.Errorf("NOOP after APPEND &Jjo: %q", tagged)
	}
	msg := []byte("From: a@example.org\r\nSubject: raw\r\n\r\na1 FETCH 1:x (FLAGS)\r\nx SEARCH FOO\r\ny SELECT &Jjo\r\nz APPEND INBOX {3}\r\nabc\r\n")
	msg2 := []byte("Subject: two\r\n\r\nb1 STORE 1:x +FLAGS (\\Seen)\r\n{5}\r\nq SEARCH SINCE 99-Foo-2020\r\n")
	for _, a := range []struct {
		tag, form string
		msg       []byte
	}{{"ap1", "", msg}, {"ap2", "+", msg2}} {
		if tagged := c.appendMsg(a.tag, a.msg, a.form); !strings.HasPrefix(tagged, a.tag+" OK") {
			t.Fatalf("APPEND {%d%s}: %q", len(a.msg), a.form, tagged)
		}
	}
	if _, tagged := c.do("s", "s SELECT INBOX"); !strings.HasPrefix(tagged, "s OK") {
		t.Fatalf("SELECT INBOX: %q", tagged)
	}

	for i, tt := range hubMalformedCommands {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			tag := "m" + strconv.Itoa(i)
			_, tagged := c.do(tag, tag+" "+tt.cmd)
			if !strings.HasPrefix(tagged, tag+" BAD ") || strings.Contains(tagged, "SERVERBUG") {
				t.Errorf("%s: %q, want a tagged BAD", tt.cmd, tagged)
			}
			if _, tagged := c.do("n"+tag, "n"+tag+" NOOP"); !strings.HasPrefix(tagged, "n"+tag+" OK") {
				t.Errorf("NOOP after %s: %q", tt.cmd, tagged)
			}
		})
	}

	valid := []struct {
		name, cmd, untagged string
	}{
		{"FETCH all", "FETCH 1:* (FLAGS)", "* 2 FETCH (UID 2 FLAGS (\\seen))"},
		{"FETCH reversed range", "FETCH 2:1 (UID)", "* 1 FETCH (UID 1)"},
		{"UID FETCH star", "UID FETCH * (UID)", "* 2 FETCH (UID 2)"},
		{"SEARCH ALL", "SEARCH ALL", "* SEARCH 1 2\r\n"},
		{"SEARCH set", "SEARCH 2:*", "* SEARCH 2\r\n"},
		{"SEARCH OR", "SEARCH OR SUBJECT raw SUBJECT nothing", "* SEARCH 1\r\n"},
		{"SEARCH NOT", "SEARCH NOT SUBJECT raw", "* SEARCH 2\r\n"},
		{"SEARCH parentheses", "SEARCH (SEEN (SUBJECT two)) NOT (UNSEEN)", "* SEARCH 2\r\n"},
		{"SEARCH dates", "SEARCH SINCE 1-Jan-2020 BEFORE \"1-Jan-2100\" NOT ON 29-Feb-2000", "* SEARCH 1 2\r\n"},
		{"SEARCH quoted strings", "SEARCH BODY \"x SEARCH FOO\" HEADER \"Subject\" \"raw\"", "* SEARCH 1\r\n"},
		{"SEARCH quoted set", "SEARCH TEXT \"FETCH 1:x\"", "* SEARCH 1\r\n"},
		{"UID SEARCH UID set", "UID SEARCH UID 1:2 NOT UID 2", "* SEARCH 1\r\n"},
		{"SEARCH long line", "SEARCH NOT TEXT \"" + strings.Repeat("x", 40<<10) + "\"", "* SEARCH 1 2\r\n"},
		{"SELECT INBOX", "SELECT inbox", "* 2 EXISTS"},
		{"STATUS UTF-7 name", "STATUS &ZeVnLIqe- (MESSAGES)", ""},
	}
	for i, tt := range valid {
		t.Run(tt.name, func(t *testing.T) {
			c.t = t
			tag := "v" + strconv.Itoa(i)
			untagged, tagged := c.do(tag, tag+" "+tt.cmd)
			want := tag + " OK"
			if tt.name == "STATUS UTF-7 name" {
				want = tag + " NO" // no such mailbox: go-imap's own answer
			}
			if !strings.HasPrefix(tagged, want) || !strings.Contains(untagged, tt.untagged) {
				t.Errorf("%.60s: %q %q, want %q and %q", tt.cmd, untagged, tagged, want, tt.untagged)
			}
		})
	}

	t.Run("appended messages read back", func(t *testing.T) {
		c.t = t
		for i, m := range [][]byte{msg, msg2} {
			tag := "f" + strconv.Itoa(i)
			untagged, tagged := c.do(tag, fmt.Sprintf("%s FETCH %d (BODY.PEEK[])", tag, i+1))
			if !strings.HasPrefix(tagged, tag+" OK") {
				t.Fatalf("FETCH: %q", tagged)
			}
			head := fmt.Sprintf("BODY[] {%d}\r\n", len(m))
			at := strings.Index(untagged, head)
			if at < 0 || !strings.HasPrefix(untagged[at+len(head):], string(m)) {
				t.Errorf("message %d read back as %q, want %q", i+1, untagged, m)
			}
		}
	})
}

// TestHubIMAPClientSession: go-imap's own client through the hub's check,
// a normal session: append, select, search, fetch, store, copy, move.
func TestHubIMAPClientSession(t *testing.T) {
	h := NewHub("example.org", testPass, 1<<20, nil)
	if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("games", testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Create("Spiel&AOQ-", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msg := "Subject: hi\r\n\r\nc SEARCH FOO\r\nd FETCH 0 (FLAGS)\r\n"
	w := c.Append("INBOX", int64(len(msg)), nil)
	io.WriteString(w, msg)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-48 * time.Hour)
	data, err := c.UIDSearch(&imap.SearchCriteria{Since: since, Body: []string{"c SEARCH FOO"},
		Or: [][2]imap.SearchCriteria{{{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: "hi"}}}, {Text: []string{"nothing"}}}}}, nil).Wait()
	if err != nil || len(data.AllUIDs()) != 1 {
		t.Fatalf("search: %v %v", data, err)
	}
	set := imap.UIDSetNum(data.AllUIDs()...)
	msgs, err := c.Fetch(set, &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{{Peek: true}}}).Collect()
	if err != nil || len(msgs) != 1 {
		t.Fatalf("fetch: %v %v", msgs, err)
	}
	for _, b := range msgs[0].BodySection {
		if !bytes.Equal(b.Bytes, []byte(msg)) {
			t.Errorf("read back %q, want %q", b.Bytes, msg)
		}
	}
	if err := c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagFlagged}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Copy(set, "Spiel&AOQ-").Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(set, "Spiel&AOQ-").Wait(); err != nil {
		t.Fatal(err)
	}
	if n, _ := hubBox(t, h, "games", "Spiel&AOQ-"); n != 2 {
		t.Errorf("Spiel&AOQ- holds %d messages, want 2", n)
	}
}

func TestCheckIMAPLine(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"bad set", "a FETCH 1:x (FLAGS)\r\n", "a FETCH % (FLAGS)\r\n"},
		{"bad set with lone LF", "a UID FETCH 0 (FLAGS)\n", "a UID FETCH % (FLAGS)\n"},
		{"bad destination", "a COPY 1 &Jjo\r\n", "a COPY 1 %\r\n"},
		{"bad quoted name", "a SELECT \"&Jjo\"\r\n", "a SELECT %\r\n"},
		{"bad key", "a SEARCH NOT (SEEN FOO)\r\n", "a SEARCH NOT (SEEN %)\r\n"},
		{"bad date", "a SEARCH SINCE 99-Foo-2020 SEEN\r\n", "a SEARCH SINCE % SEEN\r\n"},
		{"good set", "a FETCH 1:*,3 (FLAGS)\r\n", ""},
		{"saved set", "a FETCH $ (FLAGS)\r\n", ""},
		{"INBOX any case", "a SELECT iNbOx\r\n", ""},
		{"UTF-7 name", "a SELECT &ZeVnLIqe-\r\n", ""},
		{"escaped ampersand", "a SELECT a&-b\r\n", ""},
		{"UTF-8 name", "a SELECT Spiel\xc3\xa4\r\n", ""},
		{"one base64 character", "a SELECT &0-\r\n", "a SELECT %\r\n"},
		{"unknown command", "a FOO 1:x\r\n", ""},
		{"no tag", "FETCH 1:x (FLAGS)\r\n", ""},
		{"go-imap's own syntax error first", "a SEARCH SUBJECT\r\n", ""},
		{"unterminated quote", "a SEARCH SUBJECT \"FOO\r\n", ""},
		{"unknown charset", "a SEARCH CHARSET KOI8 FOO\r\n", ""},
		{"IDLE's DONE", "DONE\r\n", ""},
		{"bad key first in a list", "a SEARCH(00\r\n", "a SEARCH(%\r\n"},
		{"good search", "a SEARCH OR (SEEN 1:2) NOT UID 3 LARGER 10 KEYWORD \\* SINCE 1-Jan-2020\r\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == "" {
				want = tt.in
			}
			if got := checkIMAPLine([]byte(tt.in)); string(got) != want {
				t.Errorf("checkIMAPLine(%q) = %q, want %q", tt.in, got, want)
			}
		})
	}
}

func TestLineLiteral(t *testing.T) {
	tests := []struct {
		name, line string
		n          int64
		ok         bool
	}{
		{"synchronizing", "a APPEND INBOX {12}\r\n", 12, true},
		{"non-synchronizing", "a APPEND INBOX {12+}\r\n", 12, true},
		{"binary", "a APPEND INBOX ~{7}\n", 7, true},
		{"none", "a NOOP\r\n", 0, false},
		{"no digits", "a SELECT {}\r\n", 0, false},
		{"sign", "a SELECT {+5}\r\n", 0, false},
		{"not at the end", "a SELECT {5} x\r\n", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := lineLiteral([]byte(tt.line))
			if n != tt.n || ok != tt.ok {
				t.Errorf("lineLiteral(%q) = %d, %v, want %d, %v", tt.line, n, ok, tt.n, tt.ok)
			}
		})
	}
}

// FuzzCheckIMAPLine: the checker never panics; a line it rewrites keeps
// its tag and command, and its end, and reads as fine on a second check
// (go-imap stops at the "%" put in): out is the line with one piece
// replaced by "%".
func FuzzCheckIMAPLine(f *testing.F) {
	for _, tt := range hubMalformedCommands {
		f.Add("t " + tt.cmd)
	}
	f.Add("a SEARCH OR (SEEN 1:2) NOT UID 3 SINCE 1-Jan-2020")
	f.Add("a SELECT &ZeVnLIqe-")
	f.Fuzz(func(t *testing.T, s string) {
		line := []byte(s + "\r\n")
		out := checkIMAPLine(line)
		if bytes.Equal(out, line) {
			return
		}
		k := 0
		for k < len(out) && k < len(line) && out[k] == line[k] {
			k++
		}
		if k == len(out) || out[k] != '%' || !bytes.HasSuffix(line, out[k+1:]) || !bytes.HasPrefix(out, []byte(strings.SplitN(s, " ", 2)[0])) {
			t.Fatalf("checkIMAPLine(%q) = %q", line, out)
		}
		if again := checkIMAPLine(out); !bytes.Equal(again, out) {
			t.Fatalf("checkIMAPLine(%q) = %q, then %q", line, out, again)
		}
	})
}

// TestHubIMAPConnStream: the wrapped connection's stream, piece by piece:
// literals (announced at the end of a line longer than the read buffer,
// too) pass unread, the command's line after a literal is not checked, and
// the next command is.
func TestHubIMAPConnStream(t *testing.T) {
	long := "a1 APPEND INBOX (\\Seen) \"" + strings.Repeat("x", 40<<10) + "\" {31}\r\n"
	body := "x SEARCH FOO\r\ny FETCH 0 (UID)\r\n"
	tests := []struct{ name, in, want string }{
		{"literal after a long line", long + body + " FOO\r\nb SEARCH FOO\r\n", long + body + " FOO\r\nb SEARCH %\r\n"},
		{"non-synchronizing literal", "a APPEND INBOX {31+}\r\n" + body + "\r\nb FETCH 0 (UID)\r\n", "a APPEND INBOX {31+}\r\n" + body + "\r\nb FETCH % (UID)\r\n"},
		{"literal then more of the command", "a RENAME {4}\r\n&Jjo &Jjo\r\nb SELECT &Jjo\r\n", "a RENAME {4}\r\n&Jjo &Jjo\r\nb SELECT %\r\n"},
		{"APPEND to a malformed mailbox", "a APPEND &Jjo (\\Seen) {3}\r\nabc\r\nb SELECT &Jjo\r\n", "a APPEND % (\\Seen) {3}\r\nabc\r\nb SELECT %\r\n"},
		{"APPEND's literal mailbox", "a APPEND {4}\r\n&Jjo {3}\r\nabc\r\n", "a APPEND {4}\r\n&Jjo {3}\r\nabc\r\n"},
		{"after STARTTLS", "a STARTTLS\r\nb SEARCH FOO\r\n", "a STARTTLS\r\nb SEARCH FOO\r\n"},
		{"unfinished line", "a SEARCH FOO", "a SEARCH FOO"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client, server := net.Pipe()
			defer server.Close()
			go func() {
				for _, chunk := range []string{tt.in[:len(tt.in)/3], tt.in[len(tt.in)/3:]} {
					io.WriteString(client, chunk)
				}
				client.Close()
			}()
			c := &hubIMAPConn{Conn: server, r: bufio.NewReaderSize(server, 16<<10)}
			got, err := io.ReadAll(c)
			if err != nil || string(got) != tt.want {
				t.Errorf("read %.80q… (%d bytes), %v; want %.80q… (%d bytes)", got, len(got), err, tt.want, len(tt.want))
				if len(got) > 100 && len(tt.want) > 100 {
					t.Errorf("ends %q, want %q", got[len(got)-100:], tt.want[len(tt.want)-100:])
				}
			}
		})
	}
}
