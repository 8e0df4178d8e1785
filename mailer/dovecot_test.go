package mailer

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// startDovecot runs a private Dovecot (Debian's dovecot-imapd, 2.3 config
// syntax) on a free loopback port with one user, and returns its address.
// The test is skipped, saying why, when Dovecot is not installed.
func startDovecot(t *testing.T) string {
	t.Helper()
	return startDovecotWith(t, dovecotOptions{})
}

// dovecotOptions change the private Dovecot's configuration.
type dovecotOptions struct {
	// CertPEM and KeyPEM, when set, turn SSL on (ssl = yes): the plain
	// listener then offers STARTTLS with this certificate.
	CertPEM, KeyPEM []byte
}

func startDovecotWith(t *testing.T, opts dovecotOptions) string {
	t.Helper()
	bin, err := exec.LookPath("dovecot")
	if err != nil {
		for _, p := range []string{"/usr/sbin/dovecot", "/usr/local/sbin/dovecot"} {
			if _, serr := os.Stat(p); serr == nil {
				bin, err = p, nil
			}
		}
	}
	if err != nil {
		t.Skip("dovecot is not installed (Debian: apt-get install dovecot-imapd); the interop test needs a real IMAP server")
	}
	if os.Getuid() != 0 {
		t.Skip("the Dovecot interop test runs Dovecot as root with a private configuration; not root here")
	}
	// Mail is stored as the unprivileged nobody (Dovecot refuses uid 0), so the
	// tree must be reachable by it: t.TempDir's parent is private.
	dir, err := os.MkdirTemp("", "bottlepost-dovecot-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, sub := range []string{"", "mail", "home"} {
		os.MkdirAll(filepath.Join(dir, sub), 0o777)
		os.Chmod(filepath.Join(dir, sub), 0o777)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	ssl := "ssl = no"
	if opts.CertPEM != nil {
		for name, data := range map[string][]byte{"cert.pem": opts.CertPEM, "key.pem": opts.KeyPEM} {
			if err := os.WriteFile(filepath.Join(dir, name), data, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		ssl = fmt.Sprintf("ssl = yes\nssl_cert = <%[1]s/cert.pem\nssl_key = <%[1]s/key.pem", dir)
	}
	conf := fmt.Sprintf(`base_dir = %[1]s/run
state_dir = %[1]s/state
log_path = %[1]s/dovecot.log
protocols = imap
listen = 127.0.0.1
%[3]s
disable_plaintext_auth = no
auth_mechanisms = plain login
mail_location = maildir:%[1]s/mail/%%u
passdb {
  driver = static
  args = password=secret
}
userdb {
  driver = static
  args = uid=65534 gid=65534 home=%[1]s/home/%%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = %[2]d
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
service imap-login {
  chroot =
}
`, dir, port, ssl)
	cfg := filepath.Join(dir, "dovecot.conf")
	if err := os.WriteFile(cfg, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-F", "-c", cfg)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Logf("dovecot output:\n%s\n%s", out.String(), log)
		}
	})
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	for end := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			c.Close()
			return addr
		}
		if time.Now().After(end) {
			log, _ := os.ReadFile(filepath.Join(dir, "dovecot.log"))
			t.Fatalf("dovecot did not listen on %s: %v\n%s\n%s", addr, err, out.String(), log)
		}
	}
}

func appendTo(t *testing.T, addr, mailbox string, msg string) {
	t.Helper()
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("games", "secret").Wait(); err != nil {
		t.Fatal(err)
	}
	cmd := c.Append(mailbox, int64(len(msg)), nil)
	cmd.Write([]byte(msg))
	cmd.Close()
	if _, err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
}

func TestDovecotInterop(t *testing.T) {
	addr := startDovecot(t)
	msg := func(n int) string {
		return fmt.Sprintf("From: alice@example.org\r\nTo: games@example.org\r\nSubject: move %d\r\nMessage-ID: <m%d@example.org>\r\n\r\ne4\r\n", n, n)
	}
	appendTo(t, addr, "INBOX", msg(1))
	src, err := NewIMAPSource(IMAPConfig{Addr: addr, Security: "plain", Username: "games", Password: "secret",
		Processed: "bottlepost-processed", PollInterval: time.Hour, MaxBytes: 1 << 20}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []string
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		src.Run(ctx, func(raw []byte) error {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, string(raw))
			return nil
		})
	}()
	defer func() { cancel(); <-done }()
	waitCount := func(n int) {
		t.Helper()
		for end := time.Now().Add(15 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
			mu.Lock()
			k := len(got)
			mu.Unlock()
			if k >= n {
				return
			}
		}
		t.Fatalf("handled %d messages, want %d", len(got), n)
	}
	waitCount(1)
	// New mail while the source sits in IDLE (the poll interval is an hour):
	// only IDLE can bring it in time.
	time.Sleep(200 * time.Millisecond)
	appendTo(t, addr, "INBOX", msg(2))
	waitCount(2)
	if !strings.Contains(got[0], "Subject: move 1") || !strings.Contains(got[1], "Subject: move 2") {
		t.Errorf("handled %q", got)
	}
	// Both were moved out of INBOX into the processed folder, flagged \Seen.
	c, err := imapclient.DialInsecure(addr, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login("games", "secret").Wait(); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		st, err := c.Status("INBOX", &imap.StatusOptions{NumMessages: true}).Wait()
		if err != nil {
			t.Fatal(err)
		}
		if *st.NumMessages == 0 {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("INBOX still holds %d messages", *st.NumMessages)
		}
	}
	if _, err := c.Select("bottlepost-processed", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	msgs, err := c.Fetch(imap.SeqSetNum(1, 2), &imap.FetchOptions{Flags: true}).Collect()
	if err != nil || len(msgs) != 2 {
		t.Fatalf("processed folder: %d messages, %v", len(msgs), err)
	}
	for _, m := range msgs {
		seen := false
		for _, f := range m.Flags {
			seen = seen || f == imap.FlagSeen
		}
		if !seen {
			t.Errorf("a processed message is not \\Seen: %v", m.Flags)
		}
	}
}
