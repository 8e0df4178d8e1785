package game

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"time"
)

// Outgoing is a mail the service sends, before it is written out.
type Outgoing struct {
	To        string // the recipient's address
	Subject   string
	ReplyTo   string // games+TOKEN@domain, so that replying just works
	MessageID string // without angle brackets
	InReplyTo string // without angle brackets; "" for none
	// References lists the thread's ancestors, oldest first, without brackets.
	References []string
	Text       string
	HTML       string
}

// Bytes writes the mail as an RFC 5322 message: a multipart/alternative
// with a quoted-printable UTF-8 text part and an HTML part. Everything is
// derived from the mail and from, date: the same input gives the same bytes.
func (o *Outgoing) Bytes(from mail.Address, date time.Time) []byte {
	var b bytes.Buffer
	h := func(name, value string) { fmt.Fprintf(&b, "%s: %s\r\n", name, value) }
	h("From", from.String())
	to := mail.Address{Address: o.To}
	h("To", to.String())
	if o.ReplyTo != "" {
		h("Reply-To", (&mail.Address{Name: from.Name, Address: o.ReplyTo}).String())
	}
	h("Subject", mime.QEncoding.Encode("utf-8", o.Subject))
	h("Date", date.Format(time.RFC1123Z))
	h("Message-ID", "<"+o.MessageID+">")
	if o.InReplyTo != "" {
		h("In-Reply-To", "<"+o.InReplyTo+">")
	}
	if len(o.References) > 0 {
		refs := make([]string, len(o.References))
		for i, r := range o.References {
			refs[i] = "<" + r + ">"
		}
		h("References", strings.Join(refs, "\r\n "))
	}
	h("Auto-Submitted", "auto-replied")
	h("X-Auto-Response-Suppress", "All")
	h("MIME-Version", "1.0")
	sum := sha256.Sum256([]byte(o.MessageID))
	boundary := "bp-" + hex.EncodeToString(sum[:12])
	h("Content-Type", `multipart/alternative; boundary="`+boundary+`"`)
	b.WriteString("\r\n")
	part := func(ctype, body string) {
		fmt.Fprintf(&b, "--%s\r\nContent-Type: %s; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n", boundary, ctype)
		w := quotedprintable.NewWriter(&b)
		w.Write([]byte(strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n")))
		w.Close()
		b.WriteString("\r\n")
	}
	part("text/plain", o.Text)
	if o.HTML != "" {
		part("text/html", o.HTML)
	}
	fmt.Fprintf(&b, "--%s--\r\n", boundary)
	return b.Bytes()
}
