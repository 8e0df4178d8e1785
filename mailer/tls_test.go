package mailer

import (
	"context"
	"crypto/tls"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/internal/dovecottest"
	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// The source reads mail over TLS: implicit TLS through a TLS-terminating
// proxy in front of the hub, and STARTTLS offered by the hub itself.
func TestIMAPSourceTLS(t *testing.T) {
	p := pki(t)
	for _, tc := range []struct {
		name, security string
		addr           func(h *Hub) string
		hubTLS         *tls.Config
	}{
		{"implicit tls", "tls", func(h *Hub) string { return startProxy(t, h.IMAPAddr(), p.server).addr() }, nil},
		{"starttls", "starttls", func(h *Hub) string { return h.IMAPAddr() }, p.server},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startTestHub(t, tc.hubTLS)
			deliverHub(t, h, "over tls", 0)
			src, logs := hubSource(t, tc.addr(h), func(c *IMAPConfig) {
				c.Security, c.TLSConfig = tc.security, p.client()
			})
			rec := newRecorder()
			stop := runSource(t, src, rec.handle)
			eventually(t, 5*time.Second, "message handled", func() bool { return rec.count("over tls") == 1 })
			deliverHub(t, h, "over tls, idling", 0)
			eventually(t, 5*time.Second, "second message handled", func() bool { return rec.count("over tls, idling") == 1 })
			eventually(t, 5*time.Second, "INBOX emptied", func() bool { return boxCount(t, h.IMAPAddr(), "INBOX") == 0 })
			stop()
			if strings.Contains(logs.String(), "connection lost") {
				t.Errorf("the TLS session failed:\n%s", logs)
			}
			wantBox(t, h.IMAPAddr(), "processed", true, "over tls", "over tls, idling")
		})
	}
}

// STARTTLS against a real Dovecot with ssl = yes and the test certificate.
func TestIMAPSourceStartTLSDovecot(t *testing.T) {
	p := pki(t)
	addr := dovecottest.Start(t, dovecottest.Options{CertPEM: p.certPEM, KeyPEM: p.keyPEM})
	appendTo(t, addr, "INBOX", string(testMail("dovecot tls", 0)))

	// Without the certificate's root the session must fail, saying why.
	bad, err := NewIMAPSource(IMAPConfig{Addr: addr, Security: "starttls", Username: testUser, Password: testPass}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = bad.session(context.Background(), func([]byte) error { t.Error("handler called over an unverified connection"); return nil })
	wantCertError(t, err)

	src, err := NewIMAPSource(IMAPConfig{Addr: addr, Security: "starttls", Username: testUser, Password: testPass,
		Processed: "bottlepost-processed", PollInterval: time.Hour, MaxBytes: 1 << 20, TLSConfig: p.client()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := newRecorder()
	runSource(t, src, rec.handle)
	eventually(t, 15*time.Second, "message handled over STARTTLS", func() bool { return rec.count("dovecot tls") == 1 })
	eventually(t, 10*time.Second, "INBOX emptied", func() bool { return boxCount(t, addr, "INBOX") == 0 })
	wantBox(t, addr, "bottlepost-processed", true, "dovecot tls")
}

// The sender submits over implicit TLS (a TLS-terminating proxy in front of
// the hub's SMTP server) and over STARTTLS (the hub's), authenticated, and
// the hub delivers the mail.
func TestSenderTLS(t *testing.T) {
	p := pki(t)
	for _, tc := range []struct {
		name, security string
		addr           func(h *Hub) string
		hubTLS         *tls.Config
	}{
		{"implicit tls", "tls", func(h *Hub) string { return startProxy(t, h.SMTPAddr(), p.server).addr() }, nil},
		{"starttls", "starttls", func(h *Hub) string { return h.SMTPAddr() }, p.server},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := startTestHub(t, tc.hubTLS)
			s, err := smtpclient.New(smtpclient.Config{Addr: tc.addr(h), Security: tc.security, Username: "games@example.org",
				Password: testPass, TLSConfig: p.client(), Timeout: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			conn, err := s.Dial()
			if err != nil {
				t.Fatal(err)
			}
			if err := conn.Send("games@example.org", []string{"alice@example.org"}, testMail("sent over tls", 0)); err != nil {
				t.Fatal(err)
			}
			if err := conn.Close(); err != nil {
				t.Errorf("quit: %v", err)
			}
			eventually(t, 5*time.Second, "mail delivered", func() bool {
				m := mailboxOf(t, h.IMAPAddr(), "alice@example.org", "INBOX")
				return len(m) == 1 && m[0].subject == "sent over tls"
			})
		})
	}
}

// A certificate the client cannot verify (no RootCAs: the system roots do
// not know the test certificate; or a name it is not valid for) fails with
// a clear error, on every TLS path, before anything is sent or read. A
// server without STARTTLS, when STARTTLS is configured, fails as clearly.
func TestTLSRefused(t *testing.T) {
	p := pki(t)
	plainHub := startTestHub(t, nil)
	tlsHub := startTestHub(t, p.server)
	imapTLS := startProxy(t, plainHub.IMAPAddr(), p.server).addr()
	smtpTLS := startProxy(t, plainHub.SMTPAddr(), p.server).addr()
	wrongName := &tls.Config{RootCAs: p.pool, ServerName: "mail.example.net"}
	for _, tc := range []struct {
		name           string
		imap           bool
		security, addr string
		tls            *tls.Config
		want           []string
	}{
		{"imap tls, unknown authority", true, "tls", imapTLS, nil, []string{"mailer: imap: tls with", "certificate signed by unknown authority"}},
		{"imap starttls, unknown authority", true, "starttls", tlsHub.IMAPAddr(), nil, []string{"mailer: imap: starttls with", "certificate signed by unknown authority"}},
		{"imap tls, wrong name", true, "tls", imapTLS, wrongName, []string{"mailer: imap: tls with", "not mail.example.net"}},
		{"imap starttls, not offered", true, "starttls", plainHub.IMAPAddr(), p.client(), []string{"mailer: imap: starttls with", "STARTTLS"}},
		{"smtp tls, unknown authority", false, "tls", smtpTLS, nil, []string{"smtpclient:", "certificate signed by unknown authority"}},
		{"smtp starttls, unknown authority", false, "starttls", tlsHub.SMTPAddr(), nil, []string{"smtpclient:", "certificate signed by unknown authority"}},
		{"smtp starttls, wrong name", false, "starttls", tlsHub.SMTPAddr(), wrongName, []string{"smtpclient:", "not mail.example.net"}},
		{"smtp starttls, not offered", false, "starttls", plainHub.SMTPAddr(), p.client(), []string{"smtpclient:", "STARTTLS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.imap {
				deliverHub(t, plainHub, "kept", 0)
				src, _ := hubSource(t, tc.addr, func(c *IMAPConfig) { c.Security, c.TLSConfig = tc.security, tc.tls })
				_, err = src.session(context.Background(), func([]byte) error {
					t.Error("handler called over an unverified connection")
					return nil
				})
			} else {
				var s *smtpclient.Sender
				s, err = smtpclient.New(smtpclient.Config{Addr: tc.addr, Security: tc.security, Username: "games@example.org",
					Password: testPass, TLSConfig: tc.tls, Timeout: 5 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				var conn *smtpclient.Conn
				if conn, err = s.Dial(); err == nil {
					conn.Close()
				}
			}
			if err == nil {
				t.Fatal("connected")
			}
			t.Logf("err: %v", err)
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("err = %v, want it to say %q", err, w)
				}
			}
		})
	}
	if n := boxCount(t, plainHub.IMAPAddr(), "INBOX"); n != 4 {
		t.Errorf("INBOX holds %d messages, want the 4 delivered, untouched", n)
	}
}

func wantCertError(t *testing.T, err error) {
	t.Helper()
	if err == nil || !strings.HasPrefix(err.Error(), "mailer: ") || !strings.Contains(err.Error(), "certificate signed by unknown authority") {
		t.Errorf("err = %v, want a mailer error about the unknown certificate authority", err)
	}
}

// serve's IMAP source logs a failure that retrying cannot mend as an
// error with check-mail's words, naming the setting, and keeps retrying:
// an untrusted certificate, and STARTTLS against a port that speaks TLS at
// once (silent until the timeout, then asked whether it speaks TLS).
func TestIMAPSourceLogsPermanentProblemsAsErrors(t *testing.T) {
	p := pki(t)
	h := startTestHub(t, p.server)
	tlsPort := silentTLSPort(t, p.server) // as Dovecot's 993
	for _, tc := range []struct {
		name, addr, want string
	}{
		{"untrusted certificate", h.IMAPAddr(), "level=ERROR msg=\"imap: the certificate of " + h.IMAPAddr() + " is signed by an authority this machine does not trust: set imap.tls_ca_file"},
		{"starttls on a tls port", tlsPort, "level=ERROR msg=\"imap: " + tlsPort + " speaks TLS at once (it waits for a TLS handshake, not for starttls): set imap.security = \\\"tls\\\""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, logs := hubSource(t, tc.addr, func(c *IMAPConfig) { c.Security, c.Timeout = "starttls", 300*time.Millisecond }) // the system roots only
			runSource(t, src, newRecorder().handle)
			for end := time.Now().Add(10 * time.Second); strings.Count(logs.String(), "level=ERROR") < 2 && time.Now().Before(end); {
				time.Sleep(20 * time.Millisecond)
			}
			if !strings.Contains(logs.String(), tc.want) {
				t.Errorf("not logged as an error naming the setting; want …%s…:\n%s", tc.want, logs)
			}
		})
	}
}
