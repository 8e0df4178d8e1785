package mailer

import (
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// CheckConfig is what CheckMail tries: the service's mailbox and
// submission server as serve would use them, and the service's address,
// whose plus-address the probe goes to.
type CheckConfig struct {
	IMAP    IMAPConfig
	SMTP    smtpclient.Config
	Address string // the service's address, local@domain
	// Wait is how long the probe may take to arrive; default one minute.
	Wait time.Duration
	// Greeting is how long a server may take to greet; default 10 s. A
	// session that is not TLS asks sooner whether the port speaks TLS
	// instead (tlsSniffDelay).
	Greeting time.Duration
	// Maildir, when set (serve's [maildir] path), is where the mail server
	// may deliver the service's mail instead of the IMAP mailbox: through
	// the `bottlepost deliver` pipe. The probe is looked for there too.
	Maildir string
	// TrustedAuthServ, when set (service.trusted_authserv), has the probe
	// judged as serve judges a player's mail: Unvouched (game.Unvouched)
	// is given the probe's sender and its Authentication-Results values,
	// topmost first, and says why serve would not act on such mail, or ""
	// when it would. A probe that would not be acted on is a warning: the
	// members' mail that reaches the service the same way, through the
	// submission port, would be refused.
	TrustedAuthServ string
	Unvouched       func(from string, authResults []string) string
}

// CheckStep is one line of CheckMail's report.
type CheckStep struct {
	Name string // "imap connect", "imap login", …
	// OK is false when the step failed or could not run; Note marks a
	// passed step with a remark (no IDLE, say); Warn a passed step whose
	// finding will stop part of the service (the probe not vouched for).
	OK, Note, Warn bool
	// Detail is what was found, or what is wrong and how to fix it.
	Detail string
}

// CheckMail tries the configuration against the real servers, one step
// after the other, and reports each: IMAP connection (TLS or STARTTLS as
// set), login, the mailbox, IDLE, the processed folder; SMTP connection
// and authentication; and a probe sent to ADDRESS+probe-…@DOMAIN through
// the SMTP server and awaited in the mailbox (or the Maildir a deliver
// pipe fills), then removed, proving that the mail server delivers
// plus-addresses, on which every reply relies; with TrustedAuthServ set,
// whether serve would act on the probe as it arrived. A failed step says
// what is wrong and which setting fixes it (the words of Server.Explain,
// which serve logs too); steps that depend on it are reported as not run.
// ok is true only when every step passed (a warning passes).
func CheckMail(cfg CheckConfig, report func(CheckStep)) (ok bool) {
	if cfg.Wait <= 0 {
		cfg.Wait = time.Minute
	}
	if cfg.Greeting <= 0 {
		cfg.Greeting = 10 * time.Second
	}
	ck := &checker{cfg: cfg, report: report, ok: true}
	src, err := NewIMAPSource(cfg.IMAP, nil)
	if err != nil {
		ck.step("imap connect", err, "")
		return false
	}
	ck.ic = src.cfg
	c, uidplus := ck.imapSteps(src)
	if c != nil {
		defer c.Close()
	}
	conn := ck.smtpStep()
	const probeStep = "plus-addressing"
	switch {
	case conn == nil:
		ck.skip(probeStep, "no SMTP session")
		return ck.ok
	case c == nil:
		conn.Close()
		ck.skip(probeStep, "no IMAP mailbox to wait in")
		return ck.ok
	}
	pr := &prober{c: c, conn: conn, cfg: cfg, ic: src.cfg, uidplus: uidplus}
	took, authResults, err := pr.run()
	conn.Close()
	where := ""
	if pr.inMaildir {
		where = " (in the Maildir " + cfg.Maildir + ", by the deliver pipe)"
	}
	if ck.step(probeStep, err, fmt.Sprintf("a probe to %s arrived%s in %v and was removed", probeAddress(cfg.Address, "…"), where, took.Round(100*time.Millisecond))) {
		ck.verdict(authResults)
	}
	return ck.ok
}

// checker reports CheckMail's steps.
type checker struct {
	cfg    CheckConfig
	ic     IMAPConfig // the IMAP settings with their defaults
	report func(CheckStep)
	ok     bool
}

// step reports a step that passed (err nil, saying detail) or failed
// (saying the Problem's advice, or the error), and whether it passed.
func (ck *checker) step(name string, err error, detail string) bool {
	s := CheckStep{Name: name, OK: err == nil, Detail: detail}
	if err != nil {
		ck.ok = false
		s.Detail = err.Error()
		if p := (*Problem)(nil); errors.As(err, &p) {
			s.Detail = p.Advice
		}
	}
	ck.report(s)
	return err == nil
}

// skip reports a step not tried, and why.
func (ck *checker) skip(name, why string) {
	ck.ok = false
	ck.report(CheckStep{Name: name, Detail: "not tried: " + why})
}

// imapSteps connects, logs in, selects the mailbox, tries IDLE and the
// processed folder. It returns the session with the mailbox selected, or
// nil when a step failed, and whether the server has UIDPLUS.
func (ck *checker) imapSteps(src *IMAPSource) (c *imapclient.Client, uidplus bool) {
	ic := src.cfg
	srv := Server{Section: "imap", Addr: ic.Addr, Security: ic.Security}
	c, err := src.checkConnect(ck.cfg.Greeting)
	if !ck.step("imap connect", orNil(srv.explainConnect(err, ck.cfg.Greeting)), fmt.Sprintf("%s (%s)", ic.Addr, ic.Security)) {
		ck.skip("imap login", "no connection")
		ck.skip("imap mailbox", "not logged in")
		ck.skip("imap idle", "no mailbox")
		ck.skip("imap processed folder", "no mailbox")
		return nil, false
	}
	fail := func(rest ...string) (*imapclient.Client, bool) {
		c.Close()
		for _, s := range rest {
			ck.skip(s, "no mailbox")
		}
		return nil, false
	}
	if err := c.Login(ic.Username, ic.Password).Wait(); err != nil {
		ck.step("imap login", srv.Explain(fmt.Errorf("mailer: imap: login as %s: %w", ic.Username, err)), "")
		ck.skip("imap mailbox", "not logged in")
		return fail("imap idle", "imap processed folder")
	}
	ck.step("imap login", nil, "as "+ic.Username)
	if _, err := c.Select(ic.Mailbox, nil).Wait(); err != nil {
		ck.step("imap mailbox", srv.Explain(fmt.Errorf("mailer: imap: select %s: %w", ic.Mailbox, err)), "")
		return fail("imap idle", "imap processed folder")
	}
	ck.step("imap mailbox", nil, ic.Mailbox)
	if c.Caps().Has(imap.CapIdle) {
		cmd, err := c.Idle()
		if err == nil {
			err = cmd.Close()
		}
		if err == nil {
			err = cmd.Wait()
		}
		ck.step("imap idle", err, "new mail is noticed at once")
	} else {
		ck.report(CheckStep{Name: "imap idle", OK: true, Note: true, Detail: fmt.Sprintf("the server has no IDLE: new mail is looked for every imap.poll_interval (%v)", ic.PollInterval)})
	}
	if ic.Processed == "" {
		ck.report(CheckStep{Name: "imap processed folder", OK: true, Note: true, Detail: "none set: handled mail is only flagged \\Seen"})
	} else {
		err := c.Create(ic.Processed, nil).Wait()
		detail := ic.Processed + " created"
		if err != nil && alreadyExists(err) {
			err, detail = nil, ic.Processed+" exists"
		}
		if err != nil {
			err = fmt.Errorf("imap: the processed folder %s cannot be created (%v): create it by hand, or set imap.processed_folder to an existing folder (or \"\" to only flag handled mail)", ic.Processed, err)
		}
		ck.step("imap processed folder", err, detail)
	}
	return c, c.Caps().Has(imap.CapUIDPlus)
}

// smtpStep opens an SMTP session as the outbox does (connection, TLS,
// authentication), or returns nil when it cannot.
func (ck *checker) smtpStep() *smtpclient.Conn {
	cfg := ck.cfg
	sender, err := smtpclient.New(cfg.SMTP)
	var conn *smtpclient.Conn
	if err == nil {
		sc := sender.Config()
		sc.Timeout = min(sc.Timeout, cfg.Greeting)
		sender, _ = smtpclient.New(sc)
		conn, err = sender.Dial()
		err = orNil(smtpServer(sc).explainConnect(err, cfg.Greeting))
	}
	detail := fmt.Sprintf("%s (%s)", cfg.SMTP.Addr, cfg.SMTP.Security)
	if cfg.SMTP.Username != "" {
		detail += ", authenticated as " + cfg.SMTP.Username
	}
	if !ck.step("smtp session", err, detail) {
		return nil
	}
	return conn
}

// verdict reports whether serve would act on the probe as it arrived,
// when it trusts a server's Authentication-Results (a warning if not).
func (ck *checker) verdict(authResults []string) {
	cfg := ck.cfg
	if cfg.TrustedAuthServ == "" || cfg.Unvouched == nil {
		return
	}
	const name = "trusted_authserv"
	why := cfg.Unvouched(cfg.Address, authResults)
	if why == "" {
		ck.report(CheckStep{Name: name, OK: true, Detail: fmt.Sprintf("the probe arrived vouched for by %s: serve acts on mail sent the same way", cfg.TrustedAuthServ)})
		return
	}
	ck.report(CheckStep{Name: name, OK: true, Warn: true, Detail: fmt.Sprintf(
		"the probe, sent as %s through %s, arrived without a verdict of %s that vouches for it (%s): serve will refuse the players' mail that reaches it the same way; have the submission port vouch for its logins, or leave service.trusted_authserv empty (docs/deploy.md, \"Who vouches for a sender\")",
		cfg.Address, cfg.SMTP.Addr, cfg.TrustedAuthServ, why)})
}

// orNil is p as an error: nil when p is.
func orNil(p *Problem) error {
	if p == nil {
		return nil
	}
	return p
}

// checkConnect opens an IMAP connection as the source does and waits for
// the greeting at most greeting long; a session that is not TLS on a port
// that speaks TLS fails at once (tlsSniffer).
func (s *IMAPSource) checkConnect(greeting time.Duration) (*imapclient.Client, error) {
	conn, err := net.DialTimeout("tcp", s.cfg.Addr, greeting)
	if err != nil {
		return nil, fmt.Errorf("mailer: imap: dial: %w", err)
	}
	wd := newWatchdog(greeting, conn)
	sniff := sniffTLS(Server{Section: "imap", Addr: s.cfg.Addr, Security: s.cfg.Security}, conn, greeting)
	c, err := s.client(conn, &imapclient.Options{})
	if err == nil {
		err = c.WaitGreeting()
	}
	sniff.stop()
	wd.pause()
	if err != nil {
		conn.Close()
		if wd.fired.Load() {
			return nil, fmt.Errorf("mailer: imap: %s did not answer within %v: %w", s.cfg.Addr, greeting, err)
		}
		return nil, sniff.explain(fmt.Errorf("mailer: imap: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err))
	}
	return c, nil
}

// probeAddress is address with +probe-token before the '@'.
func probeAddress(address, token string) string {
	local, domain, _ := strings.Cut(address, "@")
	return local + "+probe-" + token + "@" + domain
}
