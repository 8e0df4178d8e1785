package game

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-message/mail"

	"github.com/bottlepost/bottlepost/store"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// fixture is a service on a real store in a temporary directory, with a fake
// clock and seeded randomness, so every run sends the same bytes.
type fixture struct {
	t     testing.TB
	svc   *Service
	st    *store.Store
	now   time.Time
	seq   int
	inbox map[string][]*sent // by recipient
	all   []*sent
	// names are the display names the players' mails carry in From, by
	// address (none unless a test sets them).
	names map[string]string
}

// sent is an outgoing mail read back from the outbox.
type sent struct {
	To, Subject, ReplyTo, MessageID, InReplyTo, References, Text, HTML string
	Raw                                                                []byte
	Attachments                                                        []attachment
}

// attachment is a file attached to a sent mail.
type attachment struct {
	Name, Type string
	Data       []byte
}

func newFixture(t testing.TB, cfg Config) *fixture {
	t.Helper()
	dir := t.TempDir()
	// A fixed master key, so that tokens derived from it are the same every run.
	key := make([]byte, 32)
	for i := range key {
		key[i] = byte(i * 7)
	}
	if err := os.WriteFile(filepath.Join(dir, "bp.key"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(filepath.Join(dir, "bp.db"), store.Options{KeyFile: filepath.Join(dir, "bp.key")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, st: st, now: time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC), inbox: map[string][]*sent{}}
	if cfg.Address == "" {
		cfg.Address = "games@bottlepost.test"
	}
	svc, err := New(cfg, Options{Store: st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{1, 2, 3})})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = svc
	return f
}

// send hands the service a message and collects what it queued.
func (f *fixture) send(from, to, subject string, lines ...string) Result {
	f.t.Helper()
	f.seq++
	return f.sendID(fmt.Sprintf("in%d@client.test", f.seq), from, to, subject, lines...)
}

func (f *fixture) sendID(id, from, to, subject string, lines ...string) Result {
	f.t.Helper()
	res, err := f.svc.Handle(&Incoming{MessageID: id, From: from, FromName: f.names[from], Recipients: []string{to}, Subject: subject, Lines: lines})
	if err != nil {
		f.t.Fatalf("Handle: %v", err)
	}
	f.drain()
	return res
}

// drain reads the outbox, parses every mail and marks it sent.
func (f *fixture) drain() []*sent {
	f.t.Helper()
	var out []*sent
	err := f.st.Update(func(tx *store.Tx) error {
		mails, err := tx.PendingMail(f.now.Add(time.Hour), 1000)
		if err != nil {
			return err
		}
		for _, m := range mails {
			s := parseSent(f.t, m.Data)
			if len(m.To) != 1 || m.To[0] != s.To {
				f.t.Errorf("envelope %v does not match To %s", m.To, s.To)
			}
			out = append(out, s)
			f.inbox[s.To] = append(f.inbox[s.To], s)
			f.all = append(f.all, s)
			if err := tx.MarkSent(m.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return out
}

func parseSent(t testing.TB, data []byte) *sent {
	t.Helper()
	r, err := mail.CreateReader(strings.NewReader(string(data)))
	if err != nil {
		t.Fatalf("outgoing mail does not parse: %v\n%s", err, data)
	}
	s := &sent{Raw: data}
	h := r.Header
	to, _ := h.AddressList("To")
	if len(to) == 1 {
		s.To = to[0].Address
	}
	rt, _ := h.AddressList("Reply-To")
	if len(rt) == 1 {
		s.ReplyTo = rt[0].Address
	}
	s.Subject, _ = h.Subject()
	s.MessageID, _ = h.MessageID()
	s.InReplyTo = h.Get("In-Reply-To")
	s.References = h.Get("References")
	if h.Get("Auto-Submitted") != "auto-replied" {
		t.Errorf("mail to %s lacks Auto-Submitted", s.To)
	}
	for {
		p, err := r.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("part: %v", err)
		}
		b, _ := io.ReadAll(p.Body)
		h, ok := p.Header.(*mail.InlineHeader)
		if !ok {
			ah := p.Header.(*mail.AttachmentHeader)
			name, _ := ah.Filename()
			ct, _, _ := ah.ContentType()
			s.Attachments = append(s.Attachments, attachment{Name: name, Type: ct, Data: b})
			continue
		}
		ct, _, _ := h.ContentType()
		switch ct {
		case "text/plain":
			s.Text = string(b)
		case "text/html":
			s.HTML = string(b)
		}
	}
	return s
}

// last is the newest mail to addr; it fails the test if there is none.
func (f *fixture) last(addr string) *sent {
	f.t.Helper()
	box := f.inbox[addr]
	if len(box) == 0 {
		f.t.Fatalf("no mail to %s", addr)
	}
	return box[len(box)-1]
}

// reply answers the newest mail to addr the way a mail client does: to its
// Reply-To, with its subject.
func (f *fixture) reply(addr string, lines ...string) Result {
	f.t.Helper()
	m := f.last(addr)
	return f.send(addr, m.ReplyTo, "Re: "+m.Subject, lines...)
}

// personal gets addr its personal address through the welcome mail.
func (f *fixture) personal(addr string) string {
	f.t.Helper()
	f.send(addr, f.svc.cfg.Address, "hello", "hi")
	m := f.last(addr)
	if !strings.Contains(m.Text, m.ReplyTo) {
		f.t.Fatalf("welcome mail does not quote the personal address %s", m.ReplyTo)
	}
	return m.ReplyTo
}

func (f *fixture) mustContain(m *sent, parts ...string) {
	f.t.Helper()
	// Sentences may be wrapped anywhere to keep within 78 columns.
	text := flat(m.Text)
	for _, p := range parts {
		if !strings.Contains(m.Text, p) && !strings.Contains(text, flat(p)) {
			f.t.Errorf("mail to %s (%s) lacks %q:\n%s", m.To, m.Subject, p, m.Text)
		}
	}
}

// flat is text with its line breaks and runs of spaces made single spaces:
// what a sentence says, however it was wrapped.
func flat(text string) string { return strings.Join(strings.Fields(text), " ") }

// golden compares a sent mail with testdata/mail/NAME.eml.
func golden(t *testing.T, name string, m *sent) {
	t.Helper()
	path := filepath.Join("testdata", "mail", name+".eml")
	got := string(m.Raw)
	if *update {
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update creates it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file (go test -update rewrites it):\n%s", path, got)
	}
}
