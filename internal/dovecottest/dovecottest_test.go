package dovecottest

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
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

// The mail's directory is made in a directory marked as a top directory
// (StartServer: placed apart on the disk), where the filesystem has the flag.
func TestSpreadOnDisk(t *testing.T) {
	dir := t.TempDir()
	if err := spreadOnDisk(dir); err != nil {
		if errors.Is(err, syscall.ENOTTY) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.EPERM) {
			t.Skipf("this filesystem or user cannot set the top-directory flag: %v", err)
		}
		t.Fatal(err)
	}
	top, err := topDirectory(dir)
	if err != nil || !top {
		t.Fatalf("after spreadOnDisk: top directory %v, %v", top, err)
	}
	other := t.TempDir()
	if top, err := topDirectory(other); err != nil || top {
		t.Fatalf("a directory left alone: top directory %v, %v", top, err)
	}
}
