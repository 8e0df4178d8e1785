package mailfmt

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the .want files of testdata/corpus from the current code")

// ourAddress is the service address the corpus was written for.
const testOurAddress = "games@bottlepost.example"

// corpusLimit is the size limit the corpus is parsed with.
const corpusLimit = 1 << 20

// render describes what the service gets from one raw message: the golden
// text of the corpus.
func render(raw []byte) string {
	var b strings.Builder
	m, err := Parse(bytes.NewReader(raw), corpusLimit)
	if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
		return b.String()
	}
	fmt.Fprintf(&b, "from: %s\n", m.From.Address)
	to, token := "-", "-"
	for _, r := range m.Recipients() {
		if t, ok := PlusToken(r, testOurAddress); ok {
			to, token = r, t
			break
		}
	}
	fmt.Fprintf(&b, "to: %s\ntoken: %s\n", to, token)
	if id, ok := ParseTag(m.Subject); ok {
		fmt.Fprintf(&b, "tag: %d\n", id)
	} else {
		b.WriteString("tag: -\n")
	}
	noise, reason := Classify(m, []string{testOurAddress})
	fmt.Fprintf(&b, "noise: %s\n", noise)
	if reason != "" {
		fmt.Fprintf(&b, "reason: %s\n", reason)
	}
	bodyType := m.BodyType
	if bodyType == "" {
		bodyType = "-"
	}
	fmt.Fprintf(&b, "body: %s\nlines:\n", bodyType)
	for _, l := range Lines(m.Body) {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

// TestCorpus checks every testdata/corpus/NAME.eml against NAME.want.
// go test ./mailer -update rewrites the .want files; review the diff.
func TestCorpus(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 12 {
		t.Fatalf("corpus has %d messages, want at least 12", len(files))
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".eml")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := render(raw)
			wantFile := strings.TrimSuffix(file, ".eml") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatalf("%v (run go test ./mailer -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
			}
		})
	}
}

// TestCorpusAlternativesAgree checks, for each corpus message with both a
// text/plain and a text/html alternative, that both yield the same command
// lines: the HTML reducer and the plain-text rules must agree on what the
// sender wrote.
func TestCorpusAlternativesAgree(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "corpus", "*.eml"))
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range files {
		raw, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		plain, html, ok := alternatives(t, raw)
		if !ok {
			continue
		}
		checked++
		t.Run(filepath.Base(file), func(t *testing.T) {
			p, h := Lines(plain), Lines(html)
			if strings.Join(p, "\n") != strings.Join(h, "\n") {
				t.Errorf("text/plain gives %q\ntext/html gives %q", p, h)
			}
		})
	}
	if checked < 3 {
		t.Errorf("only %d corpus messages have both alternatives, want at least 3", checked)
	}
}

// alternatives returns the bodies Parse gives for the text/plain and for
// the text/html part (reduced to text) of a top-level
// multipart/alternative.
func alternatives(t *testing.T, raw []byte) (plain, html string, ok bool) {
	t.Helper()
	m, err := Parse(bytes.NewReader(raw), corpusLimit)
	if err != nil || m.ContentType != "multipart/alternative" {
		return "", "", false
	}
	// Rebuild the message with each alternative alone: the top-level
	// Content-Type names only one of them.
	for _, want := range []string{typePlain, typeHTML} {
		only, err := Parse(bytes.NewReader(keepAlternative(t, raw, want)), corpusLimit)
		if err != nil {
			t.Fatal(err)
		}
		if only.BodyType != want {
			t.Fatalf("keeping %s gave a %q body", want, only.BodyType)
		}
		if want == typePlain {
			plain = only.Body
		} else {
			html = only.Body
		}
	}
	return plain, html, true
}

// keepAlternative returns raw with the top-level multipart/alternative
// reduced to its parts of type keep.
func keepAlternative(t *testing.T, raw []byte, keep string) []byte {
	t.Helper()
	s := strings.ReplaceAll(string(raw), "\r\n", "\n")
	i := strings.Index(s, "boundary=")
	if i < 0 {
		t.Fatal("no boundary")
	}
	rest := s[i+len("boundary="):]
	var boundary string
	if strings.HasPrefix(rest, `"`) {
		boundary = rest[1 : 1+strings.IndexByte(rest[1:], '"')]
	} else {
		boundary = strings.FieldsFunc(rest, func(r rune) bool { return r == ';' || r == '\n' || r == ' ' })[0]
	}
	delim := "\n--" + boundary
	parts := strings.Split(s, delim)
	out := parts[0]
	for _, p := range parts[1 : len(parts)-1] {
		header := strings.ToLower(p[:strings.Index(p, "\n\n")])
		if strings.Contains(header, "content-type: "+keep) {
			out += delim + p
		}
	}
	out += delim + parts[len(parts)-1]
	return []byte(out)
}
