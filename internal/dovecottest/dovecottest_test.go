package dovecottest

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-smtp"
)

// BenchmarkAppend measures how fast the private Dovecot takes new messages
// into one mailbox, as a mail server delivers a service's incoming mail:
// b.N small messages appended to INBOX over 1, 4 or 8 sessions at once, for
// each mailbox format. It is what chose sdbox for docs/deploy: the figures
// are in docs/performance.md.
//
//	go test ./internal/dovecottest -run '^$' -bench Append -benchtime 4000x
func BenchmarkAppend(b *testing.B) {
	for _, format := range []string{"maildir", "sdbox", "mdbox"} {
		for _, sessions := range []int{1, 4, 8} {
			b.Run(fmt.Sprintf("%s/sessions=%d", format, sessions), func(b *testing.B) {
				benchDeliveries(b, Options{MailFormat: format}, sessions, "appends/s", func(srv *Server) deliverFunc {
					c, err := imapclient.DialInsecure(srv.Addr, nil)
					if err != nil {
						b.Fatal(err)
					}
					b.Cleanup(func() { c.Close() })
					if err := c.Login("games", Password).Wait(); err != nil {
						b.Fatal(err)
					}
					return func(_ int, msg []byte) error {
						cmd := c.Append("INBOX", int64(len(msg)), nil)
						cmd.Write(msg)
						cmd.Close()
						_, err := cmd.Wait()
						return err
					}
				})
			})
		}
	}
}

// BenchmarkDeliverLMTP is BenchmarkAppend with the messages delivered the
// way a mail server hands them over (docs/deploy: Postfix to Dovecot's
// LMTP): b.N messages to games+TOKEN@example.org over 1, 4 or 8 LMTP
// sessions, one transaction after another on each. BOTTLEPOST_DOVECOT_CONFIG
// is added to Dovecot's configuration (settings under test).
//
//	go test ./internal/dovecottest -run '^$' -bench DeliverLMTP -benchtime 4000x
func BenchmarkDeliverLMTP(b *testing.B) {
	for _, format := range []string{"maildir", "sdbox"} {
		for _, sessions := range []int{1, 4, 8} {
			b.Run(fmt.Sprintf("%s/sessions=%d", format, sessions), func(b *testing.B) {
				opts := Options{MailFormat: format, LMTP: true, Config: os.Getenv("BOTTLEPOST_DOVECOT_CONFIG")}
				benchDeliveries(b, opts, sessions, "deliveries/s", func(srv *Server) deliverFunc {
					conn, err := net.Dial("tcp", srv.LMTPAddr)
					if err != nil {
						b.Fatal(err)
					}
					c := smtp.NewClientLMTP(conn)
					b.Cleanup(func() { c.Close() })
					if err := c.Hello("localhost"); err != nil {
						b.Fatal(err)
					}
					return func(i int, msg []byte) error {
						return c.SendMail(fmt.Sprintf("p%d@example.org", i), []string{"games+0123456789abcdef@example.org"}, bytes.NewReader(msg))
					}
				})
			})
		}
	}
}

// deliverFunc delivers one message on one session; i is the session's
// number.
type deliverFunc func(i int, msg []byte) error

// benchDeliveries starts a Dovecot with opts, opens sessions with open and
// delivers b.N small messages over them at once, reporting the rate in
// unit.
func benchDeliveries(b *testing.B, opts Options, sessions int, unit string, open func(*Server) deliverFunc) {
	srv := StartServer(b, opts)
	deliver := make([]deliverFunc, sessions)
	for i := range deliver {
		deliver[i] = open(srv)
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for i, d := range deliver {
		wg.Go(func() {
			for n := next.Add(1); n <= int64(b.N); n = next.Add(1) {
				msg := fmt.Appendf(nil, "From: <p%d@example.org>\r\nTo: <games+0123456789abcdef@example.org>\r\n"+
					"Subject: Re: [bp-12] move\r\nMessage-ID: <%d.%d@example.org>\r\n\r\ne4\r\n", i, n, i)
				if err := d(i, msg); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), unit)
}

// spreadOnDisk marks a directory as a top directory, and on ext4 it must:
// that is where StartServer relies on it. Elsewhere the test skips, saying
// why.
func TestSpreadOnDisk(t *testing.T) {
	dir := t.TempDir()
	ext4, err := onExt4(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := spreadOnDisk(dir); err != nil {
		if !ext4 {
			t.Skipf("%s is not on ext4 and the flag could not be set: %v", dir, err)
		}
		t.Fatal(err)
	}
	top, err := topDirectory(dir)
	if err != nil || !top {
		t.Fatalf("after spreadOnDisk: top directory %v, %v", top, err)
	}
	if top, err := topDirectory(t.TempDir()); err != nil || top {
		t.Fatalf("a directory left alone: top directory %v, %v", top, err)
	}
}

// StartServer keeps the mail in a directory of a top directory, under a
// name of its own each time, where the filesystem is ext4.
func TestStartServerPlacesMailApart(t *testing.T) {
	a, b := StartServer(t, Options{}), StartServer(t, Options{})
	if ext4, err := onExt4(a.mail); err != nil || !ext4 {
		t.Skipf("the mail is not on ext4 (%v): it stays where it was", err)
	}
	if a.mail == b.mail || filepath.Base(a.mail) == filepath.Base(b.mail) {
		t.Errorf("two servers' mail directories %s and %s: want names of their own", a.mail, b.mail)
	}
	for _, srv := range []*Server{a, b} {
		if top, err := topDirectory(filepath.Dir(srv.mail)); err != nil || !top {
			t.Errorf("%s: its parent is a top directory %v, %v", srv.mail, top, err)
		}
	}
}
