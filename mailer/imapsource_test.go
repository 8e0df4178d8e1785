package mailer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/emersion/go-imap/v2"
	"github.com/emersion/go-imap/v2/imapclient"
)

// hubSource is an IMAPSource on the hub (or a proxy in front of it) as
// games@example.org; adjust changes the configuration first.
func hubSource(t *testing.T, addr string, adjust func(*IMAPConfig)) (*IMAPSource, *syncBuffer) {
	t.Helper()
	cfg := IMAPConfig{Addr: addr, Security: "plain", Username: testUser + "@example.org", Password: testPass,
		Processed: "processed", PollInterval: time.Hour, MaxBytes: 1 << 20,
		MinBackoff: 20 * time.Millisecond, MaxBackoff: 100 * time.Millisecond}
	if adjust != nil {
		adjust(&cfg)
	}
	log, buf := captureLog()
	src, err := NewIMAPSource(cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	return src, buf
}

func deliverHub(t *testing.T, h *Hub, subject string, pad int) {
	t.Helper()
	if err := h.Deliver([]string{"games@example.org"}, testMail(subject, pad)); err != nil {
		t.Fatal(err)
	}
}

// wantBox checks a mailbox holds exactly these subjects, all with the given
// \Seen state.
func wantBox(t *testing.T, addr, name string, seen bool, subjects ...string) {
	t.Helper()
	got := mailbox(t, addr, name)
	var have []string
	for _, m := range got {
		have = append(have, m.subject)
		if m.seen != seen {
			t.Errorf("%s: %q has \\Seen=%v, want %v", name, m.subject, m.seen, seen)
		}
	}
	if strings.Join(have, "|") != strings.Join(subjects, "|") {
		t.Errorf("%s holds %q, want %q", name, have, subjects)
	}
}

// wantBoxAnyOrder is wantBox, in any order.
func wantBoxAnyOrder(t *testing.T, addr, name string, seen bool, subjects ...string) {
	t.Helper()
	var have []string
	for _, m := range mailbox(t, addr, name) {
		have = append(have, m.subject)
		if m.seen != seen {
			t.Errorf("%s: %q has \\Seen=%v, want %v", name, m.subject, m.seen, seen)
		}
	}
	slices.Sort(have)
	if want := slices.Sorted(slices.Values(subjects)); !slices.Equal(have, want) {
		t.Errorf("%s holds %q, want %q in any order", name, have, want)
	}
}

// boxCount is how many messages a mailbox holds.
func boxCount(t *testing.T, addr, name string) int { return len(mailbox(t, addr, name)) }

// Mail waiting before the source starts is handled once each, in order,
// then flagged \Seen and moved to the processed folder.
func TestIMAPSourceHandlesAndMoves(t *testing.T) {
	h := startTestHub(t, nil)
	for i := 1; i <= 3; i++ {
		deliverHub(t, h, fmt.Sprintf("move %d", i), 0)
	}
	src, _ := hubSource(t, h.IMAPAddr(), nil)
	rec := newRecorder()
	stop := runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "three messages handled", func() bool { return rec.total() >= 3 })
	eventually(t, 5*time.Second, "INBOX emptied", func() bool { return boxCount(t, h.IMAPAddr(), "INBOX") == 0 })
	stop()
	if got := strings.Join(rec.order, "|"); got != "move 1|move 2|move 3" {
		t.Errorf("handled %q, want each once in order", got)
	}
	wantBox(t, h.IMAPAddr(), "processed", true, "move 1", "move 2", "move 3")
}

// With Processed empty, handled mail is only flagged \Seen and stays.
func TestIMAPSourceFlagOnly(t *testing.T) {
	h := startTestHub(t, nil)
	deliverHub(t, h, "flag only", 0)
	src, _ := hubSource(t, h.IMAPAddr(), func(c *IMAPConfig) { c.Processed = "" })
	rec := newRecorder()
	runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "message flagged \\Seen", func() bool {
		m := mailbox(t, h.IMAPAddr(), "INBOX")
		return len(m) == 1 && m[0].seen
	})
	time.Sleep(100 * time.Millisecond) // a second look must not hand it over again
	if n := rec.count("flag only"); n != 1 {
		t.Errorf("handled %d times, want 1", n)
	}
}

// The poll interval is an hour: only IDLE (the server telling the waiting
// client about new mail) can bring mail delivered later in promptly.
func TestIMAPSourceIdleBringsNewMail(t *testing.T) {
	h := startTestHub(t, nil)
	src, logs := hubSource(t, h.IMAPAddr(), nil)
	rec := newRecorder()
	runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "source connected", func() bool { return strings.Contains(logs.String(), "imap connected") })
	if !strings.Contains(logs.String(), "idle=true") {
		t.Fatalf("the hub offers IDLE but the source does not use it:\n%s", logs)
	}
	for i := 1; i <= 3; i++ {
		time.Sleep(50 * time.Millisecond) // let it settle into IDLE
		subject := fmt.Sprintf("idle %d", i)
		start := time.Now()
		deliverHub(t, h, subject, 0)
		eventually(t, 3*time.Second, subject+" handled while idling", func() bool { return rec.count(subject) == 1 })
		t.Logf("%s picked up in %v", subject, time.Since(start).Round(time.Millisecond))
	}
	eventually(t, 3*time.Second, "INBOX emptied", func() bool { return boxCount(t, h.IMAPAddr(), "INBOX") == 0 })
	wantBox(t, h.IMAPAddr(), "processed", true, "idle 1", "idle 2", "idle 3")
}

// A server without IDLE is polled every PollInterval. The servers here are
// imapmemserver with chosen capabilities; the wire log shows that no IDLE
// was ever sent. Without MOVE the source falls back to COPY + \Deleted +
// EXPUNGE, which must leave the same result.
func TestIMAPSourcePollsWithoutIdle(t *testing.T) {
	for _, tc := range []struct {
		name string
		caps imap.CapSet
	}{
		{"imap4rev1 only (copy fallback)", imap.CapSet{imap.CapIMAP4rev1: {}}},
		{"imap4rev1 with move and uidplus", imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapMove: {}, imap.CapUIDPlus: {}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := startMemIMAP(t, tc.caps, true)
			srv.deliver(t, testMail("poll 1", 0))
			src, logs := hubSource(t, srv.addr, func(c *IMAPConfig) {
				c.Username = testUser
				c.PollInterval = 50 * time.Millisecond
			})
			rec := newRecorder()
			stop := runSource(t, src, rec.handle)
			eventually(t, 5*time.Second, "first message handled", func() bool { return rec.count("poll 1") == 1 })
			srv.deliver(t, testMail("poll 2", 0))
			eventually(t, 5*time.Second, "second message found by polling", func() bool { return rec.count("poll 2") == 1 })
			eventually(t, 5*time.Second, "INBOX emptied", func() bool { return boxCount(t, srv.addr, "INBOX") == 0 })
			stop()
			if !strings.Contains(logs.String(), "idle=false") {
				t.Errorf("the source did not notice the server lacks IDLE:\n%s", logs)
			}
			if strings.Contains(srv.wire.String(), " IDLE\r\n") {
				t.Errorf("the source sent IDLE to a server without it")
			}
			if rec.total() != 2 {
				t.Errorf("handled %q, want each message once", rec.order)
			}
			wantBox(t, srv.addr, "processed", true, "poll 1", "poll 2")
		})
	}
}

// A message over MaxBytes is never fetched: the handler does not see it and
// its body never crosses the wire (the server's wire log proves it), yet it
// is flagged \Seen and moved like a handled one, so it is not looked at
// again.
func TestIMAPSourceSkipsOversized(t *testing.T) {
	srv := startMemIMAP(t, imap.CapSet{imap.CapIMAP4rev1: {}, imap.CapIMAP4rev2: {}}, false)
	srv.deliver(t, testMail("small before", 0))
	big := testMail("too big", 4000)
	big = append(big, "OVERSIZE-MARKER\r\n"...)
	srv.deliver(t, big)
	srv.deliver(t, testMail("small after", 0))
	src, logs := hubSource(t, srv.addr, func(c *IMAPConfig) {
		c.Username = testUser
		c.MaxBytes = 1000
	})
	rec := newRecorder()
	stop := runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "INBOX emptied", func() bool { return boxCount(t, srv.addr, "INBOX") == 0 })
	stop()
	if got := strings.Join(rec.order, "|"); got != "small before|small after" {
		t.Errorf("handled %q, want the two small messages only", got)
	}
	if strings.Contains(srv.wire.String(), "OVERSIZE-MARKER") {
		t.Errorf("the oversized message's body was fetched")
	}
	if !strings.Contains(logs.String(), "message too large; not fetched") {
		t.Errorf("the skipped message was not logged:\n%s", logs)
	}
	// The handled messages are moved in their batch, the skipped one after.
	wantBox(t, srv.addr, "processed", true, "small before", "small after", "too big")
}

// A Handler error keeps the message: it stays in INBOX without \Seen and is
// offered again (with backoff) until the handler takes it. Other senders'
// mail goes on meanwhile; the same sender's later mail waits behind it, so
// it is not handled out of order.
func TestIMAPSourceHandlerErrorKeepsMessage(t *testing.T) {
	h := startTestHub(t, nil)
	deliverHub(t, h, "fails", 0)
	if err := h.Deliver([]string{"games@example.org"}, bytes.Replace(testMail("works", 0), []byte("From: alice@"), []byte("From: bob@"), 1)); err != nil {
		t.Fatal(err)
	}
	deliverHub(t, h, "later", 0) // alice again
	var healed atomic.Bool
	rec := newRecorder()
	rec.fail = func(subject string, n int) error {
		if subject == "fails" && !healed.Load() {
			return errors.New("store is down")
		}
		return nil
	}
	src, logs := hubSource(t, h.IMAPAddr(), func(c *IMAPConfig) {
		c.MinBackoff, c.MaxBackoff = 10*time.Millisecond, 40*time.Millisecond
	})
	stop := runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "the failing message offered three times", func() bool { return rec.count("fails") >= 3 })
	eventually(t, 5*time.Second, "the good message moved", func() bool { return boxCount(t, h.IMAPAddr(), "processed") == 1 })
	wantBox(t, h.IMAPAddr(), "INBOX", false, "fails", "later")
	wantBox(t, h.IMAPAddr(), "processed", true, "works")
	if n := rec.count("later"); n != 0 {
		t.Errorf("alice's later mail was handled %d times before her failed one", n)
	}
	if !strings.Contains(logs.String(), "message not handled; it stays for retry") || !strings.Contains(logs.String(), "store is down") {
		t.Errorf("the failure was not logged with its reason:\n%s", logs)
	}
	before := rec.count("fails")
	healed.Store(true)
	eventually(t, 5*time.Second, "the healed message moved", func() bool { return boxCount(t, h.IMAPAddr(), "INBOX") == 0 })
	time.Sleep(100 * time.Millisecond)
	stop()
	if n := rec.count("fails"); n != before+1 {
		t.Errorf("after healing the handler saw the message %d more times, want 1", n-before)
	}
	if n := rec.count("works"); n != 1 {
		t.Errorf("the good message was handled %d times, want 1", n)
	}
	if n := rec.count("later"); n != 1 {
		t.Errorf("alice's later mail was handled %d times, want 1", n)
	}
	if got := strings.Join(rec.order, "|"); !strings.HasSuffix(got, "fails|later") {
		t.Errorf("handled %q: alice's later mail must come right after her failed one heals", got)
	}
	wantBox(t, h.IMAPAddr(), "processed", true, "works", "fails", "later")
}

// The link to the server drops (a proxy cuts it): while idle, and in the
// middle of handling a message. The source reconnects and nothing is lost.
// What is asserted: every message ends \Seen in the processed folder, in
// mailbox order; a message flagged before the drop is never handled again;
// those handled in the batch whose flags the drop cut off (the one under
// way when the link fell included) may be handled once more, in their
// order, after reconnecting — the service recognises their Message-IDs.
func TestIMAPSourceReconnectsAfterDrop(t *testing.T) {
	h := startTestHub(t, nil)
	px := startProxy(t, h.IMAPAddr(), nil)
	rec := newRecorder()
	var cutOnce atomic.Bool
	rec.fail = func(subject string, n int) error {
		if subject == "drop 4" && cutOnce.CompareAndSwap(false, true) {
			px.cut() // the link fails while this message is being handled
		}
		return nil
	}
	src, logs := hubSource(t, px.addr(), nil)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the source's log:\n%s", logs)
		}
	})
	stop := runSource(t, src, rec.handle)

	deliverHub(t, h, "drop 1", 0)
	eventually(t, 5*time.Second, "first message handled", func() bool { return rec.count("drop 1") == 1 })
	eventually(t, 5*time.Second, "first message moved", func() bool { return boxCount(t, h.IMAPAddr(), "processed") == 1 })
	time.Sleep(50 * time.Millisecond) // idle
	// The server becomes unreachable while mail arrives: after it, the
	// four messages are found together, and the link fails again while the
	// third of them is handled (the first two are handled but not yet moved).
	px.refuse(true)
	px.cut()
	for i := 2; i <= 5; i++ {
		deliverHub(t, h, fmt.Sprintf("drop %d", i), 0)
	}
	time.Sleep(100 * time.Millisecond) // a few refused reconnections
	px.refuse(false)
	// Two reconnections, each after a backoff of a second or two: a wide
	// wait, for the race detector on a loaded machine.
	eventually(t, 20*time.Second, "all moved", func() bool {
		return boxCount(t, h.IMAPAddr(), "INBOX") == 0 && boxCount(t, h.IMAPAddr(), "processed") == 5
	})
	stop()
	if !cutOnce.Load() {
		t.Fatal("the link was never cut while handling")
	}
	var first []string
	for i, subj := range rec.order {
		if !slices.Contains(rec.order[:i], subj) {
			first = append(first, subj)
		}
	}
	if got, want := strings.Join(first, "|"), "drop 1|drop 2|drop 3|drop 4|drop 5"; got != want {
		t.Errorf("handled first %q, want %q (all: %q)", got, want, rec.order)
	}
	for subj, n := range map[string]int{"drop 1": 1, "drop 2": 2, "drop 3": 2, "drop 4": 2, "drop 5": 2} {
		if c := rec.count(subj); c < 1 || c > n {
			t.Errorf("%s handled %d times, want 1 to %d (all: %q)", subj, c, n, rec.order)
		}
	}
	if px.connections() < 3 {
		t.Errorf("%d connections, want two reconnections", px.connections())
	}
	if !strings.Contains(logs.String(), "imap connection lost; reconnecting") {
		t.Errorf("the drop was not logged:\n%s", logs)
	}
	// A batch whose flag was cut off is moved by the next session, after
	// what that session handled: the folder's order may differ.
	wantBoxAnyOrder(t, h.IMAPAddr(), "processed", true, "drop 1", "drop 2", "drop 3", "drop 4", "drop 5")
}

// A server that stops answering (the proxy swallows everything, the TCP
// connection stays up) is given up after Timeout and the source reconnects.
func TestIMAPSourceStalledServer(t *testing.T) {
	h := startTestHub(t, nil)
	px := startProxy(t, h.IMAPAddr(), nil)
	src, logs := hubSource(t, px.addr(), func(c *IMAPConfig) {
		c.Timeout = 300 * time.Millisecond
		c.IdleRefresh = 200 * time.Millisecond
	})
	rec := newRecorder()
	runSource(t, src, rec.handle)
	deliverHub(t, h, "stall 1", 0)
	eventually(t, 5*time.Second, "first message handled", func() bool { return rec.count("stall 1") == 1 })
	time.Sleep(50 * time.Millisecond)
	px.stall()
	deliverHub(t, h, "stall 2", 0)
	eventually(t, 5*time.Second, "mail handled after the stalled connection was abandoned", func() bool { return rec.count("stall 2") == 1 })
	if !strings.Contains(logs.String(), "did not answer") {
		t.Errorf("the stall was not reported as such:\n%s", logs)
	}
}

// Wrong credentials: the source keeps trying (with backoff) and says why;
// Run still stops promptly.
func TestIMAPSourceLoginFailure(t *testing.T) {
	h := startTestHub(t, nil)
	deliverHub(t, h, "never", 0)
	src, logs := hubSource(t, h.IMAPAddr(), func(c *IMAPConfig) { c.Password = "wrong" })
	rec := newRecorder()
	stop := runSource(t, src, rec.handle)
	eventually(t, 5*time.Second, "two failed logins logged", func() bool {
		return strings.Count(logs.String(), "login as games@example.org") >= 2
	})
	stop()
	if rec.total() != 0 {
		t.Errorf("handled %q without logging in", rec.order)
	}
	if !strings.Contains(logs.String(), "level=ERROR") || !strings.Contains(logs.String(), "check imap.username and imap.password") {
		t.Errorf("the refused login was not logged as an error naming the settings:\n%s", logs)
	}
	wantBox(t, h.IMAPAddr(), "INBOX", false, "never")
}

// Run returns promptly when its context ends, whether the server is
// reachable or not.
func TestIMAPSourceStopsCleanly(t *testing.T) {
	h := startTestHub(t, nil)
	for _, tc := range []struct{ name, addr string }{
		{"idling", h.IMAPAddr()},
		{"server down", closedPort(t)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src, _ := hubSource(t, tc.addr, func(c *IMAPConfig) { c.MinBackoff, c.MaxBackoff = time.Hour, time.Hour })
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() { done <- src.Run(ctx, newRecorder().handle) }()
			time.Sleep(100 * time.Millisecond)
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("Run: %v", err)
				}
			case <-time.After(3 * time.Second):
				t.Fatal("Run did not return")
			}
		})
	}
}

func TestNewIMAPSourceChecks(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  IMAPConfig
		want string
	}{
		{"no address", IMAPConfig{Username: "u", Security: "tls"}, "address and a username"},
		{"no user", IMAPConfig{Addr: "h:1", Security: "tls"}, "address and a username"},
		{"bad security", IMAPConfig{Addr: "h:1", Username: "u", Security: "ssl"}, `security "ssl"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewIMAPSource(tc.cfg, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "mailer: ") {
				t.Errorf("err = %v, want mailer: …%s…", err, tc.want)
			}
		})
	}
}

// The hub's IDLE reports mail delivered between the client's last command
// and IDLE (imapmemserver alone reported only mail arriving during IDLE, so
// such mail waited for the next delivery or the IDLE refresh).
func TestHubIdleReportsEarlierMail(t *testing.T) {
	h := startTestHub(t, nil)
	exists := make(chan uint32, 10)
	c, err := imapclient.DialInsecure(h.IMAPAddr(), &imapclient.Options{UnilateralDataHandler: &imapclient.UnilateralDataHandler{
		Mailbox: func(d *imapclient.UnilateralDataMailbox) {
			if d.NumMessages != nil {
				exists <- *d.NumMessages
			}
		}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Login(testUser, testPass).Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Select("INBOX", nil).Wait(); err != nil {
		t.Fatal(err)
	}
	deliverHub(t, h, "before idle", 0)
	cmd, err := c.Idle()
	if err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-exists:
		if n != 1 {
			t.Errorf("EXISTS %d, want 1", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("IDLE did not report mail delivered just before it")
	}
	deliverHub(t, h, "during idle", 0)
	select {
	case n := <-exists:
		if n != 2 {
			t.Errorf("EXISTS %d, want 2", n)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("IDLE did not report mail delivered during it")
	}
	start := time.Now()
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("ending IDLE took %v", took)
	}
	// The session is still usable.
	if err := c.Noop().Wait(); err != nil {
		t.Fatal(err)
	}
}

// handleAll runs raws through a pipeline and returns the results in order.
func handleAll(raws [][]byte, handle Handler, workers int, done func(i int) error) ([]error, error) {
	p := newPipeline(workers, handle, func(id uint32) error { return done(int(id)) })
	for i, raw := range raws {
		p.add(uint32(i), raw, false)
	}
	results, broken := p.finish()
	errs := make([]error, len(raws))
	for i := range raws {
		errs[i] = results[uint32(i)]
	}
	return errs, broken
}

// The pipeline keeps each sender's mail in order and handles different
// senders side by side: Alice's first message waits until Bob's has been
// handled, which can only happen when they run concurrently; Alice's three
// come in the order given. A failed flag stops the hand-over.
func TestHandleAllOrderPerSenderConcurrentAcross(t *testing.T) {
	msg := func(from, subject string) []byte {
		return []byte("From: " + from + "\r\nSubject: " + subject + "\r\n\r\nbody\r\n")
	}
	raws := [][]byte{msg("Alice <alice@x.test>", "a1"), msg("ALICE@x.test", "a2"), msg("bob@x.test", "b1"), msg("alice@X.test", "a3")}
	bobDone := make(chan struct{})
	var mu sync.Mutex
	var order []string
	handle := func(raw []byte) error {
		subject := string(raw[bytes.Index(raw, []byte("Subject: "))+9 : bytes.Index(raw, []byte("\r\n\r\n"))])
		if subject == "a1" {
			select {
			case <-bobDone:
			case <-time.After(5 * time.Second):
				return errors.New("bob's mail was not handled while alice's waited")
			}
		}
		mu.Lock()
		order = append(order, subject)
		mu.Unlock()
		if subject == "b1" {
			close(bobDone)
		}
		return nil
	}
	errs, broken := handleAll(raws, handle, 4, func(int) error { return nil })
	if broken != nil {
		t.Fatal(broken)
	}
	for i, err := range errs {
		if err != nil {
			t.Errorf("message %d: %v", i, err)
		}
	}
	if got := strings.Join(order, " "); got != "b1 a1 a2 a3" {
		t.Errorf("handled in the order %q, want b1 a1 a2 a3", got)
	}

	// One worker, the flag of the first message fails: nothing more is handed over.
	var handled int
	errs, broken = handleAll(raws, func([]byte) error { handled++; return nil }, 1, func(int) error { return errors.New("link down") })
	if broken == nil || handled != 1 {
		t.Errorf("after a failed flag: broken=%v, %d handled, want 1", broken, handled)
	}
	left := 0
	for _, err := range errs {
		if err == errNotHandled {
			left++
		}
	}
	if left != 3 {
		t.Errorf("%d messages left for the next pass, want 3", left)
	}
}

// The link breaks in the middle of a body's literal (the proxy cuts right
// after a marker inside the message). The source must read each literal
// only once and leave the broken command alone: go-imap's Collect read the
// rest of the literal again while the client's reader goroutine went on
// with the connection, a data race `go test -race` reports. The message is
// handled once, after reconnecting, and no goroutine is left behind.
func TestIMAPSourceLinkBreaksInsideABody(t *testing.T) {
	h := startTestHub(t, nil)
	px := startProxy(t, h.IMAPAddr(), nil)
	msg := testMail("cut inside", 0)
	msg = append(msg, bytes.Repeat([]byte("before the cut\r\n"), 2000)...)
	msg = append(msg, "CUT-HERE\r\n"...)
	msg = append(msg, bytes.Repeat([]byte("after the cut\r\n"), 2000)...)
	if err := h.Deliver([]string{"games@example.org"}, msg); err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	px.cutWhenSent("CUT-HERE")
	src, logs := hubSource(t, px.addr(), nil)
	rec := newRecorder()
	stop := runSource(t, src, rec.handle)
	eventually(t, 10*time.Second, "message handled after the cut", func() bool { return rec.count("cut inside") == 1 })
	eventually(t, 5*time.Second, "INBOX emptied", func() bool { return boxCount(t, h.IMAPAddr(), "INBOX") == 0 })
	stop()
	if px.connections() < 2 {
		t.Errorf("%d connections: the cut did not happen", px.connections())
	}
	if !strings.Contains(logs.String(), "reading message") {
		t.Errorf("the cut inside the body was not reported:\n%s", logs)
	}
	px.cut()
	eventually(t, 5*time.Second, "the source's goroutines gone", func() bool { return runtime.NumGoroutine() <= before })
}

// After an outage the backoff has grown to MaxBackoff; once a session has
// logged in and selected the mailbox it starts over, so the next drop (a
// server reloaded, say) is mended within MinBackoff, not MaxBackoff.
func TestIMAPSourceBackoffResetsAfterASession(t *testing.T) {
	if testing.Short() {
		t.Skip("lets an outage grow the wait for 1.5 s; the full run has it")
	}
	h := startTestHub(t, nil)
	px := startProxy(t, h.IMAPAddr(), nil)
	px.refuse(true)
	src, logs := hubSource(t, px.addr(), func(c *IMAPConfig) {
		c.MinBackoff, c.MaxBackoff = 20*time.Millisecond, 2*time.Second
	})
	rec := newRecorder()
	runSource(t, src, rec.handle)
	time.Sleep(1500 * time.Millisecond) // 20, 40, … 640 ms: the next wait is over a second
	px.refuse(false)
	eventually(t, 5*time.Second, "connected after the outage", func() bool { return strings.Contains(logs.String(), "imap connected") })
	n, mark := px.connections(), len(logs.String())
	px.cut()
	eventually(t, 5*time.Second, "reconnected", func() bool { return px.connections() > n })
	// The wait before reconnecting, as logged: MinBackoff again, not the
	// 1.28 s the outage had grown it to (a timing check would flake on a
	// loaded machine).
	after := logs.String()[mark:]
	i := strings.Index(after, "imap connection lost")
	if i < 0 {
		t.Fatalf("the drop was not logged:\n%s", after)
	}
	line, _, _ := strings.Cut(after[i:], "\n")
	_, in, _ := strings.Cut(line, " in=")
	if wait, err := time.ParseDuration(in); err != nil || wait > 20*time.Millisecond || wait < 18*time.Millisecond {
		t.Errorf("after the drop: %q; want the wait back at MinBackoff (in=20ms, less its jitter of up to a tenth), the backoff reset by the session", line)
	}
	deliverHub(t, h, "after the reset", 0)
	eventually(t, 5*time.Second, "mail handled", func() bool { return rec.count("after the reset") == 1 })
}

// The messages left to move by a session whose batch failed are moved by
// the next one, but only those still in the mailbox: a set of UIDs already
// moved (the failed batch went through after all, or the messages were
// offered again and moved) must not break the session — a UID MOVE that
// matches nothing gets a broken answer from go-imap's server — and a move
// the server refuses is logged once, not retried by every session. Without
// a processed folder nothing is moved.
func TestIMAPSourceMovesLeftoversOnce(t *testing.T) {
	tests := []struct {
		name      string
		processed string
		unmoved   []imap.UID // UID 1 was moved before; 2 and 3 are in the INBOX
		wantInbox []string
		wantLog   string
	}{
		{name: "all moved already", processed: "processed", unmoved: []imap.UID{1}, wantInbox: []string{"two", "three"}},
		{name: "some moved already", processed: "processed", unmoved: []imap.UID{1, 2}, wantInbox: []string{"three"}},
		{name: "move refused", processed: "nowhere", unmoved: []imap.UID{2}, wantInbox: []string{"two", "three"},
			wantLog: "handled mail could not be moved; it stays in the mailbox"},
		{name: "no processed folder", processed: "", unmoved: []imap.UID{2}, wantInbox: []string{"two", "three"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := startTestHub(t, nil)
			for _, subj := range []string{"one", "two", "three"} {
				deliverHub(t, h, subj, 0)
			}
			c, err := imapclient.DialInsecure(h.IMAPAddr(), nil)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if err := c.Login(testUser, testPass).Wait(); err != nil {
				t.Fatal(err)
			}
			c.Create("processed", nil).Wait()
			if _, err := c.Select("INBOX", nil).Wait(); err != nil {
				t.Fatal(err)
			}
			if _, err := c.Move(imap.UIDSetNum(1), "processed").Wait(); err != nil {
				t.Fatal(err)
			}
			src, logs := hubSource(t, h.IMAPAddr(), func(cfg *IMAPConfig) { cfg.Processed = tc.processed })
			src.unmoved = imap.UIDSetNum(tc.unmoved...)
			if err := src.moveHandled(c); err != nil {
				t.Fatalf("moveHandled: %v", err)
			}
			if len(src.unmoved) != 0 {
				t.Errorf("unmoved %v after the move; want none left to try again", src.unmoved)
			}
			if err := c.Noop().Wait(); err != nil {
				t.Errorf("the session broke: %v", err)
			}
			var inbox []string
			for _, m := range mailbox(t, h.IMAPAddr(), "INBOX") {
				inbox = append(inbox, m.subject)
			}
			if !slices.Equal(inbox, tc.wantInbox) {
				t.Errorf("INBOX holds %q, want %q", inbox, tc.wantInbox)
			}
			if tc.wantLog != "" && !strings.Contains(logs.String(), tc.wantLog) {
				t.Errorf("log lacks %q:\n%s", tc.wantLog, logs)
			}
		})
	}
}
