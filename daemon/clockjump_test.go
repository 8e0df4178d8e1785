package daemon

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/config"
)

// TestClockJumpWhileServing: the daemon's clock (injected) jumps three
// days forward while it serves a game with one day per move. The next
// sweep logs the jump as an outage and extends the clock: the game is not
// forfeited, and the move sent after the jump is played.
func TestClockJumpWhileServing(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	cfg := config.Defaults()
	cfg.Service.DataDir = t.TempDir()
	cfg.Hub.IMAPListen, cfg.Hub.SMTPListen, cfg.Web.Listen = "127.0.0.1:0", "127.0.0.1:0", ""
	cfg.IMAP.PollInterval = config.Duration(50 * time.Millisecond)
	cfg.Schedule.Sweep = "@every 1s"
	cfg.Schedule.OutageGap = config.Duration(time.Minute)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var logs syncLog
	d, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Start(); err != nil {
		d.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()

	alice, bob := NewPlayer(d.Hub(), "alice", ""), NewPlayer(d.Hub(), "bob", "")
	sent(t)(alice.Send(Mail{To: cfg.Service.Address, Subject: "hi", Body: "hello"}))
	await(t, alice, "your personal address")
	sent(t)(alice.Reply("new chess vs bob@localhost as white time 1d"))
	await(t, bob, "challenges you")
	sent(t)(bob.Reply("accept"))
	await(t, alice, "It is your move.")

	now.Add(int64(3 * 24 * time.Hour)) // the machine slept for three days
	for end := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), "the clock jumped forward") && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond)
	}
	if !strings.Contains(logs.String(), "the clock jumped forward while the service ran") {
		t.Fatalf("the jump was not noticed:\n%s", logs.String())
	}
	time.Sleep(1500 * time.Millisecond) // a sweep after the one that noticed it
	sent(t)(alice.Reply("e4"))
	await(t, bob, "White played 1. e4.")
	for _, m := range append(alice.Inbox, bob.Inbox...) {
		if strings.Contains(m.Text(), "lost on time") {
			t.Errorf("a game was forfeited for the jump:\n%s", m.Text())
		}
	}
}

// TestClockSetBackWhileServing: the daemon's clock (injected, so without
// Go's monotonic reading, as a clock stepped by hand or by NTP) runs three
// days ahead for a while, moves are played meanwhile, and is set right
// again. The next move's receipt still reaches its sender (the reply
// limiter's buckets do not go back with the clock), a one-day game
// started afterwards gets one day, and the game in play keeps the day per
// move it had, counted from when its turn really began. Before, the
// receipt was dropped and the new game got four days.
func TestClockSetBackWhileServing(t *testing.T) {
	start := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	var now atomic.Int64
	now.Store(start.UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	cfg := config.Defaults()
	cfg.Service.DataDir = t.TempDir()
	cfg.Hub.IMAPListen, cfg.Hub.SMTPListen, cfg.Web.Listen = "127.0.0.1:0", "127.0.0.1:0", ""
	cfg.IMAP.PollInterval = config.Duration(50 * time.Millisecond)
	cfg.Schedule.Sweep = "@every 1s"
	cfg.Schedule.OutageGap = config.Duration(time.Minute)
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	var logs syncLog
	d, err := New(cfg, Options{Logger: slog.New(slog.NewTextHandler(&logs, nil)), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Start(); err != nil {
		d.Close()
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- d.Run(ctx) }()
	defer func() { cancel(); <-done }()
	awaitLog := func(want string) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); !strings.Contains(logs.String(), want) && time.Now().Before(end); {
			time.Sleep(50 * time.Millisecond)
		}
		if !strings.Contains(logs.String(), want) {
			t.Fatalf("the log lacks %q:\n%s", want, logs.String())
		}
	}

	alice, bob := NewPlayer(d.Hub(), "alice", ""), NewPlayer(d.Hub(), "bob", "")
	carol, dave := NewPlayer(d.Hub(), "carol", ""), NewPlayer(d.Hub(), "dave", "")
	sent(t)(alice.Send(Mail{To: cfg.Service.Address, Subject: "hi", Body: "hello"}))
	await(t, alice, "your personal address")
	sent(t)(alice.Reply("new chess vs bob@localhost as white time 1d"))
	await(t, bob, "challenges you")
	sent(t)(bob.Reply("accept"))
	await(t, alice, "It is your move.")

	now.Add(int64(72 * time.Hour)) // the clock runs three days ahead
	awaitLog("the clock jumped forward while the service ran")
	now.Add(int64(30 * time.Second))
	sent(t)(alice.Reply("e4"))
	await(t, alice, "Your move e4 was accepted.")
	await(t, bob, "White played 1. e4.")
	now.Add(int64(30 * time.Second))

	now.Store(start.Add(2 * time.Minute).UnixNano()) // set right
	awaitLog("the clock went back")
	sent(t)(bob.Reply("e5"))
	await(t, bob, "Your move e5 was accepted.")
	await(t, alice, "Black played 1... e5.")
	sent(t)(alice.Reply("Nf3"))
	await(t, alice, "Your move Nf3 was accepted.")
	if m := await(t, bob, "White played 2. Nf3."); !strings.Contains(m.Text(), "Deadline: "+clock().Add(24*time.Hour).Format("Mon 2 Jan 2006 15:04")) {
		t.Errorf("bob's deadline is not a day from now (%v):\n%s", clock(), m.Text())
	}

	at := clock()
	sent(t)(carol.Send(Mail{To: cfg.Service.Address, Subject: "hi", Body: "hello"}))
	await(t, carol, "your personal address")
	sent(t)(carol.Reply("new chess vs dave@localhost as white time 1d"))
	await(t, dave, "challenges you")
	sent(t)(dave.Reply("accept"))
	m := await(t, carol, "It is your move.")
	for _, day := range []time.Time{at, clock()} { // the minute may turn meanwhile
		if strings.Contains(m.Text(), "Deadline: "+day.Add(24*time.Hour).Format("Mon 2 Jan 2006 15:04")) {
			return
		}
	}
	t.Errorf("a new one-day game started at %v does not have a day:\n%s", at, m.Text())
}

// syncLog is a log destination safe for the daemon's goroutines.
type syncLog struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
