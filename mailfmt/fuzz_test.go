package mailfmt

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// fuzzLimit is the size limit the fuzz targets parse with.
const fuzzLimit = 64 << 10

// corpusSeeds returns the raw corpus messages.
func corpusSeeds(f *testing.F) [][]byte {
	f.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil || len(files) == 0 {
		f.Fatalf("no corpus: %v", err)
	}
	var seeds [][]byte
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	return seeds
}

// FuzzParse feeds arbitrary bytes to Parse, Lines and Classify: no panic,
// valid UTF-8 everywhere, output bounded by the input.
func FuzzParse(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		f.Add(s)
	}
	f.Add([]byte("From: a@example.org\r\n\r\ne4"))
	f.Add([]byte("From: a@example.org\nContent-Type: multipart/mixed; boundary=x\n\n--x\n\n--x--"))
	f.Add([]byte("From: a@example.org\nContent-Type: text/html\n\n<blockquote><blockquote>x<br>"))
	f.Add([]byte("From: a@example.org\nContent-Type: text/plain; format=flowed; delsp=yes\n\n> a \n>> b \nc"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Parse(bytes.NewReader(data), fuzzLimit)
		if len(data) > fuzzLimit && !errors.Is(err, ErrTooLarge) {
			t.Fatalf("%d bytes over a %d limit: err %v", len(data), fuzzLimit, err)
		}
		if err != nil {
			if m != nil {
				t.Fatal("a message and an error")
			}
			if !strings.HasPrefix(err.Error(), "mailfmt: ") {
				t.Fatalf("error %q lacks the mailer: prefix", err)
			}
			return
		}
		if m.From == nil {
			t.Fatal("no From without an error")
		}
		for _, s := range []string{m.From.Address, m.From.Name, m.Subject, m.MessageID, m.Body, m.ReturnPath, m.ListID} {
			if !utf8.ValidString(s) {
				t.Fatalf("invalid UTF-8: %q", s)
			}
		}
		for _, r := range m.Recipients() {
			if !utf8.ValidString(r) {
				t.Fatalf("invalid UTF-8 recipient %q", r)
			}
		}
		if (m.Body == "") != (m.BodyType == "") {
			t.Fatalf("body %q with type %q", clip(m.Body, 80), m.BodyType)
		}
		// Charset conversion at most triples the text, quote prefixes
		// at most a little more than double it.
		if len(m.Body) > 8*len(data)+64 {
			t.Fatalf("%d bytes of body from %d bytes of message", len(m.Body), len(data))
		}
		checkLines(t, m.Body, Lines(m.Body))
		if n, reason := Classify(m, []string{"games@bottlepost.example"}); (n == NotNoise) != (reason == "") {
			t.Fatalf("noise %v with reason %q", n, reason)
		}
		if id, ok := ParseTag(m.Subject); ok && !strings.Contains(strings.ToLower(m.Subject), FormatTag(id)) {
			t.Fatalf("ParseTag(%q) = %d, whose tag is not in the subject", m.Subject, id)
		}
	})
}

// FuzzFlowed decodes arbitrary text, and checks that decoding undoes the
// test encoder on the same text.
func FuzzFlowed(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		body := string(s)
		if i := strings.Index(body, "\n\n"); i >= 0 {
			body = body[i+2:]
		}
		f.Add(body, uint8(20), true)
	}
	f.Add("a long \nline\n> q \n>> r\n-- \nsig", uint8(5), false)
	f.Add(" >stuffed\n From x\n", uint8(1), true)
	f.Fuzz(func(t *testing.T, text string, width uint8, delSp bool) {
		dec := decodeFlowed(text, delSp)
		if utf8.ValidString(text) && !utf8.ValidString(dec) {
			t.Fatalf("decodeFlowed(%q) = %q: invalid UTF-8", text, dec)
		}
		if len(dec) > 2*len(text)+1 {
			t.Fatalf("decodeFlowed grew %d bytes to %d", len(text), len(dec))
		}

		// A generator strips trailing spaces before encoding (RFC 3676
		// section 4.2); what it encodes must come back unchanged.
		lines := strings.Split(strings.ReplaceAll(text, "\r", ""), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		clean := strings.Join(lines, "\n")
		enc := encodeFlowed(clean, int(width)%80+1, delSp)
		if got := decodeFlowed(enc, delSp); got != clean {
			t.Fatalf("width %d delSp %v: decode(encode(%q)) = %q\nencoded: %q", int(width)%80+1, delSp, clean, got, enc)
		}
	})
}

// FuzzLines feeds arbitrary text to Lines directly and through the HTML
// reducer: no panic, clean lines, output bounded by the input.
func FuzzLines(f *testing.F) {
	for _, s := range corpusSeeds(f) {
		f.Add(string(s))
	}
	f.Add("e4\n\nOn Mon, X <\nx@example.org> wrote:\n> q\n-- \nsig")
	f.Add("<div>e4</div><blockquote>On x wrote:<br>q</blockquote><div class=gmail_signature>s</div>")
	f.Fuzz(func(t *testing.T, text string) {
		checkLines(t, text, Lines(text))
		h := htmlToText(text)
		if !utf8.ValidString(h) && utf8.ValidString(text) {
			t.Fatalf("htmlToText(%q) = %q: invalid UTF-8", text, h)
		}
		if len(h) > 3*len(text)+16 {
			t.Fatalf("htmlToText grew %d bytes to %d", len(text), len(h))
		}
		checkLines(t, h, Lines(h))
	})
}
