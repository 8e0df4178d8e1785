package game

import (
	"bytes"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/bottlepost/bottlepost/store"
	"github.com/bottlepost/bottlepost/timing"
)

// timeoutOf is the timeout deadline of game id as the store's deadline index
// holds it (what the sweep acts on), or zero when it has none.
func timeoutOf(t *testing.T, f *fixture, id uint64) time.Time {
	t.Helper()
	var at time.Time
	if err := f.st.View(func(tx *store.Tx) error {
		g, err := tx.Game(id)
		if err != nil {
			return err
		}
		for _, dl := range g.Deadlines {
			if dl.Kind == store.DeadlineTimeout {
				at = dl.At
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return at
}

// runFor lets the service run for d, sweeping every two minutes (within the
// gap of TestClockSetBack).
func runFor(f *fixture, d time.Duration) {
	f.t.Helper()
	for end := f.now.Add(d); f.now.Before(end); {
		f.now = f.now.Add(min(2*time.Minute, end.Sub(f.now)))
		f.tick()
	}
}

// TestClockSetBack: a clock that ran ahead and is set right again (an NTP
// step back, a wrong date corrected, while the service runs or while it
// is down) leaves no deadline longer than the time actually given. The
// jump forward was taken for an outage and every running clock extended
// (TestClockJumpWhileRunning); once the clock is back, the part of that
// outage it disowns is given back, a turn that began while the clock was
// ahead began when it really did, and a game started afterwards gets its
// time and no more. A real outage before the clock went wrong still
// counts. Within the outage gap's error: the clock is only read at each
// heartbeat.
func TestClockSetBack(t *testing.T) {
	const gap = 5 * time.Minute
	t0 := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// run is what happens from t0 on; it returns the deadline game 1
		// should have (of the side to move) once the clock is right again.
		run func(t *testing.T, f *fixture) time.Time
	}{
		{"three days ahead for ten minutes, then set right", func(t *testing.T, f *fixture) time.Time {
			f.now = t0.Add(72 * time.Hour) // the clock jumps: taken for a suspend
			if res := f.tick(); res.Outage.Start.IsZero() {
				t.Fatal("the jump forward was not taken for an outage")
			}
			runFor(f, 10*time.Minute)
			f.now = t0.Add(11 * time.Minute) // set right
			return t0.Add(timing.Day)
		}},
		{"three days ahead, a move meanwhile", func(t *testing.T, f *fixture) time.Time {
			f.now = t0.Add(72 * time.Hour)
			f.tick()
			runFor(f, 5*time.Minute)
			f.reply(alice, "e4") // really at t0+5m: bob's turn starts then
			runFor(f, 5*time.Minute)
			f.now = t0.Add(11 * time.Minute)
			return t0.Add(5*time.Minute + timing.Day)
		}},
		{"a day ahead from the start, then set right", func(t *testing.T, f *fixture) time.Time {
			// The game started at t0 by a clock a day fast: really at t0-24h.
			f.now = f.now.Add(time.Minute)
			f.tick()
			f.now = t0.Add(-24*time.Hour + 2*time.Minute)
			return t0.Add(-24*time.Hour + timing.Day)
		}},
		{"down for two hours, back with a clock three days ahead, then set right", func(t *testing.T, f *fixture) time.Time {
			f.restart(Config{Address: "games@bottlepost.test", OutageGap: gap})
			f.now = t0.Add(72*time.Hour + 2*time.Hour) // really t0+2h
			if out, err := f.svc.Recover(f.now, gap); err != nil || out.Start.IsZero() {
				t.Fatalf("the outage was not found: %+v, %v", out, err)
			}
			runFor(f, 10*time.Minute)
			f.now = t0.Add(2*time.Hour + 11*time.Minute)
			return t0.Add(2*time.Hour + timing.Day) // the two hours down still count
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, Config{})
			var logs bytes.Buffer
			svc, err := New(Config{Address: "games@bottlepost.test", OutageGap: gap}, Options{Store: f.st, Clock: func() time.Time { return f.now },
				Rand: rand.NewChaCha8([32]byte{9}), Logger: slog.New(slog.NewTextHandler(&logs, nil))})
			if err != nil {
				t.Fatal(err)
			}
			f.svc = svc
			f.now = t0
			startTimed(t, f, "1d") // game 1: alice (White) to move, a day for it
			f.tick()
			want := tt.run(t, f)
			f.svc.log = slog.New(slog.NewTextHandler(&logs, nil))
			f.tick() // the first sweep with the clock right again
			if !strings.Contains(logs.String(), "the clock went back") {
				t.Errorf("the clock set back was not logged:\n%s", logs.String())
			}
			if got := timeoutOf(t, f, 1); got.Before(want) || got.After(want.Add(gap)) {
				t.Errorf("game 1's deadline is %v, want %v (up to %v later); %v too long", got, want, gap, got.Sub(want))
			}
			// A game started now gets a day, not a minute more.
			start := f.now
			f.send(eve, f.personal(eve), "new", "new chess vs "+bob+" as white time 1d")
			f.reply(bob, "accept")
			if got, want := timeoutOf(t, f, 2), start.Add(timing.Day); !got.Equal(want) {
				t.Errorf("a new one-day game's deadline is %v, %v after its start; want %v", got, got.Sub(start), want)
			}
			f.reply(eve, "board")
			f.mustContain(f.last(eve), "Deadline: "+start.Add(timing.Day).Format("Mon 2 Jan 2006 15:04 MST"))
			// Game 1 is lost on time at its deadline, not three days later
			// (the sweeps in between left out: the check of the clock off).
			f.restart(Config{})
			f.now = timeoutOf(t, f, 1).Add(-time.Minute)
			f.tick()
			assertPhase(t, f, 1, phasePlay)
			f.now = f.now.Add(2 * time.Minute)
			f.tick()
			assertPhase(t, f, 1, phaseOver)
		})
	}
}

// TestWindowClockSetBack: the instants of a limit's window (challenges in
// the last hour and day) read from a clock that ran ahead count from the
// clock as it is now: as having happened now at the latest, so a clock set
// back by a day blocks nothing for a day longer than the window. Before,
// an instant ahead of now counted until now passed it by the whole window.
func TestWindowClockSetBack(t *testing.T) {
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		name  string
		times []time.Time
		after time.Duration // how long after now the window is looked at
		want  int
	}{
		{"a day ahead, looked at now", []time.Time{now.Add(24*time.Hour - 10*time.Minute)}, 0, 1},
		{"a day ahead, an hour later", []time.Time{now.Add(24*time.Hour - 10*time.Minute)}, time.Hour + time.Minute, 0},
		{"50 minutes ago and a day ahead, half an hour later", []time.Time{now.Add(-50 * time.Minute), now.Add(24 * time.Hour)}, 30 * time.Minute, 1},
		{"in the window, as ever", []time.Time{now.Add(-30 * time.Minute), now.Add(-10 * time.Minute)}, 0, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			kept := window(tt.times, now, time.Hour) // what is stored back
			for _, k := range kept {
				if k.After(now) {
					t.Errorf("an instant %v after now is kept", k)
				}
			}
			if got := len(window(kept, now.Add(tt.after), time.Hour)); got != tt.want {
				t.Errorf("%d in the window %v after now, want %d", got, tt.after, tt.want)
			}
		})
	}
}

// TestClockSetBackResumes: a service that stops after it found the clock
// set back, before it moved every game's times back, finishes the work when
// it starts again, and forgets it once done.
func TestClockSetBackResumes(t *testing.T) {
	const gap = 5 * time.Minute
	t0 := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	f := newFixture(t, Config{})
	f.restart(Config{OutageGap: gap})
	f.now = t0
	startTimed(t, f, "1d")
	f.tick()
	f.now = t0.Add(72 * time.Hour)
	f.tick()
	runFor(f, 4*time.Minute)
	f.reply(alice, "e4") // bob's turn begins, by the clock ahead
	runFor(f, 4*time.Minute)
	f.now = t0.Add(10 * time.Minute) // set right; the service dies as it notices
	if _, back, err := f.svc.noticeGap(f.now, gap); err != nil || back.By <= 0 {
		t.Fatalf("the clock set back was not found: %+v, %v", back, err)
	}
	f.restart(Config{OutageGap: gap})
	if _, err := f.svc.Recover(f.now, gap); err != nil {
		t.Fatal(err)
	}
	want := t0.Add(72*time.Hour + 4*time.Minute).Add(-(72*time.Hour - 2*time.Minute)).Add(timing.Day)
	if got := timeoutOf(t, f, 1); got.Before(want) || got.After(want.Add(gap)) {
		t.Errorf("bob's deadline is %v, want %v", got, want)
	}
	if err := f.st.View(func(tx *store.Tx) error {
		b, err := tx.Setting(settingClockBack)
		if b != nil {
			t.Errorf("the setting back is still recorded: %s", b)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
