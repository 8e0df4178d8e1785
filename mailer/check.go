package mailer

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
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
	// Greeting is how long a server may take to greet before check-mail
	// looks whether the port speaks TLS instead; default 10 s.
	Greeting time.Duration
}

// CheckStep is one line of CheckMail's report.
type CheckStep struct {
	Name string // "imap connect", "imap login", …
	// OK is false when the step failed or could not run; Note marks a
	// passed step with a remark (no IDLE, say).
	OK, Note bool
	// Detail is what was found, or what is wrong and how to fix it.
	Detail string
}

// CheckMail tries the configuration against the real servers, one step
// after the other, and reports each: IMAP connection (TLS or STARTTLS as
// set), login, the mailbox, IDLE, the processed folder; SMTP connection
// and authentication; and a probe sent to ADDRESS+probe-…@DOMAIN through
// the SMTP server and awaited in the mailbox (then removed), proving that
// the mail server delivers plus-addresses, on which every reply relies. A
// failed step says what is wrong and which setting fixes it (the words of
// Server.Explain, which serve logs too); steps that depend on it are
// reported as not run. ok is true only when every step passed.
func CheckMail(cfg CheckConfig, report func(CheckStep)) (ok bool) {
	if cfg.Wait <= 0 {
		cfg.Wait = time.Minute
	}
	if cfg.Greeting <= 0 {
		cfg.Greeting = 10 * time.Second
	}
	ok = true
	step := func(name string, err error, detail string) bool {
		s := CheckStep{Name: name, OK: err == nil, Detail: detail}
		if err != nil {
			ok = false
			s.Detail = err.Error()
			if p := (*Problem)(nil); errors.As(err, &p) {
				s.Detail = p.Advice
			}
		}
		report(s)
		return err == nil
	}
	skip := func(name, why string) {
		ok = false
		report(CheckStep{Name: name, Detail: "not tried: " + why})
	}

	src, err := NewIMAPSource(cfg.IMAP, nil)
	if err != nil {
		step("imap connect", err, "")
		return false
	}
	imapSrv := Server{Section: "imap", Addr: src.cfg.Addr, Security: src.cfg.Security}
	c, err := src.checkConnect(cfg.Greeting)
	var idle, uidplus bool
	if step("imap connect", orNil(imapSrv.explainConnect(err, cfg.Greeting)), fmt.Sprintf("%s (%s)", src.cfg.Addr, src.cfg.Security)) {
		defer c.Close()
		err := c.Login(src.cfg.Username, src.cfg.Password).Wait()
		if err != nil {
			err = imapSrv.Explain(fmt.Errorf("mailer: imap: login as %s: %w", src.cfg.Username, err))
		}
		if !step("imap login", err, "as "+src.cfg.Username) {
			c = nil
		}
	} else {
		c = nil
		skip("imap login", "no connection")
	}
	if c != nil {
		_, err := c.Select(src.cfg.Mailbox, nil).Wait()
		if err != nil {
			err = imapSrv.Explain(fmt.Errorf("mailer: imap: select %s: %w", src.cfg.Mailbox, err))
		}
		if !step("imap mailbox", err, src.cfg.Mailbox) {
			c = nil
		}
	} else {
		skip("imap mailbox", "not logged in")
	}
	if c != nil {
		idle = c.Caps().Has(imap.CapIdle)
		uidplus = c.Caps().Has(imap.CapUIDPlus)
		if idle {
			cmd, err := c.Idle()
			if err == nil {
				err = cmd.Close()
			}
			if err == nil {
				err = cmd.Wait()
			}
			step("imap idle", err, "new mail is noticed at once")
		} else {
			report(CheckStep{Name: "imap idle", OK: true, Note: true, Detail: fmt.Sprintf("the server has no IDLE: new mail is looked for every imap.poll_interval (%v)", src.cfg.PollInterval)})
		}
		if src.cfg.Processed == "" {
			report(CheckStep{Name: "imap processed folder", OK: true, Note: true, Detail: "none set: handled mail is only flagged \\Seen"})
		} else {
			err := c.Create(src.cfg.Processed, nil).Wait()
			detail := src.cfg.Processed + " created"
			if err != nil && alreadyExists(err) {
				err, detail = nil, src.cfg.Processed+" exists"
			}
			if err != nil {
				err = fmt.Errorf("imap: the processed folder %s cannot be created (%v): create it by hand, or set imap.processed_folder to an existing folder (or \"\" to only flag handled mail)", src.cfg.Processed, err)
			}
			step("imap processed folder", err, detail)
		}
	} else {
		skip("imap idle", "no mailbox")
		skip("imap processed folder", "no mailbox")
	}

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
	if !step("smtp session", err, detail) {
		conn = nil
	}

	const probeStep = "plus-addressing"
	switch {
	case conn == nil:
		skip(probeStep, "no SMTP session")
		return ok
	case c == nil:
		conn.Close()
		skip(probeStep, "no IMAP mailbox to wait in")
		return ok
	}
	took, err := probe(c, conn, cfg, src.cfg, uidplus)
	conn.Close()
	step(probeStep, err, fmt.Sprintf("a probe to %s arrived in %v and was removed", probeAddress(cfg.Address, "…"), took.Round(100*time.Millisecond)))
	return ok
}

// orNil is p as an error: nil when p is.
func orNil(p *Problem) error {
	if p == nil {
		return nil
	}
	return p
}

// checkConnect opens an IMAP connection as the source does and waits for
// the greeting at most greeting long.
func (s *IMAPSource) checkConnect(greeting time.Duration) (*imapclient.Client, error) {
	conn, err := net.DialTimeout("tcp", s.cfg.Addr, greeting)
	if err != nil {
		return nil, fmt.Errorf("mailer: imap: dial: %w", err)
	}
	wd := newWatchdog(greeting, conn)
	c, err := s.client(conn, &imapclient.Options{})
	if err == nil {
		err = c.WaitGreeting()
	}
	wd.pause()
	if err != nil {
		conn.Close()
		if wd.fired.Load() {
			return nil, fmt.Errorf("mailer: imap: %s did not answer within %v: %w", s.cfg.Addr, greeting, err)
		}
		return nil, fmt.Errorf("mailer: imap: %s with %s: %w", s.cfg.Security, s.cfg.Addr, err)
	}
	return c, nil
}

// probeAddress is address with +probe-token before the '@'.
func probeAddress(address, token string) string {
	local, domain, _ := strings.Cut(address, "@")
	return local + "+probe-" + token + "@" + domain
}

// probe sends a probe to the service's plus-address and waits for it in
// the mailbox (or in the processed folder, should a running serve have
// moved it already), then removes it. A bounce of it (the mail server did
// not know the plus-address) fails the step, and is removed too.
func probe(c *imapclient.Client, conn *smtpclient.Conn, cfg CheckConfig, ic IMAPConfig, uidplus bool) (time.Duration, error) {
	var b [6]byte
	rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	to := probeAddress(cfg.Address, token)
	subject := "bottlepost check-mail probe " + token
	o := &mailfmt.Outgoing{From: mail.Address{Name: "bottlepost check-mail", Address: cfg.Address}, To: to, Subject: subject,
		MessageID: "probe-" + token + "@" + strings.SplitN(cfg.Address, "@", 2)[1], Date: time.Now(),
		AutoSubmitted: "auto-generated", // no auto-reply answers it
		Text:          fmt.Sprintf("This message checks that mail to %s reaches the mailbox of %s.\nbottlepost check-mail removes it; it can be deleted.\n", to, cfg.Address)}
	raw, err := o.Bytes()
	if err != nil {
		return 0, err
	}
	start := time.Now()
	if err := conn.Send(cfg.Address, []string{to}, raw); err != nil {
		var se *smtp.SMTPError
		if errors.As(err, &se) && se.Code >= 500 {
			return 0, fmt.Errorf("%s refused the plus-address %s (%d %s): the mail server must deliver ADDRESS+anything@DOMAIN to ADDRESS's mailbox, or no reply can reach the service (Postfix: recipient_delimiter = +; see docs/deploy.md)", cfg.SMTP.Addr, to, se.Code, se.Message)
		}
		return 0, fmt.Errorf("smtp: the probe to %s was not accepted: %v", to, err)
	}
	folders := []string{ic.Mailbox}
	if ic.Processed != "" {
		folders = append(folders, ic.Processed)
	}
	remove := func(uids []imap.UID) {
		set := imap.UIDSetNum(uids...)
		c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
		if uidplus {
			c.UIDExpunge(set).Close()
		} else {
			c.Expunge().Close()
		}
	}
	for time.Since(start) < cfg.Wait {
		for _, folder := range folders {
			if _, err := c.Select(folder, nil).Wait(); err != nil {
				continue // the processed folder may not exist yet
			}
			found, err := c.UIDSearch(&imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: token}}}, nil).Wait()
			if err != nil {
				return 0, fmt.Errorf("imap: search for the probe: %v", err)
			}
			if uids := found.AllUIDs(); len(uids) > 0 {
				took := time.Since(start)
				remove(uids)
				return took, nil
			}
			// A bounce quotes the probe; the probe itself (arrived since the
			// search above) is not one.
			bounced, err := c.UIDSearch(&imap.SearchCriteria{Text: []string{"probe-" + token},
				Not: []imap.SearchCriteria{{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: token}}}}}, nil).Wait()
			if err == nil && len(bounced.AllUIDs()) > 0 {
				remove(bounced.AllUIDs())
				return 0, fmt.Errorf("the mail server bounced the probe to %s back to %s: it does not deliver plus-addresses to the service's mailbox, so no reply can reach the service; enable them (Postfix: recipient_delimiter = +; a hosted mailbox: subaddressing; see docs/deploy.md)", to, cfg.Address)
			}
		}
		time.Sleep(500 * time.Millisecond)
	}
	return 0, fmt.Errorf("the probe to %s did not arrive in %s within %v: the mail server must deliver ADDRESS+anything@DOMAIN to ADDRESS's mailbox (Postfix: recipient_delimiter = +; see docs/deploy.md), or it is slow (check-mail --wait)", to, ic.Mailbox, cfg.Wait)
}
