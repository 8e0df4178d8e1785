package mailer

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"github.com/bottlepost/bottlepost/mailfmt"
	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-message/mail"
	"github.com/emersion/go-smtp"
)

// prober sends check-mail's probe to the service's plus-address and waits
// for it in the mailbox (or in the processed folder, should a running serve
// have moved it already; or in the Maildir of a deliver pipe), then removes
// it. A bounce of it (the mail server did not know the plus-address) fails
// the step, saying whose setting to fix, and is removed too.
type prober struct {
	c       *imapclient.Client
	conn    *smtpclient.Conn
	cfg     CheckConfig
	ic      IMAPConfig
	uidplus bool

	token, to string
	inMaildir bool // the probe was found in the Maildir
}

// run sends the probe and waits for it; it returns how long it took and
// the Authentication-Results values it arrived with, topmost first.
func (p *prober) run() (time.Duration, []string, error) {
	var b [6]byte
	rand.Read(b[:])
	p.token = hex.EncodeToString(b[:])
	p.to = probeAddress(p.cfg.Address, p.token)
	start := time.Now()
	if err := p.send(); err != nil {
		return 0, nil, err
	}
	for time.Since(start) < p.cfg.Wait {
		found, ar, err := p.lookIMAP()
		if !found && err == nil && p.cfg.Maildir != "" {
			found, ar, err = p.lookMaildir()
			p.inMaildir = found
		}
		if found || err != nil {
			return time.Since(start), ar, err
		}
		time.Sleep(500 * time.Millisecond)
	}
	where := p.ic.Mailbox
	if p.cfg.Maildir != "" {
		where += " or the Maildir " + p.cfg.Maildir
	}
	return 0, nil, fmt.Errorf("the probe to %s did not arrive in %s within %v: the mail server must deliver ADDRESS+anything@DOMAIN to ADDRESS's mailbox (Postfix: recipient_delimiter = + in main.cf; Dovecot: recipient_delimiter = + in dovecot.conf; see docs/deploy.md), or it is slow (check-mail --wait)", p.to, where, p.cfg.Wait)
}

// send submits the probe; a refusal of its address names the submission
// server's setting.
func (p *prober) send() error {
	cfg := p.cfg
	o := &mailfmt.Outgoing{From: mail.Address{Name: "bottlepost check-mail", Address: cfg.Address}, To: p.to, Subject: "bottlepost check-mail probe " + p.token,
		MessageID: "probe-" + p.token + "@" + strings.SplitN(cfg.Address, "@", 2)[1], Date: time.Now(),
		AutoSubmitted: "auto-generated", // no auto-reply answers it
		Text:          fmt.Sprintf("This message checks that mail to %s reaches the mailbox of %s.\nbottlepost check-mail removes it; it can be deleted.\n", p.to, cfg.Address)}
	raw, err := o.Bytes()
	if err != nil {
		return err
	}
	if err := p.conn.Send(cfg.Address, []string{p.to}, raw); err != nil {
		var se *smtp.SMTPError
		if errors.As(err, &se) && se.Code >= 500 {
			return fmt.Errorf("%s refused the plus-address %s (%d %s): the mail server must deliver ADDRESS+anything@DOMAIN to ADDRESS's mailbox, or no reply can reach the service (Postfix: recipient_delimiter = + in main.cf; see docs/deploy.md)", cfg.SMTP.Addr, p.to, se.Code, se.Message)
		}
		return fmt.Errorf("smtp: the probe to %s was not accepted: %v", p.to, err)
	}
	return nil
}

// bounced is the error for a bounce of the probe: the submission server
// took the address, so the server that stores the mail did not know it.
// diagnostic is the bounce's own words, when it has them.
func (p *prober) bounced(diagnostic string) error {
	if diagnostic != "" {
		diagnostic = " (" + diagnostic + ")"
	}
	return fmt.Errorf("the submission server took the probe to %s, but its delivery bounced back to %s%s: the server that stores the mail does not deliver plus-addresses to the service's mailbox, so no reply can reach the service (Dovecot: recipient_delimiter = + in dovecot.conf; a hosted mailbox: subaddressing; see docs/deploy.md)", p.to, p.cfg.Address, diagnostic)
}

// lookIMAP looks for the probe, and for a bounce of it, in the mailbox and
// the processed folder, and removes what it finds.
func (p *prober) lookIMAP() (found bool, authResults []string, err error) {
	folders := []string{p.ic.Mailbox}
	if p.ic.Processed != "" {
		folders = append(folders, p.ic.Processed)
	}
	c := p.c
	for _, folder := range folders {
		if _, err := c.Select(folder, nil).Wait(); err != nil {
			continue // the processed folder may not exist yet
		}
		subject := imap.SearchCriteria{Header: []imap.SearchCriteriaHeaderField{{Key: "Subject", Value: p.token}}}
		res, err := c.UIDSearch(&subject, nil).Wait()
		if err != nil {
			return false, nil, fmt.Errorf("imap: search for the probe: %v", err)
		}
		if uids := res.AllUIDs(); len(uids) > 0 {
			header := p.fetch(uids[0], &imap.FetchItemBodySection{Specifier: imap.PartSpecifierHeader, Peek: true})
			p.remove(uids)
			return true, headerValues(header, "Authentication-Results"), nil
		}
		// A bounce quotes the probe; the probe itself (arrived since the
		// search above) is not one.
		res, err = c.UIDSearch(&imap.SearchCriteria{Text: []string{"probe-" + p.token}, Not: []imap.SearchCriteria{subject}}, nil).Wait()
		if uids := res.AllUIDs(); err == nil && len(uids) > 0 {
			text := p.fetch(uids[0], &imap.FetchItemBodySection{Specifier: imap.PartSpecifierText, Peek: true})
			p.remove(uids)
			return false, nil, p.bounced(diagnosticCode(text))
		}
	}
	return false, nil, nil
}

// fetch is a section of one message, or nil.
func (p *prober) fetch(uid imap.UID, section *imap.FetchItemBodySection) []byte {
	msgs, err := p.c.Fetch(imap.UIDSetNum(uid), &imap.FetchOptions{BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil || len(msgs) == 0 {
		return nil
	}
	return msgs[0].FindBodySection(section)
}

// remove deletes messages of the selected folder.
func (p *prober) remove(uids []imap.UID) {
	set := imap.UIDSetNum(uids...)
	p.c.Store(set, &imap.StoreFlags{Op: imap.StoreFlagsAdd, Silent: true, Flags: []imap.Flag{imap.FlagDeleted}}, nil).Close()
	if p.uidplus {
		p.c.UIDExpunge(set).Close()
	} else {
		p.c.Expunge().Close()
	}
}

// lookMaildir looks for the probe, and for a bounce of it, in the new/ and
// cur/ folders of the Maildir a deliver pipe fills (serve moves what it
// read to cur/), and removes what it finds.
func (p *prober) lookMaildir() (found bool, authResults []string, err error) {
	for _, sub := range []string{"new", "cur"} {
		dir := filepath.Join(p.cfg.Maildir, sub)
		entries, err := os.ReadDir(dir)
		if err != nil {
			return false, nil, fmt.Errorf("maildir: the probe cannot be looked for in %s: %v (check-mail must run as a user who may read the Maildir, serve's or root)", dir, err)
		}
		for _, e := range entries {
			path := filepath.Join(dir, e.Name())
			data, err := readHead(path, 1<<20)
			if err != nil {
				continue // gone meanwhile
			}
			header, body, _ := bytes.Cut(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n")), []byte("\n\n"))
			switch {
			case bytes.Contains(header, []byte("probe "+p.token)):
				os.Remove(path)
				return true, headerValues(header, "Authentication-Results"), nil
			case bytes.Contains(body, []byte("probe-"+p.token)):
				os.Remove(path)
				return false, nil, p.bounced(diagnosticCode(body))
			}
		}
	}
	return false, nil, nil
}

// readHead reads at most n bytes of a file.
func readHead(path string, n int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// headerValues are the values of a header field, unfolded, in the order
// they stand (topmost first).
func headerValues(header []byte, field string) []string {
	h, err := textproto.NewReader(bufio.NewReader(bytes.NewReader(append(bytes.TrimRight(header, "\r\n"), "\r\n\r\n"...)))).ReadMIMEHeader()
	if err != nil && len(h) == 0 {
		return nil
	}
	return h.Values(field)
}

// diagnosticCode is the Diagnostic-Code of a delivery status notification
// (RFC 3464), what the server that refused the mail said, unfolded; "" when
// the text has none.
func diagnosticCode(text []byte) string {
	lines := strings.Split(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n")
	for i, l := range lines {
		rest, ok := strings.CutPrefix(l, "Diagnostic-Code:")
		if !ok {
			continue
		}
		for _, next := range lines[i+1:] {
			if next == "" || (next[0] != ' ' && next[0] != '\t') {
				break
			}
			rest += " " + strings.TrimSpace(next)
		}
		_, rest, _ = strings.Cut(rest, ";") // "smtp; 550 …"
		if rest = strings.Join(strings.Fields(rest), " "); len(rest) > 200 {
			rest = rest[:200] + "…"
		}
		return rest
	}
	return ""
}
