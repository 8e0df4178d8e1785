package mailer

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"
)

// Explain names the setting that fixes each kind of failure, and tells
// failures that retrying cannot mend from outages.
func TestExplain(t *testing.T) {
	imapSrv := Server{Section: "imap", Addr: "mail.example.org:993", Security: "tls"}
	smtpSrv := Server{Section: "smtp", Addr: "mail.example.org:587", Security: "starttls"}
	wrap := func(err error) error { return fmt.Errorf("mailer: x: %w", err) }
	for _, tc := range []struct {
		name      string
		srv       Server
		err       error
		permanent bool
		want      string
	}{
		{"unknown authority", imapSrv, wrap(&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}), true, "set imap.tls_ca_file"},
		{"wrong name", smtpSrv, wrap(x509.HostnameError{Certificate: &x509.Certificate{DNSNames: []string{"a.example"}}, Host: "b.example"}), true, "set smtp.tls_server_name"},
		{"expired", imapSrv, wrap(x509.CertificateInvalidError{Reason: x509.Expired}), true, "not valid"},
		{"tls on a plain port", imapSrv, wrap(tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}), true, `set imap.security = "starttls"`},
		{"imap login refused", imapSrv, fmt.Errorf("mailer: imap: login as games: %w", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeAuthenticationFailed}), true, "check imap.username and imap.password"},
		{"no such mailbox", imapSrv, fmt.Errorf("mailer: imap: select Games: %w", &imap.Error{Type: imap.StatusResponseTypeNo, Code: imap.ResponseCodeNonExistent, Text: "no"}), true, "check imap.mailbox"},
		{"smtp auth refused", smtpSrv, wrap(&smtp.SMTPError{Code: 535, Message: "no"}), true, "check smtp.username and smtp.password"},
		{"nothing listens", smtpSrv, wrap(syscall.ECONNREFUSED), false, "nothing listens on mail.example.org:587"},
		{"smtp server on the imap port", imapSrv, wrap(errors.New(`in response: unknown tag "220"`)), true, "is an SMTP server, not IMAP"},
		{"no starttls offered", smtpSrv, wrap(errors.New("smtp: server doesn't support STARTTLS")), true, "does not offer STARTTLS"},
		{"an outage", imapSrv, wrap(errors.New("unexpected EOF")), false, "imap: mail.example.org:993: mailer: x: unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.srv.Explain(tc.err)
			if p.Permanent != tc.permanent || !strings.Contains(p.Advice, tc.want) {
				t.Errorf("Explain(%v) = %+v; want permanent %v and …%s…", tc.err, p, tc.permanent, tc.want)
			}
			if !errors.Is(p, tc.err) {
				t.Errorf("the Problem does not wrap the error")
			}
		})
	}
	if Explain := imapSrv.Explain(nil); Explain != nil {
		t.Errorf("Explain(nil) = %v", Explain)
	}
}
