package mailer

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// loginIMAP reports whether user may log in to the hub's IMAP server with password.
func loginIMAP(t *testing.T, h *Hub, user, password string) bool {
	t.Helper()
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.Login(user, password).Wait() == nil
}

// sendSMTP submits msg through the hub's SMTP server as user.
func sendSMTP(h *Hub, user, password, to string, msg []byte) error {
	c, err := smtp.Dial(h.SMTPAddr())
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", user, password)); err != nil {
		return err
	}
	from := user
	if !strings.Contains(from, "@") {
		from += "@" + h.Domain
	}
	if err := c.SendMail(from, []string{to}, strings.NewReader(string(msg))); err != nil {
		return err
	}
	return c.Quit()
}

// TestHubAccountsHaveTheirOwnPasswords: without a shared password every
// account has its own random one, in a file of mode 0600 that
// HubPassword reads too; nobody logs in with another's. With a shared
// password, an account given its own (the service's) does not take the
// shared one.
func TestHubAccountsHaveTheirOwnPasswords(t *testing.T) {
	dir := t.TempDir()
	h := NewHub("example.org", "", 1<<20, nil)
	h.Dir = dir
	if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	alice, err := h.Password("alice")
	if err != nil {
		t.Fatal(err)
	}
	bob, _ := h.Password("Bob@example.org")
	if alice == bob || len(alice) < 16 {
		t.Fatalf("passwords %q and %q", alice, bob)
	}
	fi, err := os.Stat(filepath.Join(dir, "passwords", "alice"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("alice's password file: %v, %v", fi, err)
	}
	if got, _ := HubPassword(dir, "alice"); got != alice {
		t.Errorf("HubPassword gives %q, the hub %q", got, alice)
	}
	// Made outside the hub while it runs (the hub-password command): usable at once.
	carol, err := HubPassword(dir, "carol")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, user, password string
		ok                   bool
	}{
		{"alice with hers", "alice@example.org", alice, true},
		{"alice with bob's", "alice@example.org", bob, false},
		{"bob with his", "bob", bob, true},
		{"carol, made by the command", "carol@example.org", carol, true},
		{"an account never made", "dave@example.org", alice, false},
		{"an empty password", "alice@example.org", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := loginIMAP(t, h, tt.user, tt.password); got != tt.ok {
				t.Errorf("IMAP login: %v, want %v", got, tt.ok)
			}
			err := sendSMTP(h, tt.user, tt.password, "bob@example.org", testMail("hi", 10))
			if (err == nil) != tt.ok {
				t.Errorf("SMTP AUTH: %v, want ok %v", err, tt.ok)
			}
		})
	}

	shared := NewHub("example.org", "shared", 1<<20, nil)
	shared.SetPassword("games", "the-service's-own")
	if err := shared.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer shared.Close()
	if loginIMAP(t, shared, "games@example.org", "shared") {
		t.Error("the service's mailbox opens with the players' shared password")
	}
	if !loginIMAP(t, shared, "games@example.org", "the-service's-own") || !loginIMAP(t, shared, "alice", "shared") {
		t.Error("the service's own password or a player's shared one is refused")
	}
}

// TestHubKeepsAcceptedMail: mail the hub's SMTP server accepted is on disk
// before the 250; a new hub on the same directory (after a crash or a stop)
// has every message still in an INBOX, and none that left it (moved to
// another mailbox or expunged); unfinished deliveries are dropped.
func TestHubKeepsAcceptedMail(t *testing.T) {
	dir := t.TempDir()
	start := func() *Hub {
		h := NewHub("example.org", testPass, 1<<20, nil)
		h.Dir = dir
		if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		return h
	}
	h := start()
	for _, s := range []string{"one", "two", "three", "four"} {
		if err := sendSMTP(h, "alice@example.org", testPass, "games+tok@example.org", testMail(s, 100)); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Deliver([]string{"bob@example.org"}, testMail("for bob", 10)); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "mail", "games", "new", "*"))
	if len(files) != 4 {
		t.Fatalf("%d files on disk for 4 accepted mails", len(files))
	}
	// The service's client moves "one" away and expunges "two".
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Login("games", testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	c.Create("processed", nil).Wait()
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Move(imap.SeqSetNum(1), "processed").Wait(); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(imap.SeqSetNum(1), &imap.StoreFlags{Op: imap.StoreFlagsAdd, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close(); err != nil {
		t.Fatal(err)
	}
	if err := c.Expunge().Close(); err != nil {
		t.Fatal(err)
	}
	c.Close()
	// A delivery that died halfway (never answered 250).
	os.WriteFile(filepath.Join(dir, "mail", "games", "tmp", "00000000000000000001.000001"), []byte("half"), 0o600)
	h.Close() // or a crash: nothing is written at Close

	h2 := start()
	defer h2.Close()
	got := mailboxOf(t, h2.IMAPAddr(), "games", "INBOX")
	if len(got) != 2 || got[0].subject != "three" || got[1].subject != "four" {
		t.Errorf("INBOX after the restart: %+v, want three and four", got)
	}
	if got := mailboxOf(t, h2.IMAPAddr(), "bob", "INBOX"); len(got) != 1 {
		t.Errorf("bob's INBOX after the restart: %+v", got)
	}
	if left, _ := os.ReadDir(filepath.Join(dir, "mail", "games", "tmp")); len(left) != 0 {
		t.Errorf("unfinished deliveries left: %v", left)
	}
}

// appendCRLF makes every line ending CRLF, as the two-pass replacement it
// took over from did: a CRLF stays, a LF gains its CR, a lone CR stays.
func TestAppendCRLF(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"a", "a"},
		{"a\nb", "a\r\nb"},
		{"a\r\nb\r\n", "a\r\nb\r\n"},
		{"a\n\nb\n", "a\r\n\r\nb\r\n"},
		{"a\rb\r\r\n", "a\rb\r\r\n"},
		{"\n", "\r\n"},
	} {
		twoPass := bytes.ReplaceAll(bytes.ReplaceAll([]byte(tc.in), []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		got := appendCRLF([]byte("P: "), []byte(tc.in))
		if string(got) != "P: "+tc.want || string(twoPass) != tc.want {
			t.Errorf("%q: %q (two passes %q), want %q", tc.in, got, twoPass, tc.want)
		}
	}
}

// A client whose connection ends in the middle of a mail's text delivers
// nothing: with DATA (no final dot) and with BDAT (fewer bytes than the
// chunk announced; go-smtp's server would take the short chunk for the
// whole text, see hubSMTPListener).
func TestHubDeliversNoCutText(t *testing.T) {
	for _, tc := range []struct {
		name, send string
		answers    int // the answers to wait for before the cut
	}{
		{"data", "DATA\r\nSubject: cut\r\n\r\nhalf a te", 5}, // greeting, EHLO, MAIL, RCPT, 354
		{"bdat", "BDAT 100 LAST\r\nSubject: cut\r\n\r\nhalf a te", 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startTestHub(t, nil)
			conn, err := net.Dial("tcp", h.SMTPAddr())
			if err != nil {
				t.Fatal(err)
			}
			r := bufio.NewReader(conn)
			io.WriteString(conn, "EHLO client.test\r\nMAIL FROM:<x@example.net>\r\nRCPT TO:<alice@example.org>\r\n"+tc.send)
			for want := tc.answers; want > 0; {
				line, err := r.ReadString('\n')
				if err != nil {
					t.Fatal(err)
				}
				if len(line) > 3 && line[3] == ' ' {
					want--
				}
			}
			conn.Close()
			onlyTheWholeMail(t, h, smtpclient.Config{Addr: h.SMTPAddr(), Security: "plain", Timeout: 5 * time.Second})
		})
	}
}

// The same over STARTTLS, the link cut (as when the client's process dies:
// no TLS close_notify) in the middle of a BDAT chunk: go-smtp's server then
// reads through its own tls.Conn, which passes the hub connection's error
// on, so the part sent is not delivered either. (A client that ends TLS
// cleanly, close_notify, inside a chunk reads as io.EOF there and would
// have its part delivered: go-smtp's bug, see hubSMTPListener.)
func TestHubDeliversNoCutTextOverTLS(t *testing.T) {
	p := pki(t)
	h := startTestHub(t, p.server)
	conn, err := net.Dial("tcp", h.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	answers := func(r *bufio.Reader, n int) {
		t.Helper()
		for n > 0 {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatal(err)
			}
			if len(line) > 3 && line[3] == ' ' {
				n--
			}
		}
	}
	io.WriteString(conn, "EHLO client.test\r\n")
	answers(r, 2) // greeting, EHLO
	io.WriteString(conn, "STARTTLS\r\n")
	answers(r, 1)
	cfg := p.client()
	cfg.ServerName = "127.0.0.1"
	tc := tls.Client(conn, cfg)
	if err := tc.Handshake(); err != nil {
		t.Fatal(err)
	}
	io.WriteString(tc, "EHLO client.test\r\nMAIL FROM:<x@example.net>\r\nRCPT TO:<alice@example.org>\r\nBDAT 100 LAST\r\nSubject: cut\r\n\r\nhalf a te")
	answers(bufio.NewReader(tc), 3) // EHLO, MAIL, RCPT
	conn.Close()                    // the TCP connection, without close_notify
	onlyTheWholeMail(t, h, smtpclient.Config{Addr: h.SMTPAddr(), Security: "starttls", TLSConfig: p.client(), Timeout: 5 * time.Second})
}

// onlyTheWholeMail sends a whole mail to alice with cfg after a session was
// cut in the middle of its text, and checks it is the only one delivered:
// the cut session ends on the server's side meanwhile, and whatever it
// delivers arrives within moments.
func onlyTheWholeMail(t *testing.T, h *Hub, cfg smtpclient.Config) {
	t.Helper()
	s, err := smtpclient.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c, err := s.Dial()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Send("x@example.net", []string{"alice@example.org"}, testMail("whole", 0)); err != nil {
		t.Fatal(err)
	}
	c.Close()
	for range 5 {
		box := mailboxOf(t, h.IMAPAddr(), "alice@example.org", "INBOX")
		if len(box) != 1 || box[0].subject != "whole" {
			t.Fatalf("alice's INBOX: %+v; want only the whole mail", box)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
