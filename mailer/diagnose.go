package mailer

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
)

// Problem is a failure to reach or use a mail server, explained for the
// person who configures the service: what is wrong and which setting fixes
// it. check-mail prints it; serve logs it.
type Problem struct {
	// Permanent is true when retrying cannot help until the configuration
	// or the server changes (a refused password, an untrusted certificate,
	// the wrong protocol on a port); false for outages.
	Permanent bool
	// Advice is one line: what is wrong and how to fix it.
	Advice string
	Err    error
}

func (p *Problem) Error() string { return p.Advice + " (" + p.Err.Error() + ")" }
func (p *Problem) Unwrap() error { return p.Err }

// Server names the server a failure is explained for: Section is the
// configuration section ("imap" or "smtp"), Addr is host:port and Security
// the configured "tls", "starttls" or "plain".
type Server struct {
	Section, Addr, Security string
}

// smtpServer is the submission server of cfg, for Explain.
func smtpServer(cfg smtpclient.Config) Server {
	return Server{Section: "smtp", Addr: cfg.Addr, Security: cfg.Security}
}

// Explain turns an error of the IMAP source, the Sender or check-mail into
// a Problem naming the setting that fixes it. Errors it does not recognise
// are outages: not permanent, with the error as the advice.
func (s Server) Explain(err error) *Problem {
	if err == nil {
		return nil
	}
	var p *Problem
	if errors.As(err, &p) {
		return p
	}
	perm := func(format string, args ...any) *Problem {
		return &Problem{Permanent: true, Advice: fmt.Sprintf(format, args...), Err: err}
	}
	sec := s.Section
	var (
		unknownCA  x509.UnknownAuthorityError
		hostname   x509.HostnameError
		invalid    x509.CertificateInvalidError
		record     tls.RecordHeaderError
		imapErr    *imap.Error
		smtpErr    *smtp.SMTPError
		alertErr   tls.AlertError
		badCAFile  *os.PathError
		wantStarts = map[string]string{"imap": "143", "smtp": "587"}
		wantTLS    = map[string]string{"imap": "993", "smtp": "465"}
	)
	switch {
	case errors.As(err, &unknownCA):
		return perm("%s: the certificate of %s is signed by an authority this machine does not trust: set %s.tls_ca_file to the PEM file of that authority (for a self-signed certificate, the certificate itself)", sec, s.Addr, sec)
	case errors.As(err, &hostname):
		return perm("%s: the certificate of %s is not valid for the name %q (%v): set %s.tls_server_name to a name the certificate holds, or set %s.host to it", sec, s.Addr, hostname.Host, hostname.Certificate.DNSNames, sec, sec)
	case errors.As(err, &invalid):
		return perm("%s: the certificate of %s is not valid (%v): the server must be given a valid certificate (expired or not yet valid certificates cannot be trusted by any setting)", sec, s.Addr, invalid.Error())
	case errors.As(err, &record):
		if s.Security == "tls" {
			return perm("%s: %s does not speak TLS at once (it sent plain text): it is a STARTTLS or plain port; set %s.security = \"starttls\" (usually port %s) or %s.port to the server's TLS port (usually %s)", sec, s.Addr, sec, wantStarts[sec], sec, wantTLS[sec])
		}
		return perm("%s: the TLS handshake with %s failed: %v", sec, s.Addr, record)
	case errors.As(err, &alertErr):
		return perm("%s: %s refused the TLS handshake (%v): check %s.tls_server_name and the server's TLS settings", sec, s.Addr, alertErr, sec)
	case errors.As(err, &imapErr) && (imapErr.Code == imap.ResponseCodeAuthenticationFailed || strings.Contains(err.Error(), "login as")):
		return perm("%s: %s refused the username or password: check %s.username and %s.password (hosted mailboxes often need an app password)", sec, s.Addr, sec, sec)
	case errors.As(err, &imapErr) && (imapErr.Code == imap.ResponseCodeNonExistent || strings.Contains(err.Error(), "select ")):
		return perm("%s: the mailbox does not exist on %s (%s): check %s.mailbox (case matters; INBOX is always there)", sec, s.Addr, imapErr.Text, sec)
	case errors.As(err, &smtpErr) && (smtpErr.Code == 535 || smtpErr.Code == 534 || smtpErr.Code == 530 && strings.Contains(err.Error(), "auth")):
		return perm("%s: %s refused the username or password (%d %s): check %s.username and %s.password (hosted mailboxes often need an app password)", sec, s.Addr, smtpErr.Code, smtpErr.Message, sec, sec)
	case errors.Is(err, syscall.ECONNREFUSED):
		return &Problem{Advice: fmt.Sprintf("%s: nothing listens on %s: check %s.host and %s.port (%s usually %s for tls, %s for starttls), or the server is down", sec, s.Addr, sec, sec, strings.ToUpper(sec), wantTLS[sec], wantStarts[sec]), Err: err}
	case errors.As(err, &badCAFile):
		return perm("%s: %v", sec, err)
	}
	msg := err.Error()
	switch {
	case strings.Contains(msg, "STARTTLS"): // the server refused or does not know the command
		return perm("%s: %s does not offer STARTTLS: if it is a TLS port (usually %s) set %s.security = \"tls\"; otherwise the server must be configured for TLS", sec, s.Addr, wantTLS[sec], sec)
	case sec == "imap" && (strings.Contains(msg, `unknown tag "220"`) || strings.Contains(msg, "220 ") && strings.Contains(msg, "SMTP")):
		return perm("imap: %s is an SMTP server, not IMAP: check imap.port (993 for tls, 143 for starttls)", s.Addr)
	case sec == "smtp" && strings.Contains(msg, "* OK"):
		return perm("smtp: %s is an IMAP server, not SMTP: check smtp.port (587 for starttls, 465 for tls)", s.Addr)
	case strings.Contains(msg, "did not answer") && s.Security != "tls":
		return &Problem{Advice: fmt.Sprintf("%s: %s accepted the connection but sent no greeting: if it is a TLS port (usually %s) set %s.security = \"tls\"; otherwise the server is stuck", sec, s.Addr, wantTLS[sec], sec), Err: err}
	}
	return &Problem{Advice: fmt.Sprintf("%s: %s: %v", sec, s.Addr, err), Err: err}
}

// explainConnect explains a failure to open a session. When the failure
// says nothing clear (a server silent where a greeting was due, a
// connection closed) and the session was not TLS, the port is asked
// whether it speaks TLS: that tells a TLS port used with STARTTLS or plain.
func (srv Server) explainConnect(err error, wait time.Duration) *Problem {
	p := srv.Explain(err)
	if p == nil {
		return nil
	}
	if !p.Permanent && srv.Security != "tls" && !errors.Is(err, syscall.ECONNREFUSED) && speaksTLS(srv.Addr, wait) {
		return srv.tlsPortProblem(err)
	}
	return p
}

// tlsPortProblem says that srv's port speaks TLS at once while the
// configuration asks for STARTTLS or plain.
func (srv Server) tlsPortProblem(err error) *Problem {
	wantTLS := map[string]string{"imap": "993", "smtp": "465"}
	return &Problem{Permanent: true, Err: err, Advice: fmt.Sprintf("%s: %s speaks TLS at once (it waits for a TLS handshake, not for %s): set %s.security = \"tls\" (the usual for port %s), or %s.port to the server's STARTTLS port",
		srv.Section, srv.Addr, srv.Security, srv.Section, wantTLS[srv.Section], srv.Section)}
}

// speaksTLS reports whether a TLS handshake with addr succeeds (the
// certificate unchecked: this only tells the protocol).
func speaksTLS(addr string, wait time.Duration) bool {
	conn, err := net.DialTimeout("tcp", addr, wait)
	if err != nil {
		return false
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(wait))
	host, _, _ := net.SplitHostPort(addr)
	return tls.Client(conn, &tls.Config{InsecureSkipVerify: true, ServerName: host}).Handshake() == nil
}

// connectExplainer is explainConnect for serve's retry loops: the answer
// for an error is remembered, so that a streak of the same failure (an
// outage) costs no second connection per retry to ask the port whether it
// speaks TLS.
type connectExplainer struct {
	last string
	p    *Problem
}

func (e *connectExplainer) explain(srv Server, err error, wait time.Duration) *Problem {
	if err == nil {
		return nil
	}
	if e.p == nil || err.Error() != e.last {
		e.last, e.p = err.Error(), srv.explainConnect(err, wait)
	}
	return &Problem{Permanent: e.p.Permanent, Advice: e.p.Advice, Err: err}
}
