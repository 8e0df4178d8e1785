package mailfmt

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	gomail "github.com/emersion/go-message/mail"
	"github.com/emersion/go-message/textproto"
)

// ErrTooLarge is returned, wrapped, by Parse for a message longer than its
// limit. Test for it with errors.Is.
var ErrTooLarge = errors.New("mailfmt: message too large")

// ErrNoFrom is returned, wrapped, by Parse for a message without a From
// field or whose From field holds no address.
var ErrNoFrom = errors.New("mailfmt: no sender address")

// Message is one parsed incoming mail: the header fields the game service
// and the noise rules need, and Body, the text chosen from the MIME tree.
// Every string is valid UTF-8.
type Message struct {
	// From is the author: exactly one address (Name is the decoded display
	// name, possibly empty; Address is the addr-spec as written).
	From *mail.Address
	// Sender is the Sender field's address, or nil.
	Sender *mail.Address
	// ReplyTo, To and Cc are the parsed address lists; a malformed list
	// keeps the entries that parse on their own.
	ReplyTo []*mail.Address
	To      []*mail.Address
	Cc      []*mail.Address
	// DeliveredTo holds the envelope recipients recorded by receiving mail
	// servers (Delivered-To, then X-Original-To), topmost first.
	DeliveredTo []string

	// Subject is the decoded (RFC 2047) subject with line breaks and other
	// control characters replaced by spaces.
	Subject string
	// MessageID is the Message-ID without angle brackets.
	MessageID string
	// InReplyTo and References are message ids without angle brackets.
	InReplyTo  []string
	References []string
	// Date is the Date field; zero if missing or unreadable.
	Date time.Time

	// AuthenticationResults holds the raw Authentication-Results values,
	// topmost (most recently added) first; nothing here verifies them.
	AuthenticationResults []string
	// AutoSubmitted is the raw Auto-Submitted value (RFC 3834), "" if absent.
	AutoSubmitted string
	// Precedence is the raw Precedence value, "" if absent.
	Precedence string
	// ListID is the raw List-Id value (RFC 2919), "" if absent.
	ListID string
	// ListUnsubscribe reports whether a List-Unsubscribe field is present.
	ListUnsubscribe bool
	// ReturnPath is the topmost Return-Path address without angle brackets;
	// NullReturnPath reports the null reverse path "<>" (a bounce).
	ReturnPath     string
	NullReturnPath bool

	// ContentType is the top-level media type, lower-cased ("text/plain"
	// when the field is missing or unreadable, as RFC 2045 section 5.2
	// says); ReportType is the report-type parameter of a multipart/report
	// (a delivery status notification or a read receipt), lower-cased.
	ContentType string
	ReportType  string

	// Body is the text chosen from the MIME tree; see BodyType.
	Body string
	// BodyType is the media type the body was taken from: "text/plain",
	// "text/html" (reduced to text), or "" when the message has no usable
	// text part.
	BodyType string

	// Header is the raw top-level header, for fields not lifted out above.
	Header gomail.Header
}

// Parse reads one RFC 5322 message of at most limit bytes from r.
//
// It fails on a message over the limit (ErrTooLarge), on an unreadable
// header, and on a missing (ErrNoFrom) or malformed From field. Everything
// else is lenient: a damaged MIME structure keeps the text read before the
// damage, unknown charsets are kept byte for byte (invalid UTF-8 replaced),
// and unreadable optional fields are left empty.
func Parse(r io.Reader, limit int64) (*Message, error) {
	if limit <= 0 {
		return nil, fmt.Errorf("mailfmt: parse: size limit %d is not positive", limit)
	}
	readLimit := limit
	if readLimit < math.MaxInt64 {
		readLimit++
	}
	raw, err := io.ReadAll(io.LimitReader(r, readLimit))
	if err != nil {
		return nil, fmt.Errorf("mailfmt: parse: reading message: %w", err)
	}
	if int64(len(raw)) > limit {
		return nil, fmt.Errorf("%w: more than %d bytes", ErrTooLarge, limit)
	}

	ent, err := message.Read(bytes.NewReader(raw))
	if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
		return nil, fmt.Errorf("mailfmt: parse: header: %w", err)
	}
	h := gomail.Header{Header: ent.Header}

	m := &Message{Header: h}
	if err := m.readAddresses(h); err != nil {
		return nil, err
	}
	m.Subject = cleanHeaderText(decodeWords(h.Get("Subject")))
	m.MessageID = firstMsgID(h.Get("Message-Id"))
	m.InReplyTo = msgIDList(h.Get("In-Reply-To"))
	m.References = msgIDList(h.Get("References"))
	if d, err := mail.ParseDate(h.Get("Date")); err == nil {
		m.Date = d
	}
	for _, v := range h.Values("Authentication-Results") {
		m.AuthenticationResults = append(m.AuthenticationResults, cleanHeaderText(v))
	}
	m.AutoSubmitted = cleanHeaderText(h.Get("Auto-Submitted"))
	m.Precedence = cleanHeaderText(h.Get("Precedence"))
	m.ListID = cleanHeaderText(h.Get("List-Id"))
	m.ListUnsubscribe = h.Has("List-Unsubscribe")
	if h.Has("Return-Path") {
		rp := strings.TrimSpace(h.Get("Return-Path"))
		rp = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(rp, "<"), ">"))
		m.ReturnPath = cleanHeaderText(rp)
		m.NullReturnPath = rp == ""
	}
	var params map[string]string
	m.ContentType, params = contentType(ent.Header)
	if m.ContentType == "multipart/report" {
		m.ReportType = cleanHeaderText(strings.ToLower(params["report-type"]))
	}

	w := &walker{budget: textBudget(limit)}
	body := w.walk(ent, 0)
	if !body.empty() {
		m.Body, m.BodyType = body.text, body.kind
	}
	return m, nil
}

// readAddresses fills the address fields.
func (m *Message) readAddresses(h gomail.Header) error {
	from, err := parseFrom(h.Values("From"))
	if err != nil {
		return err
	}
	m.From = cleanAddress(from)
	if s := lenientAddressList(h.Get("Sender")); len(s) > 0 {
		m.Sender = s[0]
	}
	m.ReplyTo = lenientAddressList(h.Get("Reply-To"))
	for _, v := range h.Values("To") {
		m.To = append(m.To, lenientAddressList(v)...)
	}
	for _, v := range h.Values("Cc") {
		m.Cc = append(m.Cc, lenientAddressList(v)...)
	}
	for _, key := range []string{"Delivered-To", "X-Original-To"} {
		for _, v := range h.Values(key) {
			for _, a := range lenientAddressList(v) {
				m.DeliveredTo = append(m.DeliveredTo, a.Address)
			}
		}
	}
	return nil
}

// parseFrom reads the sender from a message's From fields: exactly one
// field holding exactly one address.
func parseFrom(froms []string) (*mail.Address, error) {
	if len(froms) == 0 || strings.TrimSpace(froms[0]) == "" {
		return nil, ErrNoFrom
	}
	if len(froms) > 1 {
		return nil, fmt.Errorf("mailfmt: parse: from: %d From fields, want one", len(froms))
	}
	list, err := addressParser.ParseList(froms[0])
	if err != nil {
		return nil, fmt.Errorf("mailfmt: parse: from %q: %w", clip(froms[0], 80), err)
	}
	switch len(list) {
	case 0:
		return nil, ErrNoFrom
	case 1:
		return list[0], nil
	default:
		return nil, fmt.Errorf("mailfmt: parse: from: %d addresses, want one", len(list))
	}
}

// FromKey is the Key of the sender of a raw message, read from its header
// alone with the parser Parse uses, so it names the sender the game service
// will see. When the From field does not parse, it is the field as written,
// trimmed and in lower case ("" when there is none): such mail is refused
// anyway, but one sender's junk still stays together.
func FromKey(raw []byte) string {
	th, err := textproto.ReadHeader(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil && th.Len() == 0 {
		return ""
	}
	froms := th.Values("From")
	if from, err := parseFrom(froms); err == nil {
		if k := Key(cleanAddress(from).Address); k != "" {
			return k
		}
	}
	if len(froms) == 0 {
		return ""
	}
	return strings.ToLower(cleanHeaderText(froms[0]))
}

// Recipients returns every recipient address of m, deduplicated
// case-insensitively, in the order: DeliveredTo, To, Cc. The service looks
// for its +TOKEN address among them.
func (m *Message) Recipients() []string {
	var out []string
	seen := map[string]bool{}
	add := func(a string) {
		k := strings.ToLower(a)
		if a == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, a)
	}
	for _, a := range m.DeliveredTo {
		add(a)
	}
	for _, l := range [][]*mail.Address{m.To, m.Cc} {
		for _, a := range l {
			add(a.Address)
		}
	}
	return out
}

// addressParser parses address lists, decoding RFC 2047 display names with
// every charset go-message knows; a name in an unknown charset is kept
// undecoded instead of failing the whole address.
var addressParser = mail.AddressParser{WordDecoder: wordDecoder}

var wordDecoder = &mime.WordDecoder{CharsetReader: lenientCharsetReader}

// lenientCharsetReader converts from any charset go-message knows and passes
// the bytes through for the others; invalid UTF-8 is replaced later.
func lenientCharsetReader(cs string, input io.Reader) (io.Reader, error) {
	if r, err := charset.Reader(cs, input); err == nil {
		return r, nil
	}
	return input, nil
}

// decodeWords decodes RFC 2047 encoded words, keeping the raw text if it
// cannot.
func decodeWords(s string) string {
	d, err := wordDecoder.DecodeHeader(s)
	if err != nil {
		return s
	}
	return d
}

// lenientAddressList parses an address list; if the whole list does not
// parse, it keeps the comma-separated entries that do on their own.
func lenientAddressList(v string) []*mail.Address {
	if strings.TrimSpace(v) == "" {
		return nil
	}
	if list, err := addressParser.ParseList(v); err == nil {
		out := make([]*mail.Address, 0, len(list))
		for _, a := range list {
			out = append(out, cleanAddress(a))
		}
		return out
	}
	var out []*mail.Address
	for _, part := range strings.Split(v, ",") {
		if a, err := addressParser.Parse(part); err == nil {
			out = append(out, cleanAddress(a))
		}
	}
	return out
}

// cleanAddress returns a with valid UTF-8 and no control characters.
func cleanAddress(a *mail.Address) *mail.Address {
	return &mail.Address{Name: cleanHeaderText(a.Name), Address: cleanHeaderText(a.Address)}
}

// cleanHeaderText makes s valid UTF-8, replaces control characters with
// spaces and trims it.
func cleanHeaderText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// firstMsgID returns the first message id in v without angle brackets.
func firstMsgID(v string) string {
	if l := msgIDList(v); len(l) > 0 {
		return l[0]
	}
	return ""
}

// msgIDList extracts message ids from an In-Reply-To or References value:
// the contents of every <...>, or, when there are none, the
// whitespace-separated words. It accepts the malformed ids found in the
// wild, which a strict RFC 5322 parser refuses.
func msgIDList(v string) []string {
	v = cleanHeaderText(v)
	var out []string
	rest := v
	for {
		i := strings.IndexByte(rest, '<')
		if i < 0 {
			break
		}
		j := strings.IndexByte(rest[i:], '>')
		if j < 0 {
			break
		}
		if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" {
			out = append(out, id)
		}
		rest = rest[i+j+1:]
	}
	if len(out) == 0 && !strings.ContainsAny(v, "<>") {
		out = strings.Fields(v)
	}
	return out
}

// clip shortens s to at most n bytes for error messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
