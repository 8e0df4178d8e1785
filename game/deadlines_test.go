package game

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// restart builds a second service on the same store, as after a restart:
// nothing held in memory survives.
func (f *fixture) restart(cfg Config) {
	f.t.Helper()
	if cfg.Address == "" {
		cfg.Address = "games@bottlepost.test"
	}
	svc, err := New(cfg, Options{Store: f.st, Clock: func() time.Time { return f.now }, Rand: rand.NewChaCha8([32]byte{9})})
	if err != nil {
		f.t.Fatal(err)
	}
	f.svc = svc
}

func (f *fixture) tick() TickResult {
	f.t.Helper()
	res, err := f.svc.Tick(f.now)
	if err != nil {
		f.t.Fatal(err)
	}
	f.drain()
	return res
}

// startTimed starts a chess game with the given time control; alice (White) is to move.
func startTimed(t *testing.T, f *fixture, tc string) {
	t.Helper()
	f.send(alice, f.personal(alice), "new", "new chess vs "+bob+" as white time "+tc)
	f.reply(bob, "accept")
}

func count(f *fixture, addr, text string) int {
	n := 0
	for _, m := range f.inbox[addr] {
		if strings.Contains(flat(m.Text), flat(text)) {
			n++
		}
	}
	return n
}

func TestRemindersSentOnceEvenAfterRestart(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "7d")
	const half, dayBefore = "half of your time for this move is gone", "your move is due within a day"
	f.now = f.now.Add(3*timing.Day + 11*time.Hour)
	if r := f.tick(); r.Reminders != 0 || count(f, alice, half) != 0 {
		t.Fatalf("reminder before half time: %+v", r)
	}
	f.now = f.now.Add(2 * time.Hour) // 3.5 days gone
	f.tick()
	if n := count(f, alice, half); n != 1 {
		t.Fatalf("half-time reminders: %d, want 1", n)
	}
	f.tick()
	f.restart(Config{})
	f.tick()
	f.now = f.now.Add(time.Hour)
	f.tick()
	if n := count(f, alice, half); n != 1 {
		t.Errorf("half-time reminder sent %d times across ticks and a restart", n)
	}
	f.now = f.now.Add(2*timing.Day + 12*time.Hour) // 6 days gone: one day left
	f.tick()
	f.restart(Config{})
	f.tick()
	if n := count(f, alice, dayBefore); n != 1 {
		t.Errorf("day-before reminders: %d, want 1", n)
	}
	if n := count(f, bob, "Reminder"); n != 0 {
		t.Errorf("the waiting side was reminded %d times", n)
	}
	// A move starts a new turn: bob is reminded in his turn, alice not again.
	f.reply(alice, "e4")
	f.now = f.now.Add(4 * timing.Day)
	f.tick()
	if count(f, bob, half) != 1 || count(f, alice, half) != 1 {
		t.Errorf("after the move: bob %d, alice %d half-time reminders", count(f, bob, half), count(f, alice, half))
	}
}

func TestAtMostOneReminderPerDay(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "3d") // half time after 36 h, the day-before mark 12 h later
	f.now = f.now.Add(36 * time.Hour)
	f.tick()
	f.now = f.now.Add(12 * time.Hour)
	f.tick()
	if n := count(f, alice, "Reminder"); n != 1 {
		t.Errorf("%d reminders within a day, want 1", n)
	}
}

func TestTimeoutLossPolicy(t *testing.T) {
	f := newFixture(t, Config{Referees: []string{ref}})
	startTimed(t, f, "2d+1d")
	f.now = f.now.Add(3*timing.Day - time.Minute)
	f.tick()
	assertPhase(t, f, 1, phasePlay)
	f.now = f.now.Add(2 * time.Minute)
	if r := f.tick(); r.Timeouts != 1 {
		t.Fatalf("tick after the deadline (with grace): %+v", r)
	}
	f.mustContain(f.last(alice), "Black wins: White lost on time")
	f.mustContain(f.last(bob), "Black wins: White lost on time")
	f.mustContain(f.last(ref), "White (player 1 <alice@example.org>) let the deadline pass")
}

func assertPhase(t *testing.T, f *fixture, id uint64, want string) {
	t.Helper()
	if l := loadGame(t, f, id); l.meta.Phase != want {
		t.Errorf("game %d is in phase %s, want %s", id, l.meta.Phase, want)
	}
}

func TestDamagedGameDoesNotStopTheOthers(t *testing.T) {
	f := newFixture(t, Config{})
	startTimed(t, f, "1d")                                                                                     // game 1
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "n", "new chess vs "+eve+" as white time 1d") // game 2
	f.reply(eve, "accept")
	// Game 1's service data is damaged on disk.
	if err := f.st.Update(func(tx *store.Tx) error {
		g, err := tx.Game(1)
		if err != nil {
			return err
		}
		g.Meta = []byte("{not json")
		return tx.PutGame(g)
	}); err != nil {
		t.Fatal(err)
	}
	f.now = f.now.Add(timing.Day + time.Minute)
	res := f.tick()
	if res.Failed != 1 || res.Timeouts != 1 {
		t.Errorf("tick: %+v, want game 1 failed and game 2 timed out", res)
	}
	assertPhase(t, f, 2, phaseOver)
	// Listing games and open challenges still work for everyone.
	f.send(alice, f.svc.replyAddress(f.svc.accountToken(alice)), "g", "games")
	f.mustContain(f.last(alice), "[bp-1] cannot be shown: its stored record is damaged") // said, not left out (issue 38.2)
	pb := f.personal(bob)
	f.send(bob, pb, "n", "new chess")
	f.mustContain(f.last(bob), "open challenge")
}
