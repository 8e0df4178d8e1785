package mailfmt

import (
	"encoding/base64"
	"errors"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/unicode"
)

// rawMail joins header lines and a body into a raw message with CRLF line
// ends.
func rawMail(header []string, body string) string {
	return strings.Join(header, "\r\n") + "\r\n\r\n" + strings.ReplaceAll(body, "\n", "\r\n")
}

func parseString(t *testing.T, raw string) *Message {
	t.Helper()
	m, err := Parse(strings.NewReader(raw), 1<<20)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return m
}

func TestParseSizeLimit(t *testing.T) {
	raw := rawMail([]string{"From: a@example.org"}, "e4\n")
	if _, err := Parse(strings.NewReader(raw), int64(len(raw))); err != nil {
		t.Errorf("message of exactly the limit: %v", err)
	}
	_, err := Parse(strings.NewReader(raw), int64(len(raw)-1))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("message one byte over the limit: got %v, want ErrTooLarge", err)
	}
	if err != nil && !strings.HasPrefix(err.Error(), "mailfmt: ") {
		t.Errorf("error %q lacks the mailer: prefix", err)
	}
	for _, limit := range []int64{0, -1} {
		if _, err := Parse(strings.NewReader(raw), limit); err == nil {
			t.Errorf("limit %d: no error", limit)
		}
	}
}

func TestParseFromErrors(t *testing.T) {
	tests := []struct {
		name    string
		header  []string
		wantErr error // nil: any error
	}{
		{"missing", []string{"To: games@bottlepost.example"}, ErrNoFrom},
		{"empty", []string{"From:   "}, ErrNoFrom},
		{"group without members", []string{"From: undisclosed-recipients:;"}, ErrNoFrom},
		{"malformed", []string{"From: Alice <alice@example.org"}, nil},
		{"no domain", []string{"From: alice"}, nil},
		{"two addresses", []string{"From: a@example.org, b@example.org"}, nil},
		{"two fields", []string{"From: a@example.org", "From: b@example.org"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(strings.NewReader(rawMail(tt.header, "e4\n")), 1<<20)
			if err == nil {
				t.Fatal("no error")
			}
			if tt.wantErr != nil && !errors.Is(err, tt.wantErr) {
				t.Errorf("got %v, want %v", err, tt.wantErr)
			}
			if !strings.HasPrefix(err.Error(), "mailfmt: ") {
				t.Errorf("error %q lacks the mailer: prefix", err)
			}
		})
	}
}

func TestParseUnreadableHeader(t *testing.T) {
	if _, err := Parse(strings.NewReader(" leading space\r\nFrom: a@example.org\r\n\r\ne4"), 1<<20); err == nil {
		t.Error("header starting with a continuation line: no error")
	}
}

func TestParseHeaderFields(t *testing.T) {
	raw := rawMail([]string{
		"Return-Path: <bounce+xyz@mail.example.org>",
		"Delivered-To: games+abc123@bottlepost.example",
		"Delivered-To: games@bottlepost.example",
		"X-Original-To: games+abc123@bottlepost.example",
		"Authentication-Results: mx.bottlepost.example; dkim=pass header.d=example.org",
		"Authentication-Results: mx.bottlepost.example;",
		"  spf=pass smtp.mailfrom=example.org",
		"From: =?x-unknown-charset?q?Ali=E7e?= <Alice@Example.ORG>",
		"Sender: Club Secretary <secretary@example.org>",
		"Reply-To: alice.replies@example.org",
		"To: undisclosed-recipients:;, Games <GAMES+ABC123@bottlepost.example>",
		"Cc: ok@example.org, broken <@@>, =?utf-8?b?QmrDtnJu?= <bjorn@example.com>",
		"Subject: =?iso-8859-1?q?Re:_Z=FCge?= =?utf-8?b?W2JwLTQyXSDimZ4=?=",
		" continued",
		"Message-ID: <abc.def@example.org>",
		"In-Reply-To: <bp.42.7.1740000000@bottlepost.example> (sent earlier)",
		"References: <one@example.org>",
		"  <two@example.org> three@broken",
		"Date: Mon, 3 Mar 2025 10:21:05 +0100",
		"Auto-Submitted: no",
		"Precedence: first-class",
		"List-Id: Chess <chess.lists.example.org>",
		"List-Unsubscribe: <mailto:leave@lists.example.org>",
		"MIME-Version: 1.0",
		"Content-Type: text/plain; charset=utf-8",
	}, "e4\n")
	m := parseString(t, raw)

	if m.From.Address != "Alice@Example.ORG" {
		t.Errorf("From.Address = %q", m.From.Address)
	}
	if !strings.Contains(m.From.Name, "Ali") {
		t.Errorf("From.Name = %q, want the undecoded name kept", m.From.Name)
	}
	if m.Sender == nil || m.Sender.Address != "secretary@example.org" {
		t.Errorf("Sender = %v", m.Sender)
	}
	if len(m.ReplyTo) != 1 || m.ReplyTo[0].Address != "alice.replies@example.org" {
		t.Errorf("ReplyTo = %v", m.ReplyTo)
	}
	if got := addresses(m.To); !slices.Equal(got, []string{"GAMES+ABC123@bottlepost.example"}) {
		t.Errorf("To = %q", got)
	}
	if got := addresses(m.Cc); !slices.Equal(got, []string{"ok@example.org", "bjorn@example.com"}) {
		t.Errorf("Cc = %q (the malformed entry should be skipped)", got)
	}
	if len(m.Cc) == 2 && m.Cc[1].Name != "Björn" {
		t.Errorf("Cc[1].Name = %q, want Björn", m.Cc[1].Name)
	}
	wantDelivered := []string{"games+abc123@bottlepost.example", "games@bottlepost.example", "games+abc123@bottlepost.example"}
	if !slices.Equal(m.DeliveredTo, wantDelivered) {
		t.Errorf("DeliveredTo = %q", m.DeliveredTo)
	}
	wantRcpt := []string{"games+abc123@bottlepost.example", "games@bottlepost.example", "ok@example.org", "bjorn@example.com"}
	if got := m.Recipients(); !slices.Equal(got, wantRcpt) {
		t.Errorf("Recipients() = %q, want %q", got, wantRcpt)
	}
	if m.Subject != "Re: Züge[bp-42] ♞ continued" {
		t.Errorf("Subject = %q", m.Subject)
	}
	if m.MessageID != "abc.def@example.org" {
		t.Errorf("MessageID = %q", m.MessageID)
	}
	if !slices.Equal(m.InReplyTo, []string{"bp.42.7.1740000000@bottlepost.example"}) {
		t.Errorf("InReplyTo = %q", m.InReplyTo)
	}
	if !slices.Equal(m.References, []string{"one@example.org", "two@example.org"}) {
		t.Errorf("References = %q", m.References)
	}
	if want := time.Date(2025, 3, 3, 9, 21, 5, 0, time.UTC); !m.Date.Equal(want) {
		t.Errorf("Date = %v, want %v", m.Date, want)
	}
	if len(m.AuthenticationResults) != 2 || !strings.Contains(m.AuthenticationResults[1], "spf=pass") {
		t.Errorf("AuthenticationResults = %q", m.AuthenticationResults)
	}
	if m.AutoSubmitted != "no" || m.Precedence != "first-class" {
		t.Errorf("AutoSubmitted = %q, Precedence = %q", m.AutoSubmitted, m.Precedence)
	}
	if m.ListID != "Chess <chess.lists.example.org>" || !m.ListUnsubscribe {
		t.Errorf("ListID = %q, ListUnsubscribe = %v", m.ListID, m.ListUnsubscribe)
	}
	if m.ReturnPath != "bounce+xyz@mail.example.org" || m.NullReturnPath {
		t.Errorf("ReturnPath = %q, NullReturnPath = %v", m.ReturnPath, m.NullReturnPath)
	}
	if m.ContentType != "text/plain" || m.Body != "e4\n" || m.BodyType != typePlain {
		t.Errorf("ContentType %q, Body %q, BodyType %q", m.ContentType, m.Body, m.BodyType)
	}
}

func addresses(l []*mail.Address) []string {
	var out []string
	for _, a := range l {
		out = append(out, a.Address)
	}
	return out
}

func TestParseReturnPath(t *testing.T) {
	tests := []struct {
		name     string
		header   string // "" for none
		wantPath string
		wantNull bool
	}{
		{"absent", "", "", false},
		{"null", "Return-Path: <>", "", true},
		{"null with spaces", "Return-Path: < >", "", true},
		{"address", "Return-Path: <a@example.org>", "a@example.org", false},
		{"bare address", "Return-Path: a@example.org", "a@example.org", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := []string{"From: a@example.org"}
			if tt.header != "" {
				h = append([]string{tt.header}, h...)
			}
			m := parseString(t, rawMail(h, "x"))
			if m.ReturnPath != tt.wantPath || m.NullReturnPath != tt.wantNull {
				t.Errorf("got (%q, %v), want (%q, %v)", m.ReturnPath, m.NullReturnPath, tt.wantPath, tt.wantNull)
			}
		})
	}
}

func TestParseBody(t *testing.T) {
	const from = "From: a@example.org"
	tests := []struct {
		name     string
		header   []string
		body     string
		wantBody string
		wantType string
	}{
		{
			name:     "no content type",
			header:   []string{from},
			body:     "e4\n",
			wantBody: "e4\n", wantType: typePlain,
		},
		{
			name:     "quoted-printable windows-1252",
			header:   []string{from, "Content-Type: text/plain; charset=windows-1252", "Content-Transfer-Encoding: quoted-printable"},
			body:     "Bj=F6rn =96 I=92m in=\n.\n",
			wantBody: "Björn – I’m in.\n", wantType: typePlain,
		},
		{
			name:     "base64 utf-8",
			header:   []string{from, "Content-Type: text/plain; charset=UTF-8", "Content-Transfer-Encoding: base64"},
			body:     base64.StdEncoding.EncodeToString([]byte("Königsgambit: f4\n")) + "\n",
			wantBody: "Königsgambit: f4\n", wantType: typePlain,
		},
		{
			name:     "unlabeled 8-bit text is read as windows-1252",
			header:   []string{from, "Content-Transfer-Encoding: 8bit"},
			body:     "J\xfcrgen: e4\n",
			wantBody: "Jürgen: e4\n", wantType: typePlain,
		},
		{
			name:     "us-ascii label on 8-bit text",
			header:   []string{from, "Content-Type: text/plain; charset=us-ascii"},
			body:     "caf\xe9\n",
			wantBody: "café\n", wantType: typePlain,
		},
		{
			name:     "unknown charset keeps ASCII",
			header:   []string{from, "Content-Type: text/plain; charset=x-klingon"},
			body:     "Nf3\n",
			wantBody: "Nf3\n", wantType: typePlain,
		},
		{
			name:     "invalid utf-8 is replaced",
			header:   []string{from, "Content-Type: text/plain; charset=utf-8"},
			body:     "e4 \xff\n",
			wantBody: "e4 \uFFFD\n", wantType: typePlain,
		},
		{
			name:     "byte order mark dropped",
			header:   []string{from, "Content-Type: text/plain; charset=utf-8"},
			body:     "\uFEFFe4\n",
			wantBody: "e4\n", wantType: typePlain,
		},
		{
			name:     "bare CR line ends",
			header:   []string{from},
			body:     "e4\re5\r",
			wantBody: "e4\ne5\n", wantType: typePlain,
		},
		{
			name:     "format=flowed with delsp",
			header:   []string{from, "Content-Type: text/plain; charset=us-ascii; format=Flowed; DelSp=Yes"},
			body:     "a long li \nne\n",
			wantBody: "a long line\n", wantType: typePlain,
		},
		{
			name:     "flowed after quoted-printable",
			header:   []string{from, "Content-Type: text/plain; charset=utf-8; format=flowed", "Content-Transfer-Encoding: quoted-printable"},
			body:     "one=20\ntwo\n",
			wantBody: "one two\n", wantType: typePlain,
		},
		{
			name:     "html only",
			header:   []string{from, "Content-Type: text/html; charset=utf-8"},
			body:     "<p>Nf3</p><p>draw&nbsp;?</p>",
			wantBody: "Nf3\ndraw\u00a0?", wantType: typeHTML,
		},
		{
			name:   "alternative prefers plain",
			header: []string{from, `Content-Type: multipart/alternative; boundary="b"`},
			body: "--b\nContent-Type: text/html\n\n<p>html</p>\n" +
				"--b\nContent-Type: text/plain\n\nplain\n--b--\n",
			wantBody: "plain", wantType: typePlain,
		},
		{
			name:   "alternative with an empty plain part takes html",
			header: []string{from, `Content-Type: multipart/alternative; boundary="b"`},
			body: "--b\nContent-Type: text/plain\n\n \n" +
				"--b\nContent-Type: text/html\n\n<div>Qh5</div>\n--b--\n",
			wantBody: "Qh5", wantType: typeHTML,
		},
		{
			name:   "related: the root html",
			header: []string{from, `Content-Type: multipart/related; boundary="r"; type="text/html"`},
			body: "--r\nContent-Type: text/html\n\n<b>Kg1</b><img src=\"cid:x\">\n" +
				"--r\nContent-Type: image/png\nContent-ID: <x>\nContent-Transfer-Encoding: base64\n\niVBORw0KGgo=\n--r--\n",
			wantBody: "Kg1", wantType: typeHTML,
		},
		{
			name:   "mixed: alternative, attachments and forwarded mail",
			header: []string{from, `Content-Type: multipart/mixed; boundary="m"`},
			body: "--m\nContent-Type: multipart/alternative; boundary=\"a\"\n\n" +
				"--a\nContent-Type: text/plain\n\nRe1\n--a\nContent-Type: text/html\n\n<p>Re1</p>\n--a--\n" +
				"--m\nContent-Type: text/plain; name=\"moves.txt\"\n\nQh5\n" +
				"--m\nContent-Type: text/plain\nContent-Disposition: attachment\n\nQh6\n" +
				"--m\nContent-Type: text/plain\nContent-Disposition: inline; filename=\"x.txt\"\n\nQh7\n" +
				"--m\nContent-Type: message/rfc822\n\nFrom: b@example.org\n\nQh8\n" +
				"--m\nContent-Type: text/calendar\n\nBEGIN:VCALENDAR\n--m--\n",
			wantBody: "Re1", wantType: typePlain,
		},
		{
			name:   "mixed: inline text parts are joined",
			header: []string{from, `Content-Type: multipart/mixed; boundary="m"`},
			body: "--m\nContent-Type: text/plain\n\nKxe7\n" +
				"--m\nContent-Type: image/png\nContent-Disposition: inline; filename=board.png\n\nPNG\n" +
				"--m\nContent-Type: text/plain\nContent-Disposition: inline\n\nthanks\n--m--\n",
			wantBody: "Kxe7\n\nthanks", wantType: typePlain,
		},
		{
			name:   "signed: the signature is not text",
			header: []string{from, `Content-Type: multipart/signed; boundary="s"; protocol="application/pgp-signature"; micalg=pgp-sha256`},
			body: "--s\nContent-Type: text/plain; charset=us-ascii\n\nc5\n" +
				"--s\nContent-Type: application/pgp-signature; name=\"signature.asc\"\n\n-----BEGIN PGP SIGNATURE-----\n--s--\n",
			wantBody: "c5", wantType: typePlain,
		},
		{
			name:     "missing final boundary keeps the text",
			header:   []string{from, `Content-Type: multipart/mixed; boundary="m"`},
			body:     "--m\nContent-Type: text/plain\n\nd4\n",
			wantBody: "d4", wantType: typePlain,
		},
		{
			name:     "unknown transfer encoding is read raw",
			header:   []string{from, "Content-Transfer-Encoding: x-uuencode"},
			body:     "b3\n",
			wantBody: "b3\n", wantType: typePlain,
		},
		{
			name:     "only a forwarded message",
			header:   []string{from, "Content-Type: message/rfc822"},
			body:     "From: b@example.org\n\ne4\n",
			wantBody: "", wantType: "",
		},
		{
			name:     "whole message is an attachment",
			header:   []string{from, "Content-Type: text/plain", "Content-Disposition: attachment; filename=game.pgn"},
			body:     "1. e4 e5\n",
			wantBody: "", wantType: "",
		},
		{
			name:     "broken content type parameters",
			header:   []string{from, "Content-Type: text/plain; charset"},
			body:     "e4\n",
			wantBody: "e4\n", wantType: typePlain,
		},
		{
			name:     "multipart without boundary",
			header:   []string{from, "Content-Type: multipart/mixed"},
			body:     "e4\n",
			wantBody: "", wantType: "",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := parseString(t, rawMail(tt.header, tt.body))
			if m.Body != tt.wantBody || m.BodyType != tt.wantType {
				t.Errorf("got body %q (%q), want %q (%q)", m.Body, m.BodyType, tt.wantBody, tt.wantType)
			}
		})
	}
}

// TestParseCharsets checks a sample of the charsets go-message converts.
func TestParseCharsets(t *testing.T) {
	tests := []struct {
		charset string
		enc     encoding.Encoding
		text    string
	}{
		{"iso-8859-1", charmap.ISO8859_1, "Jürgen: Nxe5"},
		{"iso-8859-15", charmap.ISO8859_15, "Prix: 5 €, Nxe5"},
		{"windows-1250", charmap.Windows1250, "Łukasz: Nxe5"},
		{"koi8-r", charmap.KOI8R, "Фёдор: Nxe5"},
		{"iso-2022-jp", japanese.ISO2022JP, "将棋ではなくチェス: Nxe5"},
		{"shift_jis", japanese.ShiftJIS, "チェス: Nxe5"},
		{"gb2312", simplifiedchinese.GBK, "国际象棋: Nxe5"},
		{"euc-kr", korean.EUCKR, "체스: Nxe5"},
		{"utf-16", unicode.UTF16(unicode.LittleEndian, unicode.UseBOM), "Ψ: Nxe5"},
	}
	for _, tt := range tests {
		t.Run(tt.charset, func(t *testing.T) {
			encoded, err := tt.enc.NewEncoder().Bytes([]byte(tt.text + "\n"))
			if err != nil {
				t.Fatal(err)
			}
			raw := rawMail([]string{
				"From: a@example.org",
				"Content-Type: text/plain; charset=" + tt.charset,
				"Content-Transfer-Encoding: base64",
			}, base64.StdEncoding.EncodeToString(encoded))
			m := parseString(t, raw)
			if got := Lines(m.Body); !slices.Equal(got, []string{tt.text}) {
				t.Errorf("Lines = %q, want [%q]", got, tt.text)
			}
		})
	}
}

func TestParseBounds(t *testing.T) {
	t.Run("nesting deeper than the limit is ignored", func(t *testing.T) {
		var b strings.Builder
		depth := maxMIMEDepth + 5
		for i := 0; i < depth; i++ {
			b.WriteString("--b" + strconv.Itoa(i) + "\nContent-Type: multipart/mixed; boundary=\"b" + strconv.Itoa(i+1) + "\"\n\n")
		}
		b.WriteString("--b" + strconv.Itoa(depth) + "\nContent-Type: text/plain\n\ndeep\n")
		m := parseString(t, rawMail([]string{"From: a@example.org", `Content-Type: multipart/mixed; boundary="b0"`}, b.String()))
		if m.Body != "" {
			t.Errorf("body %q from beyond the depth limit", m.Body)
		}
	})
	t.Run("parts after the limit are ignored", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i < maxMIMEParts+10; i++ {
			b.WriteString("--p\nContent-Type: text/plain\n\nl" + strconv.Itoa(i) + "\n")
		}
		b.WriteString("--p--\n")
		m := parseString(t, rawMail([]string{"From: a@example.org", `Content-Type: multipart/mixed; boundary="p"`}, b.String()))
		lines := Lines(m.Body)
		if len(lines) != maxMIMEParts || lines[len(lines)-1] != "l"+strconv.Itoa(maxMIMEParts-1) {
			t.Errorf("%d lines, last %q; want %d", len(lines), lines[len(lines)-1], maxMIMEParts)
		}
	})
}
