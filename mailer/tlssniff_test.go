package mailer

import (
	"crypto/tls"
	"github.com/bottlepost/bottlepost/mailer/smtpclient"
	"net"
	"strings"
	"testing"
	"time"
)

// A TLS port (Dovecot's 993) used with security = "starttls" or "plain"
// is silent: the mistake is found within a second or two, not when the
// greeting's timeout ends (10 s in check-mail, imap.timeout in serve), and
// the words name the setting. A plain server that is merely slow to greet
// is not taken for a TLS port.
func TestTLSPortMistakeFailsFast(t *testing.T) {
	p := pki(t)
	tlsPort := silentTLSPort(t, p.server)
	const within = 3 * time.Second
	for _, security := range []string{"starttls", "plain"} {
		t.Run("check-mail, "+security, func(t *testing.T) {
			start := time.Now()
			var connect CheckStep
			CheckMail(CheckConfig{
				IMAP:    IMAPConfig{Addr: tlsPort, Security: security, Username: "games", Password: testPass},
				SMTP:    smtpclient.Config{Addr: closedPort(t), Security: "plain"},
				Address: "games@example.org", Greeting: 10 * time.Second,
			}, func(s CheckStep) {
				if s.Name == "imap connect" {
					connect = s
				}
			})
			took := time.Since(start)
			if connect.OK || !strings.Contains(connect.Detail, "speaks TLS at once") || !strings.Contains(connect.Detail, `set imap.security = "tls"`) {
				t.Errorf("imap connect: %+v; want it failed naming imap.security", connect)
			}
			if took > within {
				t.Errorf("check-mail took %v; want the mistake found within %v", took.Round(time.Millisecond), within)
			}
		})
	}
	t.Run("serve", func(t *testing.T) {
		src, logs := hubSource(t, tlsPort, func(c *IMAPConfig) { c.Security, c.Timeout = "starttls", time.Minute })
		start := time.Now()
		stop := runSource(t, src, newRecorder().handle)
		defer stop()
		want := "level=ERROR msg=\"imap: " + tlsPort + " speaks TLS at once"
		for time.Since(start) < 2*within && !strings.Contains(logs.String(), want) {
			time.Sleep(20 * time.Millisecond)
		}
		if took := time.Since(start); !strings.Contains(logs.String(), want) || took > within {
			t.Errorf("after %v: want …%s… logged within %v:\n%s", took.Round(time.Millisecond), want, within, logs)
		}
	})
	t.Run("a slow plain server", func(t *testing.T) {
		h := startTestHub(t, p.server)
		slow := startSlowGreeter(t, h.IMAPAddr(), 2*tlsSniffDelay)
		src, err := NewIMAPSource(IMAPConfig{Addr: slow, Security: "starttls", TLSConfig: p.client(), Username: "games@example.org", Password: testPass}, nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := src.checkConnect(5 * time.Second)
		if err != nil {
			t.Fatalf("a server greeting after %v: %v; want the session", 2*tlsSniffDelay, err)
		}
		c.Close()
	})
}

// silentTLSPort is a port that waits, silent, for a TLS handshake, as
// Dovecot's 993 does.
func silentTLSPort(t *testing.T, cfg *tls.Config) string {
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { c.(*tls.Conn).Handshake(); c.Read(make([]byte, 1)); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

// startSlowGreeter forwards connections to target, holding back what the
// server says first for delay.
func startSlowGreeter(t *testing.T, target string, delay time.Duration) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				s, err := net.Dial("tcp", target)
				if err != nil {
					return
				}
				defer s.Close()
				time.Sleep(delay)
				go func() { copyConn(c, s) }()
				copyConn(s, c)
			}()
		}
	}()
	return ln.Addr().String()
}

func copyConn(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			dst.Close()
			return
		}
	}
}
