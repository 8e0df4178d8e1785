package mailfmt

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/mail"
)

// Outgoing is a mail the service sends, before it is written out: the
// envelope-level fields, a text part, an optional HTML alternative and any
// number of attachments.
type Outgoing struct {
	From      mail.Address // the service's address, with its display name
	To        string       // the recipient's address
	Subject   string
	ReplyTo   string // games+TOKEN@domain, so that replying just works; shown with From's name
	MessageID string // without angle brackets
	InReplyTo string // without angle brackets; "" for none
	// References lists the thread's ancestors, oldest first, without brackets.
	References []string
	Date       time.Time
	Text       string // the text/plain part
	HTML       string // the text/html alternative; "" for none
	// Attachments follow the text in a multipart/mixed message.
	Attachments []Attachment
	// AutoSubmitted is the Auto-Submitted field (RFC 3834): "auto-replied"
	// when empty, the service's answers; "auto-generated" for mail that
	// answers nothing (check-mail's probe).
	AutoSubmitted string
}

// Attachment is a file carried by an Outgoing mail.
type Attachment struct {
	Filename    string // the name offered for saving, e.g. "bp-42.pgn"
	ContentType string // e.g. "application/vnd.chess-pgn"; parameters allowed
	Data        []byte // sent base64-encoded
}

// Bytes writes the mail as an RFC 5322 message with go-message's writer:
// header fields folded, non-ASCII text in encoded words short enough for
// every line to stay under 78 characters (encodeText; a subject's plain
// words before them as they are, encodeSubject); the text (and
// HTML) as a multipart/alternative of UTF-8 parts, each as it is (7bit)
// when it can go so and quoted-printable otherwise (sevenBit), wrapped in a
// multipart/mixed with the attachments when there are any. Every mail
// is marked Auto-Submitted (RFC 3834), so that other robots do not answer
// it.
//
// The output depends only on o: the MIME boundaries are derived from the
// Message-ID (go-message's mail.CreateWriter would pick random ones), so a
// mail composed twice is the same bytes, which golden files and the
// non-interference tests rely on.
func (o *Outgoing) Bytes() ([]byte, error) {
	if o.MessageID == "" {
		return nil, errors.New("mailfmt: compose: no Message-ID")
	}
	if o.To == "" {
		return nil, errors.New("mailfmt: compose: no recipient")
	}
	var h mail.Header
	// go-message writes header fields in the reverse order of their
	// addition: the last added comes first.
	boundary := o.boundary("a")
	if len(o.Attachments) > 0 {
		h.SetContentType("multipart/mixed", map[string]string{"boundary": o.boundary("m")})
	} else {
		h.SetContentType("multipart/alternative", map[string]string{"boundary": boundary})
	}
	h.Set("MIME-Version", "1.0")
	h.Set("X-Auto-Response-Suppress", "All")
	h.Set("Auto-Submitted", cmp.Or(o.AutoSubmitted, "auto-replied"))
	if len(o.References) > 0 {
		h.SetMsgIDList("References", o.References)
	}
	if o.InReplyTo != "" {
		h.SetMsgIDList("In-Reply-To", []string{o.InReplyTo})
	}
	h.SetMessageID(o.MessageID)
	h.SetDate(o.Date)
	h.Set("Subject", encodeSubject(o.Subject))
	if o.ReplyTo != "" {
		h.Set("Reply-To", formatAddress(mail.Address{Name: o.From.Name, Address: o.ReplyTo}))
	}
	h.Set("To", formatAddress(mail.Address{Address: o.To}))
	h.Set("From", formatAddress(o.From))

	var b bytes.Buffer
	b.Grow(o.sizeHint())
	w, err := message.CreateWriter(&b, h.Header)
	if err != nil {
		return nil, fmt.Errorf("mailfmt: compose: %w", err)
	}
	alt := w
	if len(o.Attachments) > 0 {
		var ah message.Header
		ah.SetContentType("multipart/alternative", map[string]string{"boundary": boundary})
		if alt, err = w.CreatePart(ah); err != nil {
			return nil, fmt.Errorf("mailfmt: compose: %w", err)
		}
	}
	// A part's text must hold neither boundary around it.
	boundaries := []string{boundary}
	if len(o.Attachments) > 0 {
		boundaries = append(boundaries, o.boundary("m"))
	}
	if err := textPart(alt, partHeaders[plainPart], "text/plain", o.Text, boundaries); err != nil {
		return nil, err
	}
	if o.HTML != "" {
		if err := textPart(alt, partHeaders[htmlPart], "text/html", o.HTML, boundaries); err != nil {
			return nil, err
		}
	}
	if len(o.Attachments) > 0 {
		if err := alt.Close(); err != nil {
			return nil, fmt.Errorf("mailfmt: compose: %w", err)
		}
		for _, a := range o.Attachments {
			if err := attachment(w, a); err != nil {
				return nil, err
			}
		}
	}
	if err := w.Close(); err != nil {
		return nil, fmt.Errorf("mailfmt: compose: %w", err)
	}
	return b.Bytes(), nil
}

// sizeHint estimates the bytes of the written mail, a little more than a
// usual mail takes, so that it is written into one buffer without growing
// it: the header and part headers, the parts quoted-printable (an HTML
// part's "=" signs take three bytes each, and every line of 76 one more
// soft break), the attachments in base64.
func (o *Outgoing) sizeHint() int {
	n := 1536 + len(o.Subject) + len(o.To) + len(o.ReplyTo) + len(o.InReplyTo)
	for _, r := range o.References {
		n += len(r) + 4
	}
	n += len(o.Text) + len(o.Text)/16
	n += len(o.HTML) + len(o.HTML)/8
	for _, a := range o.Attachments {
		n += len(a.Data)*4/3 + len(a.Data)/38 + 512
	}
	return n
}

// boundary is a MIME boundary of the mail, different for each kind of
// multipart in it and never found in quoted-printable or base64 text (it
// holds "=_", which neither encoding produces).
func (o *Outgoing) boundary(kind string) string {
	sum := sha256.Sum256([]byte(o.MessageID))
	return "bp-" + kind + "=_" + hex.EncodeToString(sum[:12])
}

// The kinds of text part.
const (
	plainPart = iota
	htmlPart
)

// partHeader is a kind of text part's header in each transfer encoding.
type partHeader struct{ qp, sevenBit message.Header }

// partHeaders are the headers of each kind of text part, made once (go-message's
// CreatePart copies the header it is given and only reads it): quoted-printable,
// and 7bit for a body that can go as it is (sevenBit; no
// Content-Transfer-Encoding field, which means 7bit).
var partHeaders = [2]partHeader{
	plainPart: {inlineHeader("text/plain", "quoted-printable"), inlineHeader("text/plain", "")},
	htmlPart:  {inlineHeader("text/html", "quoted-printable"), inlineHeader("text/html", "")},
}

// inlineHeader is the header of an inline UTF-8 part of type ctype, in the
// transfer encoding enc ("": none named, 7bit).
func inlineHeader(ctype, enc string) message.Header {
	var h mail.InlineHeader
	if enc != "" {
		h.Set("Content-Transfer-Encoding", enc)
	}
	h.SetContentType(ctype, map[string]string{"charset": "utf-8"})
	return h.Header
}

// maxLine is the longest line, in bytes without its CRLF, that a 7bit part
// may have (RFC 5322, 2.1.1: a line must not be longer than 998
// characters). The text part's lines are wrapped long before (the service's
// mails are 72 columns wide); the HTML part's board table has a line per
// square.
const maxLine = 998

// sevenBit reports whether a part's body (with LF or CRLF line ends) can be
// sent as it is, 7bit, rather than quoted-printable: only printable ASCII,
// tabs and line ends; no line longer than maxLine; no space or tab at the
// end of a line (some transports strip them); no bare CR; and none of the
// boundaries of the multiparts around it anywhere in it (quoted-printable
// cannot make one: a boundary holds "=_"). Most of the service's mails are
// plain ASCII, so most go without quoted-printable's cost in CPU and size;
// any other byte (a name in another script, a "…") sends the part
// quoted-printable, as before.
func sevenBit(body string, boundaries []string) bool {
	for rest := body; rest != ""; {
		line, next, found := strings.Cut(rest, "\n")
		if found {
			line = strings.TrimSuffix(line, "\r")
		}
		if len(line) > maxLine {
			return false
		}
		if n := len(line); n > 0 && (line[n-1] == ' ' || line[n-1] == '\t') {
			return false
		}
		for i := 0; i < len(line); i++ {
			// Printable ASCII is 0x20 to 0x7e; a CR left inside a line is
			// bare, and refused with every other control character.
			if c := line[i]; c-0x20 > 0x7e-0x20 && c != '\t' {
				return false
			}
		}
		rest = next
	}
	for _, b := range boundaries {
		if strings.Contains(body, "--"+b) {
			return false
		}
	}
	return true
}

// chunkSize is the piece of a part's body handed to the encoder at a time.
const chunkSize = 4096

var chunks = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// textPart writes one inline UTF-8 part of type ctype, whose headers are hs,
// with CRLF line ends: 7bit when the body allows it (sevenBit; boundaries
// are the enclosing multiparts'), else quoted-printable.
func textPart(w *message.Writer, hs partHeader, ctype, body string, boundaries []string) error {
	if sevenBit(body, boundaries) {
		return plainPart7(w, hs.sevenBit, ctype, body)
	}
	if strings.Contains(body, "\r") {
		body = strings.ReplaceAll(strings.ReplaceAll(body, "\r\n", "\n"), "\n", "\r\n")
	}
	pw, err := w.CreatePart(hs.qp)
	if err != nil {
		return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
	}
	// Without a CR, the line ends need no rewriting: the quoted-printable
	// writer ends every line, a lone LF too, with CRLF. The body goes in
	// through a reused buffer, a piece at a time, rather than copied whole:
	// the writer encodes a stream, so the pieces make the same bytes.
	buf := chunks.Get().(*[chunkSize]byte)
	defer chunks.Put(buf)
	for body != "" {
		n := copy(buf[:], body)
		if _, err := pw.Write(buf[:n]); err != nil {
			return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
		}
		body = body[n:]
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
	}
	return nil
}

// plainPart7 writes a part whose body can go as it is (sevenBit), with
// CRLF line ends. Its header h has no Content-Transfer-Encoding field, which
// means 7bit (RFC 2045, 6.1) and has go-message write the body untouched (it
// would cut a "7bit" part's body into a write per line); the body goes
// through a reused buffer, its lone LFs made CRLF on the way.
func plainPart7(w *message.Writer, h message.Header, ctype, body string) error {
	pw, err := w.CreatePart(h)
	if err != nil {
		return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
	}
	buf := chunks.Get().(*[chunkSize]byte)
	defer chunks.Put(buf)
	n := 0
	for body != "" {
		line, rest, found := strings.Cut(body, "\n")
		if found {
			line = strings.TrimSuffix(line, "\r")
		}
		if n+len(line)+2 > chunkSize { // a line fits (maxLine < chunkSize), with its CRLF
			if _, err := pw.Write(buf[:n]); err != nil {
				return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
			}
			n = 0
		}
		n += copy(buf[n:], line)
		if found {
			n += copy(buf[n:], "\r\n")
		}
		body = rest
	}
	if n > 0 {
		if _, err := pw.Write(buf[:n]); err != nil {
			return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
		}
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("mailfmt: compose: %s part: %w", ctype, err)
	}
	return nil
}

// attachment writes one attachment part, base64.
func attachment(w *message.Writer, a Attachment) error {
	if a.Filename == "" {
		return errors.New("mailfmt: compose: attachment without a file name")
	}
	var h mail.AttachmentHeader
	ctype, params := "application/octet-stream", map[string]string{}
	if a.ContentType != "" {
		var err error
		var ph message.Header
		ph.Set("Content-Type", a.ContentType)
		if ctype, params, err = ph.ContentType(); err != nil {
			return fmt.Errorf("mailfmt: compose: attachment %q: content type: %w", a.Filename, err)
		}
	}
	if params["name"] == "" {
		params["name"] = a.Filename // for clients that look only here
	}
	h.Set("Content-Transfer-Encoding", "base64")
	h.SetFilename(a.Filename)
	h.SetContentType(ctype, params)
	pw, err := w.CreatePart(h.Header)
	if err != nil {
		return fmt.Errorf("mailfmt: compose: attachment %q: %w", a.Filename, err)
	}
	if _, err := pw.Write(a.Data); err != nil {
		return fmt.Errorf("mailfmt: compose: attachment %q: %w", a.Filename, err)
	}
	if err := pw.Close(); err != nil {
		return fmt.Errorf("mailfmt: compose: attachment %q: %w", a.Filename, err)
	}
	return nil
}
