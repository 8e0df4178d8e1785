package daemon

import (
	"bytes"
	"crypto/rand"
	"crypto/tls"
	"encoding/hex"
	"fmt"
	"net/mail"
	"strings"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"

	"github.com/bottlepost/bottlepost/mailer"
	"github.com/bottlepost/bottlepost/mailfmt"
)

// Player is a scripted mail user of the hub: it sends with SMTP and reads
// its INBOX with IMAP, like any mail client. The demo and the end-to-end
// tests play through it.
type Player struct {
	Address  string
	imapAddr string
	smtpAddr string
	password string
	tls      *tls.Config // STARTTLS on both sides when set
	seen     imap.UID
	// Inbox is every message received so far, oldest first.
	Inbox []*Received
	// Sign, if set, turns each message into the one submitted (a DKIM
	// signature added, as the player's provider would).
	Sign func(raw []byte) ([]byte, error)
}

// Received is a mail a Player got.
type Received struct {
	Raw     []byte
	Msg     *mailfmt.Message
	ReplyTo string
}

// Text is the received mail's text body.
func (r *Received) Text() string { return r.Msg.Body }

// NewPlayer is a hub account NAME@DOMAIN; an empty password is the
// account's own (Hub.Password).
func NewPlayer(h *mailer.Hub, name, password string) *Player {
	if password == "" {
		password, _ = h.Password(name)
	}
	return PlayerAt(name+"@"+h.Domain, h.IMAPAddr(), h.SMTPAddr(), password)
}

// PlayerAt is a player whose mail is on the IMAP and SMTP servers at those
// addresses (plain, loopback), logging in with its address and password: a
// hub in another process.
func PlayerAt(address, imapAddr, smtpAddr, password string) *Player {
	return &Player{Address: address, imapAddr: imapAddr, smtpAddr: smtpAddr, password: password}
}

// NewMailUser is an account on any mail server: it submits with AUTH on
// smtpAddr and reads INBOX on imapAddr, both after STARTTLS with tlsCfg
// (nil: plain, as on the hub).
func NewMailUser(address, password, imapAddr, smtpAddr string, tlsCfg *tls.Config) *Player {
	return &Player{Address: address, imapAddr: imapAddr, smtpAddr: smtpAddr, password: password, tls: tlsCfg}
}

// Mail describes a message a Player sends.
type Mail struct {
	From      string // default: the player's address (a spoofer sets another)
	To        string
	Subject   string
	Body      string
	InReplyTo string
	Headers   map[string]string // extra header fields
	Flowed    bool              // send the body as format=flowed
}

// Send submits a message (through the hub's SMTP server, or the mail
// server's submission port) and returns its Message-ID.
func (p *Player) Send(m Mail) (string, error) {
	from := m.From
	if from == "" {
		from = p.Address
	}
	var rnd [8]byte
	rand.Read(rnd[:])
	id := hex.EncodeToString(rnd[:]) + "@client.test"
	var b bytes.Buffer
	fmt.Fprintf(&b, "From: %s\r\nTo: %s\r\nSubject: %s\r\nDate: %s\r\nMessage-ID: <%s>\r\nMIME-Version: 1.0\r\n",
		(&mail.Address{Address: from}).String(), (&mail.Address{Address: m.To}).String(), m.Subject, time.Now().Format(time.RFC1123Z), id)
	if m.InReplyTo != "" {
		fmt.Fprintf(&b, "In-Reply-To: <%s>\r\nReferences: <%s>\r\n", m.InReplyTo, m.InReplyTo)
	}
	for k, v := range m.Headers {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	if m.Flowed {
		b.WriteString("Content-Type: text/plain; charset=utf-8; format=flowed\r\n\r\n")
	} else {
		b.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n")
	}
	b.WriteString(strings.ReplaceAll(m.Body, "\n", "\r\n"))
	raw := b.Bytes()
	if p.Sign != nil {
		var err error
		if raw, err = p.Sign(raw); err != nil {
			return "", err
		}
	}
	var c *smtp.Client
	var err error
	if p.tls != nil {
		c, err = smtp.DialStartTLS(p.smtpAddr, p.tls)
	} else {
		c, err = smtp.Dial(p.smtpAddr)
	}
	if err != nil {
		return "", err
	}
	defer c.Close()
	if err := c.Hello("client.test"); err != nil {
		return "", err
	}
	if err := c.Auth(sasl.NewPlainClient("", p.Address, p.password)); err != nil {
		return "", err
	}
	envFrom := from
	if v, ok := m.Headers["Return-Path"]; ok && v == "<>" {
		envFrom = ""
	}
	if err := c.SendMail(envFrom, []string{m.To}, bytes.NewReader(raw)); err != nil {
		return "", err
	}
	return id, c.Quit()
}

// Reply answers the newest received mail: to its Reply-To, same subject.
func (p *Player) Reply(body string) (string, error) {
	if len(p.Inbox) == 0 {
		return "", fmt.Errorf("%s has no mail to reply to", p.Address)
	}
	last := p.Inbox[len(p.Inbox)-1]
	subject := last.Msg.Subject
	if !strings.HasPrefix(strings.ToLower(subject), "re:") {
		subject = "Re: " + subject
	}
	quoted := "On " + time.Now().Format("Mon, Jan 2, 2006") + ", bottlepost wrote:\n> " + strings.ReplaceAll(strings.TrimSpace(last.Text()), "\n", "\n> ")
	return p.Send(Mail{To: last.ReplyTo, Subject: subject, Body: body + "\n\n" + quoted + "\n", InReplyTo: last.Msg.MessageID})
}

// Fetch reads the mail that arrived since the last call.
func (p *Player) Fetch() ([]*Received, error) {
	var c *imapclient.Client
	var err error
	if p.tls != nil {
		c, err = imapclient.DialStartTLS(p.imapAddr, &imapclient.Options{TLSConfig: p.tls})
	} else {
		c, err = imapclient.DialInsecure(p.imapAddr, nil)
	}
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Login(p.Address, p.password).Wait(); err != nil {
		return nil, err
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		return nil, err
	}
	crit := &imap.SearchCriteria{UID: []imap.UIDSet{{imap.UIDRange{Start: p.seen + 1, Stop: 0}}}}
	data, err := c.UIDSearch(crit, nil).Wait()
	if err != nil {
		return nil, err
	}
	var uids []imap.UID
	for _, u := range data.AllUIDs() {
		if u > p.seen {
			uids = append(uids, u)
		}
	}
	if len(uids) == 0 {
		return nil, c.Logout().Wait()
	}
	section := &imap.FetchItemBodySection{}
	msgs, err := c.Fetch(imap.UIDSetNum(uids...), &imap.FetchOptions{UID: true, BodySection: []*imap.FetchItemBodySection{section}}).Collect()
	if err != nil {
		return nil, err
	}
	var out []*Received
	for _, m := range msgs {
		raw := m.FindBodySection(section)
		pm, err := mailfmt.Parse(bytes.NewReader(raw), 1<<24)
		if err != nil {
			return nil, fmt.Errorf("%s received a mail that does not parse: %w", p.Address, err)
		}
		r := &Received{Raw: raw, Msg: pm}
		if len(pm.ReplyTo) > 0 {
			r.ReplyTo = pm.ReplyTo[0].Address
		}
		out = append(out, r)
		p.Inbox = append(p.Inbox, r)
		p.seen = max(p.seen, m.UID)
	}
	return out, c.Logout().Wait()
}

// Await fetches until a mail containing want arrives, or timeout.
func (p *Player) Await(want string, timeout time.Duration) (*Received, error) {
	deadline := time.Now().Add(timeout)
	for {
		got, err := p.Fetch()
		if err != nil {
			return nil, err
		}
		for _, r := range got {
			if strings.Contains(r.Text(), want) {
				return r, nil
			}
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: no mail containing %q within %v (got %d mails)", p.Address, want, timeout, len(p.Inbox))
		}
		time.Sleep(20 * time.Millisecond)
	}
}
