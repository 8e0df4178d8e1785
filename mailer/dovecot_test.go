package mailer

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"

	"github.com/bottlepost/bottlepost/internal/dovecottest"
)

// startDovecot runs the private Dovecot of the interop tests.
func startDovecot(t *testing.T) string {
	t.Helper()
	return dovecottest.Start(t, dovecottest.Options{})
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
