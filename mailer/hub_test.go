package mailer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
	"github.com/emersion/go-sasl"
	"github.com/emersion/go-smtp"
)

// hubBox is how many messages, and bytes, an account's mailbox holds.
func hubBox(t *testing.T, h *Hub, account, mailbox string) (n int, size int64) {
	t.Helper()
	st, err := h.User(account).Status(mailbox, &imap.StatusOptions{NumMessages: true, Size: true})
	if err != nil {
		t.Fatalf("status of %s's %s: %v", account, mailbox, err)
	}
	return int(*st.NumMessages), *st.Size
}

// TestHubMailDirectoryRemoved: the hub's directory, or a part of it,
// removed while the hub runs. The next delivery makes the mail directory
// again (and the log says that the INBOX mail whose files went is in memory
// only), so mail accepted after it is on disk again and survives a restart;
// a removed password file is written back with the password the hub knew,
// unless hub-password made a new one first, which then counts at once.
// When the directory cannot be made (a file in its way) the SMTP server
// answers 451 4.3.0, which the sender retries, not a permanent 554 (a
// bounce), and logs why; once the way is clear mail is taken again, without
// a restart.
func TestHubMailDirectoryRemoved(t *testing.T) {
	tests := []struct {
		name   string
		remove string // under the hub's directory; "." for all of it
		// block puts a file where the directory was, so it cannot be made.
		block bool
		// newPassword runs hub-password for alice before she sends again.
		newPassword bool
	}{
		{name: "the mail directory", remove: "mail"},
		{name: "the account's mail directory", remove: "mail/games"},
		{name: "the account's new/", remove: "mail/games/new"},
		{name: "the hub's whole directory", remove: "."},
		{name: "the hub's whole directory, then hub-password", remove: ".", newPassword: true},
		{name: "the mail directory, a file in its way", remove: "mail", block: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "hub")
			log, logged := captureLog()
			start := func() *Hub {
				h := NewHub("example.org", "", 1<<20, log)
				h.Dir = dir
				if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
					t.Fatal(err)
				}
				return h
			}
			h := start()
			defer func() { h.Close() }()
			pw, err := h.Password("alice")
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range []string{"before 1", "before 2"} {
				if err := sendSMTP(h, "alice@example.org", pw, "games@example.org", testMail(s, 100)); err != nil {
					t.Fatal(err)
				}
			}

			gone := filepath.Join(dir, tt.remove)
			if err := os.RemoveAll(gone); err != nil {
				t.Fatal(err)
			}
			if tt.block {
				if err := os.WriteFile(gone, []byte("in the way\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				err := sendSMTP(h, "alice@example.org", pw, "games@example.org", testMail("blocked", 100))
				var refused *smtp.SMTPError
				if !errors.As(err, &refused) || refused.Code != 451 || refused.EnhancedCode != (smtp.EnhancedCode{4, 3, 0}) {
					t.Fatalf("sending while the mail directory cannot be made: %v; want 451 4.3.0 (temporary: the sender keeps the mail)", err)
				}
				if n, _ := hubBox(t, h, "games", "INBOX"); n != 2 {
					t.Errorf("the INBOX holds %d mails after the refusal, want 2", n)
				}
				if !strings.Contains(logged.String(), "could not store a mail") || !strings.Contains(logged.String(), "not a directory") {
					t.Errorf("the log does not say why the mail was refused:\n%s", logged)
				}
				if err := os.Remove(gone); err != nil {
					t.Fatal(err)
				}
			}
			if tt.newPassword {
				if pw, err = HubPassword(dir, "alice"); err != nil {
					t.Fatal(err)
				}
			}
			for _, s := range []string{"after 1", "after 2"} {
				if err := sendSMTP(h, "alice@example.org", pw, "games@example.org", testMail(s, 100)); err != nil {
					t.Fatalf("sending %q after %s was removed: %v", s, tt.remove, err)
				}
			}
			if n, _ := hubBox(t, h, "games", "INBOX"); n != 4 {
				t.Errorf("the INBOX holds %d mails, want 4", n)
			}
			if again, err := HubPassword(dir, "alice"); err != nil || again != pw {
				t.Errorf("hub-password gives %q (%v); alice's password is %q", again, err, pw)
			}
			if files, _ := filepath.Glob(filepath.Join(dir, "mail", "games", "new", "*")); len(files) != 2 {
				t.Errorf("%d files on disk for the 2 mails accepted after the removal", len(files))
			}
			if !strings.Contains(logged.String(), "mail directory was removed") || !strings.Contains(logged.String(), "messages=2") {
				t.Errorf("the log does not say that 2 mails are in memory only:\n%s", logged)
			}

			// A restart: the mail accepted after the removal is still there.
			h.Close()
			h = start()
			gamesPW, err := h.Password("games")
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(subjectsIn(t, h, "games", gamesPW, "INBOX"), "|"); got != "after 1|after 2" {
				t.Errorf("the INBOX after a restart holds %q, want the mail accepted after the removal", got)
			}
		})
	}
}

// TestHubExpiresMovedMail: mail moved out of an INBOX stays in its new
// mailbox for MovedGrace; after it, the hub keeps at most MovedMax bytes of
// it per account, expunging the mail moved first, also when no move comes
// after (the sweeper). Mail a client appended itself is never expunged,
// nor anything with a negative MovedMax.
func TestHubExpiresMovedMail(t *testing.T) {
	tests := []struct {
		name     string
		movedMax int64
		want     []string // processed after the grace, appended mail first
	}{
		{"two moves' worth kept", 2500, []string{"appended", "m3", "m4"}},
		{"nothing kept", 0, []string{"appended"}},
		{"everything kept", -1, []string{"appended", "m0", "m1", "m2", "m3", "m4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := NewHub("example.org", testPass, 1<<20, nil)
			h.MovedMax, h.MovedGrace = tt.movedMax, 300*time.Millisecond
			if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Login("games", testPass).Wait(); err != nil {
				t.Fatal(err)
			}
			if err := c.Create("processed", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if err := appendOver(c, "processed", testMail("appended", 1000)); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			for i := range 5 {
				if err := h.Deliver([]string{"games@example.org"}, testMail(fmt.Sprintf("m%d", i), 1000)); err != nil {
					t.Fatal(err)
				}
				if err := c.Noop().Wait(); err != nil { // the session learns of the new mail
					t.Fatal(err)
				}
				if _, err := c.Move(imap.SeqSetNum(1), "processed").Wait(); err != nil {
					t.Fatal(err)
				}
			}
			if n, _ := hubBox(t, h, "games", "processed"); n != 6 {
				t.Errorf("right after the moves processed holds %d mails, want all 6 (the grace)", n)
			}
			var got []string
			eventually(t, 5*time.Second, "processed never came down to "+strings.Join(tt.want, " "), func() bool {
				got = subjectsIn(t, h, "games", testPass, "processed")
				return strings.Join(got, " ") == strings.Join(tt.want, " ")
			})
			if tt.movedMax < 0 {
				time.Sleep(3 * h.MovedGrace)
				if n, _ := hubBox(t, h, "games", "processed"); n != 6 {
					t.Errorf("with MovedMax %d processed holds %d mails, want 6", tt.movedMax, n)
				}
			}
		})
	}
}

// subjectsIn lists the subjects of a mailbox's messages, read over IMAP as
// account.
func subjectsIn(t *testing.T, h *Hub, account, password, mailbox string) []string {
	t.Helper()
	c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(account, password).Wait(); err != nil {
		t.Fatal(err)
	}
	sel, err := c.Select(mailbox, &imap.SelectOptions{ReadOnly: true}).Wait()
	if err != nil || sel.NumMessages == 0 {
		return nil
	}
	msgs, err := c.Fetch(imap.SeqSet{{Start: 1, Stop: 0}}, &imap.FetchOptions{Envelope: true}).Collect()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range msgs {
		if m.Envelope == nil {
			continue // expunged by the hub's sweep between SELECT and FETCH (TestHubExpiresMovedMail polls)
		}
		out = append(out, m.Envelope.Subject)
	}
	return out
}

// appendOver appends msg to a mailbox over IMAP.
func appendOver(c *imapclient.Client, mailbox string, msg []byte) error {
	cmd := c.Append(mailbox, int64(len(msg)), nil)
	if _, err := cmd.Write(msg); err != nil {
		return err
	}
	if err := cmd.Close(); err != nil {
		return err
	}
	_, err := cmd.Wait()
	return err
}

// heapInUse is the live heap after two collections, in bytes.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestHubReleasesMemoryAfterAFlood (issue 38): a flood of 10,000 small mails
// and then 20 of 7 MB, through the hub's SMTP server, handled by the
// service's IMAP source (which moves each to its processed folder). Once
// the INBOX is empty and the grace of the moved mail has passed, the heap
// holds at most MovedMax bytes of that mail plus a little: the hub kept
// every mail it ever handed over in memory, about 185 MB here (and the
// daemon, whose collector lets the heap grow to five times the live data,
// stayed at 690–740 MB). Slow (about 20 s): not with -short.
func TestHubReleasesMemoryAfterAFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("a flood of 10,000 mails and 140 MB: not with -short")
	}
	const small, big, bigBytes = 10000, 20, 7 << 20
	h := NewHub("example.org", testPass, bigBytes+1<<20, nil)
	h.Dir = t.TempDir()
	h.MovedGrace = 500 * time.Millisecond
	if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	src, _ := hubSource(t, h.IMAPAddr(), func(c *IMAPConfig) { c.MaxBytes = bigBytes + 1<<20; c.PollInterval = 50 * time.Millisecond })
	stop := runSource(t, src, func([]byte) error { return nil })
	defer stop()
	eventually(t, 10*time.Second, "the source never made its processed folder", func() bool {
		_, err := h.User("games").Status("processed", &imap.StatusOptions{})
		return err == nil
	})
	before, rssBefore := heapInUse(), procRSS()

	c, err := smtp.Dial(h.SMTPAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Auth(sasl.NewPlainClient("", "alice@example.org", testPass)); err != nil {
		t.Fatal(err)
	}
	send := func(subject string, pad int) {
		t.Helper()
		if err := c.SendMail("alice@example.org", []string{"games@example.org"}, strings.NewReader(string(testMail(subject, pad)))); err != nil {
			t.Fatal(err)
		}
	}
	for i := range small {
		send(fmt.Sprintf("small %d", i), 1000)
	}
	for i := range big {
		send(fmt.Sprintf("big %d", i), bigBytes)
	}
	c.Quit()
	eventually(t, 2*time.Minute, "the source did not empty the INBOX", func() bool {
		n, _ := hubBox(t, h, "games", "INBOX")
		return n == 0
	})
	peak := heapInUse()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if _, size := hubBox(t, h, "games", "processed"); size <= h.MovedMax {
			break
		}
	}
	after, rssAfter := heapInUse(), procRSS()
	n, size := hubBox(t, h, "games", "processed")
	t.Logf("heap in use: %.1f MiB before the flood, %.1f MiB once the INBOX was empty, %.1f MiB after the grace (processed: %d mails, %.1f MiB); resident %.0f MiB before, %.0f MiB after",
		mib(before), mib(peak), mib(after), n, float64(size)/(1<<20), mib(rssBefore), mib(rssAfter))
	if size > h.MovedMax {
		t.Errorf("processed holds %.1f MiB of moved mail after the grace, more than MovedMax (%.0f MiB)", float64(size)/(1<<20), mib(uint64(h.MovedMax)))
	}
	if limit := before + uint64(h.MovedMax) + 16<<20; after > limit {
		t.Errorf("the heap holds %.1f MiB after the flood, %.1f MiB before: more than MovedMax (%.0f MiB) and 16 MiB more",
			mib(after), mib(before), mib(uint64(h.MovedMax)))
	}
}

func mib(n uint64) float64 { return float64(n) / (1 << 20) }

// procRSS is this process's resident set, in bytes (0 where /proc is not).
func procRSS() uint64 {
	b, _ := os.ReadFile("/proc/self/status")
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb uint64
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), &kb)
			return kb << 10
		}
	}
	return 0
}

// TestHubCloseRightAfterStart: a hub closed at once after Start stops; the
// servers' Close closes only the listeners their Serve goroutine has
// registered, so a Close that came first left a Serve accepting forever and
// Close waiting for it (daemon TestInterruptedCopyIsCleanedAtStart hung so
// under -race).
func TestHubCloseRightAfterStart(t *testing.T) {
	n := 300
	if testing.Short() {
		n = 50
	}
	for i := range n {
		h := NewHub("example.org", testPass, 1<<20, nil)
		if err := h.Start("127.0.0.1:0", "127.0.0.1:0"); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- h.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("round %d: Close: %v", i, err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("round %d: Close right after Start did not return in 10 s", i)
		}
	}
}
