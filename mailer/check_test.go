package mailer

import (
	"crypto/tls"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// CheckMail against the hub (STARTTLS on both sides, the test certificate)
// and against each mistake an admin makes: every step says ok, or the one
// that fails says what is wrong and which setting fixes it.
func TestCheckMail(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a probe mail to arrive (ExampleCheckMail runs the happy path with -short); the full run has it")
	}
	p := pki(t)
	h := startTestHub(t, p.server)
	imapTLS := startProxy(t, h.IMAPAddr(), p.server).addr() // implicit TLS in front of the hub
	smtpTLS := startProxy(t, h.SMTPAddr(), p.server).addr()
	base := func() CheckConfig {
		return CheckConfig{
			IMAP: IMAPConfig{Addr: h.IMAPAddr(), Security: "starttls", Username: "games@example.org", Password: testPass,
				Processed: "processed", TLSConfig: p.client()},
			SMTP: smtpclient.Config{Addr: h.SMTPAddr(), Security: "starttls", Username: "games@example.org", Password: testPass,
				TLSConfig: p.client()},
			Address: "games@example.org", Wait: 3 * time.Second, Greeting: 500 * time.Millisecond,
		}
	}
	for _, tc := range []struct {
		name   string
		adjust func(*CheckConfig)
		step   string // the step that fails; "" for none
		want   string
	}{
		{"all good", func(*CheckConfig) {}, "", ""},
		{"implicit tls on both", func(c *CheckConfig) {
			c.IMAP.Addr, c.IMAP.Security, c.SMTP.Addr, c.SMTP.Security = imapTLS, "tls", smtpTLS, "tls"
		}, "", ""},
		{"wrong imap password", func(c *CheckConfig) { c.IMAP.Password = "wrong" }, "imap login", "check imap.username and imap.password"},
		{"wrong smtp password", func(c *CheckConfig) { c.SMTP.Password = "wrong" }, "smtp session", "check smtp.username and smtp.password"},
		{"wrong imap port", func(c *CheckConfig) { c.IMAP.Addr = closedPort(t) }, "imap connect", "nothing listens on"},
		{"wrong smtp port", func(c *CheckConfig) { c.SMTP.Addr = closedPort(t) }, "smtp session", "check smtp.host and smtp.port"},
		{"imap port is the smtp server", func(c *CheckConfig) { c.IMAP.Addr = h.SMTPAddr() }, "imap connect", "is an SMTP server, not IMAP"},
		{"imap tls on a starttls port", func(c *CheckConfig) { c.IMAP.Security = "tls" }, "imap connect", `set imap.security = "starttls"`},
		{"imap starttls on a tls port", func(c *CheckConfig) { c.IMAP.Addr = imapTLS }, "imap connect", `speaks TLS at once`},
		{"smtp tls on a starttls port", func(c *CheckConfig) { c.SMTP.Security = "tls" }, "smtp session", `set smtp.security = "starttls"`},
		{"smtp starttls on a tls port", func(c *CheckConfig) { c.SMTP.Addr = smtpTLS }, "smtp session", `speaks TLS at once`},
		{"imap certificate not trusted", func(c *CheckConfig) { c.IMAP.TLSConfig = nil }, "imap connect", "set imap.tls_ca_file"},
		{"smtp certificate not trusted", func(c *CheckConfig) { c.SMTP.TLSConfig = nil }, "smtp session", "set smtp.tls_ca_file"},
		{"imap certificate for another name", func(c *CheckConfig) {
			c.IMAP.TLSConfig = &tls.Config{RootCAs: p.pool, ServerName: "mail.example.net"}
		}, "imap connect", "set imap.tls_server_name"},
		{"no such mailbox", func(c *CheckConfig) { c.IMAP.Mailbox = "Games" }, "imap mailbox", "check imap.mailbox"},
		{"no plus-addressing", func(c *CheckConfig) {
			h.Keep = func(rcpt string) bool { return !strings.Contains(rcpt, "+") }
		}, "plus-addressing", "must deliver ADDRESS+anything@DOMAIN"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() { h.Keep = nil }()
			cfg := base()
			tc.adjust(&cfg)
			var lines []string
			failed := map[string]string{}
			ok := CheckMail(cfg, func(s CheckStep) {
				lines = append(lines, s.Name+": "+s.Detail)
				if !s.OK {
					failed[s.Name] = s.Detail
				}
			})
			report := strings.Join(lines, "\n")
			t.Log("\n" + report)
			if len(lines) != 7 {
				t.Errorf("%d lines, want one per step (7):\n%s", len(lines), report)
			}
			if tc.step == "" {
				if !ok || len(failed) > 0 {
					t.Errorf("ok=%v, want every step to pass:\n%s", ok, report)
				}
				if !strings.Contains(report, "plus-addressing: a probe to games+probe-…@example.org arrived") {
					t.Errorf("the probe was not reported:\n%s", report)
				}
				return
			}
			if ok {
				t.Errorf("ok=true with %s:\n%s", tc.name, report)
			}
			if d, bad := failed[tc.step]; !bad || !strings.Contains(d, tc.want) {
				t.Errorf("step %q: %q, want it failed saying …%s…:\n%s", tc.step, d, tc.want, report)
			}
		})
	}
	// Every probe was removed: nothing is left for the service to answer.
	for _, box := range []string{"INBOX", "processed"} {
		if n := len(mailboxOf(t, h.IMAPAddr(), "games@example.org", box)); n != 0 {
			t.Errorf("%s holds %d messages after the checks", box, n)
		}
	}
}

// The route through a deliver pipe (docs/deploy.md): the mail server
// hands the service's mail, plus-addresses included, to `bottlepost
// deliver`, which stores it in serve's Maildir, not in the IMAP mailbox.
// The probe is found there and removed; with trusted_authserv set it is
// judged as serve will judge it, the probe's Authentication-Results given
// to the judge topmost first: one that vouches passes, none is a warning
// (the step passes, saying why and what to do). A bounce of the probe
// (the server that stores the mail did not know the plus-address) fails,
// naming that server's setting and quoting its words, not the submission
// server's.
func TestCheckMailThroughTheDeliverPipe(t *testing.T) {
	p := pki(t)
	h := startTestHub(t, p.server)
	md := filepath.Join(t.TempDir(), "Maildir")
	const ar = "mx.example.org; auth=pass smtp.auth=games@example.org"
	const bounce = "From: MAILER-DAEMON@example.org\r\nTo: games@example.org\r\nSubject: Undelivered Mail Returned to Sender\r\n\r\n" +
		"Final-Recipient: rfc822; %[1]s\r\nAction: failed\r\nDiagnostic-Code: smtp; 550 5.1.1 <%[1]s> User doesn't\r\n    exist: %[1]s\r\n\r\n" +
		"Message-ID: <probe-%[2]s@example.org>\r\n"
	var judged [][]string
	for _, tc := range []struct {
		name       string
		deliver    func(rcpt string, msg []byte) []byte // what the pipe stores
		trusted    bool
		failed     string // the step that fails, saying want
		warned     string // the step that warns, saying want
		want       string
		judgedWith []string
	}{
		{"vouched for", func(_ string, msg []byte) []byte {
			return append([]byte("Authentication-Results: "+ar+"\r\nAuthentication-Results: mx.example.org; dkim=none\r\n"), msg...)
		}, true, "", "", "trusted_authserv: the probe arrived vouched for by mx.example.org", []string{ar, "mx.example.org; dkim=none"}},
		{"no verdict", func(_ string, msg []byte) []byte { return msg }, true, "", "trusted_authserv",
			"arrived without a verdict of mx.example.org that vouches for it (no Authentication-Results from mx.example.org): serve will refuse", nil},
		{"no trusted server", func(_ string, msg []byte) []byte { return msg }, false, "", "", "plus-addressing: a probe to games+probe-…@example.org arrived (in the Maildir", nil},
		{"bounced by the delivering server", func(rcpt string, msg []byte) []byte {
			token := strings.TrimSuffix(strings.TrimPrefix(rcpt, "games+probe-"), "@example.org")
			return []byte(fmt.Sprintf(bounce, rcpt, token))
		}, false, "plus-addressing", "", "(550 5.1.1 <games+probe-", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			judged = nil
			h.Keep = func(rcpt string) bool { return !strings.Contains(rcpt, "+") }
			h.Delivered = func(rcpts []string, msg []byte) {
				if strings.Contains(rcpts[0], "+") {
					if _, err := DeliverMaildir(md, tc.deliver(rcpts[0], msg)); err != nil {
						t.Error(err)
					}
				}
			}
			defer func() { h.Keep, h.Delivered = nil, nil }()
			cfg := CheckConfig{
				IMAP: IMAPConfig{Addr: h.IMAPAddr(), Security: "starttls", Username: "games@example.org", Password: testPass,
					Processed: "processed", TLSConfig: p.client()},
				SMTP: smtpclient.Config{Addr: h.SMTPAddr(), Security: "starttls", Username: "games@example.org", Password: testPass,
					TLSConfig: p.client()},
				Address: "games@example.org", Wait: 3 * time.Second, Maildir: md,
			}
			if tc.trusted {
				cfg.TrustedAuthServ = "mx.example.org"
				cfg.Unvouched = func(from string, ar []string) string {
					judged = append(judged, ar)
					if from != cfg.Address {
						t.Errorf("the probe judged as from %s", from)
					}
					if len(ar) > 0 && strings.Contains(ar[0], "auth=pass smtp.auth="+from) {
						return ""
					}
					return "no Authentication-Results from mx.example.org"
				}
			}
			var lines []string
			failed, warned := "", ""
			ok := CheckMail(cfg, func(s CheckStep) {
				lines = append(lines, s.Name+": "+s.Detail)
				if !s.OK {
					failed = s.Name
				}
				if s.Warn {
					warned = s.Name
				}
			})
			report := strings.Join(lines, "\n")
			t.Log("\n" + report)
			if ok != (tc.failed == "") || failed != tc.failed || warned != tc.warned || !strings.Contains(report, tc.want) {
				t.Errorf("ok %v, failed %q, warned %q; want failed %q, warned %q and …%s…", ok, failed, warned, tc.failed, tc.warned, tc.want)
			}
			if tc.failed == "plus-addressing" && !strings.Contains(report, "Dovecot: recipient_delimiter = + in dovecot.conf") {
				t.Errorf("the bounce's hint does not name the delivering server's setting:\n%s", report)
			}
			if tc.judgedWith != nil && fmt.Sprint(judged) != fmt.Sprint([][]string{tc.judgedWith}) {
				t.Errorf("judged with %q, want %q", judged, tc.judgedWith)
			}
			for _, sub := range []string{"new", "cur"} {
				if left, _ := os.ReadDir(filepath.Join(md, sub)); len(left) != 0 {
					t.Errorf("%d files left in the Maildir's %s/", len(left), sub)
				}
			}
		})
	}
}
