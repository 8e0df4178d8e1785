package mailfmt

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	gomail "github.com/emersion/go-message/mail"
)

var composeDate = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

func testOutgoing() *Outgoing {
	return &Outgoing{
		From:       mail.Address{Name: "bottlepost", Address: "games@bottlepost.test"},
		To:         "alice@example.org",
		Subject:    "[bp-1] Chess: alice@example.org v bob@example.net",
		ReplyTo:    "games+abc@bottlepost.test",
		MessageID:  "m.1@bottlepost.test",
		InReplyTo:  "in@client.test",
		References: []string{"game-1@bottlepost.test", "in@client.test"},
		Date:       composeDate,
		Text:       "Your move e4 was accepted.\nIt is Black's move.\n",
		HTML:       "<p>Your move <b>e4</b> was accepted.</p>",
	}
}

// readBack parses a composed mail with go-message's reader: header fields,
// and each leaf part's content type, file name and decoded body.
type readPart struct {
	ctype, filename, body string
}

func readBack(t *testing.T, raw []byte) (gomail.Header, []readPart) {
	t.Helper()
	r, err := gomail.CreateReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("composed mail does not parse: %v\n%s", err, raw)
	}
	var parts []readPart
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("part: %v\n%s", err, raw)
		}
		b, _ := io.ReadAll(p.Body)
		rp := readPart{body: string(b)}
		switch h := p.Header.(type) {
		case *gomail.InlineHeader:
			rp.ctype, _, _ = h.ContentType()
		case *gomail.AttachmentHeader:
			rp.ctype, _, _ = h.ContentType()
			rp.filename, _ = h.Filename()
		}
		parts = append(parts, rp)
	}
	return r.Header, parts
}

func TestComposeRoundTrip(t *testing.T) {
	pgn := []byte("[Event \"bottlepost game 1\"]\n\n1. e4 e5 *\n")
	tests := []struct {
		name      string
		edit      func(o *Outgoing)
		wantParts []readPart
		wantType  string
	}{
		{
			name:     "text and html",
			edit:     func(o *Outgoing) {},
			wantType: "multipart/alternative",
			wantParts: []readPart{
				{ctype: "text/plain", body: "Your move e4 was accepted.\r\nIt is Black's move.\r\n"},
				{ctype: "text/html", body: "<p>Your move <b>e4</b> was accepted.</p>"},
			},
		},
		{
			name:     "text only",
			edit:     func(o *Outgoing) { o.HTML = "" },
			wantType: "multipart/alternative",
			wantParts: []readPart{
				{ctype: "text/plain", body: "Your move e4 was accepted.\r\nIt is Black's move.\r\n"},
			},
		},
		{
			name: "with an attachment",
			edit: func(o *Outgoing) {
				o.Attachments = []Attachment{{Filename: "bp-1.pgn", ContentType: "application/vnd.chess-pgn; charset=utf-8", Data: pgn}}
			},
			wantType: "multipart/mixed",
			wantParts: []readPart{
				{ctype: "text/plain", body: "Your move e4 was accepted.\r\nIt is Black's move.\r\n"},
				{ctype: "text/html", body: "<p>Your move <b>e4</b> was accepted.</p>"},
				{ctype: "application/vnd.chess-pgn", filename: "bp-1.pgn", body: string(pgn)},
			},
		},
		{
			name: "binary attachment without a type",
			edit: func(o *Outgoing) {
				o.HTML = ""
				o.Attachments = []Attachment{{Filename: "x.bin", Data: []byte{0, 1, 2, 255, '\r', '\n'}}}
			},
			wantType: "multipart/mixed",
			wantParts: []readPart{
				{ctype: "text/plain", body: "Your move e4 was accepted.\r\nIt is Black's move.\r\n"},
				{ctype: "application/octet-stream", filename: "x.bin", body: "\x00\x01\x02\xff\r\n"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOutgoing()
			tt.edit(o)
			raw, err := o.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			h, parts := readBack(t, raw)
			if ct, _, _ := h.ContentType(); ct != tt.wantType {
				t.Errorf("Content-Type %q, want %q", ct, tt.wantType)
			}
			if len(parts) != len(tt.wantParts) {
				t.Fatalf("%d parts, want %d:\n%s", len(parts), len(tt.wantParts), raw)
			}
			for i, p := range parts {
				if p != tt.wantParts[i] {
					t.Errorf("part %d = %+v, want %+v", i, p, tt.wantParts[i])
				}
			}
			if s, _ := h.Subject(); s != o.Subject {
				t.Errorf("subject %q, want %q", s, o.Subject)
			}
			if id, _ := h.MessageID(); id != o.MessageID {
				t.Errorf("Message-ID %q, want %q", id, o.MessageID)
			}
			if refs, _ := h.MsgIDList("References"); strings.Join(refs, " ") != strings.Join(o.References, " ") {
				t.Errorf("References %q, want %q", refs, o.References)
			}
			if irt, _ := h.MsgIDList("In-Reply-To"); len(irt) != 1 || irt[0] != o.InReplyTo {
				t.Errorf("In-Reply-To %q, want %q", irt, o.InReplyTo)
			}
			if d, _ := h.Date(); !d.Equal(o.Date) {
				t.Errorf("Date %v, want %v", d, o.Date)
			}
			if h.Get("Auto-Submitted") != "auto-replied" {
				t.Errorf("Auto-Submitted %q", h.Get("Auto-Submitted"))
			}
			// Our own parser reads what we write: the same sender, recipient and text.
			m, err := Parse(bytes.NewReader(raw), 1<<20)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if m.From.Address != o.From.Address || len(m.To) != 1 || m.To[0].Address != o.To {
				t.Errorf("Parse: from %v to %v", m.From, m.To)
			}
			if !strings.Contains(m.Body, "It is Black's move.") {
				t.Errorf("Parse: body %q", m.Body)
			}
			again, _ := o.Bytes()
			if !bytes.Equal(raw, again) {
				t.Errorf("composing twice gave different bytes")
			}
		})
	}
}

func TestComposeHeaderEncoding(t *testing.T) {
	tests := []struct {
		name    string
		subject string
		from    string
	}{
		{"long ascii subject", "[bp-12345] Seachess: " + strings.Repeat("someone.with.a.long.name@example.org v ", 4) + "end", "bottlepost"},
		{"non-ascii subject", "[bp-7] Partie: Jürgen Groß v Zoë Ångström — Schach", "Bottle Post Schiedsrichter ♞"},
		{"long non-ascii subject", strings.Repeat("Ärger über Züge ", 12), "bottlepost"},
		{"newline injection", "hello\r\nBcc: mallory@evil.test", "bottle\r\nBcc: mallory@evil.test"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOutgoing()
			o.Subject, o.From.Name = tt.subject, tt.from
			raw, err := o.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			head, _, _ := bytes.Cut(raw, []byte("\r\n\r\n"))
			for _, line := range strings.Split(string(head), "\r\n") {
				if len(line) > 78 {
					t.Errorf("header line of %d characters (RFC 5322 2.1.1 asks for at most 78): %q", len(line), line)
				}
				for _, c := range []byte(line) {
					if c >= 0x80 {
						t.Errorf("raw 8-bit byte in header line %q", line)
						break
					}
				}
				if strings.HasPrefix(strings.ToLower(line), "bcc:") {
					t.Errorf("a header field was injected: %q", line)
				}
			}
			h, _ := readBack(t, raw)
			if s, _ := h.Subject(); s != tt.subject {
				t.Errorf("subject read back as %q, want %q", s, tt.subject)
			}
			from, err := h.AddressList("From")
			if err != nil || len(from) != 1 || from[0].Name != tt.from || from[0].Address != o.From.Address {
				t.Errorf("From read back as %v (%v), want %q <%s>", from, err, tt.from, o.From.Address)
			}
			rt, err := h.AddressList("Reply-To")
			if err != nil || len(rt) != 1 || rt[0].Address != o.ReplyTo {
				t.Errorf("Reply-To read back as %v (%v)", rt, err)
			}
		})
	}
}

func TestComposeRefusesIncompleteMail(t *testing.T) {
	tests := []struct {
		name string
		edit func(o *Outgoing)
	}{
		{"no message id", func(o *Outgoing) { o.MessageID = "" }},
		{"no recipient", func(o *Outgoing) { o.To = "" }},
		{"attachment without a name", func(o *Outgoing) { o.Attachments = []Attachment{{Data: []byte("x")}} }},
		{"attachment with a broken type", func(o *Outgoing) {
			o.Attachments = []Attachment{{Filename: "a", ContentType: "text/plain; charset", Data: []byte("x")}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := testOutgoing()
			tt.edit(o)
			if raw, err := o.Bytes(); err == nil || !strings.HasPrefix(err.Error(), "mailfmt: compose: ") {
				t.Errorf("Bytes() = %d bytes, %v; want a mailfmt: compose error", len(raw), err)
			}
		})
	}
}

func TestEncodeText(t *testing.T) {
	dec := new(mime.WordDecoder)
	tests := []struct {
		name, in string
		plain    bool // written as it is
	}{
		{"ascii", "[bp-1] Chess: alice@example.org v bob@example.net", true},
		{"empty", "", true},
		{"umlauts", "Jürgen v Zoë", false},
		{"looks encoded", "=?utf-8?q?hello?=", false},
		{"control", "a\r\nBcc: x@y", false},
		{"invalid utf-8", "a\xffb", false},
		{"long", strings.Repeat("Ärger ", 40), false},
		{"specials", `"quoted" <angle> (comment) a:b; c,d @ é`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodeText(tt.in)
			if (got == tt.in) != tt.plain {
				t.Errorf("encodeText(%q) = %q; plain %v, want %v", tt.in, got, got == tt.in, tt.plain)
			}
			for _, w := range strings.Fields(got) {
				if !tt.plain && len(w) > maxEncodedWord {
					t.Errorf("word %q is %d long, over %d", w, len(w), maxEncodedWord)
				}
			}
			if strings.ContainsAny(got, "\r\n") {
				t.Errorf("encodeText(%q) = %q contains a line break", tt.in, got)
			}
			back, err := dec.DecodeHeader(got)
			want := strings.ToValidUTF8(tt.in, "\uFFFD")
			if err != nil || back != want {
				t.Errorf("decodes to %q (%v), want %q", back, err, want)
			}
		})
	}
}

// TestEncodeSubject: a subject's words before the first that needs encoding
// stay as they are (the game tag and the state stay readable in the raw
// header); the whole decodes back to the text.
func TestEncodeSubject(t *testing.T) {
	dec := new(mime.WordDecoder)
	tests := []struct{ name, in, plainStart string }{
		{"ascii", "[bp-1] your move (1.) - Chess v Bob", "[bp-1] your move (1.) - Chess v Bob"},
		{"middle dot", "[bp-12] your move (12...) · Chess v Bob Smith", "[bp-12] your move (12...) =?utf-8?q?"},
		{"accented name", "[bp-3] waiting for Zoë (3.) · Chess v Zoë", "[bp-3] waiting for =?utf-8?q?"},
		{"first word", "Ärger im Spiel", "=?utf-8?q?"},
		{"looks encoded", "[bp-1] =?utf-8?q?x?=", "[bp-1] =?utf-8?q?=3D"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := encodeSubject(tt.in)
			if !strings.HasPrefix(got, tt.plainStart) {
				t.Errorf("encodeSubject(%q) = %q, want it to start %q", tt.in, got, tt.plainStart)
			}
			if back, err := dec.DecodeHeader(got); err != nil || back != tt.in {
				t.Errorf("%q decodes to %q (%v), want %q", got, back, err, tt.in)
			}
		})
	}
}

func TestComposeAutoSubmitted(t *testing.T) {
	for _, tt := range []struct{ set, want string }{{"", "auto-replied"}, {"auto-generated", "auto-generated"}} {
		o := testOutgoing()
		o.AutoSubmitted = tt.set
		raw, err := o.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if h, _ := readBack(t, raw); h.Get("Auto-Submitted") != tt.want {
			t.Errorf("AutoSubmitted %q: the field says %q, want %q", tt.set, h.Get("Auto-Submitted"), tt.want)
		}
	}
}

// TestComposeLineEnds checks that a part's text with LF line ends is
// written byte for byte as the same text with CRLF line ends: Bytes
// rewrites only texts that hold a CR, and leaves LF alone to the
// quoted-printable or 7bit writer, both of which end every line with CRLF.
// The texts mix what the quoted-printable writer treats specially: "=",
// spaces and tabs before a line end, non-ASCII letters, long lines that
// take soft breaks, empty lines; some are longer than the pieces the body
// is encoded in, and must come out as the whole text encoded at once. Some
// are plain ASCII without trailing blanks, and go 7bit. 2,000 texts (400 with
// -short).
func TestComposeLineEnds(t *testing.T) {
	texts := 2000
	if testing.Short() {
		texts = 400
	}
	pieces := []string{"a", "=", " ", "\t", "é", "\n", "\n", "<td width=\"34\">", strings.Repeat("x", 70), "", "==", "Ω "}
	r := uint64(1)
	sevens := 0
	for i := range texts {
		var s strings.Builder
		n := i % 40
		if i%50 == 0 {
			n = 2000 // some 30 kB: several of textPart's pieces
		}
		for range n {
			r = r*6364136223846793005 + 1442695040888963407
			s.WriteString(pieces[(r>>33)%uint64(len(pieces))])
		}
		lf := s.String()
		crlf := strings.ReplaceAll(lf, "\n", "\r\n")
		a, b := testOutgoing(), testOutgoing()
		a.Text, a.HTML = lf, lf
		b.Text, b.HTML = crlf, crlf
		ra, err := a.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(ra, rb) {
			t.Fatalf("text %q: LF and CRLF line ends give different mails:\n%s\n---\n%s", lf, ra, rb)
		}
		var whole bytes.Buffer
		if sevenBit(lf, []string{a.boundary("a")}) {
			whole.WriteString("Content-Type: text/plain; charset=utf-8\r\n\r\n" + crlf)
			sevens++
		} else {
			whole.WriteString("Content-Transfer-Encoding: quoted-printable\r\n\r\n")
			qp := quotedprintable.NewWriter(&whole)
			qp.Write([]byte(crlf))
			qp.Close()
		}
		if !bytes.Contains(ra, whole.Bytes()) {
			t.Fatalf("text of %d bytes: the part is not the text encoded in one piece:\n%s", len(lf), ra)
		}
		if _, parts := readBack(t, ra); lf != "" && (len(parts) != 2 || parts[0].body != crlf || parts[1].body != crlf) {
			t.Fatalf("text %q: the parts do not read back as written", lf)
		}
	}
	if sevens == 0 {
		t.Error("no text went 7bit")
	}
}

// TestSevenBit checks which part bodies go as they are (7bit) and which
// quoted-printable, rule by rule.
func TestSevenBit(t *testing.T) {
	const boundary = "bp-a=_0123"
	long := strings.Repeat("x", maxLine)
	tests := []struct {
		name, body string
		want       bool
	}{
		{"empty", "", true},
		{"plain lines", "White played 1. e4.\n\nIt is your move.\n", true},
		{"CRLF line ends", "a\r\nb\r\n", true},
		{"tabs inside a line", "a\tb\n", true},
		{"html with equals signs", `<td width="34">h</td>` + "\n", true},
		{"the longest line", long + "\n" + long, true},
		{"a line too long", long + "x\n", false},
		{"the last line too long", "a\n" + long + "x", false},
		{"the longest line with CRLF", long + "\r\n", true},
		{"non-ASCII", "Schröder\n", false},
		{"an ellipsis", "RECEIPT…\n", false},
		{"a control character", "a\x1bb\n", false},
		{"a NUL", "a\x00b\n", false},
		{"DEL", "a\x7fb\n", false},
		{"a bare CR", "a\rb\n", false},
		{"a CR at the end", "a\r", false},
		{"a space before the line end", "a \nb\n", false},
		{"a tab before the line end", "a\t\r\nb\n", false},
		{"a space at the end", "a\nb ", false},
		{"the boundary", "a\n--" + boundary + "\nb\n", false},
		{"the boundary's end", "--" + boundary + "--", false},
		{"the boundary inside a line", "x--" + boundary, false},
		{"the outer boundary", "a\n--bp-m=_9876\n", false},
		{"a line of a dot", "a\n.\nb\n", true},
		{"From at a line start", "From me\n", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := sevenBit(tt.body, []string{"bp-m=_9876", boundary}); got != tt.want {
				t.Errorf("sevenBit(%q) = %v, want %v", tt.body, got, tt.want)
			}
		})
	}
}

// TestComposeSevenBit checks a mail whose parts go 7bit: the part header
// names no transfer encoding (so 7bit), the text is there as it is with CRLF line ends (no "=3D", no
// soft breaks), and it reads back as written; a part that cannot go 7bit in
// the same mail is still quoted-printable.
func TestComposeSevenBit(t *testing.T) {
	o := testOutgoing()
	o.Text = "Your move e4 was accepted.\nIt is Black's move. Ça va?\n"
	o.HTML = `<p style="margin:0">Your move <b>e4</b> was accepted, and this line is longer than seventy-six characters.</p>` + "\n"
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	html := "Content-Type: text/html; charset=utf-8\r\n\r\n" + strings.ReplaceAll(o.HTML, "\n", "\r\n")
	if !bytes.Contains(raw, []byte(html)) {
		t.Errorf("the HTML part is not sent as it is:\n%s", raw)
	}
	if !bytes.Contains(raw, []byte("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable")) {
		t.Errorf("the text part with a non-ASCII letter is not quoted-printable:\n%s", raw)
	}
	_, parts := readBack(t, raw)
	if len(parts) != 2 || parts[0].body != strings.ReplaceAll(o.Text, "\n", "\r\n") || parts[1].body != strings.ReplaceAll(o.HTML, "\n", "\r\n") {
		t.Errorf("the parts do not read back as written: %q", parts)
	}
}

// FuzzComposeParts writes arbitrary texts as a mail's text and HTML parts
// and reads them back: whichever encoding each part gets (7bit when
// sevenBit allows, else quoted-printable), the parts read back as the text
// with CRLF line ends (a lone CR ends a line too), and no line of the mail is longer than 998 bytes.
func FuzzComposeParts(f *testing.F) {
	f.Add("White played 1. e4.\n", `<td width="34">h</td>`+"\n")
	f.Add("a \nb\t\r\n", "Schröder\r")
	f.Add("--bp-a=_", strings.Repeat("x", maxLine+1))
	f.Add("From me\n.\n", "a\rb")
	f.Fuzz(func(t *testing.T, text, html string) {
		if !utf8.ValidString(text) || !utf8.ValidString(html) || text == "" || html == "" {
			return // the service's parts are UTF-8; an empty HTML part is left out
		}
		o := testOutgoing()
		o.Text, o.HTML = text, html
		raw, err := o.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(raw, []byte("\r\n")) {
			if len(line) > maxLine {
				t.Fatalf("a line of %d bytes:\n%s", len(line), raw)
			}
		}
		// Every line end, a lone CR too, reads back as CRLF.
		crlf := func(s string) string {
			s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
			return strings.ReplaceAll(s, "\n", "\r\n")
		}
		_, parts := readBack(t, raw)
		if len(parts) != 2 || parts[0].body != crlf(text) || parts[1].body != crlf(html) {
			t.Fatalf("the parts do not read back as written: %q\n%s", parts, raw)
		}
	})
}

// A text that holds the boundary of the multipart/mixed around the parts (a
// mail with an attachment) goes quoted-printable, which cannot make it.
func TestComposeOuterBoundaryQuoted(t *testing.T) {
	o := testOutgoing()
	o.Attachments = []Attachment{{Filename: "bp-1.pgn", ContentType: "application/vnd.chess-pgn", Data: []byte("1. e4 *\n")}}
	o.Text = "a\n--" + o.boundary("m") + "--\nb\n"
	raw, err := o.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, []byte("Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable")) {
		t.Errorf("the text part holding the outer boundary is not quoted-printable:\n%s", raw)
	}
	if _, parts := readBack(t, raw); len(parts) != 3 || parts[0].body != strings.ReplaceAll(o.Text, "\n", "\r\n") {
		t.Errorf("the parts do not read back as written: %q", parts)
	}
}
