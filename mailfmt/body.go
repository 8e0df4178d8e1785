package mailfmt

import (
	"bytes"
	"io"
	"math"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-message"
	"github.com/emersion/go-message/charset"
	"golang.org/x/text/encoding/charmap"
)

// Bounds on the MIME walk, so that a hostile message costs little.
const (
	maxMIMEDepth = 16  // nested multiparts deeper than this are ignored
	maxMIMEParts = 256 // parts after this many are ignored
)

const (
	typePlain = "text/plain"
	typeHTML  = "text/html"
)

// bodyText is the text found in one MIME subtree and the type it came from.
type bodyText struct {
	text string
	kind string // typePlain, typeHTML or "" (nothing usable)
}

func (b bodyText) empty() bool { return strings.TrimSpace(b.text) == "" }

// walker chooses the body text of a MIME tree (see chooseAlternative and
// combine for the rules).
type walker struct {
	budget int64 // bytes of decoded text still allowed
	parts  int
}

// textBudget bounds the decoded text of a message of at most limit bytes:
// charset conversion can at most triple the size of what it reads.
func textBudget(limit int64) int64 {
	if limit > (math.MaxInt64-4096)/3 {
		return math.MaxInt64
	}
	return 3*limit + 4096
}

// walk extracts the text of e and its descendants.
func (w *walker) walk(e *message.Entity, depth int) bodyText {
	mediaType, params := contentType(e.Header)
	if strings.HasPrefix(mediaType, "multipart/") {
		if depth >= maxMIMEDepth {
			return bodyText{}
		}
		mr := e.MultipartReader()
		if mr == nil {
			return bodyText{}
		}
		var children []bodyText
		for {
			p, err := mr.NextPart()
			if err == io.EOF {
				break
			}
			// A part in an unknown charset or transfer encoding is still
			// readable; anything else (a missing final boundary, a broken
			// part header) ends this multipart, keeping what was read.
			if err != nil && !message.IsUnknownCharset(err) && !message.IsUnknownEncoding(err) {
				break
			}
			w.parts++
			if w.parts > maxMIMEParts {
				break
			}
			children = append(children, w.walk(p, depth+1))
		}
		switch mediaType {
		case "multipart/alternative":
			return chooseAlternative(children)
		case "multipart/related":
			// The root part (the first) is the body; the others are
			// resources it refers to.
			if len(children) > 0 {
				return children[0]
			}
			return bodyText{}
		default:
			// mixed, report, signed and unknown subtypes: every inline
			// text part, in order.
			return combine(children)
		}
	}
	if mediaType != typePlain && mediaType != typeHTML {
		// message/rfc822, message/delivery-status, text/calendar,
		// text/rfc822-headers, images, files: never commands.
		return bodyText{}
	}
	if isAttachment(e.Header, params) {
		return bodyText{}
	}
	return bodyText{text: w.readText(e, mediaType, params), kind: mediaType}
}

// chooseAlternative picks from the parts of a multipart/alternative: the
// first text/plain part with content, else the first text/html part with
// content, else the first part with any content (a nested multipart).
func chooseAlternative(children []bodyText) bodyText {
	for _, kind := range []string{typePlain, typeHTML} {
		for _, c := range children {
			if c.kind == kind && !c.empty() {
				return c
			}
		}
	}
	for _, c := range children {
		if !c.empty() {
			return c
		}
	}
	return bodyText{}
}

// combine joins the text of the parts of a multipart/mixed (or any other
// subtype without special meaning): clients such as Apple Mail split one
// body around an inline attachment. The kind is text/plain if any part
// was plain text.
func combine(children []bodyText) bodyText {
	var out bodyText
	var texts []string
	for _, c := range children {
		if c.empty() {
			continue
		}
		texts = append(texts, strings.TrimRight(c.text, "\n"))
		if out.kind != typePlain {
			out.kind = c.kind
		}
	}
	out.text = strings.Join(texts, "\n\n")
	return out
}

// contentType returns the lower-cased media type and parameters of h;
// RFC 2045 section 5.2: text/plain when the field is missing or unreadable.
func contentType(h message.Header) (string, map[string]string) {
	v := h.Get("Content-Type")
	if strings.TrimSpace(v) == "" {
		return typePlain, map[string]string{}
	}
	t, params, err := mime.ParseMediaType(v)
	if err != nil && err != mime.ErrInvalidMediaParameter {
		return typePlain, map[string]string{}
	}
	if params == nil {
		params = map[string]string{}
	}
	return t, params
}

// isAttachment reports whether a text part is a file rather than body
// text: an attachment disposition or a file name.
func isAttachment(h message.Header, params map[string]string) bool {
	if params["name"] != "" {
		return true
	}
	v := h.Get("Content-Disposition")
	if v == "" {
		return false
	}
	disp, dparams, err := mime.ParseMediaType(v)
	if err != nil && err != mime.ErrInvalidMediaParameter {
		// Unreadable: the first word decides.
		disp = strings.ToLower(strings.TrimSpace(strings.SplitN(v, ";", 2)[0]))
	}
	return disp == "attachment" || dparams["filename"] != ""
}

// readText reads a text part (go-message has undone the transfer encoding
// and converted known charsets), repairs the charset, normalises line
// breaks, decodes format=flowed and reduces HTML.
func (w *walker) readText(e *message.Entity, mediaType string, params map[string]string) string {
	if w.budget <= 0 {
		return ""
	}
	// A read error (bad base64, a truncated part) keeps what was read.
	data, _ := io.ReadAll(io.LimitReader(e.Body, w.budget))
	w.budget -= int64(len(data))

	s := toUTF8(data, strings.ToLower(params["charset"]))
	s = strings.TrimPrefix(s, "\uFEFF")
	s = normalizeNewlines(s)
	if mediaType == typeHTML {
		return htmlToText(s)
	}
	if strings.EqualFold(params["format"], "flowed") {
		s = decodeFlowed(s, strings.EqualFold(params["delsp"], "yes"))
	}
	return s
}

// toUTF8 returns data as valid UTF-8. Bytes that are not UTF-8 in a part
// that declared no charset, US-ASCII or a charset go-message does not know
// are read as Windows-1252, the usual truth behind such labels; elsewhere
// they are replaced by U+FFFD.
func toUTF8(data []byte, cs string) string {
	if utf8.Valid(data) {
		return string(data)
	}
	if cs == "" || cs == "us-ascii" || !knownCharset(cs) {
		if d, err := charmap.Windows1252.NewDecoder().Bytes(data); err == nil {
			return strings.ToValidUTF8(string(d), "\uFFFD")
		}
	}
	return strings.ToValidUTF8(string(data), "\uFFFD")
}

// knownCharset reports whether go-message converts cs.
func knownCharset(cs string) bool {
	if cs == "utf-8" || cs == "us-ascii" {
		return true
	}
	_, err := charset.Reader(cs, bytes.NewReader(nil))
	return err == nil
}

// normalizeNewlines turns CRLF and lone CR into LF.
func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}
