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
